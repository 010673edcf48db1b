"""Compiled walks of the hierarchy (:mod:`._bvh_build`) by the distance from a point to a box.

:func:`within`: the boxes that may lie within a radius of a point (a ball's candidates; the
ball meets a box iff the exact distance is at most the radius, Arvo 1990). :func:`candidates`:
the k nearest boxes to points. Both bound the float64 squared distance as below.

The nearest walk only collects *candidates*: every box that may be among a point's k nearest by the
public ``distance_point_aabb`` (rounded to the output dtype, faithfully: within an ulp of the
exact distance, so not monotone in it) or tie with the k-th, plus some that are not. Its
float64 squared distance ``d2`` to a box (or a node's bounds) is the sum of the squared
excesses ``max(lo - p, p - hi, 0)``: each difference, square and sum rounds once, relative
error at most 6u (u = 2**-53), and a square that underflows loses at most 2**-1074. The
public distance ``r`` of a box whose float64 ``d2`` is computed then lies, squared, in
``[d2 (1 - rel) - abs, d2 (1 + rel) + abs]`` (``rel`` 8x the output dtype's faithful-rounding
bound plus 6u; ``abs`` the absolute slack of squares that underflow and of subnormal outputs),
except that beyond the output dtype's largest float ``r`` may be that float or +inf. Overflow
makes ``d2`` +inf, which bounds below (the exact square is at least the largest float) and
bounds nothing above.

A node whose lower bound exceeds the k-th smallest upper bound among the boxes found holds no
box that is among the k nearest or ties with the k-th: it is skipped (the nearer child is
walked first, so that the bound falls early), and the candidates are filtered by the final
bound. Empty boxes are never candidates (their distance is +inf; they are never listed).
"""

from __future__ import annotations

import numpy as np

from ._bvh_build import Tree, _compiled, _helper, leaf_order
from ._bvh_pairs import _grown as _grown_pairs
from ._threads import in_shares

__all__ = ["OUT_ABS", "OUT_REL", "candidates", "select", "within"]

#: ``rel`` above, per output dtype: faithful rounding is within 2**-23 / 2**-52 relatively, so
#: r**2 within 2**-21 / 2**-50 of d**2; 8x that, which also covers float64's 6u.
OUT_REL = {np.float32: 2.0**-18, np.float64: 2.0**-47}
#: ``abs`` above: a float32 subnormal output is within 2**-149 of d < 2**-126, so r**2 is within
#: 2**-274 of d**2; a float64 square that underflows loses at most 2**-1074 (three of them
#: summed), and a float64 subnormal output's square is below 2**-2000.
OUT_ABS = {np.float32: 2.0**-250, np.float64: 2.0**-1000}
_REL64 = OUT_REL[np.float64]
_ABS64 = OUT_ABS[np.float64]
#: The fewest points a thread's share of the walks holds.
_SHARE_MIN = 256
_INF = np.inf


def candidates(tree: Tree, points: np.ndarray, k: int, rel: float, abs_: float,
               out_max: float) -> tuple[np.ndarray, np.ndarray]:
    """``(point, position)`` pairs, grouped by point, for (M, 3) float64 C-contiguous
    ``points``: every leaf box that may be among a point's ``k`` nearest or tie with the k-th
    (``rel``, ``abs_``: the slack above; ``out_max``: the output dtype's largest float). The
    points walk in the order of their Morton codes: neighbours walk the same nodes."""
    rows, _ = leaf_order(points, points)
    cap = out_max * out_max  # +inf for float64

    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        return _nearest(tree, points, rows, lo, hi, k, rel, abs_, cap)  # type: ignore[no-any-return]

    pieces = in_shares(run, len(points), _SHARE_MIN)
    return (np.concatenate([a for a, _ in pieces]), np.concatenate([b for _, b in pieces]))


