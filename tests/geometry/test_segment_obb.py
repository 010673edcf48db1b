"""classify_segment_obb against the exact reference and the AABB test (SEMANTICS.md).

Signed permutation axes (the only orthonormal matrices with dyadic entries) keep the frame
change exact in floats. Boxes rotated by Euler angles are compared with the exact reference for
the very float axes they hold, strictly, segments grazing them included: the library brackets
the rounding of its frame change and decides the items within it in rationals.
"""

from __future__ import annotations

import numpy as np
import pyrr
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    AABB,
    OBB,
    IntersectionType,
    classify_segment_aabb,
    classify_segment_obb,
)
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    dyadic_coords,
    half_sizes_dyadic,
    half_sizes_generic,
    points,
    rigid_matrix,
    rigid_motion_cases,
    rotations,
    segments_near_rotated_surfaces,
    signed_permutation_matrices,
)

# batches run compiled and interpreted: the answers must be the same
pytestmark = pytest.mark.usefixtures("each_backend")

NONE, INTERSECT, INCLUDE = (
    IntersectionType.NONE,
    IntersectionType.INTERSECT,
    IntersectionType.INCLUDE,
)
IDENTITY = np.eye(3)


# --- named examples ----------------------------------------------------------------------------


def test_rotated_box_example():
    # the unit cube's centre at the origin, turned 45 degrees about z: its x extent is sqrt(2)/2
    rotation = pyrr.matrix33.create_from_z_rotation(np.pi / 4)
    box = OBB([0.0, 0.0, 0.0], rotation, [0.5, 0.5, 0.5])
    assert (
        classify_segment_obb([0.6, 0.0, 0.0], [0.75, 0.0, 0.0], box.center, box.axes, box.half_size)
        is INTERSECT
    )
    assert (
        classify_segment_obb([0.8, 0.0, 0.0], [0.9, 0.0, 0.0], box.center, box.axes, box.half_size)
        is NONE
    )
    assert (
        classify_segment_obb([0.1, 0.0, 0.0], [0.6, 0.0, 0.0], box.center, box.axes, box.half_size)
        is INCLUDE
    )


def test_ending_exactly_on_a_face_of_a_turned_box_is_INTERSECT():
    axes = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # 90 degrees about z
    center, half = [1.0, 1.0, 1.0], [0.5, 2.0, 1.0]  # x extent 2 (axis 1), y extent 0.5 (axis 0)
    assert classify_segment_obb([1.0, 1.0, 1.0], [1.0, 1.5, 1.0], center, axes, half) is INTERSECT
    assert classify_segment_obb([1.0, 1.0, 1.0], [2.75, 1.25, 1.0], center, axes, half) is INCLUDE
    assert classify_segment_obb([3.0, 1.0, 1.0], [4.0, 1.0, 1.0], center, axes, half) is INTERSECT
    assert classify_segment_obb([3.25, 1.0, 1.0], [4.0, 1.0, 1.0], center, axes, half) is NONE


def test_flat_obb_is_never_INCLUDE():
    assert (
        classify_segment_obb([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0] * 3, IDENTITY, [1.0, 1.0, 0.0])
        is INTERSECT
    )


def test_batched_axes_per_box():
    axes = np.stack([IDENTITY, IDENTITY[[1, 0, 2]], -IDENTITY])
    got = classify_segment_obb([0.0, 0.0, 0.0], [1.5, 0.0, 0.0], np.zeros((3, 3)), axes,
                               [[2.0, 1.0, 1.0], [2.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(got, [INCLUDE, INTERSECT, INTERSECT], err_msg="per-box axes")


# --- OBB with identity axes == AABB ------------------------------------------------------------


def obb_aabb_case(coords):
    """(start, end, center, half_size): dyadic, so center -+ half_size is exact."""
    return st.tuples(points(coords), points(coords), points(coords), half_sizes_dyadic)


@given(batches(obb_aabb_case(dyadic_coords)))
def test_identity_axes_obb_equals_the_aabb_test(cases):
    start, end, center, half = (np.array(c) for c in zip(*cases, strict=True))
    obb = classify_segment_obb(start, end, center, IDENTITY, half)
    aabb = classify_segment_aabb(start, end, center - half, center + half)
    np.testing.assert_array_equal(
        obb, aabb, err_msg="OBB with identity axes must equal the AABB test"
    )


# --- exact: signed permutation axes --------------------------------------------------------


@given(batches(st.tuples(points(dyadic_coords), points(dyadic_coords), points(dyadic_coords),
                         signed_permutation_matrices(), half_sizes_dyadic)))
def test_permuted_axes_segments_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_segment_obb(start, end, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.classify_segment_obb(*case)
        assert got[i] == want, (
            f"case {i}: start={case[0].tolist()} end={case[1].tolist()} center={case[2].tolist()} "
            f"axes={case[3].tolist()} half={case[4].tolist()}: expected {want}, got {got[i]}"
        )
        assert classify_segment_obb(case[1], case[0], *case[2:]) == want, "reversed segment differs"


@given(rigid_motion_cases())
def test_rigid_obb_from_aabb_equals_the_aabb_test_in_the_box_frame(case):
    """A segment and box moved together by an exact rigid motion keep their class."""
    box, rotation, translation, local_segment = case
    matrix = rigid_matrix(rotation, translation)
    obb = OBB.from_aabb(AABB(*box), matrix)
    start, end = (p @ rotation + translation for p in local_segment)
    want = classify_segment_aabb(*local_segment, *box)
    got = classify_segment_obb(start, end, obb.center, obb.axes, obb.half_size)
    assert got is want, (
        f"local segment {[p.tolist() for p in local_segment]} in {box}: AABB says {want.name}; "
        f"moved by "
        f"rotation {rotation.tolist()} + {translation.tolist()} the OBB says {got.name}"
    )


# --- rotated boxes (pyrr Euler angles) ---------------------------------------------------------


@given(batches(st.tuples(points(), points(), points(), rotations(), half_sizes_generic)))
def test_rotated_segments_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_segment_obb(start, end, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.classify_segment_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {IntersectionType(want).name}, "
            f"got {IntersectionType(int(got[i])).name}")


@given(batches(segments_near_rotated_surfaces()))
def test_segments_grazing_rotated_boxes_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_segment_obb(start, end, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.classify_segment_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )
