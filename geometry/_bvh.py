"""Compiled bounding-volume hierarchy over axis-aligned boxes: build and one conservative walk.

Build (Karras 2012, "Maximizing parallelism in the construction of BVHs"; Lauterbach et al.
2009, LBVH): each non-empty box gets the 63-bit Morton code of its centre, the boxes are sorted
by code, and ranges of the sorted order are split top-down at the highest bit in which the
range's first and last codes differ (at the middle when they are equal), down to leaves of at
most ``LEAF_SIZE`` boxes. Everything is float64 (float32 boxes convert exactly; one compiled
version of each function), and node bounds are the min / max of their boxes' coordinates:
exact. The tree (:class:`Tree`) takes 2K - 1 nodes for K boxes, plus a copy of the boxes in
leaf order (reading a leaf is then one contiguous read): O(N) beyond the inputs.

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

from typing import Any, NamedTuple

import numpy as np

from ._engine import in_shares, njit_cached

__all__ = ["LEAF_SIZE", "Queries", "Tree", "build", "candidates", "queries"]

#: Boxes per leaf at most: four boxes' coordinates are three cache lines.
LEAF_SIZE = 4
#: Relative bound on the error of a float64 slab parameter ``(b - o) * (1 / d)``: at most four
#: roundings (a segment's ``d = end - start`` is one), 4u(1 + 4u) with u = 2**-53; 8x that.
SLAB_REL = 2.0**-48
#: Absolute slack for slab parameters that underflowed (rounding error 2**-1075 there).
SLAB_ABS = 2.0**-1000

_INF = np.inf
_MORTON_SCALE = float((1 << 21) - 1)
_NORMAL_LO = 2.0**-1000  # |d| below: 1 / d may overflow or lose bits; the axis constrains nothing
_NORMAL_HI = 2.0**1000  # |d| above: 1 / d may be subnormal
_ORDINARY, _ZERO, _FREE = 0, 1, 2  # an axis of a query's line: see Queries.mode
#: The fewest queries a thread's share of a walk holds: one query's walk is short next to
#: handing a share to a pool thread.
_WALK_SHARE_MIN = 256


def _compiled(func: Any) -> Any:
    """``numba.njit``, cached next to the package where it can write, else uncached (a
    read-only install), releasing the GIL (the walks run on the package's threads). No
    fastmath: the error bounds above assume IEEE arithmetic."""
    return njit_cached(func, error_model="numpy", nogil=True)


class Tree(NamedTuple):
    """The hierarchy over K non-empty boxes, as :func:`build` returns it (all float64 / int64,
    C-contiguous: one compiled version of the walk)."""

    order: np.ndarray  #: (K,) the input index of each box, in leaf order
    leaf_min: np.ndarray  #: (K, 3) the boxes in leaf order
    leaf_max: np.ndarray
    #: (2K - 1,) nodes in depth-first order, siblings adjacent: an inner node has children
    #: ``child_a`` and ``child_b``; a leaf has ``child_b < 0`` and holds the leaf positions
    #: ``child_a .. child_a - child_b - 1``
    child_a: np.ndarray
    child_b: np.ndarray
    node_min: np.ndarray  #: (2K - 1, 3) each node's bounds: the min / max over its boxes
    node_max: np.ndarray
    depth: int  #: the nodes on the longest path from the root to a leaf


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
    ``queries.nearest``,
    only those that may be its nearest hit or tie with it. The queries are walked in
    contiguous pieces on the package's threads (``_engine.in_shares``)."""
    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        piece = Queries._make(f[lo:hi] if isinstance(f, np.ndarray) else f for f in queries)
        return _candidates(tree, piece)  # type: ignore[no-any-return]

    pieces = in_shares(run, len(queries.t_lo), _WALK_SHARE_MIN)
    offsets = [pieces[0][0]]
    for piece_offsets, _ in pieces[1:]:  # each piece's offsets start at 0
        offsets.append(piece_offsets[1:] + offsets[-1][-1])
    return np.concatenate(offsets), np.concatenate([positions for _, positions in pieces])


# ----------------------------------------------------------------------------------- build


@_compiled
def _spread_bits(v: int) -> int:
    """The low 21 bits of ``v`` spread to every third bit of a 63-bit integer."""
    v &= 0x1FFFFF
    v = (v | (v << 32)) & 0x1F00000000FFFF
    v = (v | (v << 16)) & 0x1F0000FF0000FF
    v = (v | (v << 8)) & 0x100F00F00F00F00F
    v = (v | (v << 4)) & 0x10C30C30C30C30C3
    v = (v | (v << 2)) & 0x1249249249249249
    return v


@_compiled
def _quantise(c: float, c_min: float, scale: float) -> int:
    q = (c - c_min) * scale
    if not q >= 0.0:  # also NaN: an overflowed centre only costs tree quality
        return 0
    if q >= _MORTON_SCALE:
        return (1 << 21) - 1
    return int(q)


@_compiled
def _morton_codes(box_min, box_max, keep):  # type: ignore[no-untyped-def]
    k = keep.shape[0]
    centre = np.empty((k, 3))
    for j in range(k):
        i = keep[j]
        for a in range(3):
            centre[j, a] = 0.5 * float(box_min[i, a]) + 0.5 * float(box_max[i, a])
    c_min = np.empty(3)
    scale = np.empty(3)
    for a in range(3):
        lo = _INF
        hi = -_INF
        for j in range(k):
            c = centre[j, a]
            lo = c if c < lo else lo
            hi = c if c > hi else hi
        c_min[a] = lo
        extent = hi - lo
        scale[a] = _MORTON_SCALE / extent if 0.0 < extent < _INF else 0.0
    codes = np.empty(k, np.int64)
    for j in range(k):
        codes[j] = (
            (_spread_bits(_quantise(centre[j, 0], c_min[0], scale[0])) << 2)
            | (_spread_bits(_quantise(centre[j, 1], c_min[1], scale[1])) << 1)
            | _spread_bits(_quantise(centre[j, 2], c_min[2], scale[2]))
        )
    return codes


@_compiled
def _radix_argsort(codes):  # type: ignore[no-untyped-def]
    """The stable argsort of non-negative 63-bit ``codes``: LSD radix, 11 bits a pass (a pass
    whose digit is the same for every code is skipped): linear in the number of codes, where
    a comparison sort takes O(K log K)."""
    k = codes.shape[0]
    index = np.arange(k)
    keys = codes.copy()
    spare_index = np.empty(k, np.int64)
    spare_keys = np.empty(k, np.int64)
    for shift in range(0, 66, 11):
        count = np.zeros(2049, np.int64)
        for j in range(k):
            count[((keys[j] >> shift) & 2047) + 1] += 1
        if count.max() == k:
            continue
        for b in range(2048):
            count[b + 1] += count[b]
        for j in range(k):
            digit = (keys[j] >> shift) & 2047
            at = count[digit]
            count[digit] = at + 1
            spare_index[at] = index[j]
            spare_keys[at] = keys[j]
        index, spare_index = spare_index, index
        keys, spare_keys = spare_keys, keys
    return index


@_compiled
def _non_empty(box_min, box_max):  # type: ignore[no-untyped-def]
    n = box_min.shape[0]
    keep = np.empty(n, np.int64)
    k = 0
    for i in range(n):
        if (box_min[i, 0] <= box_max[i, 0] and box_min[i, 1] <= box_max[i, 1]
                and box_min[i, 2] <= box_max[i, 2]):
            keep[k] = i
            k += 1
    return keep[:k]


@_compiled
def _split(codes, start: int, end: int) -> int:  # type: ignore[no-untyped-def]
    """First index of the right half of the sorted range [start, end) (start < it < end)."""
    first = codes[start]
    diff = first ^ codes[end - 1]
    if diff == 0:
        return (start + end) // 2
    bit = 1
    while diff > 1:
        diff >>= 1
        bit <<= 1
    lo = start
    hi = end - 1  # has the bit
    while lo < hi:
        mid = (lo + hi) // 2
        if codes[mid] & bit:
            hi = mid
        else:
            lo = mid + 1
    return lo


@_compiled
def _topology(codes, leaf_size):  # type: ignore[no-untyped-def]
    """``(child_a, child_b, depth)`` of :class:`Tree` over the sorted ``codes``."""
    k = codes.shape[0]
    cap = max(2 * k, 1)
    child_a = np.empty(cap, np.int64)
    child_b = np.empty(cap, np.int64)
    stack_cap = 256
    s_node = np.empty(stack_cap, np.int64)
    s_start = np.empty(stack_cap, np.int64)
    s_end = np.empty(stack_cap, np.int64)
    s_depth = np.empty(stack_cap, np.int64)
    s_node[0] = 0
    s_start[0] = 0
    s_end[0] = k
    s_depth[0] = 1
    top = 1
    count = 1
    depth = 1
    while top:
        top -= 1
        node, start, end, level = s_node[top], s_start[top], s_end[top], s_depth[top]
        depth = max(depth, level)
        if end - start <= leaf_size:
            child_a[node] = start
            child_b[node] = -(end - start)
            continue
        mid = _split(codes, start, end)
        left = count
        count += 2
        child_a[node] = left
        child_b[node] = left + 1
        if top + 2 > stack_cap:  # depth-first: the stack holds at most one node per level
            stack_cap *= 2
            s_node = np.concatenate((s_node, np.empty_like(s_node)))
            s_start = np.concatenate((s_start, np.empty_like(s_start)))
            s_end = np.concatenate((s_end, np.empty_like(s_end)))
            s_depth = np.concatenate((s_depth, np.empty_like(s_depth)))
        s_node[top] = left + 1
        s_start[top] = mid
        s_end[top] = end
        s_depth[top] = level + 1
        s_node[top + 1] = left
        s_start[top + 1] = start
        s_end[top + 1] = mid
        s_depth[top + 1] = level + 1
        top += 2
    return child_a[:count].copy(), child_b[:count].copy(), depth


@_compiled
def _node_bounds(child_a, child_b, leaf_min, leaf_max):  # type: ignore[no-untyped-def]
    n = child_a.shape[0]
    node_min = np.empty((n, 3), leaf_min.dtype)
    node_max = np.empty((n, 3), leaf_max.dtype)
    for node in range(n - 1, -1, -1):  # children come after their parent
        a = child_a[node]
        b = child_b[node]
        if b < 0:
            for ax in range(3):
                lo = leaf_min[a, ax]
                hi = leaf_max[a, ax]
                for i in range(a + 1, a - b):
                    v = leaf_min[i, ax]
                    lo = v if v < lo else lo
                    w = leaf_max[i, ax]
                    hi = w if w > hi else hi
                node_min[node, ax] = lo
                node_max[node, ax] = hi
        else:
            for ax in range(3):
                lo = node_min[a, ax]
                v = node_min[b, ax]
                node_min[node, ax] = v if v < lo else lo
                hi = node_max[a, ax]
                w = node_max[b, ax]
                node_max[node, ax] = w if w > hi else hi
    return node_min, node_max


@_compiled
def _gather(box_min, box_max, order):  # type: ignore[no-untyped-def]
    """The boxes in leaf order, in one compiled pass over the rows (faster than numpy's fancy
    indexing of (K, 3) rows)."""
    k = order.shape[0]
    leaf_min = np.empty((k, 3), box_min.dtype)
    leaf_max = np.empty((k, 3), box_max.dtype)
    for j in range(k):
        i = order[j]
        for a in range(3):
            leaf_min[j, a] = box_min[i, a]
            leaf_max[j, a] = box_max[i, a]
    return leaf_min, leaf_max


def build(box_min: np.ndarray, box_max: np.ndarray) -> Tree:
    """The hierarchy over (N, 3) float64 C-contiguous boxes (validated; empty boxes are left
    out): no nodes when no box is non-empty."""
    keep = _non_empty(box_min, box_max)
    codes = _morton_codes(box_min, box_max, keep)
    sort = _radix_argsort(codes)
    order = keep[sort]
    codes = codes[sort]
    leaf_min, leaf_max = _gather(box_min, box_max, order)
    if order.size == 0:
        empty = np.empty(0, np.int64)
        bounds = np.empty((0, 3), box_min.dtype)
        return Tree(order, leaf_min, leaf_max, empty, empty, bounds, bounds, 0)
    child_a, child_b, depth = _topology(codes, LEAF_SIZE)
    node_min, node_max = _node_bounds(child_a, child_b, leaf_min, leaf_max)
    return Tree(order, leaf_min, leaf_max, child_a, child_b, node_min, node_max, int(depth))


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


@_compiled
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


@_compiled
def _axis(b_lo, b_hi, q_lo, q_hi, o, inv, mode, entry, exit_, inside):  # type: ignore[no-untyped-def]
    """One axis of :func:`_slab`: ``(entry, exit, inside)`` narrowed by the slab [b_lo, b_hi]."""
    if mode == _ORDINARY:
        ta = (b_lo - o) * inv
        tb = (b_hi - o) * inv
        if inv < 0.0:
            ta, tb = tb, ta
        entry = ta if ta > entry else entry
        exit_ = tb if tb < exit_ else exit_
    elif mode == _ZERO:
        inside = inside and b_lo <= o <= b_hi
    else:  # the line does not constrain this axis: the query's box does
        inside = inside and b_lo <= q_hi and q_lo <= b_hi
    return entry, exit_, inside


@_compiled
def _slab(lo, hi, j, q):  # type: ignore[no-untyped-def]
    """Box ``j`` of ``(lo, hi)`` against query ``q``: the rounded ``(entry, exit)`` of its line
    in the box, and ``inside``: False when the box surely misses the query (exact: a zero
    direction component puts the line outside a slab, or on a free axis the box does not
    overlap the query's box)."""
    entry, exit_, inside = _axis(lo[j, 0], hi[j, 0], q.box_min[0], q.box_max[0], q.origin[0],
                                 q.inverse[0], q.mode[0], -_INF, _INF, True)
    entry, exit_, inside = _axis(lo[j, 1], hi[j, 1], q.box_min[1], q.box_max[1], q.origin[1],
                                 q.inverse[1], q.mode[1], entry, exit_, inside)
    return _axis(lo[j, 2], hi[j, 2], q.box_min[2], q.box_max[2], q.origin[2], q.inverse[2],
                 q.mode[2], entry, exit_, inside)


@_compiled
def _may_hit(entry, exit_, inside, q):  # type: ignore[no-untyped-def]
    """False only when the exact line interval, clamped to [t_lo, t_hi], is surely empty."""
    if not inside:
        return False
    e = entry - (abs(entry) * SLAB_REL + SLAB_ABS)
    x = exit_ + (abs(exit_) * SLAB_REL + SLAB_ABS)
    return not (e > x or e > q.t_hi or x < q.t_lo)


@_compiled
def _enter_lower(entry, q):  # type: ignore[no-untyped-def]
    """A lower bound on the public ``t_enter`` of every box in a node whose entry is ``entry``:
    -inf where that ``t_enter`` may round to -inf (beyond the output dtype's range). A value
    beyond ``+out_max`` rounds to +inf or to a float near ``out_max``: the bound starts there."""
    e = entry - (abs(entry) * SLAB_REL + SLAB_ABS)
    e = q.t_lo if q.t_lo > e else e
    e = q.out_max if e > q.out_max else e
    e = e - (abs(e) * q.out_rel + q.out_abs)
    return e if e >= -q.out_max else -_INF  # also NaN


@_compiled
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


@_compiled
def _grown(out, low):  # type: ignore[no-untyped-def]
    """``out`` and ``low`` in arrays twice their size."""
    n = out.shape[0]
    more_out = np.empty(2 * n, np.int64)
    more_low = np.empty(2 * n)
    for c in range(n):
        more_out[c] = out[c]
        more_low[c] = low[c]
    return more_out, more_low


@_compiled
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
    offsets = np.zeros(m + 1, np.int64)
    out = np.empty(4 * m + 16, np.int64)
    low = np.empty(4 * m + 16)
    n = np.int64(0)  # not a literal 0, for which numba would compile _walk once more
    if tree.child_a.shape[0]:
        for r in range(m):
            out, low, n = _walk(tree, _row(qs, r), out, low, n)
            offsets[r + 1] = n
    return offsets, out[:n].copy()
