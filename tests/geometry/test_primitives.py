"""Segment, Ray, Triangle and Sphere values: their methods answer exactly as the functions do."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    AABB,
    OBB,
    IntersectionType,
    Ray,
    Segment,
    Sphere,
    Triangle,
    classify_segment_aabb,
    classify_segment_obb,
    classify_sphere_aabb,
    classify_sphere_obb,
    intersect_ray_aabb,
    intersect_ray_obb,
    triangle_overlaps_aabb,
)
from tests.strategies import (
    boxes,
    dyadic_coords,
    points,
    signed_permutation_matrices,
    signed_zero_directions,
    small_int_coords,
)

half_sizes = points(st.integers(0, 8).map(lambda k: k / 4.0))


@given(points(small_int_coords), points(small_int_coords), boxes(small_int_coords, empty=True))
def test_segment_classify_aabb_equals_the_function_and_ignores_direction(start, end, box):
    segment = Segment(start, end)
    want = classify_segment_aabb(start, end, *box)
    assert segment.classify(AABB(*box)) is want, (
        f"Segment.classify vs function: expected {want.name}"
    )
    assert segment.reversed().classify(AABB(*box)) is want, (
        f"reversed segment: expected {want.name}"
    )
    np.testing.assert_array_equal(
        segment.reversed().start, end, err_msg="reversed() swaps the endpoints"
    )


@given(
    points(dyadic_coords),
    points(dyadic_coords),
    points(dyadic_coords),
    signed_permutation_matrices(),
    half_sizes,
)
def test_segment_classify_obb_equals_the_function(start, end, center, axes, half):
    want = classify_segment_obb(start, end, center, axes, half)
    got = Segment(start, end).classify(OBB(center, axes, half))
    assert got is want, f"Segment.classify(OBB): expected {want.name}, got {got!r}"


def test_batched_segment_classifies_per_row():
    segment = Segment([[0.5, 1.0, 1.0], [-1.0, 1.0, 1.0], [5.0, 5.0, 5.0]], [1.5, 1.0, 1.0])
    got = segment.classify(AABB([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]))
    np.testing.assert_array_equal(
        got,
        [IntersectionType.INCLUDE, IntersectionType.INTERSECT, IntersectionType.INTERSECT],
        err_msg="one class per segment",
    )


@given(points(small_int_coords), signed_zero_directions(), boxes(small_int_coords, empty=True),
       st.sampled_from([(0.0, np.inf), (-np.inf, np.inf), (1.0, 2.0), (-1.0, 0.5)]))
def test_ray_intersect_aabb_equals_the_function(origin, direction, box, limits):
    want = intersect_ray_aabb(origin, direction, *box, t_min=limits[0], t_max=limits[1])
    got = Ray(origin, direction, *limits).intersect(AABB(*box))
    assert got == want, f"Ray.intersect(AABB): expected {want}, got {got}"


@given(
    points(dyadic_coords),
    signed_zero_directions(),
    points(dyadic_coords),
    signed_permutation_matrices(),
    half_sizes,
)
def test_ray_intersect_obb_equals_the_function(origin, direction, center, axes, half):
    want = intersect_ray_obb(origin, direction, center, axes, half)
    got = Ray(origin, direction).intersect(OBB(center, axes, half))
    assert got == want, f"Ray.intersect(OBB): expected {want}, got {got}"


def test_ray_defaults_and_at():
    ray = Ray([1.0, 2.0, 3.0], [0.5, -1.0, 0.0])
    assert ray.t_min == 0.0 and ray.t_max == np.inf, (
        f"defaults t_min=0, t_max=inf, got {ray.t_min}, {ray.t_max}"
    )
    np.testing.assert_array_equal(
        ray.at(2.0), [2.0, 0.0, 3.0], err_msg="at(t) = origin + t direction"
    )
    np.testing.assert_array_equal(ray.at(np.array([0.0, 4.0])), [[1.0, 2.0, 3.0], [3.0, -2.0, 3.0]],
                                  err_msg="at() of (N,) t is (N, 3)")


def test_ray_at_an_infinite_t_or_beyond_float64_is_a_value_error():
    ray = Ray([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="t must not be NaN or infinite"):
        ray.at(np.inf)  # a miss's t_enter: there is no point
    with pytest.raises(ValueError, match="beyond float64"):
        ray.at(1e308)


def test_ray_hit_point_lies_on_the_box():
    box = AABB([0.0, 0.0, 0.0], [2.0, 2.0, 2.0])
    ray = Ray([-1.0, 0.5, 1.0], [2.0, 0.25, 0.0])
    hit, t_enter, t_exit = ray.intersect(box)
    assert hit, "the ray crosses the box"
    np.testing.assert_array_equal(
        ray.at(t_enter), [0.0, 0.625, 1.0], err_msg="entry point on the face x = 0"
    )
    np.testing.assert_array_equal(
        ray.at(t_exit), [2.0, 0.875, 1.0], err_msg="exit point on the face x = 2"
    )


@given(
    points(small_int_coords),
    points(small_int_coords),
    points(small_int_coords),
    boxes(small_int_coords),
)
def test_triangle_overlaps_equals_the_function(v0, v1, v2, box):
    want = triangle_overlaps_aabb(v0, v1, v2, *box)
    triangle = Triangle(v0, v1, v2)
    assert triangle.overlaps(AABB(*box)) is want, f"Triangle.overlaps(AABB): expected {want}"


@given(points(small_int_coords), st.integers(0, 6).map(lambda k: k / 2.0),
       boxes(small_int_coords, empty=True), points(small_int_coords),
       signed_permutation_matrices(), half_sizes)
def test_sphere_classify_equals_the_functions(center, radius, box, box_center, axes, half):
    sphere = Sphere(center, radius)
    want = classify_sphere_aabb(center, radius, *box)
    assert sphere.classify(AABB(*box)) is want, f"Sphere.classify(AABB): expected {want.name}"
    want = classify_sphere_obb(center, radius, box_center, axes, half)
    got = sphere.classify(OBB(box_center, axes, half))
    assert got is want, f"Sphere.classify(OBB): expected {want.name}, got {got!r}"


def test_batched_sphere_classifies_per_row():
    sphere = Sphere([[0.5, 0.5, 0.5], [3.0, 0.5, 0.5], [0.5, 0.5, 1.5]], [0.25, 1.0, 0.5])
    got = sphere.classify(AABB([0.0] * 3, [1.0] * 3))
    want = [IntersectionType.INCLUDE, IntersectionType.NONE, IntersectionType.INTERSECT]
    np.testing.assert_array_equal(got, want, err_msg="inside, 2 away at radius 1, crossing")
    assert sphere.radius.tolist() == [0.25, 1.0, 0.5] and Sphere([0.0] * 3, 2).radius == 2.0


def test_primitives_reject_bad_input_naming_the_argument():
    with pytest.raises(ValueError, match="end"):
        Segment([0.0, 0.0, 0.0], [0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="direction"):
        Ray([0.0, 0.0, 0.0], [0.0, -0.0, 0.0])
    with pytest.raises(ValueError, match="v2"):
        Triangle([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="box"):
        Segment([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]).classify(([0.0] * 3, [1.0] * 3))
    for radius in (-0.5, np.inf, np.nan, [1.0, -0.0, -1e-300]):
        with pytest.raises(ValueError, match="radius"):
            Sphere([0.0, 0.0, 0.0], radius)
    with pytest.raises(ValueError, match="center"):
        Sphere([0.0, np.inf, 0.0], 1.0)
    with pytest.raises(ValueError, match="box"):
        Sphere([0.0, 0.0, 0.0], 1.0).classify(Triangle([0.0] * 3, [1.0] * 3, [2.0] * 3))


def test_every_value_type_is_immutable_and_compares_by_value():
    values = [AABB([0.0] * 3, [1.0] * 3), OBB([0.0] * 3, np.eye(3), [1.0] * 3),
              Segment([0.0] * 3, [1.0] * 3), Ray([0.0] * 3, [1.0, 0.0, 0.0], 0.5),
              Triangle([0.0] * 3, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), Sphere([0.0] * 3, 0.5)]
    for value in values:
        name = type(value).__name__
        field = value._fields[0]
        with pytest.raises(AttributeError, match="immutable"):
            setattr(value, field, np.zeros(3))
        with pytest.raises(ValueError):
            getattr(value, field)[0] = 5.0  # a read-only array
        twin = eval(repr(value), {name: type(value), "inf": np.inf})  # noqa: S307 - our repr
        assert twin == value and hash(twin) == hash(value), f"{name}: equal by value, {value!r}"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_pickle_and_copy(dtype):
    """Values cross process boundaries (multiprocessing, dask workers) and copy: equal, with
    the same dtypes, and still read-only; a copy of an immutable value is the value itself."""
    import copy
    import pickle

    f = np.dtype(dtype).type
    values = [AABB(f([0.0] * 3), f([1.0] * 3)), AABB.empty(),
              OBB(f([0.0] * 3), np.eye(3, dtype=dtype), f([1.0, 2.0, 0.0])),
              Segment(f([0.0] * 3), f([1.0] * 3)), Ray(f([0.0] * 3), f([1.0, 0.0, 0.0]), 0.5),
              Ray(np.zeros((2, 3), dtype), f([0.0, 0.0, -1.0]), t_max=np.array([1.0, 2.0])),
              Triangle(f([0.0] * 3), f([1.0, 0.0, 0.0]), f([0.0, 1.0, 0.0])),
              Sphere(f([0.0] * 3), f(0.5))]
    for value in values:
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value) and back == value, f"{value!r} pickled: {back!r}"
        for a, b in zip(back._values(), value._values(), strict=True):
            assert a.dtype == b.dtype and not a.flags.writeable
        assert copy.copy(value) is value and copy.deepcopy(value) is value


def test_values_refuse_integers_float64_would_round():
    with pytest.raises(ValueError, match="start"):
        Segment([2**53 + 1, 0, 0], [0, 0, 0])
    with pytest.raises(ValueError, match="max"):
        AABB([0, 0, 0], [1, 2**60 + 1, 1])
    assert Segment([2**60, 0, 0], [0, 0, 0]).start[0] == 2.0**60, "float64 holds 2**60"