def within(tree: Tree, centers: np.ndarray, radii: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ball, position)`` pairs, grouped by ball, for (M, 3) float64 C-contiguous ``centers``
    and (M,) ``radii``: every non-empty leaf box that may lie within ``radii[m]`` of
    ``centers[m]`` (the computed squared distance, less its error bound, at most the computed
    squared radius plus its own), plus some that do not."""
    rows, _ = leaf_order(centers, centers)

    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        return _within(tree, centers, radii, rows, lo, hi)  # type: ignore[no-any-return]

    pieces = in_shares(run, len(centers), _SHARE_MIN)
    return (np.concatenate([a for a, _ in pieces]), np.concatenate([b for _, b in pieces]))


@_compiled
def _within(tree, centers, radii, rows, start, stop):  # type: ignore[no-untyped-def]
    """:func:`within` for balls ``rows[start .. stop - 1]``. The squared radius rounds once;
    both sides take the float64 slack ``OUT_REL[float64]`` (over 6u) and ``OUT_ABS[float64]``
    (underflow)."""
    rel = _REL64
    abs_ = _ABS64
    out_q = np.empty(1024, np.int64)
    out_p = np.empty(1024, np.int64)
    n = 0
    stack = np.empty(tree.depth + 2, np.int64)
    lo, hi = tree.leaf_min, tree.leaf_max
    if tree.child_a.shape[0] == 0:
        return out_q[:0].copy(), out_p[:0].copy()
    for i in range(start, stop):
        r = rows[i]
        p = (centers[r, 0], centers[r, 1], centers[r, 2])
        reach = radii[r] * radii[r] * (1.0 + rel) + abs_
        if not _d2(tree.node_min, tree.node_max, 0, p) * (1.0 - rel) - abs_ <= reach:
            continue
        stack[0] = 0
        top = 1
        while top:
            top -= 1
            node = stack[top]
            a = tree.child_a[node]
            b = tree.child_b[node]
            if b >= 0:
                if _d2(tree.node_min, tree.node_max, b, p) * (1.0 - rel) - abs_ <= reach:
                    stack[top] = b
                    top += 1
                if _d2(tree.node_min, tree.node_max, a, p) * (1.0 - rel) - abs_ <= reach:
                    stack[top] = a
                    top += 1
                continue
            for j in range(a, a - b):
                if (lo[j, 0] <= hi[j, 0] and lo[j, 1] <= hi[j, 1] and lo[j, 2] <= hi[j, 2]
                        and _d2(lo, hi, j, p) * (1.0 - rel) - abs_ <= reach):
                    if n == out_q.shape[0]:
                        out_q, out_p = _grown_pairs(out_q, out_p)
                    out_q[n] = r
                    out_p[n] = j
                    n += 1
    return out_q[:n].copy(), out_p[:n].copy()


@_compiled
def select(query, box, distance, m, k):  # type: ignore[no-untyped-def]
    """Each point's ``k`` nearest among its candidates (grouped by point: ``query``, their
    ``box`` indices and float64 ``distance``): ``(index, distance)``, (m, k), by distance, then
    box index, padded with -1 / +inf."""
    index = np.full((m, k), -1, np.int64)
    nearest = np.full((m, k), _INF)
    c = 0
    while c < query.shape[0]:
        r = query[c]
        filled = 0
        while c < query.shape[0] and query[c] == r:
            d = distance[c]
            b = box[c]
            c += 1
            at = filled if filled < k else k
            # insertion into the sorted row; a candidate after the k-th falls off the end
            while at > 0 and (nearest[r, at - 1] > d
                              or (nearest[r, at - 1] == d and index[r, at - 1] > b)):
                if at < k:
                    nearest[r, at] = nearest[r, at - 1]
                    index[r, at] = index[r, at - 1]
                at -= 1
            if at < k:
                nearest[r, at] = d
                index[r, at] = b
                filled = min(filled + 1, k)
    return index, nearest


@_helper
def _d2(lo, hi, j, p):  # type: ignore[no-untyped-def]
    """The rounded squared distance from ``p`` to box ``j`` of ``(lo, hi)`` (+inf on overflow;
    not for empty boxes)."""
    s = 0.0
    for a in range(3):
        e = max(lo[j, a] - p[a], p[a] - hi[j, a], 0.0)
        s += e * e
    return s


@_helper
def _grown(q, p, low):  # type: ignore[no-untyped-def]
    """``q``, ``p`` and ``low`` in arrays twice their size."""
    n = q.shape[0]
    more_q = np.empty(2 * n, np.int64)
    more_p = np.empty(2 * n, np.int64)
    more_low = np.empty(2 * n)
    more_q[:n] = q
    more_p[:n] = p
    more_low[:n] = low
    return more_q, more_p, more_low


@_compiled
def _nearest(tree, points, rows, start, stop, k, rel, abs_, cap):  # type: ignore[no-untyped-def]
    """:func:`candidates` for points ``rows[start .. stop - 1]``."""
    out_q = np.empty(1024, np.int64)
    out_p = np.empty(1024, np.int64)
    low = np.empty(1024)
    n = 0
    stack = np.empty(tree.depth + 2, np.int64)
    lower = np.empty(tree.depth + 2)  # each stacked node's lower bound
    best = np.empty(k)  # the k smallest upper bounds so far, ascending
    lo, hi = tree.leaf_min, tree.leaf_max
    if tree.child_a.shape[0] == 0:
        return out_q[:0].copy(), out_p[:0].copy()
    for i in range(start, stop):
        r = rows[i]
        p = (points[r, 0], points[r, 1], points[r, 2])
        best[:] = _INF
        first = n
        stack[0] = 0
        lower[0] = -_INF
        top = 1
        while top:
            top -= 1
            if lower[top] > best[k - 1]:
                continue
            node = stack[top]
            a = tree.child_a[node]
            b = tree.child_b[node]
            if b < 0:
                for j in range(a, a - b):
                    if not (lo[j, 0] <= hi[j, 0] and lo[j, 1] <= hi[j, 1]
                            and lo[j, 2] <= hi[j, 2]):
                        continue  # empty: never listed
                    d2 = _d2(lo, hi, j, p)
                    down = min(d2 * (1.0 - rel) - abs_, cap)
                    if down > best[k - 1]:
                        continue
                    up = d2 * (1.0 + rel) + abs_
                    up = _INF if up >= cap else up
                    at = k - 1
                    if up < best[at]:  # insert into the sorted k smallest
                        while at > 0 and best[at - 1] > up:
                            best[at] = best[at - 1]
                            at -= 1
                        best[at] = up
                    if n == out_q.shape[0]:
                        out_q, out_p, low = _grown(out_q, out_p, low)
                    out_q[n] = r
                    out_p[n] = j
                    low[n] = down
                    n += 1
                continue
            da = min(_d2(tree.node_min, tree.node_max, a, p) * (1.0 - rel) - abs_, cap)
            db = min(_d2(tree.node_min, tree.node_max, b, p) * (1.0 - rel) - abs_, cap)
            go_a = not da > best[k - 1]
            go_b = not db > best[k - 1]
            if go_a and go_b:
                if db < da:  # the nearer child on top
                    stack[top], lower[top] = a, da
                    stack[top + 1], lower[top + 1] = b, db
                else:
                    stack[top], lower[top] = b, db
                    stack[top + 1], lower[top + 1] = a, da
                top += 2
            elif go_a:
                stack[top], lower[top] = a, da
                top += 1
            elif go_b:
                stack[top], lower[top] = b, db
                top += 1
        kept = first
        for c in range(first, n):  # what the final bound rules out
            if not low[c] > best[k - 1]:
                out_q[kept] = out_q[c]
                out_p[kept] = out_p[c]
                low[kept] = low[c]
                kept += 1
        n = kept
    return out_q[:n].copy(), out_p[:n].copy()
