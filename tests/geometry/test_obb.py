"""The OBB value: from_aabb, contains, closest_point, corners and aabb, exact for the floats
given (SEMANTICS.md), also where the float frame change overflows.

Signed permutation axes (the only orthonormal matrices with dyadic entries) keep the frame
change exact in floats; boxes rotated by Euler angles are compared with the exact reference.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, OBB
from tests.geometry import exact_reference as ref
from tests.strategies import (
    dyadic_coords,
    half_sizes_dyadic,
    half_sizes_generic,
    points,
    proper_boxes,
    rigid_matrix,
    rotations,
    signed_permutation_matrices,
    small_int_coords,
)

IDENTITY = np.eye(3)


@given(proper_boxes(dyadic_coords), rotations(), points(small_int_coords))
def test_from_aabb_of_a_rotation_holds_the_rotation_and_moved_centre(box, rotation, translation):
    obb = OBB.from_aabb(AABB(*box), rigid_matrix(rotation, translation))
    center = (box[0] + box[1]) / 2
    np.testing.assert_array_equal(obb.axes, rotation, err_msg="axes = the rotation's rows")
    np.testing.assert_allclose(obb.center, center @ rotation + translation, rtol=1e-12, atol=1e-12,
                               err_msg="centre = [c, 1] @ M")
    np.testing.assert_array_equal(obb.half_size, (box[1] - box[0]) / 2, err_msg="half sizes kept")


@given(points(dyadic_coords), signed_permutation_matrices(), half_sizes_dyadic,
       st.lists(points(dyadic_coords), min_size=1, max_size=6))
def test_contains_and_closest_point_are_exact_for_permuted_axes(center, axes, half, pts):
    obb = OBB(center, axes, half)
    pts = np.array(pts)
    got = obb.contains(pts)
    want = [ref.obb_contains(p, center, axes, half) for p in pts]
    np.testing.assert_array_equal(got, want, err_msg=f"contains for {pts.tolist()} in {obb}")
    assert obb.contains(pts[0]) is bool(want[0]), "a single point gives a Python bool"
    closest = obb.closest_point(pts)
    assert all(ref.obb_contains(q, center, axes, half) for q in closest), (
        "closest points lie in the box"
    )
    np.testing.assert_array_equal(closest[np.array(want)], pts[np.array(want)],
                                  err_msg="a point inside is its own closest point")


def _exact_corner(center, axes, u) -> list[Fraction]:
    """The point p with ``axes @ (p - center) == u`` exactly (Gauss-Jordan on Fractions)."""
    m = [[Fraction(float(x)) for x in row] + [Fraction(u_i)]
         for row, u_i in zip(axes, u, strict=True)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(3):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[col], strict=True)]
    return [Fraction(float(center[j])) + m[j][3] / m[j][j] for j in range(3)]


@given(points(), rotations(), half_sizes_generic)
def test_corners_are_exact_corners_rounded_and_aabb_the_smallest_float_box_holding_them(
        center, axes, half):
    obb = OBB(center, axes, half)
    exact = [_exact_corner(center, axes, [h if (i >> k) & 1 else -h
                                          for k, h in enumerate(map(Fraction, half))])
             for i in range(8)]
    np.testing.assert_array_equal(obb.corners(), [[float(x) for x in c] for c in exact],
                                  err_msg="corner i: -/+ half_size by bit k, rounded to nearest")
    box = obb.aabb()
    np.testing.assert_array_equal(box.min, [ref.rounded(min(c[j] for c in exact), -1)
                                            for j in range(3)], err_msg="aabb().min rounded down")
    np.testing.assert_array_equal(box.max, [ref.rounded(max(c[j] for c in exact), 1)
                                            for j in range(3)], err_msg="aabb().max rounded up")


TURNED = np.array([[math.sqrt(0.5), math.sqrt(0.5), 0.0], [-math.sqrt(0.5), math.sqrt(0.5), 0.0],
                   [0.0, 0.0, 1.0]])  # a quarter of a right angle about z


def test_contains_is_exact_where_the_float_frame_change_overflows():
    obb = OBB([1e308, 0.0, 0.0], TURNED, [1.7e308, 1.7e308, 1.0])
    # p - center = -2e308 (beyond float64); in the frame about (-1.414e308, 1.414e308, 0): inside
    points_ = np.array([[-1e308, 0.0, 0.0], [-1.7e308, 0.0, 0.0]])
    want = [ref.obb_contains(p, obb.center, obb.axes, obb.half_size) for p in points_]
    assert want == [True, False], "the reference: the first point is inside, the second not"
    assert obb.contains(points_[0]) is True
    np.testing.assert_array_equal(obb.contains(points_), want)


def test_closest_point_where_floats_overflow_is_exact_or_a_value_error():
    obb = OBB([1e308, 0.0, 0.0], IDENTITY, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(obb.closest_point([-1e308, 0.0, 0.0]), [1e308, 0.0, 0.0],
                                  err_msg="1e308 - 1, rounded: no NaN from an overflowed offset")
    inside = OBB([1e308, 0.0, 0.0], TURNED, [1.7e308, 1.7e308, 1.0])
    np.testing.assert_array_equal(inside.closest_point([[-1e308, 0.0, 0.0]]),
                                  [[-1e308, 0.0, 0.0]], err_msg="a point inside is its own")
    long = OBB([1.7e308, -1.7e308, 0.0], TURNED, [1.7e308, 1.0, 1.0])
    with pytest.raises(ValueError, match="closest_point of OBB.* is beyond float64"):
        long.closest_point([1.7e308, 1.7e308, 0.0])  # about (2.9e308, -0.5e308, 0)


def test_corners_and_aabb_beyond_float64_or_of_an_empty_box():
    big = OBB([1e308, 0.0, 0.0], TURNED, [1.7e308, 1.7e308, 1.0])
    with pytest.raises(ValueError, match="corners of OBB.* reach beyond float64"):
        big.corners()
    with pytest.raises(ValueError, match="aabb of OBB.* reaches beyond float64"):
        big.aabb()
    empty = OBB([0.0, 0.0, 0.0], TURNED, [1.0, -1.0, 1.0])
    assert empty.aabb().is_empty, "an empty OBB's AABB is empty"
    with pytest.raises(ValueError, match="corners of an empty OBB"):
        empty.corners()


def test_from_aabb_with_its_centre_beyond_float64_is_a_value_error():
    matrix = np.eye(4)
    matrix[3, 0] = 1e308
    with pytest.raises(ValueError, match="moved by matrix has its centre beyond float64"):
        OBB.from_aabb(AABB([1e308, 0.0, 0.0], [1e308, 1.0, 1.0]), matrix)


@given(points(dyadic_coords), signed_permutation_matrices(), half_sizes_dyadic)
def test_aabb_of_a_permuted_box_is_exact(center, axes, half):
    box = OBB(center, axes, half).aabb()
    extent = np.abs(axes).T @ half
    np.testing.assert_array_equal(box.min, center - extent, err_msg="aabb().min exact")
    np.testing.assert_array_equal(box.max, center + extent, err_msg="aabb().max exact")
