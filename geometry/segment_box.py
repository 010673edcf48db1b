"""Segment vs axis-aligned box: NONE, INTERSECT or INCLUDE (the slab method).

References: Kay & Kajiya, "Ray tracing complex scenes", SIGGRAPH 1986; Williams, Barrus, Morley &
Shirley, "An efficient and robust ray-box intersection algorithm", JGT 2004.
"""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from ._batch import broadcast_items, columns, run_chunked
from ._slab import nonempty, slab_interval
from ._validate import as_boxes, as_finite_points, compute_dtype
from .results import IntersectionType

__all__ = ["classify_segment_aabb", "classify_checked"]


def classify_segment_aabb(
    start: ArrayLike, end: ArrayLike, box_min: ArrayLike, box_max: ArrayLike
) -> Union[IntersectionType, np.ndarray]:
    """Classify each box against the segment: NONE, INTERSECT or INCLUDE.

    The segment is ``{start + t (end - start) : 0 <= t <= 1}`` and the box the closed set
    ``{box_min <= p <= box_max}``. ``NONE``: they share no point. ``INCLUDE``: the segment lies in
    the box's open interior (both endpoints strictly inside). ``INTERSECT``: otherwise, i.e. the
    segment touches or crosses the boundary. With ``[t0, t1]`` the parameter interval of the
    segment's line inside the box this is the rule of Williams et al.: INTERSECT iff t0 or t1 lies
    in [0, 1], INCLUDE iff t0 < 0 and t1 > 1.

    Boundary cases: a segment ending exactly on a face, lying in a face, or passing through an
    edge or corner is INTERSECT; ``start == end`` is a point (INCLUDE strictly inside, INTERSECT
    on the boundary); a flat box (``min == max`` on an axis) is never INCLUDE; an empty box
    (``min > max`` on an axis, e.g. ``AABB.empty()``) is always NONE. Reversing the segment never
    changes the answer. Zero direction components of either sign never divide (no NaN).

    Which endpoint is inside, and whether the segment's bounding box meets the box, are decided
    by comparisons alone (exact); only the crossing of slabs of different axes compares rounded
    quotients, so integer and dyadic inputs get exact answers.

    Parameters
    ----------
    start, end : (3,) or (N, 3) array_like
        The segment's endpoints.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item, else the codes broadcast over the leading
        dimensions.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), or shapes that do not
        broadcast; the message names the argument.
    """
    start = as_finite_points("start", start)
    end = as_finite_points("end", end)
    box_min, box_max = as_boxes("box_min", box_min, "box_max", box_max)
    return classify_checked(start, end, box_min, box_max)


def classify_checked(start, end, box_min, box_max) -> Union[IntersectionType, np.ndarray]:
    """:func:`classify_segment_aabb` on arguments already validated (float arrays)."""
    dtype = compute_dtype(start, end, box_min, box_max)
    lead, items = broadcast_items(
        {"start": start, "end": end, "box_min": box_min, "box_max": box_max}, dtype
    )
    out = np.empty(int(np.prod(lead, dtype=np.int64)), dtype=np.int8)
    run_chunked(_classify_chunk, out.size, items, [out])
    if lead == ():
        return IntersectionType(int(out[0]))
    return out.reshape(lead)


def _classify_chunk(start, end, box_min, box_max, out: np.ndarray) -> None:
    """Kernel: write the class codes of one chunk into ``out``."""
    s, e = columns(start), columns(end)
    lo_box, hi_box = columns(box_min), columns(box_max)
    with np.errstate(over="ignore", under="ignore"):  # see slab_interval
        d = [e[i] - s[i] for i in range(3)]
        if not all(np.isfinite(di).all() for di in d):
            # |end - start| overflowed: halve every coordinate (exact: a power-of-two scaling)
            # so that no quotient becomes inf / inf.
            s, e = [x * 0.5 for x in s], [x * 0.5 for x in e]
            lo_box, hi_box = [x * 0.5 for x in lo_box], [x * 0.5 for x in hi_box]
            d = [e[i] - s[i] for i in range(3)]
        entry, exit_ = slab_interval(s, d, lo_box, hi_box)
    hit = (entry <= exit_) & nonempty(lo_box, hi_box)
    include = True
    for i in range(3):
        seg_lo, seg_hi = np.minimum(s[i], e[i]), np.maximum(s[i], e[i])
        # The segment's bounding box must meet the box: exact, and it is the whole of
        # "t0 <= 1 and t1 >= 0" without the rounding of the quotients.
        hit = hit & (lo_box[i] <= seg_hi) & (seg_lo <= hi_box[i])
        # Both endpoints strictly inside: the open box is convex, so the segment is inside.
        include = include & (lo_box[i] < seg_lo) & (seg_hi < hi_box[i])
    # include implies hit, so the sum is 0, 1 or 2.
    out[...] = np.add(hit, include, dtype=np.int8)
