"""Segment vs axis-aligned box: NONE, INTERSECT or INCLUDE (the slab method).

References: Kay & Kajiya, "Ray tracing complex scenes", SIGGRAPH 1986; Williams, Barrus, Morley &
Shirley, "An efficient and robust ray-box intersection algorithm", JGT 2004.
"""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from ._batch import (Flagged, Single, broadcast_items, out_dtype, rows, run_chunked, scratch,
                     sort_pair, take)
from ._exact import classify_segment_rational, exact_meets, two_sum
from ._slab import can_prove_finite, slab_interval
from ._tolerances import SEGMENT_NEAR_TIE
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

    The answer is exact for every finite input (the class of the exact values of the floats):
    the rounded slab quotients are trusted only where they cannot disagree with exact
    arithmetic, and the rare boxes where they could (quotients on 0 or 1, slabs of two axes
    whose quotients are within a few ulps: lines through or grazing an edge or a corner) are
    re-decided without quotients, by exact comparisons of products.

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
    doubt = Flagged()
    run_chunked(_classify_chunk, out.size, items, [out, doubt],
                boxes=(2, "box_min", 3, "box_max"), kernel_checks_boxes=True)
    # The items the kernel could not decide by its rounded quotients, all at once: one exact
    # pass per call, not per chunk (its fixed cost would dominate chunks with a single doubt).
    idx = doubt.indices()
    if idx.size:
        out[idx] = _classify_exact(*(take(x, idx) for x in items))
    if lead == ():
        return IntersectionType(int(out[0]))
    return out.reshape(lead)


def _classify_chunk(start, end, box_min, box_max, out: np.ndarray, doubt_out,
                    check=None) -> None:
    """Kernel: write the class codes of one chunk into ``out``.

    Fast rule on the slab interval [entry, exit] (Williams et al.): hit iff entry <= exit,
    entry <= 1 and exit >= 0; INCLUDE iff entry < 0 and exit > 1. A rounded quotient can only
    disagree with its comparison against 0 or 1 when it lands exactly on 0 or 1 (its sign is
    exact; rounding is monotonic); entry and exit, quotients of different axes, can disagree
    with the exact order when within a few ulps (and an empty box can only pass when
    entry == exit). Those boxes, and lines lying in a plane of a zero-direction axis, are
    re-decided exactly (``_exact.exact_meets`` and strict endpoint comparisons).
    """
    dtype = out_dtype(start, end, box_min, box_max)
    s, e = sort_pair(rows(start, dtype), rows(end, dtype))  # reversal-invariant by construction
    with np.errstate(over="ignore", under="ignore"):  # see slab_interval
        d = e - s
        overflow = not np.isfinite(d).all()
        if check is not None and (overflow or not can_prove_finite(s, d, box_min, box_max)):
            box_min, box_max = check(box_min, box_max)  # the boxes are validated up front
            check = None
        if overflow:
            # |end - start| overflowed: halve every coordinate (exact: a power-of-two scaling)
            # so that no quotient becomes inf / inf.
            s, e, box_min, box_max = s * 0.5, e * 0.5, _halved(box_min), _halved(box_max)
            d = e - s
        entry, exit_, on_plane, finite = slab_interval(s, d, box_min, box_max, dtype,
                                                       prove_finite=check is not None)
        if check is not None and not finite:
            # a NaN or infinity in this chunk (or an overflowing quotient): validate it, which
            # raises or replaces empty-box infinities, and recompute from what it returns
            box_min, box_max = check(box_min, box_max)
            entry, exit_, on_plane, _ = slab_interval(s, d, box_min, box_max, dtype)
    hit = (entry <= exit_) & (entry <= 1) & (exit_ >= 0)
    include = (entry < 0) & (exit_ > 1)
    codes = np.add(hit, include, dtype=np.int8)  # include implies hit: 0, 1 or 2
    doubt = (entry == 0) | (entry == 1) | (exit_ == 0) | (exit_ == 1)
    # entry and exit come from different axes' rounded quotients: where they are this close
    # the rounded comparison may differ from the exact one. Only quotients near [0, 1] decide
    # a hit, and there their error is below a few ulps of 1, so an absolute band suffices.
    with np.errstate(invalid="ignore"):  # inf - inf: such boxes are decided by entry/exit > 1
        gap = np.subtract(exit_, entry, out=scratch("gap", entry.shape, dtype))
    doubt |= np.abs(gap, out=gap) <= SEGMENT_NEAR_TIE[dtype]
    if on_plane is not None:
        doubt |= on_plane
    out[...] = codes
    doubt_out.add(doubt)  # decided exactly by classify_checked, after all chunks


def _classify_exact(start, end, box_min, box_max) -> np.ndarray:
    """Classes decided exactly, without quotients ((k, 3) float64 items in)."""
    codes = np.zeros(len(start), dtype=np.int8)
    with np.errstate(over="ignore", invalid="ignore"):
        empty = (box_min > box_max).any(axis=1)  # incl. the empty-box infinities: NONE
        d_hi, d_lo = two_sum(end.T, -start.T)  # end - start exactly, where it does not overflow
        rational_rows = ~empty & ~np.isfinite(d_hi).all(axis=0)
    for i in np.flatnonzero(rational_rows):
        codes[i] = classify_segment_rational(start[i], end[i], box_min[i], box_max[i])
    rest = np.flatnonzero(~rational_rows)  # exact_meets decides empty boxes itself
    if rest.size:
        s, e, lo, hi = (np.ascontiguousarray(x[rest].T) for x in (start, end, box_min, box_max))
        hit = exact_meets(s, d_hi[:, rest], d_lo[:, rest], lo, hi, np.zeros(rest.size),
                          np.ones(rest.size))
        # Both endpoints strictly inside: the open box is convex, so the segment is inside.
        inside = ((lo < np.minimum(s, e)) & (np.maximum(s, e) < hi)).all(axis=0)
        codes[rest] = np.add(hit, inside, dtype=np.int8)
    return codes


def _halved(x):
    return Single(v * 0.5 for v in x) if isinstance(x, Single) else x * 0.5
