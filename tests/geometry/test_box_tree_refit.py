"""BoxTree.refit / rebuild: after the boxes move, every answer is brute force's, bit for bit.

The tree keeps its shape on a refit, so boxes moved far (swapped across the scene, scaled to
1e300, made flat or empty, or non-empty again) leave it badly grouped: the answers must stay
exact all the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, BoxTree
from tests.geometry.test_box_tree import (
    check_rays,
    check_segments,
    check_triangles,
    grid_boxes,
    grid_rays,
    random_boxes,
)
from tests.strategies import batches, boxes


def check_all(tree, lo, hi, rng, dtype=np.float64, m=40, triangles=True):
    """Rays, segments and triangles from grid points against ``tree``, as brute force on
    ``(lo, hi)`` answers them; the number of pairs found."""
    o, d = grid_rays(rng, m, dtype)
    found = check_rays(tree, lo, hi, o, d, t_min=-np.inf)
    found += check_segments(tree, lo, hi, o, (o + d).astype(dtype))
    if triangles:
        found += check_triangles(tree, lo, hi, o, (o + d).astype(dtype),
                                 (o + d[::-1]).astype(dtype))
    return found


@given(batches(st.tuples(boxes(empty=True), boxes(empty=True)), max_size=16),
       st.integers(0, 2**32 - 1))
def test_refit_answers_as_brute_force_on_the_new_boxes(pairs, seed):
    """A tree over one batch of boxes, refitted to another (each box moved anywhere, made flat,
    empty or non-empty again), answers as a tree built over the second batch would."""
    before = np.array([box for box, _ in pairs])
    after = np.array([box for _, box in pairs])
    tree = BoxTree(before[:, 0], before[:, 1])
    tree.refit(after[:, 0], after[:, 1])
    check_all(tree, after[:, 0], after[:, 1], np.random.default_rng(seed), m=6, triangles=False)


def _moved_far(lo, hi):
    """The boxes reversed in order (each moves across the scene) and every third one 1e6 off."""
    lo, hi = lo[::-1].copy(), hi[::-1].copy()
    lo[::3] += 1e6
    hi[::3] += 1e6
    return lo, hi


def _emptied(lo, hi):
    """Every other box empty (both kinds), the boxes empty at the build non-empty again."""
    was_empty = np.any(lo > hi, axis=1)
    lo, hi = lo.copy(), hi.copy()
    lo[was_empty], hi[was_empty] = 1.0, 2.0
    lo[::2], hi[::2] = np.inf, -np.inf
    lo[1::4, 2], hi[1::4, 2] = 3.0, 2.0
    return lo, hi


def _flattened(lo, hi):
    """Every non-empty box flat on x (min == max), on the grid's planes."""
    hi = hi.copy()
    proper = np.all(lo <= hi, axis=1)
    hi[proper, 0] = lo[proper, 0]
    return lo, hi


@pytest.mark.parametrize("move", [_moved_far, _emptied, _flattened])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_refit_then_rebuild_on_grids(move, dtype):
    """Touching, duplicate, flat and empty grid boxes, moved: refit and rebuild both answer as
    brute force, and rebuild changes no answer."""
    lo, hi = grid_boxes(dtype)
    tree = BoxTree(lo, hi)
    with np.errstate(invalid="ignore"):  # inf - inf in the brute-force empties' arithmetic
        new_lo, new_hi = (a.astype(dtype) for a in move(lo.astype(float), hi.astype(float)))
    tree.refit(new_lo, new_hi)
    assert tree.dtype == dtype
    rng = np.random.default_rng(7)
    assert check_all(tree, new_lo, new_hi, rng, dtype, 60) > 100
    before = tree.ray_pairs(*grid_rays(np.random.default_rng(8), 60, dtype))
    tree.rebuild()
    after = tree.ray_pairs(*grid_rays(np.random.default_rng(8), 60, dtype))
    for name, b, a in zip(before._fields, before, after, strict=True):
        assert b.tobytes() == a.tobytes(), f"rebuild changed ray_pairs.{name}"


def test_refit_to_extreme_magnitudes_and_back():
    """From unit boxes to 1e300 and 1e-300 ones and back: exact at each step."""
    rng = np.random.default_rng(9)
    lo, hi = random_boxes(rng, 200, np.float64)
    tree = BoxTree(lo, hi)
    for scale in (1e300, 1e-300, 1.0):
        with np.errstate(under="ignore"):
            o = rng.random((30, 3)) * scale
            d = rng.normal(size=(30, 3)) * scale
            tree.refit(lo * scale, hi * scale)
            assert check_rays(tree, lo * scale, hi * scale, o, d) > 10
            check_segments(tree, lo * scale, hi * scale, o, o + d)


def test_refit_keeps_the_count_and_takes_the_new_dtype():
    lo, hi = grid_boxes(np.float64)
    tree = BoxTree(lo, hi)
    tree.refit(lo.astype(np.float32), hi.astype(np.float32))
    assert (len(tree), tree.dtype) == (len(lo), np.float32)
    empty = AABB.empty()
    one = BoxTree([0, 0, 0], [1, 1, 1])
    one.refit(empty.min, empty.max)
    assert one.ray_pairs([0, 0, 0], [1, 0, 0]).box_index.size == 0, "an emptied box is not hit"
    one.refit([0, 0, 0], [1, 1, 1])
    assert one.ray_pairs([0, 0, 0], [1, 0, 0]).box_index.tolist() == [0]


@pytest.mark.parametrize("box_min, box_max, message", [
    (np.zeros((3, 3)), np.ones((3, 3)), r"box_min must have shape \(2, 3\), the tree's boxes, "
                                        r"got \(3, 3\)"),
    (np.zeros((2, 3)), np.ones((3, 3)), "box_min and box_max must have the same shape"),
    (np.zeros((2, 2)), np.ones((2, 2)), r"box_min must have shape \(3,\) or \(N, 3\)"),
    ([[0, 0, 0], [0, np.nan, 0]], np.ones((2, 3)), "box_min must be finite"),
    (np.zeros((2, 3), np.float32), np.full((2, 3), np.inf, np.float32),
     r"box_max must be finite \(or -inf"),
])
def test_refit_refuses_other_shapes_and_bad_values(box_min, box_max, message):
    tree = BoxTree(np.zeros((2, 3)), np.ones((2, 3)))
    with pytest.raises(ValueError, match=message):
        tree.refit(box_min, box_max)
    assert tree.ray_pairs([0.5, 0.5, 0.5], [1, 0, 0]).box_index.tolist() == [0, 1], (
        "a refused refit leaves the tree as it was")
