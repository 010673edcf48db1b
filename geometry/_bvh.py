"""The compiled walk of the bounding-volume hierarchy (:mod:`._bvh_build`): query candidates.

One walk serves every query (:func:`candidates`): a query is a line ``origin + t direction``
that may meet a candidate for ``t`` in ``[t_lo, t_hi]``, and a box that the candidate must
overlap (closed, exact comparisons) on the axes that the line does not constrain
(:class:`Queries`). A triangle is its bounding box and no line, a segment its line for ``t`` in
[0, 1] and its bounding box, a ray its line and the whole space.

The walk never decides an answer; it only collects *candidates*, and may keep any pair whose
answer is not NONE / miss, plus some that are. Its line arithmetic is float64 with certified
error bounds, so a subtree is skipped only when no box in it can be hit:

- A slab parameter ``(b - o) * (1 / d)`` takes three roundings, four for a segment (whose ``d =
  end - start`` is rounded too): relative error at most ``4 u (1 + 4 u)`` with ``u = 2**-53``,
  plus an absolute ``2**-1075`` if the product underflows. Every computed entry / exit is widened
  by ``SLAB_REL |t| + SLAB_ABS`` before it may reject.
- A zero direction component never divides: the axis admits the line exactly when the origin
  lies in the closed slab (an exact comparison). A component whose reciprocal is not a normal
  float (``|d| < 2**-1000`` or ``> 2**1000``) constrains nothing: fewer rejections, never a
  wrong one; the query's box constrains that axis instead (all three for a triangle).
- Overflow makes a widened bound NaN or infinite; every rejection is written as a comparison
  that is False on NaN, so overflow means "descend".

For the nearest hit a second pair of bounds brackets the public function's ``t_enter``, which
is rounded to the output dtype (within 2 ulps of the exact entry there, SEMANTICS.md), and may
round to -inf or +inf beyond that dtype's range: a box that is surely hit gives an upper bound
on the nearest ``t_enter``, and a subtree whose lower bound exceeds it can hold neither the
nearest box nor a tie with it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._bvh_build import Tree, _compiled, _helper, build, refit, refit_boxes
from ._threads import in_shares

__all__ = ["Queries", "Tree", "build", "candidates", "queries", "refit", "refit_boxes"]

# The walks' tolerances live here, not in _tolerances.py: numba's cache of a compiled function
# is invalidated only by a change to its own source file, and these constants are frozen into
# the walks' machine code.
#: Relative bound on the error of a float64 slab parameter ``(b - o) * (1 / d)``: at most four
#: roundings (a segment's ``d = end - start`` is one), 4u(1 + 4u) with u = 2**-53; 8x that.
SLAB_REL = 2.0**-48
#: Absolute slack for slab parameters that underflowed (rounding error 2**-1075 there).
SLAB_ABS = 2.0**-1000

_INF = np.inf
_NORMAL_LO = 2.0**-1000  # |d| below: 1 / d may overflow or lose bits; the axis constrains nothing
_NORMAL_HI = 2.0**1000  # |d| above: 1 / d may be subnormal
_ORDINARY, _ZERO, _FREE = 0, 1, 2  # an axis of a query's line: see Queries.mode
#: The fewest queries a thread's share of a walk holds: one query's walk is short next to
#: handing a share to a pool thread.
_WALK_SHARE_MIN = 256


class Queries(NamedTuple):
    """M queries for :func:`candidates` (float64 / int64 C-contiguous arrays; make them with
    :func:`queries`): query r's candidates may be met by the line ``origin[r] + t d`` for some
    ``t`` in ``[t_lo[r], t_hi[r]]`` (``d`` the direction, ``inverse[r]`` its reciprocals), and
    overlap the closed box ``[box_min[r], box_max[r]]`` on every free axis."""

    box_min: np.ndarray  #: (M, 3); -inf / +inf where the query has no box
    box_max: np.ndarray
    origin: np.ndarray  #: (M, 3)
    inverse: np.ndarray  #: (M, 3) ``1 / d`` on ordinary axes, else 0
    #: (M, 3) per axis: ``_ORDINARY``; ``_ZERO``, d == 0 (the line stays in the slab or never
    #: meets it); ``_FREE``, the line does not constrain it (no line, or 1 / d not normal)
    mode: np.ndarray
    t_lo: np.ndarray  #: (M,)
    t_hi: np.ndarray
    #: keep only the boxes that may be the nearest hit (smallest public ``t_enter``) or tie
    #: with it, rather than every box that may be hit
    nearest: bool
    out_rel: float  #: relative slack on the public ``t_enter`` (nearest only): 8 x 2 ulps
    out_abs: float  #: absolute slack for subnormal ``t_enter``
    out_max: float  #: the largest finite float of the output dtype


def queries(box: tuple[np.ndarray, np.ndarray] | None = None,
            line: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
            nearest: tuple[float, float, float] | None = None) -> Queries:
    """The record for M queries: ``box`` ``(box_min, box_max)``, (M, 3) each, and ``line``
    ``(origin, direction, t_lo, t_hi)``, (M, 3) and (M,) (float64, C-contiguous; at least one
    of them given); ``nearest`` ``(out_rel, out_abs, out_max)`` to keep only the candidates
    for the nearest hit."""
    m = len((box or line or ((),))[0])
    if line is None:
        origin = np.zeros((m, 3))
        inverse = np.zeros((m, 3))
        mode = np.full((m, 3), _FREE)
        t_lo = np.full(m, -_INF)
        t_hi = np.full(m, _INF)
    else:
        origin, direction, t_lo, t_hi = line
        size = np.abs(direction)
        mode = np.where(direction == 0.0, _ZERO,
                        np.where((size < _NORMAL_LO) | (size > _NORMAL_HI), _FREE, _ORDINARY))
        inverse = np.zeros((m, 3))
        np.divide(1.0, direction, out=inverse, where=mode == _ORDINARY)
    box_min, box_max = box if box is not None else (np.full((m, 3), -_INF),
                                                     np.full((m, 3), _INF))
    out_rel, out_abs, out_max = nearest if nearest is not None else (0.0, 0.0, _INF)
    return Queries(box_min, box_max, origin, inverse, mode.astype(np.int64), t_lo, t_hi,
                   nearest is not None, float(out_rel), float(out_abs), float(out_max))


def candidates(tree: Tree, queries: Queries) -> tuple[np.ndarray, np.ndarray]:
    """Every query's candidate boxes, grouped by query: ``(offsets, positions)``, query r's
    (leaf positions) at ``positions[offsets[r]:offsets[r + 1]]``.
    The boxes that the query's line may meet (and that overlap its box on free axes); with
    ``queries.nearest``, only those that may be its nearest hit or tie with it. The queries are
    walked in contiguous pieces on the package's threads (``_threads.in_shares``)."""
    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        piece = Queries._make(f[lo:hi] if isinstance(f, np.ndarray) else f for f in queries)
        return _candidates(tree, piece)  # type: ignore[no-any-return]

    pieces = in_shares(run, len(queries.t_lo), _WALK_SHARE_MIN)
    offsets = [pieces[0][0]]
    for piece_offsets, _ in pieces[1:]:  # each piece's offsets start at 0
        offsets.append(piece_offsets[1:] + offsets[-1][-1])
    return np.concatenate(offsets), np.concatenate([positions for _, positions in pieces])


