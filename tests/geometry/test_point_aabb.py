"""distance_point_aabb against the exact reference (SEMANTICS.md, "Point vs box distance"):
every distance one of the two floats around the exact one, at every magnitude."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, distance_point_aabb
from tests.geometry import exact_reference as ref
from tests.strategies import batches, boxes, generic_coords, points_near, small_int_coords

pytestmark = pytest.mark.usefixtures("each_backend")

INF = math.inf
TINY = 2.0**-1074


@st.composite
def point_box_cases(draw):
    coords = draw(st.sampled_from([small_int_coords, generic_coords]))
    box = draw(boxes(coords, empty=True))
    return draw(points_near(box, coords)), box[0], box[1]


def assert_faithful(got, cases, dtype=np.float64):
    for i, case in enumerate(cases):
        want = ref.distance2_point_aabb(*case)
        assert ref.is_faithful(got[i], want, dtype), (
            f"case {i}: point {case[0]!r} box {case[1]!r}..{case[2]!r}: expected a faithful "
            f"rounding of {ref.root_text(want)}, got {got[i]!r}")


@given(batches(point_box_cases()))
def test_distances_are_faithful_to_the_exact_distance(cases):
    point, lo, hi = (np.array(c) for c in zip(*cases, strict=True))
    got = distance_point_aabb(point, lo, hi)
    assert got.dtype == np.float64 and got.shape == (len(cases),)
    assert_faithful(got, cases)
    one = distance_point_aabb(*(c.tolist() for c in cases[0]))
    assert one == got[0], f"one item: expected the batch's {got[0]!r}, got {one!r}"


def test_a_thousand_generic_distances_are_faithful(monkeypatch):
    """Generic float data, where a square root of the rounded square sum misses by an ulp in
    about one case in sixty: every distance faithful, each certified by the filter."""
    from geometry import point_aabb

    exact = point_aabb._QUERY.exact
    calls: list[object] = []
    monkeypatch.setattr(point_aabb._QUERY, "exact",
                        lambda *item: calls.append(item) or exact(*item))
    rng = np.random.default_rng(1)
    point = rng.normal(size=(1000, 3)) * rng.choice([1e-3, 1.0, 1e3], size=(1000, 1))
    lo = rng.normal(size=(1000, 3))
    hi = lo + np.abs(rng.normal(size=(1000, 3)))
    assert_faithful(distance_point_aabb(point, lo, hi), list(zip(point, lo, hi, strict=True)))
    assert not calls, f"expected the filter to certify every distance, {len(calls)} went exact"


_BIG, _SMALL = 2.0**990, 2.0**-1000
_EDGE_LOW, _EDGE_HIGH = 2.0**-450, 2.0**450
_UNDER, _OVER = math.nextafter(_EDGE_LOW, 0.0), math.nextafter(_EDGE_HIGH, INF)
#: (point, box_min, box_max, exact distance or None): named edge cases, run as one batch
EDGES = {
    "inside": ([0.5, 0.5, 0.5], [0, 0, 0], [1, 1, 1], 0.0),
    "on a face": ([1, 0.5, 0.5], [0, 0, 0], [1, 1, 1], 0.0),
    "on an edge": ([1, 1, 0.5], [0, 0, 0], [1, 1, 1], 0.0),
    "on a corner": ([0, 1, 1], [0, 0, 0], [1, 1, 1], 0.0),
    "beyond a face": ([3, 0.5, 0.5], [0, 0, 0], [1, 1, 1], 2.0),
    "beyond an edge, 3-4-5": ([4, -4, 0.5], [0, 0, 0], [1, 1, 1], 5.0),
    "beyond a corner, 2-3-6-7": ([3, -3, 7], [0, 0, 0], [1, 1, 1], 7.0),
    "flat box": ([0.5, 2, 0.5], [0, 0, 0], [1, 0, 1], 2.0),
    "point box": ([1, 2, 2], [0, 0, 0], [0, 0, 0], 3.0),
    "empty box": ([0, 0, 0], [1, 0, 0], [0, 1, 1], None),
    "1e300 apart": ([1e300, 0, 0], [-1, -1, -1], [1, 1, 1], None),
    "1e300 corner": ([3e300, 4e300, 0], [-1e300, -1e300, -1], [0, 0, 1], None),
    "near the largest float": ([1.7e308, 0, 0], [-1, -1, -1], [-1e308, 1, 1], None),
    "1e-300 apart": ([3e-300, 4e-300, 0], [-1, -1, -1], [0, 0, 1], None),
    "dyadic at 2**990": ([3 * _BIG, 4 * _BIG, 0], [0, 0, 0], [_BIG, _BIG, _BIG], None),
    "dyadic at 2**-1000": ([2 * _SMALL, 4 * _SMALL, 0], [0, 0, 0], [_SMALL, _SMALL, 1], None),
    "subnormal apart": ([3 * TINY, 4 * TINY, 0], [0, 0, 0], [0, 0, 1], 5 * TINY),
    "a subnormal and a normal": ([1e-310, 2.0**-1020, 0], [0, 0, 0], [0, 0, 1], None),
    "far apart components": ([1e200, 1e-200, 0], [0, 0, 0], [0, 0, 1], 1e200),
    "ulp outside": ([math.nextafter(1.0, 2.0), 0.5, 0.5], [0, 0, 0], [1, 1, 1], 2.0**-52),
    # the filter certifies squared distances within [2**-900, 2**900] (or 0): at its edges
    "squared 2**-900": ([_EDGE_LOW, 0.5, 0.5], [0, 0, 0], [0, 1, 1], _EDGE_LOW),
    "squared under 2**-900": ([_UNDER, 0.5, 0.5], [0, 0, 0], [0, 1, 1], _UNDER),
    "3-4-5 over 2**-900": ([3 * _EDGE_LOW / 4, _EDGE_LOW, 0.5], [0, 0, 0], [0, 0, 1],
                           5 * _EDGE_LOW / 4),
    "3-4-5 under 2**-900": ([3 * _EDGE_LOW / 8, _EDGE_LOW / 2, 0.5], [0, 0, 0], [0, 0, 1],
                            5 * _EDGE_LOW / 8),
    "squared 2**900": ([_EDGE_HIGH, 0.5, 0.5], [0, 0, 0], [0, 1, 1], _EDGE_HIGH),
    "squared over 2**900": ([_OVER, 0.5, 0.5], [0, 0, 0], [0, 1, 1], _OVER),
}


def test_named_edge_cases_are_faithful():
    cases = [tuple(np.array(x, dtype=np.float64) for x in case[:3]) for case in EDGES.values()]
    point, lo, hi = (np.array(c) for c in zip(*cases, strict=True))
    got = distance_point_aabb(point, lo, hi)
    assert_faithful(got, cases)
    for (name, case), d in zip(EDGES.items(), got, strict=True):
        if case[3] is not None:
            assert d == case[3], f"{name}: expected the exact distance {case[3]!r}, got {d!r}"


def test_float32_data_give_float32_distances_faithful_in_float32():
    rng = np.random.default_rng(5)
    point = (rng.normal(size=(300, 3)) * 10).astype(np.float32)
    lo = rng.normal(size=(300, 3)).astype(np.float32)
    hi = lo + np.abs(rng.normal(size=(300, 3))).astype(np.float32)
    # float32's extremes: subnormal gaps, exponents far apart in one difference, near its top
    scale = np.repeat(np.float32([1e-45, 1e-40, 1e-30, 1e30, 1e37]), 60)[:, None]
    with np.errstate(over="ignore", under="ignore"):
        point, lo, hi = (np.concatenate([a, a * scale]) for a in (point, lo, hi))
    point[-1] = np.float32(1e-44)  # 1e-44 from a box near 1e37: exponents 200 apart
    got = distance_point_aabb(point, lo, hi)
    assert got.dtype == np.float32, f"float32 data: expected float32 distances, got {got.dtype}"
    assert_faithful(got, list(zip(point, lo, hi, strict=True)), np.float32)
    one = distance_point_aabb(point[0], lo[0], hi[0])
    assert one == got[0], f"one float32 item: expected the batch's {got[0]!r}, got {one!r}"


def test_float32_distances_past_float32_range_are_inf_without_an_overflow_error():
    # 3e38 from a box 2e38..3e38 away on each axis: about 9e38 exactly, past float32's 3.4e38
    point = np.full((2, 3), 3e38, np.float32)
    lo = np.full((2, 3), -3e38, np.float32)
    hi = np.array([[-2e38] * 3, [3e38] * 3], np.float32)  # the second holds the point: 0
    got = distance_point_aabb(point, lo, hi)
    assert got.tolist() == [INF, 0.0], f"expected [inf, 0] in float32, got {got!r}"
    one = distance_point_aabb(point[0], lo[0], hi[0])
    assert one == INF, f"one float32 item: expected inf, got {one!r}"


def test_empty_boxes_are_infinitely_far_and_out_is_filled():
    out = np.full(2, -1.0)
    got = distance_point_aabb([[0, 0, 0], [1, 2, 3]], [[INF] * 3, [0, 0, 0]],
                              [[-INF] * 3, [1, 1, 1]], out=out)
    assert got is out, "out=: expected the array given back"
    np.testing.assert_array_equal(out, [INF, math.sqrt(5)], err_msg="empty box: inf")
    empty = AABB.empty()
    assert distance_point_aabb([0, 0, 0], empty.min, empty.max) == INF


@pytest.mark.parametrize("point, box_min, box_max, name", [
    ([np.nan, 0, 0], [0, 0, 0], [1, 1, 1], "point"),
    ([0, 0, 0], [-INF, 0, 0], [1, 1, 1], "box_min"),
    ([0, 0, 0], [0, 0, 0], [1, INF, 1], "box_max"),
])
def test_bad_values_name_the_argument(point, box_min, box_max, name):
    with pytest.raises(ValueError, match=name):
        distance_point_aabb(point, box_min, box_max)
    with pytest.raises(ValueError, match=name):
        distance_point_aabb([point] * 2, box_min, box_max)


def test_the_value_method_is_the_function():
    box = AABB([0, 0, 0], [1, 1, 1])
    assert box.distance([4, -4, 0.5]) == 5.0, "AABB.distance: expected 5 beyond an edge"
    points = np.array([[4.0, -4, 0.5], [0.5, 0.5, 0.5]])
    np.testing.assert_array_equal(box.distance(points), distance_point_aabb(points, box.min,
                                                                            box.max))
    assert AABB.empty().distance([0, 0, 0]) == INF, "the empty box: expected inf"
