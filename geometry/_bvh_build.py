"""Compiled bounding-volume hierarchy over axis-aligned boxes: the build (:func:`build`).

Build (Karras 2012, "Maximizing parallelism in the construction of BVHs"; Lauterbach et al.
2009, LBVH): each non-empty box gets the 63-bit Morton code of its centre, the boxes are sorted
by code (empty boxes after all of them), and ranges of the sorted order are split top-down at
the highest bit in which the range's first and last codes differ (at the middle when they are
equal), down to leaves of at most ``LEAF_SIZE`` boxes. Everything is float64 (float32 boxes
convert exactly; one compiled version of each function), and node bounds are the min / max of
their boxes' coordinates: exact, and a superset of every non-empty box below (an empty box only
widens them). The tree (:class:`Tree`) takes 2N - 1 nodes for N boxes, plus a copy of the boxes
in leaf order (reading a leaf is then one contiguous read): O(N) beyond the inputs.

Refit (:func:`refit`): new coordinates for the same boxes keep the topology; one bottom-up pass
copies them to leaf order and recomputes every node's bounds, so the walks stay exact however
far the boxes moved (only their speed decays).

The walk over it is in :mod:`._bvh`; both compile with :func:`_compiled` (the functions called
from Python) and :func:`_helper` (those they call). A first build of a few thousand boxes runs
them as written while they compile (:class:`._background.Tiered`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ._background import Tiered
from ._bvh_results import as_tree_boxes
from ._loops import njit_cached
from ._threads import in_shares
from ._validate import compute_dtype

__all__ = ["LEAF_SIZE", "Tree", "build", "leaf_order", "refit", "refit_boxes"]

#: Boxes per leaf at most: four boxes' coordinates are three cache lines.
LEAF_SIZE = 4

_INF = np.inf
_MORTON_SCALE = float((1 << 21) - 1)
#: The fewest boxes a thread's share of a refit's copy holds.
_GATHER_SHARE_MIN = 1 << 17
_LAST_CODE = (1 << 63) - 1  #: the empty boxes' code: after (or with) every Morton code


def _compiled(func: Any) -> Tiered:
    """A function of the build or a walk that Python calls: ``numba.njit``, cached next to the
    package where it can write, else uncached (a read-only install), releasing the GIL (the
    walks run on the package's threads), run as written while it compiles behind a small first
    call (:class:`._background.Tiered`). No fastmath: the walk's error bounds (:mod:`._bvh`)
    assume IEEE arithmetic."""
    return Tiered(func, njit_cached(func, error_model="numpy", nogil=True))


def _helper(func: Any) -> Any:
    """A function that only :func:`_compiled` ones call: ``func`` itself, which numba compiles
    into each caller (``register_jitable``) and Python runs as written."""
    from numba.extending import register_jitable

    return register_jitable(error_model="numpy")(func)


class Tree(NamedTuple):
    """The hierarchy over N boxes, as :func:`build` returns it (all float64 / int64,
    C-contiguous: one compiled version of the walk)."""

    order: np.ndarray  #: (N,) the input index of each box, in leaf order
    leaf_min: np.ndarray  #: (N, 3) the boxes in leaf order
    leaf_max: np.ndarray
    #: (2N - 1,) nodes in depth-first order, siblings adjacent: an inner node has children
    #: ``child_a`` and ``child_b``; a leaf has ``child_b < 0`` and holds the leaf positions
    #: ``child_a .. child_a - child_b - 1``
    child_a: np.ndarray
    child_b: np.ndarray
    node_min: np.ndarray  #: (2N - 1, 3) each node's bounds: the min / max over its boxes
    node_max: np.ndarray
    depth: int  #: the nodes on the longest path from the root to a leaf


@_helper
def _spread_bits(v: int) -> int:
    """The low 21 bits of ``v`` spread to every third bit of a 63-bit integer."""
    v &= 0x1FFFFF
    v = (v | (v << 32)) & 0x1F00000000FFFF
    v = (v | (v << 16)) & 0x1F0000FF0000FF
    v = (v | (v << 8)) & 0x100F00F00F00F00F
    v = (v | (v << 4)) & 0x10C30C30C30C30C3
    v = (v | (v << 2)) & 0x1249249249249249
    return v


@_helper
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
    # plain loops, not np.arange / copy / zeros / max: each of those compiles numba's generic
    # implementation on a cold start, together about as long as this function itself
    k = codes.shape[0]
    index = np.empty(k, np.int64)
    keys = np.empty(k, np.int64)
    for j in range(k):
        index[j] = j
        keys[j] = codes[j]
    spare_index = np.empty(k, np.int64)
    spare_keys = np.empty(k, np.int64)
    count = np.empty(2049, np.int64)
    for shift in range(0, 66, 11):
        for b in range(2049):
            count[b] = 0
        for j in range(k):
            count[((keys[j] >> shift) & 2047) + 1] += 1
        same = False  # one digit for every code
        for b in range(2049):
            same = same | (count[b] == k)
        if same:
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
def _by_emptiness(box_min, box_max):  # type: ignore[no-untyped-def]
    """``(non-empty, empty)``: the indices of the boxes of each kind, ascending."""
    n = box_min.shape[0]
    keep = np.empty(n, np.int64)
    empty = np.empty(n, np.int64)
    k = 0
    e = 0
    for i in range(n):
        if (box_min[i, 0] <= box_max[i, 0] and box_min[i, 1] <= box_max[i, 1]
                and box_min[i, 2] <= box_max[i, 2]):
            keep[k] = i
            k += 1
        else:
            empty[e] = i
            e += 1
    return keep[:k], empty[:e]


@_helper
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
    # depth-first, the stack holds at most one node a level beyond the one taken: a split is at a
    # bit where the range's codes differ (63 of them) or halves a range of equal codes (under 63
    # times), so no path is deeper than 127 and 128 entries always suffice
    s_node = np.empty(128, np.int64)
    s_start = np.empty(128, np.int64)
    s_end = np.empty(128, np.int64)
    s_depth = np.empty(128, np.int64)
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
def _gather(box_min, box_max, tree, start, end):  # type: ignore[no-untyped-def]
    """Copy the boxes at leaf positions ``start .. end - 1`` into ``tree``'s leaf order (as
    float64); the number of coordinates that no box may hold (NaN, a min of -inf, a max of
    +inf), for the caller to raise the validation's error."""
    order, leaf_min, leaf_max = tree.order, tree.leaf_min, tree.leaf_max
    bad = 0
    for j in range(start, end):
        i = order[j]
        for a in range(3):
            lo = box_min[i, a]
            hi = box_max[i, a]
            if not (lo > -_INF and hi < _INF):  # NaN fails both
                bad += 1
            leaf_min[j, a] = lo
            leaf_max[j, a] = hi
    return bad


