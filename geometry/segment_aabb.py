"""Segment vs axis-aligned box: NONE, INTERSECT or INCLUDE (the slab method).

The segment ``start + t (end - start)``, t in [0, 1], meets the box iff the intersection of [0, 1]
with the three slabs' parameter intervals is not empty (Kay & Kajiya 1986; Williams et al. 2004);
it is INCLUDE iff both endpoints lie in the open box. ``_filter`` decides that in float64 with a
certified error bound (``_tolerances.SLAB_RELATIVE``), ``_exact`` in integers for the rest.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._exact import clip_to_slab, scaled
from ._tolerances import RECIPROCAL_MAX, SLAB_ABSOLUTE, SLAB_RELATIVE
from ._validate import BOX_MAX, BOX_MIN, POINT
from .results import IntersectionType

__all__ = ["classify_segment_aabb"]


def _filter(sx: float, sy: float, sz: float, ex: float, ey: float, ez: float, lx: float,
            ly: float, lz: float, hx: float, hy: float, hz: float) -> tuple[int, bool]:
    """``(class, doubt)`` of one segment against one box, in float64.

    Per axis, the segment's parameters on the slab's planes are ``(plane - s) * (1 / d)``, the
    near one first; a segment parallel to the slab is in it for every t ((0, 1)) or for none
    ((2, -1)). ``enter = max(0, near)``, ``leave = min(1, far)``: the segment meets the box iff
    ``leave - enter >= 0``, sure unless within the certified band. INCLUDE (both endpoints in the
    open box) is decided by exact comparisons. Doubt also for any non-finite value (bad input,
    the empty-box infinities, an overflowing difference) and a subnormal reciprocal.
    """
    dx, dy, dz = ex - sx, ey - sy, ez - sz
    ax, bx, ay, by, az, bz = lx - sx, hx - sx, ly - sy, hy - sy, lz - sz, hz - sz
    rx = 1.0 / (dx if dx != 0.0 else 1.0)
    ry = 1.0 / (dy if dy != 0.0 else 1.0)
    rz = 1.0 / (dz if dz != 0.0 else 1.0)
    # a sum of the differences and reciprocals is finite iff they all are (or it overflowed:
    # doubt either way); each input enters some difference. (The segment's terms summed
    # first: with one segment for all boxes, a constant of the loop.)
    total = (dx + dy + dz + rx + ry + rz) + (ax + bx + ay + by + az + bz)
    bad = (not total - total == 0.0) | (abs(dx) > RECIPROCAL_MAX) | (abs(dy) > RECIPROCAL_MAX) \
        | (abs(dz) > RECIPROCAL_MAX)

    qa, qb = ax * rx, bx * rx
    inside = (ax <= 0.0) & (bx >= 0.0)
    near_x = qa if dx > 0.0 else (qb if dx < 0.0 else (0.0 if inside else 2.0))
    far_x = qb if dx > 0.0 else (qa if dx < 0.0 else (1.0 if inside else -1.0))
    qa, qb = ay * ry, by * ry
    inside = (ay <= 0.0) & (by >= 0.0)
    near_y = qa if dy > 0.0 else (qb if dy < 0.0 else (0.0 if inside else 2.0))
    far_y = qb if dy > 0.0 else (qa if dy < 0.0 else (1.0 if inside else -1.0))
    qa, qb = az * rz, bz * rz
    inside = (az <= 0.0) & (bz >= 0.0)
    near_z = qa if dz > 0.0 else (qb if dz < 0.0 else (0.0 if inside else 2.0))
    far_z = qb if dz > 0.0 else (qa if dz < 0.0 else (1.0 if inside else -1.0))

    enter = near_x if near_x > 0.0 else 0.0
    enter = near_y if near_y > enter else enter
    enter = near_z if near_z > enter else enter
    leave = far_x if far_x < 1.0 else 1.0
    leave = far_y if far_y < leave else leave
    leave = far_z if far_z < leave else leave
    gap = leave - enter
    sure = abs(gap) > SLAB_RELATIVE * (abs(enter) + abs(leave)) + SLAB_ABSOLUTE

    # both endpoints in the open box: per axis, their min and max within it (with one segment,
    # constants of the loop)
    strict = (lx < min(sx, ex)) & (max(sx, ex) < hx) & (ly < min(sy, ey)) \
        & (max(sy, ey) < hy) & (lz < min(sz, ez)) & (max(sz, ez) < hz)
    code = 2 if strict else (1 if gap >= 0.0 else 0)
    return code, bad | (not (strict | sure))


def _exact(sx: float, sy: float, sz: float, ex: float, ey: float, ez: float, lx: float,
           ly: float, lz: float, hx: float, hy: float, hz: float) -> int:
    """The class of one segment against one box, exactly (any finite floats; the empty-box
    infinities allowed). Per axis the slab's parameter interval is a ratio of exact integers
    (``_exact.scaled``); max / min of ratios compare by cross-multiplication."""
    s, e, lo, hi = (sx, sy, sz), (ex, ey, ez), (lx, ly, lz), (hx, hy, hz)
    if lx > hx or ly > hy or lz > hz:
        return 0
    if all(lo[i] < min(s[i], e[i]) and max(s[i], e[i]) < hi[i] for i in range(3)):
        return 2
    enter, leave = (0, 1), (1, 1)  # t in [0, 1], as ratios
    _, v = scaled(*s, *e, *lo, *hi)
    for i in range(3):
        s_i, e_i, lo_i, hi_i = v[i], v[3 + i], v[6 + i], v[9 + i]
        if e_i == s_i:
            if not lo_i <= s_i <= hi_i:
                return 0
            continue
        enter, leave = clip_to_slab(lo_i - s_i, hi_i - s_i, e_i - s_i, enter, leave)
    return 1 if enter[0] * leave[1] <= leave[0] * enter[1] else 0


_QUERY = Query(_filter, _exact,
               args=[("start", POINT), ("end", POINT), ("box_min", BOX_MIN), ("box_max", BOX_MAX)],
               outputs=[CLASS], contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_segment_aabb(
    start: ArrayLike, end: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,
    out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each box against the segment: NONE, INTERSECT or INCLUDE.

    The segment is ``{start + t (end - start) : 0 <= t <= 1}`` and the box the closed set
    ``{box_min <= p <= box_max}``. ``NONE``: they share no point. ``INCLUDE``: the segment lies in
    the box's open interior (both endpoints strictly inside). ``INTERSECT``: otherwise, i.e. the
    segment touches or crosses the boundary (the slab rule of Williams et al. 2004).

    Boundary cases: a segment ending exactly on a face, lying in a face, or passing through an
    edge or corner is INTERSECT; ``start == end`` is a point (INCLUDE strictly inside, INTERSECT
    on the boundary); a flat box (``min == max`` on an axis) is never INCLUDE; an empty box
    (``min > max`` on an axis, e.g. ``AABB.empty()``) is always NONE. Reversing the segment never
    changes the answer. Exact for the floats given, at every magnitude: a float filter with a
    certified error bound, and exact integer arithmetic where it is in doubt.

    Parameters
    ----------
    start, end : (3,) or (N, 3) array_like
        The segment's endpoints.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned (shape: the arguments' broadcast leading shape).

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item, else the codes broadcast over the leading
        dimensions.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), shapes that do not broadcast,
        or an integer float64 cannot hold exactly; the message names the argument.
    """
    codes = _QUERY(start, end, box_min, box_max, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
