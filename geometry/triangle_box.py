"""Triangle vs axis-aligned box overlap by separating axes.

Reference: Akenine-Möller, "Fast 3D triangle-box overlap testing", JGT 2001. Thirteen candidate
axes: the three box normals, the triangle's normal and the nine cross products of a box axis with
a triangle edge. A zero-length axis (a degenerate triangle's normal, an edge parallel to a box
axis, a zero-length edge) projects everything to 0, so it separates nothing and is skipped
without ever being normalised. For a degenerate triangle the remaining axes are exactly those of
segment-vs-box (or point-vs-box), so the test stays complete.

Projections are taken relative to ``v0`` and use the box corners themselves (no centre and
half-size). Where an axis's margin is within its rounding-error bound, the box is decided again
exactly (float64 on a certified dyadic grid, else rationals: ``_exact``), so the answer is
exact for every finite input.
"""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from ._batch import broadcast_items, out_dtype, rows, run_chunked, sort_pair
from ._dask import dask_aware
from ._exact import dyadic_grid_exact, triangle_overlaps_rational
from ._tolerances import (FILTER_SCALE_MAX, FILTER_SCALE_MIN, FILTER_UNIT,
                          TRIANGLE_EDGE_AXIS_BOUND, TRIANGLE_EDGE_BOUND, TRIANGLE_NORMAL_BOUND,
                          TRIANGLE_PLANE_BOUND,
                          UNDERFLOW_SLACK, UNIT_ROUNDOFF)
from ._validate import as_boxes, as_finite_points, compute_dtype

__all__ = ["triangle_overlaps_aabb", "overlaps_checked"]

try:
    from numba.extending import register_jitable
except ImportError:  # without numba the kernels run interpreted only
    def _jitable(fn):
        return fn
else:
    def _jitable(fn):
        """Mark a helper of the filters: plain Python when called from Python, compiled with
        the filter that calls it by numba."""
        return register_jitable(error_model="numpy")(fn)


@dask_aware
def triangle_overlaps_aabb(
    v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, box_min: ArrayLike, box_max: ArrayLike
) -> Union[bool, np.ndarray]:
    """True for each box that shares at least one point with the triangle (touching counts).

    The triangle is the closed convex hull of ``v0, v1, v2`` and the box the closed set
    ``{box_min <= p <= box_max}``. A degenerate triangle (collinear or coincident vertices) is the
    segment or point it spans and is tested as such. A flat box (``min == max`` on an axis) is a
    rectangle, segment or point; an empty box (``min > max`` on an axis, ``AABB.empty()``) never
    overlaps. The answer is exact for every finite input: boxes within rounding of touching are
    decided again without rounding (a box touched at a vertex, an edge or a face overlaps).

    Parameters
    ----------
    v0, v1, v2 : (3,) or (N, 3) array_like
        The triangles' vertices.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners (``+inf`` / ``-inf`` as in ``AABB.empty()`` mean an empty box).

    Returns
    -------
    bool or (N,) bool ndarray
        A Python bool when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), or shapes that do not
        broadcast; the message names the argument.
    """
    v0 = as_finite_points("v0", v0)
    v1 = as_finite_points("v1", v1)
    v2 = as_finite_points("v2", v2)
    box_min, box_max = as_boxes("box_min", box_min, "box_max", box_max)
    return overlaps_checked(v0, v1, v2, box_min, box_max)


def overlaps_checked(v0, v1, v2, box_min, box_max) -> Union[bool, np.ndarray]:
    """:func:`triangle_overlaps_aabb` on arguments already validated (float arrays)."""
    dtype = compute_dtype(v0, v1, v2, box_min, box_max)
    lead, items = broadcast_items(
        {"v0": v0, "v1": v1, "v2": v2, "box_min": box_min, "box_max": box_max}, dtype
    )
    out = np.empty(int(np.prod(lead, dtype=np.int64)), dtype=bool)
    run_chunked(_overlap_chunk, out.size, items, [out], boxes=(3, "box_min", 4, "box_max"))
    if lead == ():
        return bool(out[0])
    return out.reshape(lead)


