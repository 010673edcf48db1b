"""classify_sphere_aabb against the exact reference (SEMANTICS.md, "Sphere vs box")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from geometry import IntersectionType, classify_sphere_aabb, distance_point_aabb
from tests.geometry import exact_reference as ref
from tests.strategies import batches, boxes, dyadic_coords, small_int_coords, spheres_near

pytestmark = pytest.mark.usefixtures("each_backend")

INF = math.inf
NONE, INTERSECT, INCLUDE = 0, 1, 2


@st.composite
def sphere_box_cases(draw):
    coords = draw(st.sampled_from([small_int_coords, dyadic_coords]))
    box = draw(boxes(coords, empty=True))
    center, radius = draw(spheres_near(box, coords))
    return center, radius, box[0], box[1]


def assert_batch_matches(cases, what=None, *, events=False):
    center, radius, lo, hi = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_sphere_aabb(center, radius, lo, hi)
    assert got.dtype == np.int8 and got.shape == (len(cases),)
    for i, case in enumerate(cases):
        want = ref.classify_sphere_aabb(*case)
        if events:
            event(IntersectionType(want).name)
        name = what[i] if what else f"case {i}"
        assert got[i] == want, (
            f"{name}: center {case[0]!r} radius {case[1]!r} box {case[2]!r}..{case[3]!r}: "
            f"expected {IntersectionType(want).name}, got {got[i]}")
    return got


@given(batches(sphere_box_cases()))
def test_spheres_match_the_exact_reference(cases):
    got = assert_batch_matches(cases, events=True)
    one = classify_sphere_aabb(*cases[0])
    assert one == got[0] and isinstance(one, IntersectionType), (
        f"one item: expected the batch's {got[0]}, got {one!r}")


def test_generic_balls_within_an_ulp_of_tangent():
    """Generic float data, each radius the float distance to the box (faithful, so within an
    ulp of tangency) or a float next to it: the exact classes."""
    rng = np.random.default_rng(8)
    n = 400
    center = rng.normal(size=(n, 3)) * rng.choice([1e-3, 1.0, 1e3], size=(n, 1))
    lo = rng.normal(size=(n, 3))
    hi = lo + np.abs(rng.normal(size=(n, 3)))
    with np.errstate(under="ignore"):  # the floats next to 0 are subnormal
        radius = np.nextafter(distance_point_aabb(center, lo, hi), rng.choice([-INF, INF], n))
    radius = np.where(rng.random(n) < 1 / 3, distance_point_aabb(center, lo, hi), radius)
    got = assert_batch_matches(list(zip(center, np.maximum(radius, 0), lo, hi, strict=True)))
    assert 0 < np.count_nonzero(got) < n, "expected both misses and hits"


_BIG, _SMALL, TINY = 2.0**990, 2.0**-1000, 2.0**-1074
_UP = math.nextafter(5.0, INF)
#: (center, radius, box_min, box_max, expected): named edge cases, one batch
EDGES = {
    "inside": ([0.5, 0.5, 0.5], 0.25, [0, 0, 0], [1, 1, 1], INCLUDE),
    "tangent inside a face": ([0.5, 0.5, 0.5], 0.5, [0, 0, 0], [1, 1, 1], INTERSECT),
    "an ulp from the face inside": ([0.5, 0.5, 0.5], math.nextafter(0.5, 0), [0, 0, 0],
                                    [1, 1, 1], INCLUDE),
    "tangent to a face": ([3, 0.5, 0.5], 2, [0, 0, 0], [1, 1, 1], INTERSECT),
    "tangent to an edge, 3-4-5": ([4, -4, 0.5], 5, [0, 0, 0], [1, 1, 1], INTERSECT),
    "an ulp short of an edge": ([4, -4, 0.5], math.nextafter(5.0, 0), [0, 0, 0], [1, 1, 1],
                                NONE),
    "tangent to a corner, 2-3-6-7": ([3, -3, 7], 7, [0, 0, 0], [1, 1, 1], INTERSECT),
    # INCLUDE's least margin at the filter's bound (SPHERE_MARGIN r) and just past it
    "margin at the bound": ([0, 0, 0], 1, [-(1 + 2.0**-48), -2, -2], [2, 2, 2], INCLUDE),
    "margin past the bound": ([0, 0, 0], 1, [-2, -2, -2], [2, 1 + 2.0**-47, 2], INCLUDE),
    "radius 0 inside": ([0.5, 0.5, 0.5], 0, [0, 0, 0], [1, 1, 1], INCLUDE),
    "radius 0 on a corner": ([1, 1, 1], 0, [0, 0, 0], [1, 1, 1], INTERSECT),
    "radius 0 outside": ([1, 1, math.nextafter(1.0, 2)], 0, [0, 0, 0], [1, 1, 1], NONE),
    "flat box": ([0.5, 0, 0.5], 0, [0, 0, 0], [1, 0, 1], INTERSECT),
    "empty box": ([0, 0, 0], 10, [1, 0, 0], [0, 1, 1], NONE),
    "empty box of infinities": ([0, 0, 0], 10, [INF] * 3, [-INF] * 3, NONE),
    "huge ball holds the box": ([0, 0, 0], 1e300, [0, 0, 0], [1, 1, 1], INTERSECT),
    "tangent at 2**990": ([4 * _BIG, -4 * _BIG, 0], 5 * _BIG, [0, 0, 0], [_BIG] * 3, INTERSECT),
    "short at 2**990": ([4 * _BIG, -4 * _BIG, 0], 5 * _BIG * (1 - 2**-52), [0, 0, 0],
                        [_BIG] * 3, NONE),
    "tangent at 2**-1000": ([4 * _SMALL, -4 * _SMALL, 0], 5 * _SMALL, [0, 0, 0], [_SMALL] * 3,
                            INTERSECT),
    "subnormal, an ulp over": ([4 * TINY, -4 * TINY, 0], 5 * TINY, [0, 0, 0], [TINY] * 3,
                               INTERSECT),
    "1e300 apart, reaching": ([1e300, 0, 0], 1e300, [-1, -1, -1], [1, 1, 1], INTERSECT),
    "1e300 apart, rounded short": ([1e300, 0, 0], 1e300 - 1e284, [-1e284] * 3, [1e284] * 3,
                                   NONE),
    "ulp beyond 5": ([4, -4, 0.5], _UP, [0, 0, 0], [1, 1, 1], INTERSECT),
    # the squared excess underflows to 0: the centre is still outside
    "radius 0, 1e-200 outside": ([-1e-200, 0.5, 0.5], 0, [0, 0, 0], [1, 1, 1], NONE),
    "radius 0, a subnormal outside": ([-TINY, 0.5, 0.5], 0, [0, 0, 0], [1, 1, 1], NONE),
    "radius 1e-300, 1e-200 outside": ([-1e-200, 0.5, 0.5], 1e-300, [0, 0, 0], [1, 1, 1], NONE),
    "radius 1e-200, 1e-200 outside": ([-1e-200, 0.5, 0.5], 1e-200, [0, 0, 0], [1, 1, 1],
                                      INTERSECT),
}


def test_named_edge_cases():
    cases = [tuple(np.array(x, dtype=np.float64) for x in case[:4]) for case in EDGES.values()]
    got = assert_batch_matches(cases, list(EDGES))
    want = [case[4] for case in EDGES.values()]
    np.testing.assert_array_equal(got, want, err_msg=f"expected {want} for {list(EDGES)}")


def test_float32_data_and_out():
    rng = np.random.default_rng(7)
    center = rng.integers(-8, 9, (200, 3)).astype(np.float32) / 4
    radius = rng.integers(0, 9, 200).astype(np.float32) / 4
    lo = rng.integers(-4, 1, (200, 3)).astype(np.float32)
    hi = lo + rng.integers(0, 5, (200, 3)).astype(np.float32)
    out = np.empty(200, dtype=np.int8)
    assert classify_sphere_aabb(center, radius, lo, hi, out=out) is out
    want = [ref.classify_sphere_aabb(*case) for case in zip(center, radius, lo, hi, strict=True)]
    np.testing.assert_array_equal(out, want, err_msg="float32 data: the exact classes")


@pytest.mark.parametrize("radius", [-1.0, -0.0 - 1e-300, INF, np.nan])
def test_a_bad_radius_names_the_argument(radius):
    with pytest.raises(ValueError, match="radius"):
        classify_sphere_aabb([0, 0, 0], radius, [0, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="radius"):
        classify_sphere_aabb(np.zeros((2, 3)), [1.0, radius], np.zeros((2, 3)), np.ones((2, 3)))
