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
from ._engine import BOOL, BOX_MAX, BOX_MIN, POINT, Query, jitable
from ._exact import scaled
from ._tolerances import (
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
    TRIANGLE_EDGE_BOUND,
    TRIANGLE_PLANE_BOUND,
)

__all__ = ["triangle_overlaps_aabb"]



# --- the kernel: float filter and exact pass -----------------------------------------------

_INF = float("inf")


@jitable
def _larger(a, b):
    return a if a > b else b


@jitable
def _smaller(a, b):
    return a if a < b else b


@jitable
def _max_abs3(x, y, z):
    x, y, z = abs(x), abs(y), abs(z)
    m = x if x > y else y
    return m if m > z else z


@jitable
def _edge_axis_margin(a1, a2, p1, p2, q1, q2, l1, l2, h1, h2):
    """Margin of one box-axis x edge axis whose two non-zero components are ``a1, a2``: the
    triangle projects to ``[min, max]`` of ``a . p`` and ``a . q`` (``p`` a vertex of the edge,
    ``q`` the opposite one; the edge's other vertex projects as ``p``), the box ``l <= x <= h``
    to ``[low, high]``. Negative iff the axis separates them."""
    p = a1 * p1 + a2 * p2
    q = a1 * q1 + a2 * q2
    low = (a1 * l1 if a1 >= 0.0 else a1 * h1) + (a2 * l2 if a2 >= 0.0 else a2 * h2)
    high = (a1 * h1 if a1 >= 0.0 else a1 * l1) + (a2 * h2 if a2 >= 0.0 else a2 * l2)
    top = p if p > q else q
    bottom = q if p > q else p
    above = top - low
    below = high - bottom
    return below if below < above else above


