"""BoxTree.box_pairs / self_pairs against brute force over classify_aabb_aabb, pair for pair.

Data: small trees of integer boxes (touching faces, edges and corners, duplicates, flat and
empty boxes), the same after a refit to other boxes, grids, extreme magnitudes and float32.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import BoxTree, classify_aabb_aabb
from tests.geometry.test_box_tree import grid_boxes, random_boxes
from tests.strategies import batches, boxes


def brute_box_pairs(lo, hi, q_lo, q_hi):
    """Every (query, box) pair in one batched call, in query-then-box order."""
    query, box = (x.reshape(-1) for x in np.meshgrid(np.arange(len(q_lo)), np.arange(len(lo)),
                                                       indexing="ij"))
    kind = np.asarray(classify_aabb_aabb(q_lo[query], q_hi[query], lo[box], hi[box]), np.int8)
    meets = kind != 0
    return query[meets], box[meets], kind[meets]


def brute_self_pairs(lo, hi):
    """Every pair ``i < j`` in one batched call, in ``(i, j)`` order."""
    i, j = np.triu_indices(len(lo), 1)
    meets = np.asarray(classify_aabb_aabb(lo[i], hi[i], lo[j], hi[j]), np.int8) != 0
    return i[meets], j[meets]


def check_pairs(tree, lo, hi, q_lo, q_hi):
    """box_pairs of the query boxes and self_pairs as brute force finds them: the counts."""
    got = tree.box_pairs(q_lo, q_hi)
    for name, g, w in zip(got._fields, got, brute_box_pairs(lo, hi, q_lo, q_hi), strict=True):
        np.testing.assert_array_equal(g, w, err_msg=f"box_pairs.{name} differs from brute force")
    assert got.kind.dtype == np.int8 and got.box_index.dtype == np.int64
    i, j = tree.self_pairs()
    want_i, want_j = brute_self_pairs(lo, hi)
    np.testing.assert_array_equal(i, want_i, err_msg="self_pairs.i differs from brute force")
    np.testing.assert_array_equal(j, want_j, err_msg="self_pairs.j differs from brute force")
    return len(got.box_index), len(i)


@given(batches(boxes(empty=True), max_size=30), batches(boxes(empty=True), max_size=8),
       st.booleans())
def test_pairs_as_brute_force(tree_boxes, query_boxes, refitted):
    """Small trees of integer boxes (touching, duplicate, flat, empty), as built or refitted
    from the same boxes reversed (every box moved)."""
    lo, hi = (np.array(x) for x in zip(*tree_boxes, strict=True))
    q_lo, q_hi = (np.array(x) for x in zip(*query_boxes, strict=True))
    tree = BoxTree(lo[::-1], hi[::-1]) if refitted else BoxTree(lo, hi)
    if refitted:
        tree.refit(lo, hi)
    check_pairs(tree, lo, hi, q_lo, q_hi)


def _scaled(dtype, scale):
    def make():
        rng = np.random.default_rng(11)
        with np.errstate(under="ignore"):
            lo, hi = random_boxes(rng, 300, dtype, scale)
            return lo, hi, lo[::5] * dtype(0.5) + hi[::5] * dtype(0.5), hi[::5]
    return make


def _grid(dtype):
    def make():
        lo, hi = grid_boxes(dtype)
        # query boxes on the grid's planes: touching, inside (INCLUDE), over several cells
        q_lo = np.array([[0.5, 0.5, 0.5], [1, 1, 1], [0, 0, 0], [4, 4, 4], [0.25, 1, 3]], dtype)
        q_hi = np.array([[0.75, 0.75, 0.75], [2, 2, 2], [4, 4, 4], [5, 5, 5], [0.5, 2, 3]], dtype)
        return lo, hi, q_lo, q_hi
    return make


@pytest.mark.parametrize("make", [
    _grid(np.float64), _grid(np.float32), _scaled(np.float64, 1e300),
    _scaled(np.float64, 1e-300), _scaled(np.float64, 2.0**-1070), _scaled(np.float32, 1e37),
    _scaled(np.float32, 1e-38), _scaled(np.float64, 1.0),
], ids=["grid", "grid-float32", "1e300", "1e-300", "subnormal", "float32-1e37",
        "float32-1e-38", "unit"])
def test_pairs_on_grids_and_at_extreme_magnitudes(make):
    lo, hi, q_lo, q_hi = make()
    found, own = check_pairs(BoxTree(lo, hi), lo, hi, q_lo, q_hi)
    assert found > 10 and own > 10, "the scene should have pairs of both kinds"


def test_self_pairs_over_threads_as_brute_force():
    """Enough boxes that the tree is split into many tasks, shared out over threads."""
    rng = np.random.default_rng(12)
    lo, hi = random_boxes(rng, 3000, np.float32)
    tree = BoxTree(lo, hi)
    i, j = tree.self_pairs()
    want_i, want_j = brute_self_pairs(lo, hi)
    assert len(i) > 3000
    np.testing.assert_array_equal(i, want_i, err_msg="self_pairs.i differs from brute force")
    np.testing.assert_array_equal(j, want_j, err_msg="self_pairs.j differs from brute force")


def test_pairs_of_no_boxes_and_one_query():
    empty = BoxTree(np.zeros((0, 3)), np.zeros((0, 3)))
    assert empty.self_pairs().i.size == 0 and empty.box_pairs([0, 0, 0], [1, 1, 1]).kind.size == 0
    tree = BoxTree([[0, 0, 0], [1, 1, 1], [2, 2, 2]], [[1, 1, 1], [2, 2, 2], [3, 3, 3]])
    assert [x.tolist() for x in tree.self_pairs()] == [[0, 1], [1, 2]], "corners touch"
    got = tree.box_pairs([1.5, 1.5, 1.5], [1.75, 1.75, 1.75])
    assert [x.tolist() for x in got] == [[0], [1], [2]], "one query, inside box 1: INCLUDE"


def test_box_pairs_refuses_bad_queries():
    tree = BoxTree([[0, 0, 0]], [[1, 1, 1]])
    with pytest.raises(ValueError, match="min must be finite"):
        tree.box_pairs([[0, np.nan, 0]], [[1, 1, 1]])
    with pytest.raises(ValueError, match=r"do not broadcast over leading dimensions: "
                                         r"min \(2, 3\), max \(3, 3\)"):
        tree.box_pairs(np.zeros((2, 3)), np.ones((3, 3)))