# ---------------------------------------------------------------------------------- walk


class _Query(NamedTuple):
    """One row of :class:`Queries`, read once per walk (3-tuples per axis)."""

    box_min: tuple[float, float, float]
    box_max: tuple[float, float, float]
    origin: tuple[float, float, float]
    inverse: tuple[float, float, float]
    mode: tuple[int, int, int]
    t_lo: float
    t_hi: float
    exact: bool  #: no axis is free: a rounded slab interval brackets the exact one
    nearest: bool
    out_rel: float
    out_abs: float
    out_max: float


@_helper
def _row(qs, r):  # type: ignore[no-untyped-def]
    return _Query(
        (qs.box_min[r, 0], qs.box_min[r, 1], qs.box_min[r, 2]),
        (qs.box_max[r, 0], qs.box_max[r, 1], qs.box_max[r, 2]),
        (qs.origin[r, 0], qs.origin[r, 1], qs.origin[r, 2]),
        (qs.inverse[r, 0], qs.inverse[r, 1], qs.inverse[r, 2]),
        (qs.mode[r, 0], qs.mode[r, 1], qs.mode[r, 2]),
        qs.t_lo[r], qs.t_hi[r],
        qs.mode[r, 0] != _FREE and qs.mode[r, 1] != _FREE and qs.mode[r, 2] != _FREE,
        qs.nearest, qs.out_rel, qs.out_abs, qs.out_max)


