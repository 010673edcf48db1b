"""BoxTree.nearest_boxes against brute force over distance_point_aabb, bit for bit.

Ties (duplicate and touching boxes, points inside several boxes) go to the lower index;
distances that round alike tie too; rows of fewer than k non-empty boxes end in -1 / inf.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import BoxTree, distance_point_aabb
from tests.geometry.test_box_tree import grid_boxes, random_boxes
from tests.strategies import batches, boxes, points, small_int_coords


def brute_nearest(lo, hi, p, k):
    """Per point, the boxes by (distance, index), empty ones left out, the first k."""
    index = np.full((len(p), k), -1)
    nearest = []
    for r in range(len(p)):
        d = np.asarray(distance_point_aabb(p[r], lo, hi))
        order = np.lexsort((np.arange(len(lo)), d))
        order = order[np.all(lo[order] <= hi[order], axis=1)][:k]
        index[r, :order.size] = order
        nearest.append(np.concatenate([d[order], np.full(k - order.size, np.inf, d.dtype)]))
    return index, np.array(nearest, dtype=d.dtype).reshape(len(p), k)


def check_nearest(tree, lo, hi, p, k):
    got_index, got = tree.nearest_boxes(p, k)
    want_index, want = brute_nearest(lo, hi, p, k)
    np.testing.assert_array_equal(got_index, want_index, err_msg="nearest box indices differ")
    assert got.dtype == want.dtype, f"distance dtype {got.dtype}, expected {want.dtype}"
    assert got.tobytes() == want.tobytes(), "distances differ from distance_point_aabb's"
    return int(np.count_nonzero(got_index >= 0))


@given(batches(boxes(empty=True), max_size=20), batches(points(small_int_coords), max_size=6),
       st.integers(1, 6), st.booleans())
def test_nearest_as_brute_force(tree_boxes, query_points, k, refitted):
    """Small trees of integer boxes (touching, duplicate, flat, empty; as built or refitted
    from the boxes reversed) and integer points: ties everywhere."""
    lo, hi = (np.array(x) for x in zip(*tree_boxes, strict=True))
    tree = BoxTree(lo[::-1], hi[::-1]) if refitted else BoxTree(lo, hi)
    if refitted:
        tree.refit(lo, hi)
    check_nearest(tree, lo, hi, np.array(query_points), k)


def _scene(dtype, scale, n=300):
    rng = np.random.default_rng(21)
    with np.errstate(under="ignore"):
        lo, hi = random_boxes(rng, n, dtype, scale)
        p = (rng.uniform(-0.7, 1.5, (40, 3)) * scale).astype(dtype)
    return lo, hi, p


@pytest.mark.parametrize("dtype, scale", [
    (np.float64, 1.0), (np.float32, 1.0), (np.float64, 1e300), (np.float64, 1e-300),
    (np.float64, 2.0**-1070), (np.float32, 2e38), (np.float32, 1e-38), (np.float64, 1e154),
], ids=["unit", "float32", "1e300", "1e-300", "subnormal", "float32-2e38", "float32-1e-38",
        "squares-overflow"])
def test_nearest_at_extreme_magnitudes(dtype, scale):
    """Squared distances that overflow or underflow float64, float32 distances beyond its
    range (+inf, still listed) or subnormal."""
    lo, hi, p = _scene(dtype, scale)
    with np.errstate(over="ignore", under="ignore"):
        assert check_nearest(BoxTree(lo, hi), lo, hi, p, 5) == 200


def test_nearest_on_a_grid_ties_to_the_lower_index():
    """Grid cubes twice over (equal distances), flat and empty boxes; points on faces and
    corners, inside several boxes at once (distance 0)."""
    rng = np.random.default_rng(22)
    for dtype in (np.float64, np.float32):
        lo, hi = grid_boxes(dtype)
        p = (rng.integers(-2, 12, (60, 3)) / 2.0).astype(dtype)
        assert check_nearest(BoxTree(lo, hi), lo, hi, p, 12) == 720


def test_fewer_boxes_than_k_pad_and_one_point_gives_one_row():
    tree = BoxTree([[0, 0, 0], [5, 5, 5], [2, 0, 0]], [[1, 1, 1], [4, 4, 4], [3, 1, 1]])
    index, distance = tree.nearest_boxes([0, 0, 0], 3)
    assert index.tolist() == [0, 2, -1] and distance.tolist() == [0.0, 2.0, np.inf], (
        "box 1 is empty: never listed")
    index, distance = BoxTree(np.zeros((0, 3)), np.zeros((0, 3))).nearest_boxes(np.ones((2, 3)), 2)
    assert index.tolist() == [[-1, -1]] * 2 and np.isinf(distance).all()


@pytest.mark.parametrize("k", [0, -1, 1.5, True, "2"])
def test_nearest_refuses_a_bad_k(k):
    with pytest.raises(ValueError, match="k must be a whole number, at least 1"):
        BoxTree([0, 0, 0], [1, 1, 1]).nearest_boxes([0, 0, 0], k)


def test_nearest_refuses_bad_points():
    with pytest.raises(ValueError, match="points must be finite"):
        BoxTree([0, 0, 0], [1, 1, 1]).nearest_boxes([0, np.nan, 0], 1)
