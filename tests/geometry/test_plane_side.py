"""plane_side_aabb / plane_side_obb against the exact reference (SEMANTICS.md, "Plane side")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, plane_side_aabb, plane_side_obb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    boxes,
    generic_coords,
    half_sizes_dyadic,
    points,
    rotations,
    signed_permutation_matrices,
    small_int_coords,
)

pytestmark = pytest.mark.usefixtures("each_backend")

int_normals = points(small_int_coords).filter(lambda n: bool(np.any(n != 0)))
any_normals = points(generic_coords).filter(lambda n: bool(np.any(n != 0)))


def _aabb_side(normal, offset, lo, hi) -> int:
    if np.any(lo > hi):
        return -1
    return ref.plane_side(normal, offset, ref.aabb_planes_corners(lo, hi)[1])


def _obb_side(normal, offset, center, axes, half) -> int:
    if np.any(half < 0):
        return -1
    return ref.plane_side(normal, offset, ref.obb_planes_corners(center, axes, half)[1])


def _check(got, want, cases):
    for i, case in enumerate(cases):
        assert got[i] == want[i], (
            f"case {i} {[np.asarray(x).tolist() for x in case]}: expected side {want[i]}, "
            f"got {got[i]}")


# batches of at least two cases here and below: a batch of one compiles a loop of its own (every
# argument one row) that no other test needs; the named cases check one item, interpreted
@given(batches(st.tuples(st.one_of(int_normals, any_normals),
                         st.one_of(small_int_coords, generic_coords),
                         boxes(small_int_coords, empty=True)), min_size=2))
def test_plane_side_aabb_matches_the_exact_reference(cases):
    normal, offset, lo, hi = (np.array(c) for c in zip(*[(n, o, *b) for n, o, b in cases],
                                                        strict=True))
    got = plane_side_aabb(normal, offset, lo, hi)
    assert got.dtype == np.int8, f"expected int8 sides, got {got.dtype}"
    _check(got, [_aabb_side(*row) for row in zip(normal, offset, lo, hi, strict=True)],
           list(zip(normal, offset, lo, hi, strict=True)))


@given(batches(st.tuples(int_normals, small_int_coords, points(small_int_coords),
                         st.one_of(signed_permutation_matrices(), rotations()),
                         half_sizes_dyadic), min_size=2))
def test_plane_side_obb_matches_the_exact_reference(cases):
    normal, offset, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = plane_side_obb(normal, offset, center, axes, half)
    _check(got, [_obb_side(*row) for row in cases], cases)


UNIT = ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])


@pytest.mark.parametrize(("normal", "offset", "box", "side"), [
    ([1, 0, 0], 0.5, UNIT, 0),                      # across
    ([1, 0, 0], 1.0, UNIT, 0),                      # touching the max face
    ([1, 0, 0], 0.0, UNIT, 0),                      # touching the min face
    ([1, 1, 1], 3.0, UNIT, 0),                      # touching a corner
    ([1, 1, 1], np.nextafter(3.0, 4.0), UNIT, -1),  # one ulp past the corner
    ([-2, 0, 0], 0.5, UNIT, -1),                    # a normal not of unit length
    ([1, 0, 0], -1e-300, UNIT, 1),                  # 1e-300 below the min face
    ([1e-200, 0, 0], -1e-300, UNIT, 1),             # tiny normal, 1e-100 below the box
    ([1e200, 1e200, 0], 2e200, UNIT, 0),
    ([1, 0, 0], 1e200, ([1e200, 0, 0], [1e200, 1, 1]), 0),
    ([1, 0, 0], 0.5, (AABB.empty().min, AABB.empty().max), -1),
    ([1, 0, 0], 0.5, ([2.0, 0, 0], [1.0, 1, 1]), -1),   # empty: min > max
])
def test_plane_side_aabb_named_cases(normal, offset, box, side):
    got = plane_side_aabb(np.array([normal] * 2, dtype=float), [offset] * 2,
                          np.array([box[0]] * 2), np.array([box[1]] * 2))
    assert got.tolist() == [side, side], f"expected side {side} for {normal} . p = {offset}"
    assert plane_side_aabb(normal, offset, *box) == side, "expected one item to agree"


def test_float32_boxes_and_obb_one_item():
    lo = np.array([0, 0, 0], dtype=np.float32)
    hi = np.array([1, 1, np.float32(0.1)], dtype=np.float32)
    top = float(np.float32(0.1))  # 0.1f, above 0.1
    sides = [plane_side_aabb([0, 0, 1], z, lo, hi) for z in (top, np.nextafter(top, 1.0))]
    assert sides == [0, -1], "expected the float32 box to touch z = 0.1f and no more"
    assert plane_side_obb([0, 0, 1], 0.5, [0, 0, 0], np.eye(3), [1, 1, 0.5]) == 0, \
        "expected a box touching the plane to be side 0"


@pytest.mark.parametrize(("args", "message"), [
    (([0, 0, 0], 0.0, *UNIT), "normal must not be the zero vector"),
    (([1, 0, 0], np.nan, *UNIT), "offset must be finite"),
    (([np.inf, 0, 0], 0.0, *UNIT), "normal must be finite"),
])
def test_bad_planes_raise_value_error(args, message):
    with pytest.raises(ValueError, match=message):
        plane_side_aabb(*args)
