"""Compiled walk of the hierarchy (:mod:`._bvh_build`) for the boxes a frustum may meet.

The walk only collects *candidates*, a superset of the boxes that ``classify_aabb_frustum``
does not call NONE. A node (or box) is left out when

- it misses a box that holds the frustum (exact comparisons): the bounding box of the
  frustum's exact vertices, rounded outwards (the exact mode only: the plane-only test may
  call a box outside that box INTERSECT), or
- it lies surely behind one of the frustum's planes ``n . p >= o``: with ``n``, ``o`` the
  frustum's float planes (its exact normalised planes rounded to nearest, within ``u |x| +
  2**-1075`` each), the most a box point reaches, ``s = sum max(n_i lo_i, n_i hi_i) - o``,
  evaluates within ``(u + 4u(1 + 4u)) (sum |n_i| M_i + |o|) + 2**-1075 (sum M_i + 5)`` of the
  exact planes' value (``M_i = max(|lo_i|, |hi_i|)``; u = 2**-53); ``PLANE_REL`` and
  ``PLANE_ABS`` bound that. A box behind a plane is NONE in both modes. Overflow makes the
  test NaN or infinite, and it is written to be False there: "keep".
"""

from __future__ import annotations

import numpy as np

from ._bvh_build import Tree, _compiled, _helper
from ._bvh_pairs import _grown

__all__ = ["candidates"]

#: Relative bound on the error of a plane's ``s`` (above): over 5u; 8x that.
PLANE_REL = 2.0**-48
#: Absolute slack for rounded subnormal normal components and products that underflow; a
#: normal number (a subnormal constant slows the vectorised walk, as _tolerances.PLANE_ABSOLUTE).
PLANE_ABS = 2.0**-1020


def candidates(tree: Tree, bounds: np.ndarray, normals: np.ndarray, offsets: np.ndarray
               ) -> np.ndarray:
    """Leaf positions, ascending, of every non-empty box that may meet the frustum: inside
    ``bounds`` ((2, 3) float64, its min and max rows; infinite for none) and not surely behind
    a plane of ``normals`` ((P, 3)) / ``offsets`` ((P,)); P may be 0."""
    return _candidates(tree, bounds, normals, offsets)  # type: ignore[no-any-return]


@_helper
def _outside(lo, hi, j, bounds, normals, offsets):  # type: ignore[no-untyped-def]
    """Whether box ``j`` of ``(lo, hi)`` surely misses the frustum (its bounds or a plane)."""
    for a in range(3):
        if not (lo[j, a] <= bounds[1, a] and bounds[0, a] <= hi[j, a]):
            return True
    for k in range(offsets.shape[0]):
        s = -offsets[k]
        size = abs(offsets[k])
        reach = 1.0
        for a in range(3):
            n = normals[k, a]
            s += max(n * lo[j, a], n * hi[j, a])
            m = max(abs(lo[j, a]), abs(hi[j, a]))
            size += abs(n) * m
            reach += m
        if s + (size * PLANE_REL + reach * PLANE_ABS) < 0.0:
            return True
    return False


@_compiled
def _candidates(tree, bounds, normals, offsets):  # type: ignore[no-untyped-def]
    out = np.empty(1024, np.int64)
    spare = np.empty(1024, np.int64)
    n = 0
    if tree.child_a.shape[0] == 0 or _outside(tree.node_min, tree.node_max, 0, bounds, normals,
                                              offsets):
        return out[:0].copy()
    lo, hi = tree.leaf_min, tree.leaf_max
    stack = np.empty(tree.depth + 2, np.int64)
    stack[0] = 0
    top = 1
    while top:
        top -= 1
        node = stack[top]
        a = tree.child_a[node]
        b = tree.child_b[node]
        if b >= 0:
            if not _outside(tree.node_min, tree.node_max, b, bounds, normals, offsets):
                stack[top] = b
                top += 1
            if not _outside(tree.node_min, tree.node_max, a, bounds, normals, offsets):
                stack[top] = a
                top += 1
            continue
        for j in range(a, a - b):
            if (lo[j, 0] <= hi[j, 0] and lo[j, 1] <= hi[j, 1] and lo[j, 2] <= hi[j, 2]
                    and not _outside(lo, hi, j, bounds, normals, offsets)):
                if n == out.shape[0]:
                    out, spare = _grown(out, spare)
                out[n] = j
                n += 1
    return out[:n].copy()
