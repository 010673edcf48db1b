"""triangle_overlaps_obb against the exact reference and the AABB test (SEMANTICS.md).

Boxes rotated by Euler angles are compared with the exact reference for the very float axes
they hold, strictly: the library brackets the rounding of its frame change and decides the
items within it in rationals, so triangles touching a rotated box get the exact answers too.
"""

from __future__ import annotations

import numpy as np
import pyrr
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import OBB, Triangle, triangle_overlaps_aabb, triangle_overlaps_obb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    half_sizes_generic,
    points,
    rotations,
    segments_near_rotated_surfaces,
)

# batches run compiled and interpreted: the answers must be the same
pytestmark = pytest.mark.usefixtures("each_backend")

IDENTITY = np.eye(3)


@given(batches(st.tuples(points(), points(), points(), points(), rotations(), half_sizes_generic)))
def test_rotated_triangles_match_the_exact_reference(cases):
    v0, v1, v2, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = triangle_overlaps_obb(v0, v1, v2, center, axes, half)
    assert got.dtype == bool and got.shape == (len(cases),)
    for i, case in enumerate(cases):
        want = ref.triangle_overlaps_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )


@st.composite
def triangles_touching_rotated_boxes(draw):
    """A rotated box and a triangle with a vertex at rounding distance of its surface (a
    corner, an edge or a face point mapped to the world in floats), or an edge through it."""
    start, end, center, axes, half = draw(segments_near_rotated_surfaces())
    third = draw(points())
    if draw(st.booleans()):  # the vertex itself at the surface point (start + a d ~ p)
        mid = (start + end) / 2
        return mid, third, third + end - start, center, axes, half
    return start, end, third, center, axes, half


@given(batches(triangles_touching_rotated_boxes()))
def test_triangles_grazing_rotated_boxes_match_the_exact_reference(cases):
    v0, v1, v2, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = triangle_overlaps_obb(v0, v1, v2, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.triangle_overlaps_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )


def test_triangle_obb_with_identity_axes_is_the_aabb_test_on_dyadic_data():
    rng = np.random.default_rng(11)
    n = 500
    v = rng.integers(-8, 9, (3, n, 3)) / 4.0
    center, half = rng.integers(-4, 5, (n, 3)) / 4.0, rng.integers(0, 5, (n, 3)) / 4.0
    got = triangle_overlaps_obb(*v, center, IDENTITY, half)
    np.testing.assert_array_equal(got, triangle_overlaps_aabb(*v, center - half, center + half),
                                  err_msg="identity axes: the AABB [center - half, center + half]")
    assert triangle_overlaps_obb(*v[:, 0], center[0], IDENTITY, half[0]) is bool(got[0])
    float32 = triangle_overlaps_obb(*v.astype(np.float32), center.astype(np.float32),
                                    IDENTITY.astype(np.float32), half.astype(np.float32))
    np.testing.assert_array_equal(float32, got, err_msg="float32 inputs, same exact answers")
    empty = triangle_overlaps_obb(*v, center, IDENTITY, -np.abs(half) - 0.25)
    assert not empty.any(), "a negative half size is an empty box: never overlaps"


def test_points_and_triangles_at_rounding_distance_of_a_rotated_box_are_decided_exactly():
    axes = pyrr.matrix33.create_from_eulers([0.3, 1.1, -0.7])
    center, half = np.array([0.25, -1.5, 2.0]), np.array([1.0, 0.5, 2.0])
    box = OBB(center, axes, half)
    rng = np.random.default_rng(3)
    triangles, wants = [], []
    for _ in range(300):
        u = rng.choice([-1.0, 1.0], 3) * half
        u[rng.integers(0, 3)] *= rng.uniform(-1, 1)
        p = center + axes.T @ u  # within an ulp or so of the surface
        want = ref.obb_contains(p, center, axes, half)
        assert box.contains(p) == want, f"contains({p.tolist()}): expected {want}"
        t = Triangle(p, p + rng.normal(size=3), p + rng.normal(size=3))
        tri = ref.triangle_overlaps_obb(t.v0, t.v1, t.v2, center, axes, half)
        assert t.overlaps(box) == tri, f"overlaps({t}): expected {tri}"
        triangles.append((t.v0, t.v1, t.v2))
        wants.append(tri)
    got = triangle_overlaps_obb(*np.array(triangles).transpose(1, 0, 2), center, axes, half)
    np.testing.assert_array_equal(got, wants, err_msg="the batched call answers as one by one")


def test_obb_triangle_overlap_matches_the_reference():
    axes = IDENTITY[[2, 0, 1]] * np.array([[1.0], [-1.0], [1.0]])
    obb = OBB([1.0, 1.0, 1.0], axes, [1.0, 0.5, 2.0])
    rng = np.random.default_rng(7)
    for _ in range(300):
        v = rng.integers(-3, 5, (3, 3)).astype(float)
        want = ref.triangle_overlaps_obb(*v, obb.center, obb.axes, obb.half_size)
        got = Triangle(*v).overlaps(obb)
        assert got == want, f"triangle {v.tolist()} vs {obb}: expected {want}, got {got}"
