"""BoxTree.sphere_pairs against brute force over classify_sphere_aabb, pair for pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import BoxTree, classify_sphere_aabb
from tests.geometry.test_box_tree import grid_boxes, random_boxes
from tests.strategies import batches, boxes, points, small_int_coords


def check_spheres(tree, lo, hi, c, r):
    got = tree.sphere_pairs(c, r)
    ball, box = (x.reshape(-1) for x in np.meshgrid(np.arange(len(c)), np.arange(len(lo)),
                                                     indexing="ij"))
    radius = np.broadcast_to(r, len(c))
    kind = np.asarray(classify_sphere_aabb(c[ball], radius[ball], lo[box], hi[box]), np.int8)
    meets = kind != 0
    for name, g, w in zip(got._fields, got, (ball[meets], box[meets], kind[meets]), strict=True):
        np.testing.assert_array_equal(g, w, err_msg=f"sphere_pairs.{name} differs")
    assert got.kind.dtype == np.int8
    return int(np.count_nonzero(meets))


@given(batches(boxes(empty=True), max_size=12), batches(points(small_int_coords), max_size=4),
       st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0, 0.75]), min_size=4, max_size=4))
def test_sphere_pairs_as_brute_force(tree_boxes, centers, radii):
    """Integer boxes and centres, radii that make balls tangent to faces, edges (never exactly:
    sqrt 2) and corners, points (radius 0)."""
    lo, hi = (np.array(x) for x in zip(*tree_boxes, strict=True))
    c = np.array(centers)
    check_spheres(BoxTree(lo, hi), lo, hi, c, np.array(radii[:len(c)]))


@pytest.mark.parametrize("dtype, scale", [
    (np.float64, 1.0), (np.float32, 1.0), (np.float64, 1e300), (np.float64, 1e-300),
    (np.float64, 2.0**-1070), (np.float64, 1e154),
], ids=["unit", "float32", "1e300", "1e-300", "subnormal", "squares-overflow"])
def test_sphere_pairs_at_extreme_magnitudes(dtype, scale):
    rng = np.random.default_rng(41)
    with np.errstate(under="ignore", over="ignore"):
        lo, hi = random_boxes(rng, 150, dtype, scale)
        c = (rng.random((15, 3)) * scale).astype(dtype)
        r = (rng.uniform(0, 0.2, 15) * scale).astype(dtype)
        assert check_spheres(BoxTree(lo, hi), lo, hi, c, r) > 10


def test_sphere_pairs_on_a_grid_with_one_radius():
    lo, hi = grid_boxes(np.float64)
    c = np.random.default_rng(42).integers(-2, 12, (40, 3)) / 2.0
    assert check_spheres(BoxTree(lo, hi), lo, hi, c, 0.5) > 100


def test_sphere_pairs_refuse_bad_radii():
    tree = BoxTree([0, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="radius must be finite and not negative"):
        tree.sphere_pairs([9, 9, 9], -1.0)
    with pytest.raises(ValueError, match="center must be finite"):
        tree.sphere_pairs([np.nan, 0, 0], 1.0)
