"""Triangle vs axis-aligned box overlap by separating axes.

Reference: Akenine-Möller, "Fast 3D triangle-box overlap testing", JGT 2001. Thirteen candidate
axes: the three box normals, the triangle's normal and the nine cross products of a box axis with
a triangle edge. A zero axis (a degenerate triangle's normal, an edge parallel to a box axis, a
zero-length edge) projects everything to 0 and separates nothing; for a degenerate triangle the
remaining axes are those of segment-vs-box (or point-vs-box), so the test stays complete.

``_filter`` runs the test in float64, each axis's margin against a certified bound
(``_tolerances``), after clamping the box to the triangle's bounding box (exact);
``_exact`` runs it in integers on the floats' exact values for the items the filter doubts.
The engine (``_engine``) runs the filter once for one item and in a compiled loop for many.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import BOOL, Query
from ._exact import scaled
from ._floats import jitable
from ._tolerances import (
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
    TRIANGLE_EDGE_BOUND,
    TRIANGLE_PLANE_BOUND,
)
from ._validate import BOX_MAX, BOX_MIN, POINT

__all__ = ["triangle_overlaps_aabb"]



# --- the kernel: float filter and exact pass -----------------------------------------------

_INF = float("inf")


@jitable
def _larger(a: float, b: float) -> float:
    return a if a > b else b


@jitable
def _smaller(a: float, b: float) -> float:
    return a if a < b else b


@jitable
def _max_abs3(x: float, y: float, z: float) -> float:
    x, y, z = abs(x), abs(y), abs(z)
    m = x if x > y else y
    return m if m > z else z


@jitable
def _edge_axis_margin(a1: float, a2: float, p1: float, p2: float, q1: float, q2: float, k1: float,
                      k2: float, r1: float, r2: float) -> float:
    """Margin of one box-axis x edge axis whose two non-zero components are ``a1, a2``, as in
    :func:`_triangle_box_sat`: the triangle projects to ``[min, max]`` of ``a . p`` and
    ``a . q`` (``p`` a vertex of the edge, ``q`` the opposite one; the edge's other vertex
    projects as ``p``), the box of centre ``k`` and half extent ``r`` to ``a . k`` +- ``|a1| r1
    + |a2| r2``. Negative iff the axis separates them."""
    p = a1 * p1 + a2 * p2
    q = a1 * q1 + a2 * q2
    c = a1 * k1 + a2 * k2
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    return (abs(a1) * r1 + abs(a2) * r2) - (m if m > m2 else m2)


@jitable
def _box_normals(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
                 cy: float, cz: float, lx: float, ly: float, lz: float, hx: float, hy: float,
                 hz: float, b2: float) -> tuple[bool, bool]:
    """``(separated, unsure)`` on the box's own normals: the triangle's bounding box against
    the box ``[l, h]``, each margin against ``b2`` (twice the vertices' error)."""
    top = ax if ax > bx else bx
    top = top if top > cx else cx
    bottom = ax if ax < bx else bx
    bottom = bottom if bottom < cx else cx
    m = hx - bottom
    m2 = top - lx
    box_margin = m if m < m2 else m2
    top = ay if ay > by else by
    top = top if top > cy else cy
    bottom = ay if ay < by else by
    bottom = bottom if bottom < cy else cy
    m = hy - bottom
    m2 = top - ly
    m = m if m < m2 else m2
    box_margin = box_margin if box_margin < m else m
    top = az if az > bz else bz
    top = top if top > cz else cz
    bottom = az if az < bz else bz
    bottom = bottom if bottom < cz else cz
    m = hz - bottom
    m2 = top - lz
    m = m if m < m2 else m2
    box_margin = box_margin if box_margin < m else m
    return box_margin < -b2, not box_margin >= b2


@jitable
def _triangle_box_sat(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
                      cy: float, cz: float, lx: float, ly: float, lz: float, hx: float, hy: float,
                      hz: float, kx: float, ky: float, kz: float, rx: float, ry: float, rz: float,
                      err: float, big: float, zero_axes_exact: bool, separated_by_box: bool,
                      unsure: bool) -> tuple[bool, bool]:
    """``(overlap, doubt)`` of the triangle ``a, b, c`` and the closed box ``l <= p <= h``
    (``l <= h``, finite) by Akenine-Möller's thirteen separating axes, in float64.

    The box comes as its bounds and as its centre ``k`` and half extent ``r`` (the edge axes use
    these), each coordinate within ``err`` plus ``u big`` of the exact one. Each vertex
    coordinate is known within ``err`` of the exact one (0: exactly); ``big`` is at least the
    magnitude of every coordinate, vertex or box, that the tests use. Each axis's
    margin is compared with its error bound (``_tolerances``): an axis that separates beyond it
    answers False, one within it is doubt. (A vertex inside the box beyond the bound would
    settle such a doubt too, but it rarely meets one: on integer grids, where doubts are common,
    it settled under half of them, and testing it cost a tenth to a fifth of every loop.)
    ``zero_axes_exact``: the vertices are exact and the caller has decided the box's normals
    exactly; then a computed edge component is zero exactly when the exact one is, and an axis
    that is zero or parallel to a box normal (a zero component; for the triangle's normal, a
    triangle in a coordinate plane) is skipped. Else every axis is tested.
    ``separated_by_box``, ``unsure``: the caller's verdict on the box's own normals
    (:func:`_box_normals`; a box clamped to the triangle's bounding box passes both False).
    Straight-line code (selects, no early exit), so that a compiled loop over boxes vectorises.
    """
    # scales: the largest edge component (``big``: the caller's bound on every coordinate)
    e0x, e0y, e0z = bx - ax, by - ay, bz - az
    e1x, e1y, e1z = cx - bx, cy - by, cz - bz
    e2x, e2y, e2z = ax - cx, ay - cy, az - cz
    edge = _larger(_larger(_max_abs3(e0x, e0y, e0z), _max_abs3(e1x, e1y, e1z)),
                   _max_abs3(e2x, e2y, e2z))
    # out of range, products may overflow: then no axis below may answer
    in_range = (FILTER_SCALE_MIN <= edge) & (big <= FILTER_SCALE_MAX)
    unsure = unsure | (not in_range)
    slope = FILTER_UNIT * edge + err
    bound = TRIANGLE_EDGE_BOUND * slope * big
    # the nine box-axis x edge axes: e_x x f = (0, -f_z, f_y), e_y x f = (f_z, 0, -f_x),
    # e_z x f = (-f_y, f_x, 0) for the edges f = b - a, c - b, a - c, each with a vertex of its
    # own and the opposite one: (a, c), (b, a), (c, b). Per axis, the triangle projects to
    # [min, max] of those two vertices' projections p, q and the box to its centre's projection
    # c +- its radius |a1| r1 + |a2| r2; the margin, the radius less the farther of c - max and
    # min - c, is negative iff the axis separates. (Projecting the box's near and far corners
    # instead, by min and max of the products with l and h, takes four products and four
    # selects an axis: 10 % longer at 10^6 OBBs with one frame.)
    # With exact vertices a computed edge component is zero iff the exact one is: an axis with a
    # zero component is zero or parallel to a box normal, which the caller decides (exactly:
    # the box is clamped to the triangle's bounding box), and is skipped (margin +inf); on
    # integer grids these axes had every box touching the triangle in doubt. All nine share
    # one bound, so their least margin decides (min and max keep the work in float registers;
    # a NaN margin needs a value out of range, which is doubt already). Each axis is
    # _edge_axis_margin written out: calling it nine times costs an interpreted one-item call
    # 0.6-0.7 us (7.9 -> 8.5 us for triangle vs AABB).
    exact_zeros = zero_axes_exact
    least = _INF
    a1, a2 = -e0z, e0y
    p = a1 * ay + a2 * az
    q = a1 * cy + a2 * cz
    c = a1 * ky + a2 * kz
    rr = abs(a1) * ry + abs(a2) * rz
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = e0z, -e0x
    p = a1 * ax + a2 * az
    q = a1 * cx + a2 * cz
    c = a1 * kx + a2 * kz
    rr = abs(a1) * rx + abs(a2) * rz
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = -e0y, e0x
    p = a1 * ax + a2 * ay
    q = a1 * cx + a2 * cy
    c = a1 * kx + a2 * ky
    rr = abs(a1) * rx + abs(a2) * ry
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = -e1z, e1y
    p = a1 * by + a2 * bz
    q = a1 * ay + a2 * az
    c = a1 * ky + a2 * kz
    rr = abs(a1) * ry + abs(a2) * rz
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = e1z, -e1x
    p = a1 * bx + a2 * bz
    q = a1 * ax + a2 * az
    c = a1 * kx + a2 * kz
    rr = abs(a1) * rx + abs(a2) * rz
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = -e1y, e1x
    p = a1 * bx + a2 * by
    q = a1 * ax + a2 * ay
    c = a1 * kx + a2 * ky
    rr = abs(a1) * rx + abs(a2) * ry
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = -e2z, e2y
    p = a1 * cy + a2 * cz
    q = a1 * by + a2 * bz
    c = a1 * ky + a2 * kz
    rr = abs(a1) * ry + abs(a2) * rz
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = e2z, -e2x
    p = a1 * cx + a2 * cz
    q = a1 * bx + a2 * bz
    c = a1 * kx + a2 * kz
    rr = abs(a1) * rx + abs(a2) * rz
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    a1, a2 = -e2y, e2x
    p = a1 * cx + a2 * cy
    q = a1 * bx + a2 * by
    c = a1 * kx + a2 * ky
    rr = abs(a1) * rx + abs(a2) * ry
    m = c - (p if p > q else q)
    m2 = (q if p > q else p) - c
    m = rr - (m if m > m2 else m2)
    m = _INF if exact_zeros & ((a1 == 0.0) | (a2 == 0.0)) else m
    least = m if m < least else least
    separated = least < -bound
    unsure = unsure | (not least >= bound)
    # the triangle's normal: the triangle projects to the single value n . a
    nx = e0y * e1z - e0z * e1y
    ny = e0z * e1x - e0x * e1z
    nz = e0x * e1y - e0y * e1x
    d = nx * ax + ny * ay + nz * az
    u, v, w, z = nx * lx, nx * hx, ny * ly, ny * hy
    low = (u if u < v else v) + (w if w < z else z)
    high = (v if u < v else u) + (z if w < z else w)
    u, v = nz * lz, nz * hz
    low = low + (u if u < v else v)
    high = high + (v if u < v else u)
    m = d - low
    m2 = high - d
    margin = m if m < m2 else m2
    # a triangle in a plane x, y or z = const (exact vertices: its edges' components there are
    # zero exactly): the normal is that box normal, decided by the caller; skipped
    level = (((e0x == 0.0) & (e1x == 0.0)) | ((e0y == 0.0) & (e1y == 0.0))
             | ((e0z == 0.0) & (e1z == 0.0)))
    margin = _INF if exact_zeros & level else margin
    bound = TRIANGLE_PLANE_BOUND * slope * edge * big
    separated = separated | (margin < -bound)
    unsure = unsure | (not margin >= bound)
    separated = separated_by_box | (separated & in_range)
    unsure = unsure & (not separated)
    return (not separated) & (not unsure), unsure


def _filter(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float, cy: float,
            cz: float, lx: float, ly: float, lz: float, hx: float, hy: float, hz: float
            ) -> tuple[bool, bool]:
    """``(overlap, doubt)`` for the triangle ``a, b, c`` and the closed box ``[l, h]``.

    The box is first clamped to the triangle's bounding box (exact: max and min round nothing).
    The triangle lies in its bounding box, so it meets the box iff it meets the clamped box;
    this decides the box-normal axes exactly (they are not tested again), rejects empty boxes
    (their infinities included), and bounds every coordinate the axes use by the triangle's
    own. A value that is not valid (a NaN, an infinite vertex, -inf in ``l`` or +inf in ``h``)
    is doubt.
    """
    total = ax + ay + az + bx + by + bz + cx + cy + cz
    bad = not ((total - total == 0.0) & (lx > -_INF) & (ly > -_INF) & (lz > -_INF)
               & (hx < _INF) & (hy < _INF) & (hz < _INF))  # (an overflowing sum is doubt too)
    t = ax if ax < bx else bx
    t = t if t < cx else cx
    lx = lx if lx > t else t
    t = ay if ay < by else by
    t = t if t < cy else cy
    ly = ly if ly > t else t
    t = az if az < bz else bz
    t = t if t < cz else cz
    lz = lz if lz > t else t
    t = ax if ax > bx else bx
    t = t if t > cx else cx
    hx = hx if hx < t else t
    t = ay if ay > by else by
    t = t if t > cy else cy
    hy = hy if hy < t else t
    t = az if az > bz else bz
    t = t if t > cz else cz
    hz = hz if hz < t else t
    empty = not ((lx <= hx) & (ly <= hy) & (lz <= hz))
    # a clamped box that is not empty lies in the triangle's bounding box: the vertices bound
    # every coordinate (one scale for all boxes, computed once in a loop over boxes)
    big = _larger(_larger(_max_abs3(ax, ay, az), _max_abs3(bx, by, bz)), _max_abs3(cx, cy, cz))
    # its centre and half extent, within u big of the exact ones (halving is exact)
    kx, ky, kz = 0.5 * (lx + hx), 0.5 * (ly + hy), 0.5 * (lz + hz)
    rx, ry, rz = 0.5 * (hx - lx), 0.5 * (hy - ly), 0.5 * (hz - lz)
    overlap, unsure = _triangle_box_sat(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy,
                                        hz, kx, ky, kz, rx, ry, rz, 0.0, big, True, False, False)
    return overlap & (not empty) & (not bad), bad | (unsure & (not empty))


def _triangle_box_exact(a: list[int], b: list[int], c: list[int], lo: list[int],
                        hi: list[int]) -> bool:
    """The separating-axis test in integers (``a, b, c, lo, hi`` 3-lists on one scale): the
    triangle's bounding box against the box, its normal, the nine box-axis x edge axes; zero
    axes separate nothing and are skipped, so a degenerate triangle is its segment or point."""
    for k in range(3):
        if (lo[k] > hi[k] or max(a[k], b[k], c[k]) < lo[k] or min(a[k], b[k], c[k]) > hi[k]):
            return False
    edges = ([b[k] - a[k] for k in range(3)], [c[k] - b[k] for k in range(3)],
             [a[k] - c[k] for k in range(3)])
    e0, e1 = edges[0], edges[1]
    axes = [[e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
             e0[0] * e1[1] - e0[1] * e1[0]]]
    for f in edges:
        axes += [[0, -f[2], f[1]], [f[2], 0, -f[0]], [-f[1], f[0], 0]]
    for n0, n1, n2 in axes:
        if n0 == 0 and n1 == 0 and n2 == 0:
            continue
        ta = n0 * a[0] + n1 * a[1] + n2 * a[2]
        tb = n0 * b[0] + n1 * b[1] + n2 * b[2]
        tc = n0 * c[0] + n1 * c[1] + n2 * c[2]
        # the box's corners nearest and farthest along n
        x0, y0 = (lo[0], hi[0]) if n0 >= 0 else (hi[0], lo[0])
        x1, y1 = (lo[1], hi[1]) if n1 >= 0 else (hi[1], lo[1])
        x2, y2 = (lo[2], hi[2]) if n2 >= 0 else (hi[2], lo[2])
        if (max(ta, tb, tc) < n0 * x0 + n1 * x1 + n2 * x2
                or min(ta, tb, tc) > n0 * y0 + n1 * y1 + n2 * y2):
            return False
    return True


def _exact(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
           cy: float, cz: float, lx: float, ly: float, lz: float, hx: float, hy: float,
           hz: float) -> bool:
    """The exact overlap of the triangle ``a, b, c`` and the closed box ``[l, h]``, at every
    magnitude (integers on the floats' exact values)."""
    if not (lx <= hx and ly <= hy and lz <= hz):  # empty (the infinities of AABB.empty())
        return False
    _, v = scaled(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz)
    return _triangle_box_exact(v[0:3], v[3:6], v[6:9], v[9:12], v[12:15])


_QUERY = Query(_filter, _exact,
               args=[("v0", POINT), ("v1", POINT), ("v2", POINT), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX)],
               outputs=[BOOL], contract=True)


