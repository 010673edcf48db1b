"""BoxTree.frustum against brute force over classify_aabb_frustum, both modes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, BoxTree, classify_aabb_frustum
from tests.geometry.test_aabb_frustum import FRUSTA
from tests.strategies import batches, boxes_near_frustum


def check_frustum(tree, lo, hi, frustum, conservative):
    got = tree.frustum(frustum, conservative=conservative)
    kind = np.asarray(classify_aabb_frustum(lo, hi, frustum, conservative=conservative))
    want = np.flatnonzero(kind)
    np.testing.assert_array_equal(got.box_index, want, err_msg="frustum boxes differ")
    np.testing.assert_array_equal(got.kind, kind[want], err_msg="frustum classes differ")
    assert got.kind.dtype == np.int8
    return len(want)


@st.composite
def scene(draw):
    name = draw(st.sampled_from(sorted(FRUSTA)))
    frustum = FRUSTA[name]
    return frustum, draw(batches(boxes_near_frustum(frustum.vertices), max_size=24))


@given(scene(), st.booleans())
def test_frustum_as_brute_force(case, conservative):
    """Boxes near the frusta's corners and edges (where the plane-only test keeps boxes that
    lie outside), the frusta scaled to 1e-200 and 1e200."""
    frustum, boxes = case
    lo, hi = (np.array(x) for x in zip(*boxes, strict=True))
    check_frustum(BoxTree(lo, hi), lo, hi, frustum, conservative)


@pytest.mark.parametrize("name", ["perspective", "float32"])
def test_frustum_culls_many_boxes_as_brute_force(name):
    """Many boxes around the frustum, some empty, float32 too; after a refit as well."""
    frustum = FRUSTA[name]
    rng = np.random.default_rng(31)
    v = frustum.vertices
    dtype = np.float32 if name == "float32" else np.float64
    centre = v.min(0) + np.ptp(v, axis=0) * rng.uniform(-0.3, 1.3, (1000, 3))
    half = np.ptp(v, axis=0) * rng.uniform(0, 0.04, (1000, 3))
    lo, hi = (centre - half).astype(dtype), (centre + half).astype(dtype)
    lo[::9], hi[::9] = AABB.empty().min, AABB.empty().max
    tree = BoxTree(lo, hi)
    for conservative in (False, True):
        assert check_frustum(tree, lo, hi, frustum, conservative) > 10
    tree.refit(lo[::-1], hi[::-1])
    check_frustum(tree, lo[::-1], hi[::-1], frustum, False)


def test_frustum_refuses_what_is_not_a_frustum():
    with pytest.raises(ValueError, match="frustum must be a Frustum, got ndarray"):
        BoxTree([0, 0, 0], [1, 1, 1]).frustum(np.eye(4))
