"""classify_obb_frustum against the exact reference (SEMANTICS.md, "Frustum vs box")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import IntersectionType, classify_aabb_frustum, classify_obb_frustum
from tests.geometry import exact_reference as ref
from tests.geometry.test_aabb_frustum import FRUSTA
from tests.strategies import batches, boxes_near_frustum, rotations, signed_permutation_matrices

pytestmark = pytest.mark.usefixtures("each_backend")


@st.composite
def scene(draw):
    name = draw(st.sampled_from(["perspective", "thin", "orthographic", "1e200"]))
    frustum = FRUSTA[name]
    boxes = draw(batches(st.tuples(boxes_near_frustum(frustum.vertices),
                                   st.one_of(rotations(), signed_permutation_matrices())),
                         max_size=4))
    return frustum, boxes


@settings(max_examples=30)  # rationals of rotated boxes: a few ms a box
@given(scene(), st.booleans())
def test_oriented_boxes_near_edges_and_corners_match_the_exact_reference(case, conservative):
    frustum, boxes = case
    center = np.array([(lo + hi) / 2 for (lo, hi), _ in boxes])
    half = np.array([(hi - lo) / 2 for (lo, hi), _ in boxes])
    axes = np.array([a for _, a in boxes])
    got = classify_obb_frustum(center, axes, half, frustum, conservative=conservative)
    for k in range(len(boxes)):
        planes, corners = ref.obb_planes_corners(center[k], axes[k], half[k])
        fplanes = frustum.polytope.planes
        want = (ref.classify_box_frustum_planes_only(corners, fplanes) if conservative
                else ref.classify_box_frustum(planes, corners, fplanes))
        assert got[k] == want, (
            f"box {k} centre {center[k].tolist()} axes {axes[k].tolist()} half "
            f"{half[k].tolist()} (conservative={conservative}): expected "
            f"{IntersectionType(want).name}, got {IntersectionType(int(got[k])).name}")


def test_identity_axes_agree_with_the_aabb_test_and_empty_boxes_are_none():
    frustum = FRUSTA["perspective"]
    rng = np.random.default_rng(3)
    v = frustum.vertices
    centre = v[rng.integers(0, 8, 40)] + rng.normal(0, 0.05, (40, 3))
    half = rng.uniform(0, 0.05, (40, 3))
    got = classify_obb_frustum(centre, np.broadcast_to(np.eye(3), (40, 3, 3)), half, frustum)
    want = classify_aabb_frustum(centre - half, centre + half, frustum)
    # centre -+ half rounds: compare only where both are exact
    exact = np.all((centre - half + half == centre) & (centre + half - half == centre), axis=1)
    assert np.array_equal(got[exact], want[exact]), "expected the AABB test's classes"
    assert classify_obb_frustum(v[0], np.eye(3), [1, -1, 1], frustum) is IntersectionType.NONE, \
        "expected a negative half size to be an empty box"
    with pytest.raises(ValueError, match="box_axes must have orthonormal rows"):
        classify_obb_frustum(v[0], 2 * np.eye(3), [1, 1, 1], frustum)
