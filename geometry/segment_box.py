"""Segment vs axis-aligned box: NONE, INTERSECT or INCLUDE (the slab method).

References: Kay & Kajiya, "Ray tracing complex scenes", SIGGRAPH 1986; Williams, Barrus, Morley &
Shirley, "An efficient and robust ray-box intersection algorithm", JGT 2004.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple, Union

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from . import _jit
from ._batch import (Flagged, Single, broadcast_items, chunk_size, constant, out_dtype, rows,
                     run_chunked, scratch, sort_pair, take)
from ._exact import classify_segment_rational, exact_meets, two_sum
from ._output_pool import empty_bytes
from ._slab import SharedLine, shared_line, slab_interval
from ._tolerances import SEGMENT_NEAR_TIE
from ._validate import as_boxes, as_finite_points, compute_dtype
from .results import IntersectionType

__all__ = ["classify_segment_aabb", "classify_checked"]


@dask_aware
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
    out = empty_bytes(int(np.prod(lead, dtype=np.int64))).view(np.int8)
    doubt = Flagged()
    kernel = _classify_chunk
    if isinstance(items[0], Single) and isinstance(items[1], Single):
        kernel = partial(_classify_chunk, segment=_Segment.of(items[0], items[1], dtype))
    run_chunked(kernel, out.size, items, [out, doubt],
                boxes=(2, "box_min", 3, "box_max"), kernel_checks_boxes=True,
                chunk=chunk_size(dtype))
    # The items the kernel could not decide by its rounded quotients, all at once: one exact
    # pass per call, not per chunk (its fixed cost would dominate chunks with a single doubt).
    idx = doubt.indices()
    if idx.size:
        out[idx] = _classify_exact(*(take(x, idx) for x in items))
    if lead == ():
        return IntersectionType(int(out[0]))
    return out.reshape(lead)


class _Segment(NamedTuple):
    """A segment's endpoints as (3, n) blocks in canonical order, worked out once per call when
    every item shares it (else once per chunk)."""

    s: np.ndarray
    d: np.ndarray  #: e - s
    halve: bool  #: |e - s| overflowed: s and d are for every coordinate halved (exact)
    line: SharedLine | None  #: the slab pass's view of a shared line

    @classmethod
    def of(cls, start, end, dtype) -> "_Segment":
        s, e = sort_pair(rows(start, dtype), rows(end, dtype))  # reversal-invariant
        with np.errstate(over="ignore"):
            d = e - s
            halve = not np.isfinite(d).all()
            if halve:
                # halving is exact (a power-of-two scaling) and keeps every quotient from
                # becoming inf / inf
                s, e = s * 0.5, e * 0.5
                d = e - s
        return cls(s, d, halve, shared_line(s, d) if s.shape[1] == 1 else None)


def _classify_chunk(start, end, box_min, box_max, out: np.ndarray, doubt_out, check=None,
                    segment: _Segment | None = None) -> None:
    """Kernel: write the class codes of one chunk into ``out``.

    With [entry, exit] the slab interval (Williams et al.), ``lo = max(entry, 0)``,
    ``hi = min(exit, 1)`` and ``g = hi - lo``: the segment meets the box iff ``g >= 0``, and
    is inside it iff ``entry < 0`` and ``exit > 1`` (then ``g == 1``).

    Where the rounded answer can differ from the exact one, the box is flagged for an exact
    decision (``_exact.exact_meets`` and strict endpoint comparisons):

    - meeting: ``lo`` and ``hi`` lie in [0, 1] whenever ``g`` is near 0, where entry and exit
      (quotients of different axes) err by a few ulps of 1: ``|g|`` within SEGMENT_NEAR_TIE.
      An empty box can only pass with ``entry == exit``, so it is flagged too;
    - inside: a rounded quotient has the exact sign unless it underflows to 0, and compares
      with 1 exactly unless it equals 1 (``fl(b - s) / fl(e - s)`` is monotonic in ``b``), so
      ``entry == 0`` or ``exit == 1`` decide nothing: flagged where ``g == 1`` (those and the
      sure insides) yet not sure inside;
    - lines lying in a plane of a zero-direction axis (``on_plane``).
    """
    dtype = out_dtype(start, end, box_min, box_max)
    if segment is None:
        segment = _Segment.of(start, end, dtype)
    if not segment.halve and _jit.usable(segment.line, dtype, box_min, box_max):
        doubt = scratch("jit_doubt", out.shape, bool)
        flagged = _jit.segment_pass(segment.line, box_min, box_max, SEGMENT_NEAR_TIE[dtype], out,
                                    doubt)
        if flagged >= 0:
            if flagged:
                doubt_out.add(doubt)
            return
        # a coordinate is not finite: the numpy kernel below validates the chunk
    if segment.halve:
        if check is not None:  # validate the boxes before halving them
            box_min, box_max = check(box_min, box_max)
            check = None
        box_min, box_max = _halved(box_min), _halved(box_max)
    with np.errstate(over="ignore", under="ignore"):  # see slab_interval
        entry, exit_, on_plane = slab_interval(segment.s, segment.d, box_min, box_max, dtype,
                                               check, line=segment.line)
    c = len(out)
    inside = np.less(entry, 0)
    inside &= exit_ > 1
    lo = np.maximum(entry, constant(0.0, c, dtype), out=entry)
    hi = np.minimum(exit_, constant(1.0, c, dtype), out=exit_)
    g = np.subtract(hi, lo, out=hi)  # no NaN: lo >= 0 and hi <= 1, so never inf - inf
    np.add(g >= 0, inside, dtype=np.int8, out=out)  # inside implies g == 1: 0, 1 or 2
    doubt = g >= 1
    doubt ^= inside  # g == 1 but not surely inside
    doubt |= np.abs(g, out=g) <= SEGMENT_NEAR_TIE[dtype]
    if on_plane is not None:
        doubt |= on_plane
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