@dask_aware
def triangle_overlaps_aabb(
    v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,
    out: np.ndarray | None = None,
) -> bool | np.ndarray:
    """True for each box that shares at least one point with the triangle (touching counts).

    The triangle is the closed convex hull of ``v0, v1, v2`` and the box the closed set
    ``{box_min <= p <= box_max}``. A degenerate triangle (collinear or coincident vertices) is the
    segment or point it spans and is tested as such. A flat box (``min == max`` on an axis) is a
    rectangle, segment or point; an empty box (``min > max`` on an axis, ``AABB.empty()``) never
    overlaps. Exact for the floats given, at every magnitude: a float filter with certified
    error bounds, and integer arithmetic where it is in doubt (Akenine-Möller 2001's thirteen
    separating axes).

    Parameters
    ----------
    v0, v1, v2 : (3,) or (N, 3) array_like
        The triangles' vertices.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners (``+inf`` / ``-inf`` as in ``AABB.empty()`` mean an empty box).
    out : (N,) bool ndarray, optional
        Written with the answers and returned (shape: the arguments' broadcast leading shape).

    Returns
    -------
    bool or (N,) bool ndarray
        A Python bool when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), shapes that do not
        broadcast, or an integer float64 cannot hold exactly; the message names the argument.
    """
    overlap: bool | np.ndarray = _QUERY(v0, v1, v2, box_min, box_max, out=out)
    return overlap
