"""Compiled walks for boxes against the hierarchy (:mod:`._bvh_build`): pairs of boxes that meet.

Two closed boxes meet (share a point) exactly when their intervals overlap on every axis,
``b_lo <= q_hi and q_lo <= b_hi``: comparisons of the floats as given, exact at every magnitude,
no error bound needed. A node is entered on the same test against its bounds, which contain
every non-empty box below it. An empty box (``min > max`` on an axis) meets nothing, but a
finite one may pass the overlap test (``q_lo <= b_hi < b_lo <= q_hi``), so a leaf tests each
box's emptiness too: the pairs found are exactly those that ``classify_aabb_aabb`` does not
call NONE.

Query boxes (:func:`box_pairs`) each walk the tree, in the order of their centres' Morton
codes. The pairs among the tree's own boxes (:func:`self_pairs`) come from a dual descent of
the tree against itself, which meets each pair of boxes in exactly one pair of leaves, so each
pair is found once. Both run in contiguous shares of their work on the package's threads
(``_threads.in_shares``).
"""

from __future__ import annotations

import numpy as np

from ._bvh_build import Tree, _compiled, _helper, leaf_order
from ._threads import in_shares

__all__ = ["box_pairs", "self_pairs"]

#: The fewest queries a thread's share of a walk holds.
_SHARE_MIN = 1024
#: The fewest boxes whose self pairs are shared out over threads.
_SELF_SHARE_MIN_BOXES = 2048
#: The self pairs' tasks (pairs of nodes) split off before they are shared out over threads:
#: enough that the threads' shares come out even.
_TASKS = 512


