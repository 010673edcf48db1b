"""The AABB toolbox: construction, growing, corners, queries and transforms."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pyrr
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    AABB,
    OBB,
    Ray,
    Segment,
    Triangle,
    classify_segment_aabb,
    intersect_ray_aabb,
    triangle_overlaps_aabb,
)
from tests.geometry import exact_reference as ref
from tests.strategies import (
    boxes,
    dyadic_coords,
    generic_coords,
    points,
    rotations,
    signed_permutation_matrices,
    small_int_coords,
)

INF = np.inf


def corners_by_definition(box_min, box_max) -> np.ndarray:
    """The 8 corners, row i taking max on axis k iff bit k of i is set."""
    return np.array(
        [[box_max[k] if (i >> k) & 1 else box_min[k] for k in range(3)] for i in range(8)]
    )


def transform_points(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``[p, 1] @ M`` for each row p (pyrr's row-vector convention)."""
    return np.hstack([points, np.ones((len(points), 1))]) @ matrix


# --- construction and growing ------------------------------------------------------------------


def test_empty_box_is_the_identity_for_growing():
    empty = AABB.empty()
    np.testing.assert_array_equal(empty.min, [INF] * 3, err_msg="AABB.empty().min is +inf")
    np.testing.assert_array_equal(empty.max, [-INF] * 3, err_msg="AABB.empty().max is -inf")
    assert empty.is_empty, "AABB.empty() must be empty"
    np.testing.assert_array_equal(
        empty.half_size, np.zeros(3), err_msg="an empty box's half_size is zeros"
    )
    box = AABB([0.0, 1.0, 2.0], [3.0, 4.0, 5.0])
    assert box.add_box(empty) == box and empty.add_box(box) == box, (
        "adding an empty box changes nothing"
    )
    grown = empty.add_points([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(grown.min, [1.0, 2.0, 3.0], err_msg="one point: min is the point")
    np.testing.assert_array_equal(grown.max, [1.0, 2.0, 3.0], err_msg="one point: max is the point")
    assert not grown.is_empty, "a box around one point is flat, not empty"


def test_inverted_finite_box_is_empty_and_contains_nothing():
    box = AABB([0.0, 2.0, 0.0], [2.0, 0.0, 2.0])
    assert box.is_empty, "min > max on y: empty"
    assert box.contains([1.0, 1.0, 1.0]) is False, "an empty box contains nothing"


def test_boxes_are_immutable():
    box = AABB([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    with pytest.raises(AttributeError):
        box.min = np.zeros(3)
    with pytest.raises(ValueError):
        box.min[0] = 5.0  # read-only array


@given(st.lists(points(generic_coords), min_size=1, max_size=20))
def test_from_points_is_the_per_axis_min_and_max(pts):
    pts = np.array(pts)
    box = AABB.from_points(pts)
    np.testing.assert_array_equal(box.min, pts.min(axis=0), err_msg="from_points min")
    np.testing.assert_array_equal(box.max, pts.max(axis=0), err_msg="from_points max")
    assert all(box.contains(p) for p in pts), "the box contains every point it was built from"


@given(
    st.lists(points(small_int_coords), min_size=1, max_size=10),
    st.lists(points(small_int_coords), max_size=10),
)
def test_add_points_and_add_box_agree_with_from_points(first, second):
    everything = AABB.from_points(np.array(first + second))
    grown = AABB.from_points(np.array(first))
    if second:
        grown = grown.add_points(np.array(second))
    assert grown == everything, f"add_points: expected {everything}, got {grown}"
    if second:
        joined = AABB.from_points(np.array(first)).add_box(AABB.from_points(np.array(second)))
        assert joined == everything, f"add_box: expected {everything}, got {joined}"


@given(boxes(dyadic_coords))
def test_center_size_half_size_are_exact_for_dyadic_boxes(box):
    aabb = AABB(*box)
    np.testing.assert_array_equal(aabb.center, (box[0] + box[1]) / 2, err_msg="center")
    np.testing.assert_array_equal(aabb.size, box[1] - box[0], err_msg="size")
    np.testing.assert_array_equal(aabb.half_size, (box[1] - box[0]) / 2, err_msg="half_size")


@given(boxes(generic_coords))
def test_corner_bits_pick_max_per_axis(box):
    aabb = AABB(*box)
    want = corners_by_definition(*box)
    np.testing.assert_array_equal(
        aabb.corners(), want, err_msg="corners(): bit k of i picks max on axis k"
    )
    for i in range(8):
        np.testing.assert_array_equal(aabb.corner(i), want[i], err_msg=f"corner({i})")


# --- queries -----------------------------------------------------------------------------------


@given(
    boxes(small_int_coords, empty=True),
    st.lists(points(st.integers(-8, 8).map(float)), min_size=1, max_size=8),
)
def test_contains_is_the_closed_box(box, pts):
    aabb = AABB(*box)
    pts = np.array(pts)
    want = [ref.point_in_box(p, *box) for p in pts]
    np.testing.assert_array_equal(
        aabb.contains(pts), want, err_msg=f"contains {pts.tolist()} in {aabb}"
    )
    assert aabb.contains(pts[0]) is want[0], "a single point gives a Python bool"


@given(boxes(generic_coords), st.lists(points(generic_coords), min_size=1, max_size=8))
def test_closest_point_is_the_clamped_point(box, pts):
    aabb = AABB(*box)
    pts = np.array(pts)
    closest = aabb.closest_point(pts)
    np.testing.assert_array_equal(
        closest, np.clip(pts, *box), err_msg="closest point = per-axis clamp"
    )
    assert all(ref.point_in_box(q, *box) for q in closest), "closest points lie in the box"


def test_queries_from_the_values_equal_the_functions():
    box = AABB([0.0, 0.0, 0.0], [2.0, 2.0, 2.0])
    segment = Segment([-1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    assert segment.classify(box) is classify_segment_aabb(segment.start, segment.end, box.min,
                                                          box.max)
    ray = Ray([-1.0, 1.0, 1.0], [1.0, 0.0, 0.0], t_max=2.0)
    assert ray.intersect(box) == intersect_ray_aabb(ray.origin, ray.direction, box.min, box.max,
                                                    t_max=2.0) == (True, 1.0, 2.0)
    triangle = Triangle([2.0, 2.0, 2.0], [3.0, 2.0, 2.0], [3.0, 3.0, 2.0])
    assert triangle.overlaps(box) is triangle_overlaps_aabb(triangle.v0, triangle.v1, triangle.v2,
                                                            box.min, box.max) is True
    for value in (box, OBB.from_aabb(box, np.eye(4))):
        for name in ("intersect", "overlaps"):
            assert not hasattr(value, name), f"{type(value).__name__}.{name}: one way per query"
    with pytest.raises(ValueError, match="^other must be an AABB or an OBB"):
        box.classify(segment)  # a box classifies boxes; a segment's way is Segment.classify


def test_empty_box_value_passes_through_the_functions():
    empty = AABB.empty()
    assert classify_segment_aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], empty.min, empty.max) == 0
    assert intersect_ray_aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], empty.min, empty.max) == (
        False,
        INF,
        INF,
    )
    assert (
        triangle_overlaps_aabb([0.0] * 3, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], empty.min, empty.max)
        is False
    )


# --- transformed ---------------------------------------------------------------------------------


def dyadic_matrices():
    """Affine 4x4 matrices with entries in quarters: every corner product and sum is exact."""
    entry = st.integers(-8, 8).map(lambda k: k / 4.0)
    return st.tuples(*[entry] * 12).map(affine_matrix)


def affine_matrix(entries) -> np.ndarray:
    """4x4 pyrr-convention matrix whose first three columns are `entries` (12 numbers, by row)."""
    matrix = np.zeros((4, 4))
    matrix[:, :3] = np.reshape(entries, (4, 3))
    matrix[3, 3] = 1.0
    return matrix


@given(boxes(dyadic_coords), dyadic_matrices())
def test_transformed_is_exactly_the_box_of_the_moved_corners_for_dyadic_matrices(box, matrix):
    got = AABB(*box).transformed(matrix)
    moved = transform_points(corners_by_definition(*box), matrix)
    np.testing.assert_array_equal(
        got.min, moved[:, :3].min(axis=0), err_msg=f"min under {matrix.tolist()}"
    )
    np.testing.assert_array_equal(
        got.max, moved[:, :3].max(axis=0), err_msg=f"max under {matrix.tolist()}"
    )


@given(boxes(small_int_coords), signed_permutation_matrices(), points(small_int_coords))
def test_transformed_by_axis_permutations_sign_flips_and_quarter_turns_is_exact(
    box, rotation, translation
):
    matrix = np.eye(4)
    matrix[:3, :3], matrix[3, :3] = rotation, translation
    got = AABB(*box).transformed(matrix)
    moved = corners_by_definition(*box) @ rotation + translation
    assert got == AABB(moved.min(axis=0), moved.max(axis=0)), (
        f"expected the moved corners' box, got {got}"
    )


@given(boxes(generic_coords), rotations(), points(generic_coords), points(st.floats(0.25, 4.0)))
def test_transformed_is_the_smallest_float_box_holding_the_exactly_moved_corners(
    box, rotation, translation, scale
):
    matrix = pyrr.matrix44.create_from_scale(scale) @ np.vstack(
        [np.hstack([rotation, np.zeros((3, 1))]), np.append(translation, 1.0)])
    got = AABB(*box).transformed(matrix)
    m = [[Fraction(float(x)) for x in row] for row in matrix]
    moved = [[sum(Fraction(float(c[i])) * m[i][j] for i in range(3)) + m[3][j] for j in range(3)]
             for c in corners_by_definition(*box)]
    np.testing.assert_array_equal(got.min, [ref.rounded(min(p[j] for p in moved), -1)
                                            for j in range(3)], err_msg="min rounded down")
    np.testing.assert_array_equal(got.max, [ref.rounded(max(p[j] for p in moved), 1)
                                            for j in range(3)], err_msg="max rounded up")


def test_transformed_beyond_float64_is_a_value_error():
    with pytest.raises(ValueError, match="moved by matrix reaches beyond float64"):
        AABB([1e308] * 3, [1.5e308] * 3).transformed(np.diag([2.0, 2.0, 2.0, 1.0]))


def test_transformed_empty_box_stays_empty():
    matrix = pyrr.matrix44.create_from_eulers(np.array([0.1, 0.2, 0.3]))
    assert AABB.empty().transformed(matrix).is_empty, "the image of the empty set is empty"


def test_transformed_uses_pyrr_row_vector_convention():
    box = AABB([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
    moved = box.transformed(pyrr.matrix44.create_from_translation([10.0, 20.0, 30.0]))
    assert moved == AABB([10.0, 20.0, 30.0], [11.0, 22.0, 33.0]), (
        f"translation in the last row, got {moved}"
    )


def test_the_largest_box_has_an_exact_center_and_half_size():
    big = 1.7976931348623157e308
    box = AABB([-big] * 3, [big] * 3)
    assert box.center.tolist() == [0.0, 0.0, 0.0], f"expected a zero centre, got {box.center}"
    assert box.half_size.tolist() == [big] * 3, f"expected half sizes of {big}, got {box.half_size}"
    with pytest.raises(ValueError, match="size"):
        box.size  # noqa: B018 - 2 * big is beyond float64
    lopsided = AABB([-big, 0.0, 0.0], [big / 2, 1.0, 1.0])
    assert lopsided.center.tolist() == [-big / 4, 0.5, 0.5]
    obb = OBB.from_aabb(box, np.eye(4))
    assert obb.center.tolist() == [0.0] * 3 and obb.half_size.tolist() == [big] * 3
    assert obb.contains([big, -big, 0.0]) and box.contains([big, -big, 0.0])