def _extent(axis, lo, hi):
    """``[min, max]`` of ``axis . p`` over the box ``lo <= p <= hi`` (per-axis sequences).

    Zero components of a per-chunk-constant axis are skipped; an all-zero axis gives [0, 0].
    """
    low = high = 0
    for a, x, y in zip(axis, lo, hi):
        if np.ndim(a) == 0:
            if a == 0:
                continue
            ax, ay = a * x, a * y
            near, far = (ax, ay) if a > 0 else (ay, ax)
        else:
            ax, ay = a * x, a * y
            near, far = np.minimum(ax, ay), np.maximum(ax, ay)
        low, high = low + near, high + far
    return low, high


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b):
    total = 0
    for x, y in zip(a, b):
        if np.ndim(x) == 0 and x == 0:
            continue
        total = total + x * y
    return total


def _box_axis_cross(edge):
    """``e_x x edge``, ``e_y x edge``, ``e_z x edge`` with their zero components as literal 0."""
    fx, fy, fz = edge
    return ((0, -fz, fy), (fz, 0, -fx), (-fy, fx, 0))


def _canonical(a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """The three vertex blocks in lexicographic order (a 3-element sorting network)."""
    a, b = sort_pair(a, b)
    b, c = sort_pair(b, c)
    a, b = sort_pair(a, b)
    return a, b, c


def _vertex_inside(v: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    ok = (lo <= v) & (v <= hi)
    return ok[0] & ok[1] & ok[2]


def _overlap_chunk(v0, v1, v2, box_min, box_max, out: np.ndarray) -> None:
    """Kernel: write one chunk's overlap flags into ``out``.

    The separating-axis test runs in the compute dtype; boxes where some axis's margin is within
    its rounding-error bound (and no other axis separates beyond doubt) are decided again: in
    float64, trusted where its own margins are clear of its error bounds or where every
    coordinate lies on a dyadic grid coarse enough for float64 to be exact (integer and dyadic
    data), else in rationals.
    """
    dtype = out_dtype(v0, v1, v2, box_min, box_max)
    # A canonical vertex order: every order of the same triangle takes the same rounding.
    p0, p1, p2 = _canonical(rows(v0, dtype), rows(v1, dtype), rows(v2, dtype))
    lo_box, hi_box = rows(box_min, dtype), rows(box_max, dtype)
    overlap, doubt = _separating_axes(p0, p1, p2, lo_box, hi_box, dtype)
    idx = np.flatnonzero(doubt)
    if idx.size:
        pick = lambda x: (x[:, idx] if x.shape[1] > 1 else x).astype(np.float64)  # noqa: E731
        blocks = [np.broadcast_to(pick(x), (3, idx.size)) for x in (p0, p1, p2, lo_box, hi_box)]
        # float64 first (for float32 data it is far finer); rationals where even that is in
        # doubt and the data are not on a grid where float64 is exact
        exact, unsure = _separating_axes(*blocks, np.float64)
        unsure &= ~dyadic_grid_exact(*blocks)
        for j in np.flatnonzero(unsure):
            exact[j] = triangle_overlaps_rational(*(b[:, j] for b in blocks))
        overlap[idx] = exact
    out[...] = overlap


def _separating_axes(p0, p1, p2, lo_box, hi_box, dtype):
    """``(overlap, doubt)``: the separating-axis answer in ``dtype``, and where rounding could
    have changed it."""
    # Box normals: the triangle's bounding box must meet the box (exact comparisons). This also
    # rejects empty boxes, whose min > max on some axis.
    tri_lo = np.minimum(np.minimum(p0, p1), p2)
    tri_hi = np.maximum(np.maximum(p0, p1), p2)
    meets = np.maximum(lo_box, tri_lo) <= np.minimum(hi_box, tri_hi)
    meets = meets[0] & meets[1] & meets[2]
    overlap = meets.copy()
    near = np.zeros_like(meets)
    separated = np.zeros_like(meets)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        # Everything relative to v0: the box's corners and the other two vertices.
        lo, hi = lo_box - p0, hi_box - p0
        q1, q2 = p1 - p0, p2 - p0
        edges = (q1, p2 - p1, p0 - p2)  # each rounded once
        scale = np.maximum(np.abs(lo).max(axis=0), np.abs(hi).max(axis=0))
        scale = np.maximum(scale, np.maximum(np.abs(q1).max(axis=0), np.abs(q2).max(axis=0)))
        unit, tiny = UNIT_ROUNDOFF[dtype], UNDERFLOW_SLACK[dtype]
        square = scale * scale
        normal_bound = TRIANGLE_NORMAL_BOUND * unit * square * scale + tiny
        edge_bound = TRIANGLE_EDGE_AXIS_BOUND * unit * square + tiny

        def check(margin, bound, live=True):
            nonlocal overlap, near, separated
            overlap = overlap & (margin >= 0)
            # NaN (overflow) counts as near; an exactly zero axis separates nothing
            near = near | (live & ~(np.abs(margin) > bound))
            separated = separated | (margin < -bound)

        # The triangle's plane (through v0, so the triangle projects to 0).
        low, high = _extent(_cross(q1, q2), lo, hi)
        check(np.minimum(-low, high), normal_bound)
        # Box axis x triangle edge: the triangle projects to the span of {0, a.q1, a.q2}.
        for edge in edges:
            # e_k x edge is exactly zero iff the edge's other two components are (a rounded
            # difference is zero only for equal coordinates)
            flat = [c == 0 for c in edge]
            lives = (~(flat[1] & flat[2]), ~(flat[0] & flat[2]), ~(flat[0] & flat[1]))
            for axis, live in zip(_box_axis_cross(edge), lives):
                tri = (_dot(axis, q1), _dot(axis, q2))
                tri_min = np.minimum(np.minimum(tri[0], tri[1]), 0)
                tri_max = np.maximum(np.maximum(tri[0], tri[1]), 0)
                low, high = _extent(axis, lo, hi)
                check(np.minimum(tri_max - low, high - tri_min), edge_bound, live)
    # A vertex in the closed box overlaps, whatever the rounding of the projections says
    # (exact comparisons; touching at a vertex is the commonest exact contact).
    inside = _vertex_inside(p0, lo_box, hi_box) | _vertex_inside(p1, lo_box, hi_box)
    inside = inside | _vertex_inside(p2, lo_box, hi_box)
    overlap = overlap | inside
    # Products of coordinates near 1e308 can overflow and make inf - inf = NaN inside (ignored
    # above); a NaN comparison is False. The result is boolean, so no NaN leaves this function.
    return overlap, near & ~separated & meets & ~inside


# --- the kernel: float filter and exact pass -----------------------------------------------

_INF = float("inf")


@_jitable
def _larger(a, b):
    return a if a > b else b


@_jitable
def _smaller(a, b):
    return a if a < b else b


@_jitable
def _max_abs3(x, y, z):
    x, y, z = abs(x), abs(y), abs(z)
    m = x if x > y else y
    return m if m > z else z


@_jitable
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


@_jitable
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


def _integers(*values):
    """The exact values of finite floats as integers on one scale (all times the same power of
    two): integer arithmetic on them decides any sign of a homogeneous polynomial exactly."""
    ratios = [float(x).as_integer_ratio() for x in values]
    scale = max(d for _, d in ratios)
    return [n * (scale // d) for n, d in ratios]


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
    v = _integers(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz)
    return _triangle_box_exact(v[0:3], v[3:6], v[6:9], v[9:12], v[12:15])
