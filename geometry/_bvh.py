"""Compiled bounding-volume hierarchy over axis-aligned boxes: build and conservative traversals.

Build (Karras 2012, "Maximizing parallelism in the construction of BVHs"; Lauterbach et al.
2009, LBVH): each non-empty box gets the 63-bit Morton code of its centre, the boxes are sorted
by code, and ranges of the sorted order are split top-down at the highest bit in which the
range's first and last codes differ (at the middle when they are equal), down to leaves of at
most ``LEAF_SIZE`` boxes. Everything is float64 (float32 boxes convert exactly; one compiled
version of each function), and node bounds are the min / max of their boxes' coordinates:
exact. The tree takes 2K - 1 nodes for K boxes, plus a copy of the boxes in leaf order (reading
a leaf is then one contiguous read): O(N) beyond the inputs.

Traversals never decide an answer; they only collect *candidates*, and may keep any pair whose
answer is not NONE / miss, plus some that are. Their arithmetic is float64 with certified
error bounds, so a subtree is skipped only when no box in it can be hit:

- A slab parameter ``(b - o) * (1 / d)`` takes three roundings, four for a segment (whose ``d =
  end - start`` is rounded too): relative error at most ``4 u (1 + 4 u)`` with ``u = 2**-53``,
  plus an absolute ``2**-1075`` if the product underflows. Every computed entry / exit is widened
  by ``REL |t| + ABS`` (``box_tree.SLAB_REL`` / ``SLAB_ABS``) before it may reject.
- A zero direction component never divides: the axis admits the line exactly when the origin
  lies in the closed slab (an exact comparison). A component whose reciprocal is not a normal
  float (``|d| < 2**-1000`` or ``> 2**1000``) constrains nothing: fewer rejections, never a
  wrong one.
- Overflow makes a widened bound NaN or infinite; every rejection is written as a comparison
  that is False on NaN, so overflow means "descend".

For the nearest hit a second pair of bounds brackets the public function's rounded ``t_enter``
(within a few ulps of the exact entry in the output dtype: ``box_tree.OUT_REL`` / ``OUT_ABS``):
a box that is surely hit gives an upper bound on the nearest ``t_enter``, and a subtree whose
lower bound exceeds it cannot hold the nearest box nor a tie with it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._loops import njit_cached
from ._threads import in_shares

__all__ = [
    "LEAF_SIZE",
    "build",
    "collect_ray_candidates",
    "collect_box_candidates",
    "nearest_candidates",
]

#: Boxes per leaf at most: four boxes' coordinates are three cache lines.
LEAF_SIZE = 4

_INF = np.inf
_MORTON_SCALE = float((1 << 21) - 1)
_NORMAL_LO = 2.0**-1000  # |d| below: 1 / d may overflow or lose bits; the axis constrains nothing
_NORMAL_HI = 2.0**1000  # |d| above: 1 / d may be subnormal


def _compiled(func: Any) -> Any:
    """``numba.njit``, cached next to the package where it can write, else uncached (a
    read-only install), releasing the GIL (the walks run on the package's threads). No
    fastmath: the error bounds above assume IEEE arithmetic."""
    return njit_cached(func, error_model="numpy", nogil=True)


#: The fewest queries a thread's share of a walk holds: a ray's walk takes some microseconds
#: (3 us over 10^6 boxes), handing a share to a pool thread about 0.1 ms.
_WALK_SHARE_MIN = 256


def _in_shares(kernel: Any, tree: tuple[Any, ...], queries: tuple[np.ndarray, ...],
               *constants: Any) -> list[Any]:
    """``kernel(*tree, *queries, *constants)`` on contiguous pieces of the queries (the arrays
    in ``queries``, one row per query), on the package's threads (``_engine.in_shares``): each
    piece's result, in order."""
    def run(lo: int, hi: int) -> Any:
        return kernel(*tree, *(q[lo:hi] for q in queries), *constants)

    return in_shares(run, len(queries[0]), _WALK_SHARE_MIN)


def _joined(pieces: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """One ``(offsets, positions)`` from the pieces' (each piece's offsets start at 0)."""
    offsets = [pieces[0][0]]
    for piece_offsets, _ in pieces[1:]:
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
    whose digit is the same for every code is skipped); ~4x faster than numpy's stable sort."""
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
    """Nodes in depth-first order, siblings adjacent: ``(child_a, child_b, depth)``.
    An inner node has children ``child_a``, ``child_b``; a leaf has ``child_b < 0`` and holds
    the sorted boxes ``child_a .. child_a - child_b - 1``."""
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
    """The boxes in leaf order (numpy's row fancy-indexing measured ~5x slower)."""
    k = order.shape[0]
    leaf_min = np.empty((k, 3), box_min.dtype)
    leaf_max = np.empty((k, 3), box_max.dtype)
    for j in range(k):
        i = order[j]
        for a in range(3):
            leaf_min[j, a] = box_min[i, a]
            leaf_max[j, a] = box_max[i, a]
    return leaf_min, leaf_max


def build(box_min: np.ndarray, box_max: np.ndarray) -> tuple[Any, ...]:
    """Build the hierarchy over (N, 3) float64 boxes (validated; empty boxes are left out).

    Returns ``(order, leaf_min, leaf_max, child_a, child_b, node_min, node_max, depth)``:
    ``order[j]`` is the input index of the j-th box in leaf order; no nodes when no box is
    non-empty."""
    keep = _non_empty(box_min, box_max)
    codes = _morton_codes(box_min, box_max, keep)
    sort = _radix_argsort(codes)
    order = keep[sort]
    codes = codes[sort]
    leaf_min, leaf_max = _gather(box_min, box_max, order)
    if order.size == 0:
        empty = np.empty(0, np.int64)
        bounds = np.empty((0, 3), box_min.dtype)
        return order, leaf_min, leaf_max, empty, empty, bounds, bounds, 0
    child_a, child_b, depth = _topology(codes, LEAF_SIZE)
    node_min, node_max = _node_bounds(child_a, child_b, leaf_min, leaf_max)
    return order, leaf_min, leaf_max, child_a, child_b, node_min, node_max, int(depth)


# ------------------------------------------------------------------------------ traversal


@_compiled
def _axis_mode(d: float) -> int:
    """0: an ordinary axis; 1: d == 0 (exact slab containment); 2: unconstrained (see above)."""
    if d == 0.0:
        return 1
    a = abs(d)
    if a < _NORMAL_LO or a > _NORMAL_HI:
        return 2
    return 0


@_compiled
def _axis(lo, hi, o, i, mode, entry, exit_, inside):  # type: ignore[no-untyped-def]
    """One axis of :func:`_slab`: ``(entry, exit, inside)`` narrowed by the slab [lo, hi]."""
    if mode == 0:
        ta = (lo - o) * i
        tb = (hi - o) * i
        if i < 0.0:
            ta, tb = tb, ta
        entry = ta if ta > entry else entry
        exit_ = tb if tb < exit_ else exit_
    elif mode == 1:
        inside = inside and lo <= o <= hi
    return entry, exit_, inside


@_compiled
def _slab(lo0, lo1, lo2, hi0, hi1, hi2, o0, o1, o2, i0, i1, i2, m0, m1, m2):  # type: ignore[no-untyped-def]
    """Rounded ``(entry, exit, inside)`` of a line in a box: ``inside`` is False when a zero
    direction component puts the line outside the closed slab (exactly)."""
    entry, exit_, inside = _axis(lo0, hi0, o0, i0, m0, -_INF, _INF, True)
    entry, exit_, inside = _axis(lo1, hi1, o1, i1, m1, entry, exit_, inside)
    return _axis(lo2, hi2, o2, i2, m2, entry, exit_, inside)


@_compiled
def _may_hit(entry, exit_, inside, t_lo, t_hi, rel, ab):  # type: ignore[no-untyped-def]
    """False only when the exact line interval, clamped to [t_lo, t_hi], is surely empty."""
    if not inside:
        return False
    e = entry - (abs(entry) * rel + ab)
    x = exit_ + (abs(exit_) * rel + ab)
    return not (e > x or e > t_hi or x < t_lo)


@_compiled
def _enter_lower(entry, t_lo, rel, ab, orel, oab):  # type: ignore[no-untyped-def]
    """A lower bound on the public ``t_enter`` of every box in a node whose entry is ``entry``."""
    e = entry - (abs(entry) * rel + ab)
    e = t_lo if t_lo > e else e
    return e - (abs(e) * orel + oab)


@_compiled
def _enter_upper(entry, exit_, inside, exact, t_lo, t_hi, rel, ab, orel, oab, omax):  # type: ignore[no-untyped-def]
    """An upper bound on the public ``t_enter`` of a surely hit box, else +inf."""
    if not (inside and exact):
        return _INF
    e = entry + (abs(entry) * rel + ab)
    x = exit_ - (abs(exit_) * rel + ab)
    e = t_lo if t_lo > e else e
    x = t_hi if t_hi < x else x
    if not e <= x:  # not surely hit (or NaN)
        return _INF
    up = e + (abs(e) * orel + oab)
    if not up <= omax:  # rounds to +inf in the output dtype (or overflowed)
        return _INF
    return up


@_compiled
def _line_setup(o, d, r):  # type: ignore[no-untyped-def]
    o0, o1, o2 = o[r, 0], o[r, 1], o[r, 2]
    m0, m1, m2 = _axis_mode(d[r, 0]), _axis_mode(d[r, 1]), _axis_mode(d[r, 2])
    i0 = 1.0 / d[r, 0] if m0 == 0 else 0.0
    i1 = 1.0 / d[r, 1] if m1 == 0 else 0.0
    i2 = 1.0 / d[r, 2] if m2 == 0 else 0.0
    exact = m0 != 2 and m1 != 2 and m2 != 2
    return o0, o1, o2, i0, i1, i2, m0, m1, m2, exact


def nearest_candidates(node_min: np.ndarray, node_max: np.ndarray, child_a: np.ndarray,
                       child_b: np.ndarray, leaf_min: np.ndarray, leaf_max: np.ndarray,
                       depth: int, o: np.ndarray, d: np.ndarray, t_lo: np.ndarray,
                       t_hi: np.ndarray, rel: float, ab: float, orel: float, oab: float,
                       omax: float, capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per line, the boxes that may be its nearest hit or tie with it, in one walk.

    Returns ``(best, count, positions)``: ``best[r]`` an upper bound on the smallest public
    ``t_enter`` over the boxes line r hits (+inf when none is surely hit); ``positions[r,
    :count[r]]`` the leaf positions of every box that may be hit and whose ``t_enter`` lower
    bound is at most ``best[r]`` -- or ``count[r] == -1`` when more than ``capacity`` of them
    remain (collect those lines with :func:`collect_ray_candidates` and bound ``best``).
    Visits the nearer child first and skips every node whose lower bound exceeds ``best``.
    """
    pieces = _in_shares(_nearest_candidates, (node_min, node_max, child_a, child_b, leaf_min,
                                              leaf_max, depth), (o, d, t_lo, t_hi),
                        rel, ab, orel, oab, omax, capacity)
    best, count, positions = (np.concatenate(part) for part in zip(*pieces, strict=True))
    return best, count, positions


@_compiled
def _nearest_candidates(node_min, node_max, child_a, child_b, leaf_min, leaf_max, depth, o, d,  # type: ignore[no-untyped-def]
                        t_lo, t_hi, rel, ab, orel, oab, omax, capacity):
    """:func:`nearest_candidates` for the lines given, in this thread."""
    m = o.shape[0]
    best_out = np.empty(m)
    count_out = np.empty(m, np.int64)
    positions = np.empty((m, capacity), np.int64)
    for r in range(m):
        o0, o1, o2, i0, i1, i2, m0, m1, m2, exact = _line_setup(o, d, r)
        tl = t_lo[r]
        th = t_hi[r]
        best = _INF
        found = 0  # candidates in positions[r, :found], their lower bounds in low[:found]
        low = np.empty(capacity)
        overflow = False
        stack = np.empty(depth + 2, np.int64)
        lower = np.empty(depth + 2)  # each stacked node's lower bound, checked again on pop
        e, x, inside = _slab(node_min[0, 0], node_min[0, 1], node_min[0, 2], node_max[0, 0],
                             node_max[0, 1], node_max[0, 2], o0, o1, o2, i0, i1, i2, m0, m1, m2)
        top = 0
        if _may_hit(e, x, inside, tl, th, rel, ab):
            stack[0] = 0
            lower[0] = -_INF
            top = 1
        while top:
            top -= 1
            if lower[top] > best:
                continue
            node = stack[top]
            a = child_a[node]
            b = child_b[node]
            if b < 0:
                for j in range(a, a - b):
                    e, x, inside = _slab(leaf_min[j, 0], leaf_min[j, 1], leaf_min[j, 2],
                                         leaf_max[j, 0], leaf_max[j, 1], leaf_max[j, 2],
                                         o0, o1, o2, i0, i1, i2, m0, m1, m2)
                    if not _may_hit(e, x, inside, tl, th, rel, ab):
                        continue
                    up = _enter_upper(e, x, inside, exact, tl, th, rel, ab, orel, oab, omax)
                    best = up if up < best else best
                    lo = _enter_lower(e, tl, rel, ab, orel, oab)
                    if lo > best or overflow:
                        continue
                    if found == capacity:  # drop what the improved bound rules out
                        kept = 0
                        for c in range(found):
                            if not low[c] > best:
                                positions[r, kept] = positions[r, c]
                                low[kept] = low[c]
                                kept += 1
                        found = kept
                        if found == capacity:
                            overflow = True
                            continue
                    positions[r, found] = j
                    low[found] = lo
                    found += 1
                continue
            ea, xa, ina = _slab(node_min[a, 0], node_min[a, 1], node_min[a, 2], node_max[a, 0],
                                node_max[a, 1], node_max[a, 2], o0, o1, o2, i0, i1, i2, m0, m1, m2)
            eb, xb, inb = _slab(node_min[b, 0], node_min[b, 1], node_min[b, 2], node_max[b, 0],
                                node_max[b, 1], node_max[b, 2], o0, o1, o2, i0, i1, i2, m0, m1, m2)
            go_a = _may_hit(ea, xa, ina, tl, th, rel, ab)
            go_b = _may_hit(eb, xb, inb, tl, th, rel, ab)
            la = _enter_lower(ea, tl, rel, ab, orel, oab)
            lb = _enter_lower(eb, tl, rel, ab, orel, oab)
            go_a = go_a and not la > best
            go_b = go_b and not lb > best
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
        best_out[r] = best
        if overflow:
            count_out[r] = -1
            continue
        kept = 0
        for c in range(found):
            if not low[c] > best:
                positions[r, kept] = positions[r, c]
                kept += 1
        count_out[r] = kept
    return best_out, count_out, positions


@_compiled
def _visit_lines(node_min, node_max, child_a, child_b, leaf_min, leaf_max, stack, o, d,  # type: ignore[no-untyped-def]
                 r, tl, th, bound, rel, ab, orel, oab, out, start):
    """Walk the tree for line ``r``; count its candidates (and write their leaf positions at
    ``out[start:]`` when ``out`` is not empty): boxes that may be hit within [tl, th]
    and whose ``t_enter`` lower bound is at most ``bound``."""
    o0, o1, o2, i0, i1, i2, m0, m1, m2, exact = _line_setup(o, d, r)
    count = 0
    e, x, inside = _slab(node_min[0, 0], node_min[0, 1], node_min[0, 2], node_max[0, 0],
                         node_max[0, 1], node_max[0, 2], o0, o1, o2, i0, i1, i2, m0, m1, m2)
    top = 0
    if _may_hit(e, x, inside, tl, th, rel, ab) and not _enter_lower(e, tl, rel, ab, orel,
                                                                      oab) > bound:
        stack[0] = 0
        top = 1
    write = out.shape[0] > 0
    while top:
        top -= 1
        node = stack[top]
        a = child_a[node]
        b = child_b[node]
        if b < 0:
            for j in range(a, a - b):
                e, x, inside = _slab(leaf_min[j, 0], leaf_min[j, 1], leaf_min[j, 2],
                                     leaf_max[j, 0], leaf_max[j, 1], leaf_max[j, 2],
                                     o0, o1, o2, i0, i1, i2, m0, m1, m2)
                if _may_hit(e, x, inside, tl, th, rel, ab) and not _enter_lower(
                        e, tl, rel, ab, orel, oab) > bound:
                    if write:
                        out[start + count] = j
                    count += 1
            continue
        for c in (a, b):
            e, x, inside = _slab(node_min[c, 0], node_min[c, 1], node_min[c, 2],
                                 node_max[c, 0], node_max[c, 1], node_max[c, 2],
                                 o0, o1, o2, i0, i1, i2, m0, m1, m2)
            if _may_hit(e, x, inside, tl, th, rel, ab) and not _enter_lower(
                    e, tl, rel, ab, orel, oab) > bound:
                stack[top] = c
                top += 1
    return count


def collect_ray_candidates(node_min: np.ndarray, node_max: np.ndarray, child_a: np.ndarray,
                           child_b: np.ndarray, leaf_min: np.ndarray, leaf_max: np.ndarray,
                           depth: int, o: np.ndarray, d: np.ndarray, t_lo: np.ndarray,
                           t_hi: np.ndarray, bound: np.ndarray, rel: float, ab: float,
                           orel: float, oab: float) -> tuple[np.ndarray, np.ndarray]:
    """Candidate pairs of lines and boxes, grouped by line: ``(offsets, positions)`` with line
    r's candidates (positions in leaf order) at ``positions[offsets[r]:offsets[r + 1]]``."""
    return _joined(_in_shares(_collect_ray_candidates, (node_min, node_max, child_a, child_b,
                                                        leaf_min, leaf_max, depth),
                              (o, d, t_lo, t_hi, bound), rel, ab, orel, oab))


@_compiled
def _collect_ray_candidates(node_min, node_max, child_a, child_b, leaf_min, leaf_max, depth,  # type: ignore[no-untyped-def]
                            o, d, t_lo, t_hi, bound, rel, ab, orel, oab):
    """:func:`collect_ray_candidates` for the lines given, in this thread."""
    m = o.shape[0]
    counts = np.zeros(m + 1, np.int64)
    none = np.empty(0, np.int64)
    if child_a.shape[0] == 0:
        return counts, none
    for r in range(m):
        stack = np.empty(depth + 2, np.int64)
        counts[r + 1] = _visit_lines(node_min, node_max, child_a, child_b, leaf_min, leaf_max,
                                     stack, o, d, r, t_lo[r], t_hi[r], bound[r], rel, ab,
                                     orel, oab, none, 0)
    offsets = np.cumsum(counts)
    boxes = np.empty(offsets[m], np.int64)
    for r in range(m):
        if offsets[r + 1] > offsets[r]:
            stack = np.empty(depth + 2, np.int64)
            _visit_lines(node_min, node_max, child_a, child_b, leaf_min, leaf_max, stack,
                         o, d, r, t_lo[r], t_hi[r], bound[r], rel, ab, orel, oab, boxes,
                         offsets[r])
    return offsets, boxes


@_compiled
def _overlaps(lo, hi, j, q_min, q_max, r):  # type: ignore[no-untyped-def]
    return (lo[j, 0] <= q_max[r, 0] and q_min[r, 0] <= hi[j, 0]
            and lo[j, 1] <= q_max[r, 1] and q_min[r, 1] <= hi[j, 1]
            and lo[j, 2] <= q_max[r, 2] and q_min[r, 2] <= hi[j, 2])


@_compiled
def _visit_boxes(node_min, node_max, child_a, child_b, leaf_min, leaf_max, stack,  # type: ignore[no-untyped-def]
                 q_min, q_max, r, out, start):
    """Like :func:`_visit_lines` for the boxes that overlap query box ``r`` (closed, exact)."""
    count = 0
    top = 0
    if _overlaps(node_min, node_max, 0, q_min, q_max, r):
        stack[0] = 0
        top = 1
    write = out.shape[0] > 0
    while top:
        top -= 1
        node = stack[top]
        a = child_a[node]
        b = child_b[node]
        if b < 0:
            for j in range(a, a - b):
                if _overlaps(leaf_min, leaf_max, j, q_min, q_max, r):
                    if write:
                        out[start + count] = j
                    count += 1
            continue
        if _overlaps(node_min, node_max, b, q_min, q_max, r):
            stack[top] = b
            top += 1
        if _overlaps(node_min, node_max, a, q_min, q_max, r):
            stack[top] = a
            top += 1
    return count


def collect_box_candidates(node_min: np.ndarray, node_max: np.ndarray, child_a: np.ndarray,
                           child_b: np.ndarray, leaf_min: np.ndarray, leaf_max: np.ndarray,
                           depth: int, q_min: np.ndarray, q_max: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of query boxes (a triangle's bounding box) and boxes that overlap, as
    :func:`collect_ray_candidates` returns them."""
    return _joined(_in_shares(_collect_box_candidates, (node_min, node_max, child_a, child_b,
                                                        leaf_min, leaf_max, depth),
                              (q_min, q_max)))


@_compiled
def _collect_box_candidates(node_min, node_max, child_a, child_b, leaf_min, leaf_max,  # type: ignore[no-untyped-def]
                            depth, q_min, q_max):
    """:func:`collect_box_candidates` for the query boxes given, in this thread."""
    m = q_min.shape[0]
    counts = np.zeros(m + 1, np.int64)
    none = np.empty(0, np.int64)
    if child_a.shape[0] == 0:
        return counts, none
    for r in range(m):
        stack = np.empty(depth + 2, np.int64)
        counts[r + 1] = _visit_boxes(node_min, node_max, child_a, child_b, leaf_min, leaf_max,
                                     stack, q_min, q_max, r, none, 0)
    offsets = np.cumsum(counts)
    boxes = np.empty(offsets[m], np.int64)
    for r in range(m):
        if offsets[r + 1] > offsets[r]:
            stack = np.empty(depth + 2, np.int64)
            _visit_boxes(node_min, node_max, child_a, child_b, leaf_min, leaf_max, stack,
                         q_min, q_max, r, boxes, offsets[r])
    return offsets, boxes