@_compiled
def _node_bounds(tree):  # type: ignore[no-untyped-def]
    """Recompute every node's bounds from the leaf boxes, in place: children come after their
    parent, so one pass from the last node up does it."""
    leaf_min, leaf_max, child_a, child_b, node_min, node_max = (
        tree.leaf_min, tree.leaf_max, tree.child_a, tree.child_b, tree.node_min, tree.node_max)
    for node in range(child_a.shape[0] - 1, -1, -1):
        a = child_a[node]
        b = child_b[node]
        if b < 0:
            for ax in range(3):
                lo = leaf_min[a, ax]
                hi = leaf_max[a, ax]
                for j in range(a + 1, a - b):
                    lo = min(lo, leaf_min[j, ax])
                    hi = max(hi, leaf_max[j, ax])
                node_min[node, ax] = lo
                node_max[node, ax] = hi
        else:
            for ax in range(3):
                node_min[node, ax] = min(node_min[a, ax], node_min[b, ax])
                node_max[node, ax] = max(node_max[a, ax], node_max[b, ax])


def leaf_order(box_min: np.ndarray, box_max: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(order, codes)``: the (N, 3) float64 C-contiguous boxes' indices sorted by the Morton
    code of their centres, empty boxes last, and those codes (the empty boxes' after all)."""
    keep, empty = _by_emptiness(box_min, box_max)
    codes = _morton_codes(box_min, box_max, keep)
    sort = _radix_argsort(codes)
    return (np.concatenate((keep[sort], empty)),
            np.concatenate((codes[sort], np.full(empty.size, _LAST_CODE))))


def build(box_min: np.ndarray, box_max: np.ndarray) -> Tree:
    """The hierarchy over (N, 3) float64 C-contiguous boxes (validated): no nodes when there
    is no box."""
    order, codes = leaf_order(box_min, box_max)
    n = order.size
    if n == 0:
        none = np.empty(0, np.int64)
        bounds = np.empty((0, 3))
        return Tree(order, bounds, bounds, none, none, bounds, bounds, 0)
    child_a, child_b, depth = _topology(codes, LEAF_SIZE)
    nodes = child_a.size
    tree = Tree(order, np.empty((n, 3)), np.empty((n, 3)), child_a, child_b,
                np.empty((nodes, 3)), np.empty((nodes, 3)), int(depth))
    refit(tree, box_min, box_max)
    return tree


def refit_boxes(tree: Tree, box_min: Any, box_max: Any) -> tuple[Tree, np.dtype]:
    """``(tree, dtype)``: ``tree`` refitted to :meth:`BoxTree.refit`'s arguments as given, and
    the boxes' dtype. (N, 3) C-contiguous float32 or float64 boxes are validated, converted
    and put in leaf order in one pass; anything else is validated and converted first, as at
    the build. The tree returned has new leaf arrays, so a ``ValueError`` leaves ``tree`` as
    it was."""
    n = tree.order.size
    lo, hi = np.asarray(box_min), np.asarray(box_max)
    dtype = lo.dtype
    if not (n > 1 and lo.shape == hi.shape == (n, 3) and dtype == hi.dtype
            and dtype in (np.float32, np.float64)
            and lo.flags.c_contiguous and hi.flags.c_contiguous):
        lo, hi = as_tree_boxes(box_min, box_max)
        if len(lo) != n:
            raise ValueError(f"box_min must have shape ({n}, 3), the tree's boxes, "
                             f"got {lo.shape}")
        dtype = np.dtype(compute_dtype(lo, hi))
        lo, hi = (np.require(x, np.float64, ["C"]) for x in (lo, hi))
    new = tree._replace(leaf_min=np.empty((n, 3)), leaf_max=np.empty((n, 3)))
    if sum(in_shares(lambda start, end: _gather(lo, hi, new, start, end), n,
                     _GATHER_SHARE_MIN)):
        as_tree_boxes(box_min, box_max)  # raises the ValueError that names the bad argument
    _node_bounds(new)
    return new, dtype


def refit(tree: Tree, box_min: np.ndarray, box_max: np.ndarray) -> None:
    """Give ``tree``'s boxes new coordinates ((N, 3) float64 C-contiguous, validated, in the
    input order), in place: the topology is kept, leaf copies and node bounds recomputed. The
    copy runs in shares on the package's threads; the bounds follow in one pass."""
    in_shares(lambda start, end: _gather(box_min, box_max, tree, start, end),
              tree.order.size, _GATHER_SHARE_MIN)
    _node_bounds(tree)