@jitable
def _triangle_box_sat(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz, err,
                      zero_axes_exact):
    """``(overlap, doubt)`` of the triangle ``a, b, c`` and the closed box ``l <= p <= h``
    (``l <= h``, finite) by Akenine-Möller's thirteen separating axes, in float64.

    Each vertex coordinate is known within ``err`` of the exact one (0: exactly). Each axis's
    margin is compared with its error bound (``_tolerances``): an axis that separates beyond it
    answers False, one within it is doubt, unless a vertex lies in the box beyond the bound.
    ``zero_axes_exact``: a computed box-axis x edge axis is zero exactly when the exact one is
    (true for exact vertices), so a zero one is skipped; else it is tested like any other.
    Straight-line code (selects, no early exit), so that a compiled loop over boxes vectorises.
    """
    # the box's normals: the triangle's bounding box against the box
    b2 = err + err
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
    separated_by_box = box_margin < -b2
    unsure = not box_margin >= b2

    # scales: the largest coordinate and the largest edge component
    big = 0.0
    for x in (ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz):
        x = abs(x)
        big = big if big > x else x
    e0x, e0y, e0z = bx - ax, by - ay, bz - az
    e1x, e1y, e1z = cx - bx, cy - by, cz - bz
    e2x, e2y, e2z = ax - cx, ay - cy, az - cz
    edge = 0.0
    for x in (e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z):
        x = abs(x)
        edge = edge if edge > x else x
    # out of range, products may overflow: then no axis below may answer
    in_range = FILTER_SCALE_MIN <= edge and big <= FILTER_SCALE_MAX
    unsure = unsure | (not in_range)
    separated = False
    slope = FILTER_UNIT * edge + err
    bound = TRIANGLE_EDGE_BOUND * slope * big
    # the nine box-axis x edge axes: e_x x f = (0, -f_z, f_y), e_y x f = (f_z, 0, -f_x),
    # e_z x f = (-f_y, f_x, 0) for the edges f = b - a, c - b, a - c, each with a vertex of its
    # own and the opposite one: (a, c), (b, a), (c, b). Per axis, the triangle projects to
    # [min, max] of those two vertices' projections p, q and the box to [low, high] (its near
    # and far corners by the signs of the axis); the margin is negative iff the axis separates.
    # With exact vertices a zero axis is zero exactly and skipped (``live``).
    exact_zeros = zero_axes_exact
    a1, a2 = -e0z, e0y
    p = a1 * ay + a2 * az
    q = a1 * cy + a2 * cz
    low = (a1 * ly if a1 >= 0.0 else a1 * hy) + (a2 * lz if a2 >= 0.0 else a2 * hz)
    high = (a1 * hy if a1 >= 0.0 else a1 * ly) + (a2 * hz if a2 >= 0.0 else a2 * lz)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = e0z, -e0x
    p = a1 * ax + a2 * az
    q = a1 * cx + a2 * cz
    low = (a1 * lx if a1 >= 0.0 else a1 * hx) + (a2 * lz if a2 >= 0.0 else a2 * hz)
    high = (a1 * hx if a1 >= 0.0 else a1 * lx) + (a2 * hz if a2 >= 0.0 else a2 * lz)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = -e0y, e0x
    p = a1 * ax + a2 * ay
    q = a1 * cx + a2 * cy
    low = (a1 * lx if a1 >= 0.0 else a1 * hx) + (a2 * ly if a2 >= 0.0 else a2 * hy)
    high = (a1 * hx if a1 >= 0.0 else a1 * lx) + (a2 * hy if a2 >= 0.0 else a2 * ly)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = -e1z, e1y
    p = a1 * by + a2 * bz
    q = a1 * ay + a2 * az
    low = (a1 * ly if a1 >= 0.0 else a1 * hy) + (a2 * lz if a2 >= 0.0 else a2 * hz)
    high = (a1 * hy if a1 >= 0.0 else a1 * ly) + (a2 * hz if a2 >= 0.0 else a2 * lz)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = e1z, -e1x
    p = a1 * bx + a2 * bz
    q = a1 * ax + a2 * az
    low = (a1 * lx if a1 >= 0.0 else a1 * hx) + (a2 * lz if a2 >= 0.0 else a2 * hz)
    high = (a1 * hx if a1 >= 0.0 else a1 * lx) + (a2 * hz if a2 >= 0.0 else a2 * lz)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = -e1y, e1x
    p = a1 * bx + a2 * by
    q = a1 * ax + a2 * ay
    low = (a1 * lx if a1 >= 0.0 else a1 * hx) + (a2 * ly if a2 >= 0.0 else a2 * hy)
    high = (a1 * hx if a1 >= 0.0 else a1 * lx) + (a2 * hy if a2 >= 0.0 else a2 * ly)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = -e2z, e2y
    p = a1 * cy + a2 * cz
    q = a1 * by + a2 * bz
    low = (a1 * ly if a1 >= 0.0 else a1 * hy) + (a2 * lz if a2 >= 0.0 else a2 * hz)
    high = (a1 * hy if a1 >= 0.0 else a1 * ly) + (a2 * hz if a2 >= 0.0 else a2 * lz)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = e2z, -e2x
    p = a1 * cx + a2 * cz
    q = a1 * bx + a2 * bz
    low = (a1 * lx if a1 >= 0.0 else a1 * hx) + (a2 * lz if a2 >= 0.0 else a2 * hz)
    high = (a1 * hx if a1 >= 0.0 else a1 * lx) + (a2 * hz if a2 >= 0.0 else a2 * lz)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    a1, a2 = -e2y, e2x
    p = a1 * cx + a2 * cy
    q = a1 * bx + a2 * by
    low = (a1 * lx if a1 >= 0.0 else a1 * hx) + (a2 * ly if a2 >= 0.0 else a2 * hy)
    high = (a1 * hx if a1 >= 0.0 else a1 * lx) + (a2 * hy if a2 >= 0.0 else a2 * ly)
    m = (p if p > q else q) - low
    m2 = high - (q if p > q else p)
    m = m if m < m2 else m2
    live = not (exact_zeros and a1 == 0.0 and a2 == 0.0)
    separated = separated | (live & (m < -bound))
    unsure = unsure | (live & (not m >= bound))
    # the triangle's normal: the triangle projects to the single value n . a
    nx = e0y * e1z - e0z * e1y
    ny = e0z * e1x - e0x * e1z
    nz = e0x * e1y - e0y * e1x
    d = nx * ax + ny * ay + nz * az
    low = ((nx * lx if nx >= 0.0 else nx * hx) + (ny * ly if ny >= 0.0 else ny * hy)
           + (nz * lz if nz >= 0.0 else nz * hz))
    high = ((nx * hx if nx >= 0.0 else nx * lx) + (ny * hy if ny >= 0.0 else ny * ly)
            + (nz * hz if nz >= 0.0 else nz * lz))
    m = d - low
    m2 = high - d
    margin = m if m < m2 else m2
    bound = TRIANGLE_PLANE_BOUND * slope * edge * big
    separated = separated | (margin < -bound)
    unsure = unsure | (not margin >= bound)
    # a vertex surely in the closed box overlaps, whatever the axes' rounding
    inside = ((ax - lx >= b2) & (hx - ax >= b2) & (ay - ly >= b2) & (hy - ay >= b2)
              & (az - lz >= b2) & (hz - az >= b2))
    inside = inside | ((bx - lx >= b2) & (hx - bx >= b2) & (by - ly >= b2) & (hy - by >= b2)
                       & (bz - lz >= b2) & (hz - bz >= b2))
    inside = inside | ((cx - lx >= b2) & (hx - cx >= b2) & (cy - ly >= b2) & (hy - cy >= b2)
                       & (cz - lz >= b2) & (hz - cz >= b2))
    separated = separated_by_box | (separated & in_range)
    if separated and not inside:
        return False, False
    if inside:
        return True, False
    return not unsure, unsure


