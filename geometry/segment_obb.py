"""Segment vs oriented box: NONE, INTERSECT or INCLUDE (separating axes in the box's frame).

The box is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given (SEMANTICS.md);
a negative half size makes it empty. ``_filter`` rotates the segment and the box into the box's
frame about the segment's start (``_frame``), where the box is axis-aligned, and tests the
separating axes of a segment and a box (Ericson, Real-Time Collision Detection 5.3.3): the box's
three normals and the three box-axis x segment axes, each margin against a certified bound that
includes the rotation's rounding. ``_exact`` clips the segment to the slabs of the centred frame
(Kay & Kajiya 1986) in integers on the floats' exact values.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._exact import clip_to_slab
from ._floats import axes_doubt
from ._frame import local_ints, rotate
from ._sat import edge_axis_margin, larger, max_abs3, smaller
from ._tolerances import (
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
    OBB_FRAME_BOUND,
    TRIANGLE_EDGE_BOUND,
)
from ._validate import AXES, POINT
from .results import IntersectionType

__all__ = ["classify_segment_obb"]


def _filter(sx: float, sy: float, sz: float, ex: float, ey: float, ez: float, cx: float,
            cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
            a11: float, a12: float, a20: float, a21: float, a22: float, h0: float,
            h1: float, h2: float) -> tuple[int, bool]:
    """``(code, doubt)``: the segment ``s, e`` against the OBB, code 0 NONE, 1 INTERSECT,
    2 INCLUDE, by separating axes in the box's frame about the start (``_frame``): the
    box's normals and the three box-axis x segment axes, each margin against its bound. (About
    the origin instead, coordinates far from it, as in georeferenced data, would leave bounds of
    their size, and the boxes near the segment in doubt.) A value that is not finite is
    doubt."""
    # (a centre that is not finite makes pk, and so ``reach``, not finite: out of range)
    total = sx + sy + sz + ex + ey + ez + h0 + h1 + h2
    bad = (not total - total == 0.0) | axes_doubt(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    # the frame about the start: s' = 0 exactly, e' = axes @ (e - s), k = axes @ (center - s)
    s0, s1, s2 = 0.0, 0.0, 0.0
    e0, e1, e2, pe = rotate(ex - sx, ey - sy, ez - sz, a00, a01, a02, a10, a11, a12, a20, a21,
                            a22)
    k0, k1, k2, pk = rotate(cx - sx, cy - sy, cz - sz, a00, a01, a02, a10, a11, a12, a20, a21,
                            a22)
    l0, l1, l2 = k0 - h0, k1 - h1, k2 - h2
    u0, u1, u2 = k0 + h0, k1 + h1, k2 + h2
    reach = pe + pk
    # (|k| + h >= |k -+ h|, the bounds, rounded alike; and >= |k|, h, for a box that is not
    # empty)
    big = larger(max_abs3(e0, e1, e2), larger(larger(abs(k0) + h0, abs(k1) + h1), abs(k2) + h2))
    # e' errs by at most OBB_FRAME_BOUND u |e - s|_1 (the frame change, _tolerances), the box's
    # bounds by that of k plus the rounding of k +- half_size (u |bound| <= u big): moved onto
    # the ends, every coordinate the axes compare is within ``err``
    err = OBB_FRAME_BOUND * FILTER_UNIT * (reach + big)
    b2 = err + err
    # reach 0: a point segment at the box's centre, where every coordinate is 0 or +-half_size
    # exactly and no axis but the box's normals is tested
    in_range = ((FILTER_SCALE_MIN <= reach) | (reach == 0.0)) & (reach <= FILTER_SCALE_MAX)
    # the box's normals: the segment's extent on each axis against [l, u]; ``inner``: how far
    # both ends lie inside on that axis
    lo = smaller(s0, e0)
    hi = larger(s0, e0)
    m = u0 - lo
    m2 = hi - l0
    margin = smaller(m, m2)
    m = lo - l0
    m2 = u0 - hi
    inner0 = smaller(m, m2)
    lo = smaller(s1, e1)
    hi = larger(s1, e1)
    m = u1 - lo
    m2 = hi - l1
    m = smaller(m, m2)
    margin = smaller(margin, m)
    m = lo - l1
    m2 = u1 - hi
    inner1 = smaller(m, m2)
    lo = smaller(s2, e2)
    hi = larger(s2, e2)
    m = u2 - lo
    m2 = hi - l2
    m = smaller(m, m2)
    margin = smaller(margin, m)
    m = lo - l2
    m2 = u2 - hi
    inner2 = smaller(m, m2)
    separated = in_range & (margin < -b2)
    unsure = not (in_range & (margin >= b2))
    inner = smaller(inner0, inner1)
    inner = smaller(inner, inner2)
    # the box-axis x segment axes; a point segment (exactly) has none (``live``). An axis whose
    # two other coordinates lie inside the box at both ends cannot separate (the segment's
    # shadow along that box axis lies in the box's), which settles axes that are zero in exact
    # arithmetic.
    live = not ((sx == ex) & (sy == ey) & (sz == ez))
    w0, w1, w2 = e0 - s0, e1 - s1, e2 - s2
    edge = max_abs3(w0, w1, w2)
    ok = in_range & (FILTER_SCALE_MIN <= edge) & (big <= FILTER_SCALE_MAX)
    # (the margins doubled, from the box as twice its centre and half extent, exactly)
    bound = 2.0 * TRIANGLE_EDGE_BOUND * (FILTER_UNIT * edge + err) * big
    j0, j1, j2, g0, g1, g2 = k0 + k0, k1 + k1, k2 + k2, h0 + h0, h1 + h1, h2 + h2
    m = edge_axis_margin(-w2, w1, s1, s2, e1, e2, j1, j2, g1, g2)
    separated = separated | (live & ok & (m < -bound))
    unsure = unsure | (live & (not (ok & ((m >= bound) | ((inner1 >= b2) & (inner2 >= b2))))))
    m = edge_axis_margin(w2, -w0, s0, s2, e0, e2, j0, j2, g0, g2)
    separated = separated | (live & ok & (m < -bound))
    unsure = unsure | (live & (not (ok & ((m >= bound) | ((inner0 >= b2) & (inner2 >= b2))))))
    m = edge_axis_margin(-w1, w0, s0, s1, e0, e1, j0, j1, g0, g1)
    separated = separated | (live & ok & (m < -bound))
    unsure = unsure | (live & (not (ok & ((m >= bound) | ((inner0 >= b2) & (inner1 >= b2))))))
    # separated: NONE; both ends in the open box: INCLUDE; else INTERSECT unless in doubt
    include = (not separated) & in_range & (inner > b2)
    meets = (not separated) & (not include) & (not unsure)
    code = 2 if include else (1 if meets else 0)
    doubt = (not separated) & (not include) & (unsure | (not inner <= -b2))
    code = 0 if (bad | empty) else code
    return code, bad | ((not empty) & doubt)


def _exact(sx: float, sy: float, sz: float, ex: float, ey: float, ez: float, cx: float,
           cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
           a11: float, a12: float, a20: float, a21: float, a22: float, h0: float,
           h1: float, h2: float) -> int:
    """The exact class (0, 1, 2) of the segment against the OBB the floats describe: slabs in
    the box frame, in integers (:func:`local_ints`); INCLUDE when both ends are in the open
    box (it is convex), INTERSECT when the segment meets the closed box otherwise."""
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0):
        return 0
    (s, e), h = local_ints(((sx, sy, sz), (ex, ey, ez)), (cx, cy, cz),
                           (a00, a01, a02, a10, a11, a12, a20, a21, a22), (h0, h1, h2))
    enter, leave = (0, 1), (1, 1)  # the segment's t in [0, 1], as ratios
    for k in range(3):
        if e[k] == s[k]:  # parallel to the slab: inside it throughout, or never
            if abs(s[k]) > h[k]:
                return 0
            continue
        enter, leave = clip_to_slab(-h[k] - s[k], h[k] - s[k], e[k] - s[k], enter, leave)
    if enter[0] * leave[1] > leave[0] * enter[1]:
        return 0
    inside = all(-h[k] < s[k] < h[k] and -h[k] < e[k] < h[k] for k in range(3))
    return 2 if inside else 1


_QUERY = Query(_filter, _exact,
               args=[("start", POINT), ("end", POINT), ("center", POINT), ("axes", AXES),
                     ("half_size", POINT)],
               outputs=[CLASS], contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_segment_obb(
    start: ArrayLike, end: ArrayLike, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike,
    *, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each oriented box against the segment: NONE, INTERSECT or INCLUDE.

    Semantics as :func:`classify_segment_aabb` (closed box; INCLUDE iff the segment lies in the
    open interior; a flat box is never INCLUDE), for the box ``{p : |axes[i] . (p - center)| <=
    half_size_i}`` of the floats given; a negative ``half_size`` makes the box empty (NONE).
    Exact at every magnitude: separating axes in the box frame (the box's normals and the box
    axes x the segment), each margin against a certified bound that includes the frame change's
    rounding, and integer arithmetic where it is in doubt.

    Parameters
    ----------
    start, end : (3,) or (N, 3) array_like
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        Rows are the box's axes, orthonormal within 1e-6, else ``ValueError``.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
    """
    codes = _QUERY(start, end, center, axes, half_size, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
