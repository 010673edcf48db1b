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

from ._dask import dask_aware
from ._batch import broadcast_items, out_dtype, rows, run_chunked, sort_pair
from ._exact import dyadic_grid_exact, triangle_overlaps_rational
from ._tolerances import (TRIANGLE_EDGE_AXIS_BOUND, TRIANGLE_NORMAL_BOUND, UNDERFLOW_SLACK,
                          UNIT_ROUNDOFF)
from ._validate import as_boxes, as_finite_points, compute_dtype

__all__ = ["triangle_overlaps_aabb", "overlaps_checked"]


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