@_helper
def _axis(b_lo, b_hi, q_lo, q_hi, o, inv, mode, entry, exit_):  # type: ignore[no-untyped-def]
    """One axis of :func:`_slab`: ``(entry, exit)`` narrowed by the slab [b_lo, b_hi], and
    whether the axis admits the query at all."""
    if mode == _ORDINARY:
        ta = (b_lo - o) * inv
        tb = (b_hi - o) * inv
        if inv < 0.0:
            ta, tb = tb, ta
        entry = ta if ta > entry else entry
        exit_ = tb if tb < exit_ else exit_
        return entry, exit_, True
    if mode == _ZERO:
        return entry, exit_, b_lo <= o <= b_hi
    # the line does not constrain this axis: the query's box does
    return entry, exit_, b_lo <= q_hi and q_lo <= b_hi


@_helper
def _slab(lo, hi, j, q):  # type: ignore[no-untyped-def]
    """Box ``j`` of ``(lo, hi)`` against query ``q``: the rounded ``(entry, exit)`` of its line
    in the box, and ``inside``: False when the box surely misses the query (exact: a zero
    direction component puts the line outside a slab, or on a free axis the box does not
    overlap the query's box)."""
    entry, exit_, in0 = _axis(lo[j, 0], hi[j, 0], q.box_min[0], q.box_max[0], q.origin[0],
                              q.inverse[0], q.mode[0], -_INF, _INF)
    entry, exit_, in1 = _axis(lo[j, 1], hi[j, 1], q.box_min[1], q.box_max[1], q.origin[1],
                              q.inverse[1], q.mode[1], entry, exit_)
    entry, exit_, in2 = _axis(lo[j, 2], hi[j, 2], q.box_min[2], q.box_max[2], q.origin[2],
                              q.inverse[2], q.mode[2], entry, exit_)
    return entry, exit_, in0 and in1 and in2


@_helper
def _may_hit(entry, exit_, inside, q):  # type: ignore[no-untyped-def]
    """False only when the exact line interval, clamped to [t_lo, t_hi], is surely empty."""
    if not inside:
        return False
    e = entry - (abs(entry) * SLAB_REL + SLAB_ABS)
    x = exit_ + (abs(exit_) * SLAB_REL + SLAB_ABS)
    return not (e > x or e > q.t_hi or x < q.t_lo)


@_helper
def _enter_lower(entry, q):  # type: ignore[no-untyped-def]
    """A lower bound on the public ``t_enter`` of every box in a node whose entry is ``entry``:
    -inf where that ``t_enter`` may round to -inf (beyond the output dtype's range). A value
    beyond ``+out_max`` rounds to +inf or to a float near ``out_max``: the bound starts there."""
    e = entry - (abs(entry) * SLAB_REL + SLAB_ABS)
    e = q.t_lo if q.t_lo > e else e
    e = q.out_max if e > q.out_max else e
    e = e - (abs(e) * q.out_rel + q.out_abs)
    return e if e >= -q.out_max else -_INF  # also NaN


@_helper
def _enter_upper(entry, exit_, inside, q):  # type: ignore[no-untyped-def]
    """An upper bound on the public ``t_enter`` of a surely hit box, else +inf: +inf too where
    that ``t_enter`` may round to +inf. A value beyond ``-out_max`` rounds to -inf or to a
    float near ``-out_max``: the bound starts there."""
    if not (inside and q.exact):
        return _INF
    e = entry + (abs(entry) * SLAB_REL + SLAB_ABS)
    x = exit_ - (abs(exit_) * SLAB_REL + SLAB_ABS)
    e = q.t_lo if q.t_lo > e else e
    x = q.t_hi if q.t_hi < x else x
    if not e <= x:  # not surely hit (or NaN)
        return _INF
    e = -q.out_max if e < -q.out_max else e
    up = e + (abs(e) * q.out_rel + q.out_abs)
    return up if up <= q.out_max else _INF