def box_pairs(tree: Tree, q_min: np.ndarray, q_max: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(query, position)`` of every query box ``[q_min[r], q_max[r]]`` ((M, 3) float64,
    C-contiguous) and leaf box that meet, grouped by query. The queries are walked in the
    order of their centres' Morton codes: neighbours walk the same nodes, still in cache."""
    rows, _ = leaf_order(q_min, q_max)

    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        return _box_pairs(tree, q_min, q_max, rows, lo, hi)  # type: ignore[no-any-return]

    return _joined(in_shares(run, len(q_min), _SHARE_MIN))


def self_pairs(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """``(p, q)``, leaf positions, of every two of the tree's boxes that meet, each pair once
    (in either order)."""
    first, second = _tasks(tree)

    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        return _node_pairs(tree, first, second, lo, hi)  # type: ignore[no-any-return]

    # a small tree's walk takes less than handing a share to a pool thread
    least = 1 if tree.order.size >= _SELF_SHARE_MIN_BOXES else len(first)
    return _joined(in_shares(run, len(first), least))


def _tasks(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of nodes whose pairs of boxes together are the self pairs, each pair of boxes in
    one of them: the root with itself, split as :func:`_node_pairs` splits, a level at a time,
    until there are :data:`_TASKS` (or nothing left to split), so that they share out evenly."""
    if tree.child_a.size == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    lo, hi, child_a, child_b = tree.node_min, tree.node_max, tree.child_a, tree.child_b
    tasks = [(0, 0)]
    split = True
    while split and len(tasks) < _TASKS:
        split = False
        more = []
        for x, y in tasks:
            if x == y and child_b[x] >= 0:
                a, b = int(child_a[x]), int(child_b[x])
                more += [(a, a), (b, b), (a, b)]
                split = True
            elif x == y or (child_b[x] < 0 and child_b[y] < 0):
                more.append((x, y))
            elif np.all(lo[x] <= hi[y]) and np.all(lo[y] <= hi[x]):
                if child_b[x] < 0 or (child_b[y] >= 0 and np.sum(hi[y] - lo[y])
                                      > np.sum(hi[x] - lo[x])):
                    more += [(x, int(child_a[y])), (x, int(child_b[y]))]
                else:
                    more += [(int(child_a[x]), y), (int(child_b[x]), y)]
                split = True
        tasks = more
    pairs = np.array(tasks, np.int64).reshape(-1, 2)
    return pairs[:, 0].copy(), pairs[:, 1].copy()


def _joined(pieces: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.concatenate([a for a, _ in pieces]), np.concatenate([b for _, b in pieces]))


@_helper
def _meets(lo, hi, j, q_lo, q_hi):  # type: ignore[no-untyped-def]
    """Whether box ``j`` of ``(lo, hi)`` overlaps ``[q_lo, q_hi]`` (closed) on every axis."""
    return (lo[j, 0] <= q_hi[0] and q_lo[0] <= hi[j, 0]
            and lo[j, 1] <= q_hi[1] and q_lo[1] <= hi[j, 1]
            and lo[j, 2] <= q_hi[2] and q_lo[2] <= hi[j, 2])


@_helper
def _non_empty(lo, hi, j):  # type: ignore[no-untyped-def]
    return lo[j, 0] <= hi[j, 0] and lo[j, 1] <= hi[j, 1] and lo[j, 2] <= hi[j, 2]


@_helper
def _grown(a, b):  # type: ignore[no-untyped-def]
    """``a`` and ``b`` in arrays twice their size."""
    more_a = np.empty(2 * a.shape[0], np.int64)
    more_b = np.empty(2 * a.shape[0], np.int64)
    more_a[:a.shape[0]] = a
    more_b[:a.shape[0]] = b
    return more_a, more_b


@_helper
def _walk(tree, q_lo, q_hi, r, stack, out_q, out_p, n):  # type: ignore[no-untyped-def]
    """Append ``(r, p)`` to ``out_q``, ``out_p`` from ``n`` on for every non-empty leaf box
    ``p`` that meets ``[q_lo, q_hi]``: ``(out_q, out_p, n)`` after them. A node's two children
    (adjacent in memory) are tested together, before either is stacked."""
    if not _meets(tree.node_min, tree.node_max, 0, q_lo, q_hi):
        return out_q, out_p, n
    stack[0] = 0
    top = 1
    while top:
        top -= 1
        node = stack[top]
        a = tree.child_a[node]
        b = tree.child_b[node]
        if b >= 0:
            if _meets(tree.node_min, tree.node_max, b, q_lo, q_hi):
                stack[top] = b
                top += 1
            if _meets(tree.node_min, tree.node_max, a, q_lo, q_hi):
                stack[top] = a
                top += 1
            continue
        for p in range(a, a - b):
            if (_meets(tree.leaf_min, tree.leaf_max, p, q_lo, q_hi)
                    and _non_empty(tree.leaf_min, tree.leaf_max, p)):
                if n == out_q.shape[0]:
                    out_q, out_p = _grown(out_q, out_p)
                out_q[n] = r
                out_p[n] = p
                n += 1
    return out_q, out_p, n


@_compiled
def _box_pairs(tree, q_min, q_max, rows, start, stop):  # type: ignore[no-untyped-def]
    """:func:`box_pairs` for queries ``rows[start .. stop - 1]``."""
    out_q = np.empty(1024, np.int64)
    out_p = np.empty(1024, np.int64)
    n = np.int64(0)
    stack = np.empty(tree.depth + 2, np.int64)
    if tree.child_a.shape[0]:
        for k in range(start, stop):
            r = rows[k]
            q_lo = (q_min[r, 0], q_min[r, 1], q_min[r, 2])
            q_hi = (q_max[r, 0], q_max[r, 1], q_max[r, 2])
            if q_lo[0] <= q_hi[0] and q_lo[1] <= q_hi[1] and q_lo[2] <= q_hi[2]:
                out_q, out_p, n = _walk(tree, q_lo, q_hi, r, stack, out_q, out_p, n)
    return out_q[:n].copy(), out_p[:n].copy()


@_helper
def _extent(tree, node):  # type: ignore[no-untyped-def]
    return ((tree.node_max[node, 0] - tree.node_min[node, 0])
            + (tree.node_max[node, 1] - tree.node_min[node, 1])
            + (tree.node_max[node, 2] - tree.node_min[node, 2]))


@_helper
def _leaf_pairs(tree, x, y, out_p, out_q, n):  # type: ignore[no-untyped-def]
    """Append the boxes of leaf ``x`` and leaf ``y`` that meet (``x == y``: its own boxes'
    pairs): ``(out_p, out_q, n)`` after them."""
    lo, hi = tree.leaf_min, tree.leaf_max
    a, end_a = tree.child_a[x], tree.child_a[x] - tree.child_b[x]
    b, end_b = tree.child_a[y], tree.child_a[y] - tree.child_b[y]
    for p in range(a, end_a):
        if not _non_empty(lo, hi, p):
            continue
        q_lo = (lo[p, 0], lo[p, 1], lo[p, 2])
        q_hi = (hi[p, 0], hi[p, 1], hi[p, 2])
        for q in range(p + 1 if x == y else b, end_b):
            if _meets(lo, hi, q, q_lo, q_hi) and _non_empty(lo, hi, q):
                if n == out_p.shape[0]:
                    out_p, out_q = _grown(out_p, out_q)
                out_p[n] = p
                out_q[n] = q
                n += 1
    return out_p, out_q, n


@_compiled
def _node_pairs(tree, first, second, start, stop):  # type: ignore[no-untyped-def]
    """The meeting boxes of node pairs ``(first[k], second[k])`` for ``k`` in ``start .. stop -
    1``: a node with itself, its boxes' pairs; two nodes, the pairs of a box of each. A dual
    descent (Ericson, RTCD 6.3.2): a node's self pair splits into its children's self pairs
    and the pair of its children; a pair of nodes whose bounds meet splits the one with the
    larger bounds (a leaf never), and a pair whose bounds do not meet holds no pair of boxes."""
    out_p = np.empty(1024, np.int64)
    out_q = np.empty(1024, np.int64)
    n = np.int64(0)
    # pending pairs: at most two per self split above the pair on top (a level each) and one
    # per pair split below it (each a level deeper in one of the two): 2 depth + 3 at most
    cap = 3 * tree.depth + 8
    stack_x = np.empty(cap, np.int64)
    stack_y = np.empty(cap, np.int64)
    for k in range(start, stop):
        stack_x[0] = first[k]
        stack_y[0] = second[k]
        top = 1
        while top:
            top -= 1
            x = stack_x[top]
            y = stack_y[top]
            x_leaf = tree.child_b[x] < 0
            if x == y:
                if x_leaf:
                    out_p, out_q, n = _leaf_pairs(tree, x, x, out_p, out_q, n)
                    continue
                a = tree.child_a[x]
                b = tree.child_b[x]
                stack_x[top], stack_y[top] = a, b
                stack_x[top + 1], stack_y[top + 1] = b, b
                stack_x[top + 2], stack_y[top + 2] = a, a
                top += 3
                continue
            if not _meets(tree.node_min, tree.node_max, x,
                          (tree.node_min[y, 0], tree.node_min[y, 1], tree.node_min[y, 2]),
                          (tree.node_max[y, 0], tree.node_max[y, 1], tree.node_max[y, 2])):
                continue
            y_leaf = tree.child_b[y] < 0
            if x_leaf and y_leaf:
                out_p, out_q, n = _leaf_pairs(tree, x, y, out_p, out_q, n)
                continue
            if x_leaf or (not y_leaf and _extent(tree, y) > _extent(tree, x)):
                stack_x[top], stack_y[top] = x, tree.child_b[y]
                stack_x[top + 1], stack_y[top + 1] = x, tree.child_a[y]
            else:
                stack_x[top], stack_y[top] = tree.child_b[x], y
                stack_x[top + 1], stack_y[top + 1] = tree.child_a[x], y
            top += 2
    return out_p[:n].copy(), out_q[:n].copy()