def _filter(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz):
    """``(overlap, doubt)`` for the triangle ``a, b, c`` and the closed box ``[l, h]``.

    The box is first clamped to the triangle's bounding box (exact: max and min round nothing).
    The triangle lies in its bounding box, so it meets the box iff it meets the clamped box;
    this decides the box-normal axes exactly, rejects empty boxes (their infinities included),
    and bounds every coordinate the axes use by the triangle's own. A value that is not valid
    (a NaN, an infinite vertex, -inf in ``l`` or +inf in ``h``) is doubt.
    """
    total = ax + ay + az + bx + by + bz + cx + cy + cz
    if not (total - total == 0.0 and lx > -_INF and ly > -_INF and lz > -_INF and hx < _INF
            and hy < _INF and hz < _INF):  # (a finite sum that overflows is doubt too)
        return False, True
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
    if not (lx <= hx and ly <= hy and lz <= hz):
        return False, False
    return _triangle_box_sat(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz, 0.0,
                             True)


def _triangle_box_exact(a, b, c, lo, hi) -> bool:
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
    for n in axes:
        if n[0] == 0 and n[1] == 0 and n[2] == 0:
            continue
        ta = n[0] * a[0] + n[1] * a[1] + n[2] * a[2]
        tb = n[0] * b[0] + n[1] * b[1] + n[2] * b[2]
        tc = n[0] * c[0] + n[1] * c[1] + n[2] * c[2]
        low = sum(n[k] * (lo[k] if n[k] >= 0 else hi[k]) for k in range(3))
        high = sum(n[k] * (hi[k] if n[k] >= 0 else lo[k]) for k in range(3))
        if max(ta, tb, tc) < low or min(ta, tb, tc) > high:
            return False
    return True


def _exact(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz) -> bool:
    """The exact overlap of the triangle ``a, b, c`` and the closed box ``[l, h]``, at every
    magnitude (integers on the floats' exact values)."""
    if not (lx <= hx and ly <= hy and lz <= hz):  # empty (the infinities of AABB.empty())
        return False
    _, v = scaled(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz)
    return _triangle_box_exact(v[0:3], v[3:6], v[6:9], v[9:12], v[12:15])


_QUERY = Query(_filter, _exact,
               args=[("v0", POINT), ("v1", POINT), ("v2", POINT), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX)],
               outputs=[BOOL])


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
    return _QUERY(v0, v1, v2, box_min, box_max, out=out)