@_helper
def _grown(out, low):  # type: ignore[no-untyped-def]
    """``out`` and ``low`` in arrays twice their size."""
    n = out.shape[0]
    more_out = np.empty(2 * n, np.int64)
    more_low = np.empty(2 * n)
    for c in range(n):
        more_out[c] = out[c]
        more_low[c] = low[c]
    return more_out, more_low


@_helper
def _walk(tree, q, out, low, n):  # type: ignore[no-untyped-def]
    """Append query ``q``'s candidates to ``out[n:]`` (leaf positions) and their ``t_enter``
    lower bounds to ``low[n:]``, growing both as needed: ``(out, low, n)`` after them.

    For a nearest query, ``best`` is an upper bound on the smallest public ``t_enter`` (a surely
    hit box's), and everything whose lower bound exceeds it is left out: nodes as they are
    reached (the nearer child first, so that ``best`` falls early) and again when they leave
    the stack, boxes as they are found and once more at the end."""
    best = _INF
    start = n
    stack = np.empty(tree.depth + 2, np.int64)
    lower = np.empty(tree.depth + 2)  # each stacked node's lower bound
    stack[0] = 0  # the root, untested: its children are tested before they are stacked
    lower[0] = -_INF
    top = 1
    while top:
        top -= 1
        if lower[top] > best:
            continue
        node = stack[top]
        a = tree.child_a[node]
        b = tree.child_b[node]
        if b < 0:
            for j in range(a, a - b):
                e, x, inside = _slab(tree.leaf_min, tree.leaf_max, j, q)
                if not _may_hit(e, x, inside, q):
                    continue
                if q.nearest:
                    up = _enter_upper(e, x, inside, q)
                    best = up if up < best else best
                lo = _enter_lower(e, q)
                if lo > best:
                    continue
                if n == out.shape[0]:
                    out, low = _grown(out, low)
                out[n] = j
                low[n] = lo
                n += 1
            continue
        ea, xa, ina = _slab(tree.node_min, tree.node_max, a, q)
        eb, xb, inb = _slab(tree.node_min, tree.node_max, b, q)
        la = _enter_lower(ea, q)
        lb = _enter_lower(eb, q)
        go_a = _may_hit(ea, xa, ina, q) and not la > best
        go_b = _may_hit(eb, xb, inb, q) and not lb > best
        if go_a and go_b:
            if lb < la:  # the nearer child on top
                stack[top], lower[top] = a, la
                stack[top + 1], lower[top + 1] = b, lb
            else:
                stack[top], lower[top] = b, lb
                stack[top + 1], lower[top + 1] = a, la
            top += 2
        elif go_a:
            stack[top], lower[top] = a, la
            top += 1
        elif go_b:
            stack[top], lower[top] = b, lb
            top += 1
    kept = start
    for c in range(start, n):  # what a later, smaller best rules out
        if not low[c] > best:
            out[kept] = out[c]
            low[kept] = low[c]
            kept += 1
    return out, low, kept


@_compiled
def _candidates(tree, qs):  # type: ignore[no-untyped-def]
    """:func:`candidates` for the queries given, in this thread."""
    m = qs.t_lo.shape[0]
    offsets = np.empty(m + 1, np.int64)  # (not np.zeros: its own compile on a cold start)
    offsets[0] = 0
    out = np.empty(4 * m + 16, np.int64)
    low = np.empty(4 * m + 16)
    n = np.int64(0)  # not a literal 0, for which numba would compile _walk once more
    for r in range(m):
        if tree.child_a.shape[0]:
            out, low, n = _walk(tree, _row(qs, r), out, low, n)
        offsets[r + 1] = n
    return offsets, out[:n].copy()
