"""distance_point_obb against the exact reference (SEMANTICS.md, "Point vs box distance"): the
distance to the box as evaluated (a parallelepiped where the float rows are not orthonormal),
faithfully rounded."""

from __future__ import annotations

import math

import numpy as np
import pyrr
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import OBB, distance_point_aabb, distance_point_obb
from tests.geometry import exact_reference as ref
from tests.strategies import batches, half_sizes_generic, points, rotations

pytestmark = pytest.mark.usefixtures("each_backend")

INF = math.inf
IDENTITY = np.eye(3)


@st.composite
def points_near_rotated_boxes(draw):
    """``(point, center, axes, half_size)``: a rotated box and a point at a face, edge or
    corner point mapped to the world in floats (so within an ulp or so of the surface), moved
    along a drawn vector by a drawn amount (0 in a quarter of the draws)."""
    center, axes, half = draw(points()), draw(rotations()), draw(half_sizes_generic)
    signs = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=3, max_size=3)))
    free = draw(st.integers(0, 3))  # 3: a corner; else that axis runs free (an edge)
    along = draw(st.floats(-1, 1))
    step = draw(st.sampled_from([0.0, 1e-9, 0.5, 3.0]))
    move = draw(points())
    with np.errstate(all="ignore"):  # building a case: tiny products may underflow, harmlessly
        u = half * signs
        if free < 3:
            u[free] *= along
        p = center + axes.T @ u + step * move
    return p, center, axes, half


def random_axes(rng, n):
    """``n`` rotations' rows, from Euler angles drawn by ``rng``."""
    return np.array([pyrr.matrix33.create_from_eulers(e) for e in rng.uniform(-3, 3, (n, 3))])


def world_points(center, axes, u):
    """The points of frame coordinates ``u`` in boxes ``center, axes``, rounded to floats."""
    return center + np.einsum("nij,ni->nj", axes, u)


def assert_faithful(got, cases, dtype=np.float64):
    for i, case in enumerate(cases):
        want = ref.distance2_point_obb(*case)
        assert ref.is_faithful(got[i], want, dtype), (
            f"case {i}: {[np.asarray(c).tolist() for c in case]}: expected a faithful rounding "
            f"of {ref.root_text(want)}, got {got[i]!r}")


def stacked(cases):
    return [np.array(c) for c in zip(*cases, strict=True)]


# at least two cases a batch: a batch of one compiles a loop of its own (every argument one row)
# that only this test would need; the one-item path is checked below, interpreted
@given(batches(points_near_rotated_boxes(), min_size=2))
def test_distances_to_rotated_boxes_are_faithful(cases):
    got = distance_point_obb(*stacked(cases))
    assert got.dtype == np.float64 and got.shape == (len(cases),)
    assert_faithful(got, cases)
    one = distance_point_obb(*cases[0])
    assert one == got[0], f"one item: expected the batch's {got[0]!r}, got {one!r}"
    # a few of the cases as float32 data (each value within a float32 ulp of the surface): the
    # float32 filter, faithful in float32
    with np.errstate(all="ignore"):  # beyond float32's range: left out; below it: 0
        cases32 = [tuple(np.asarray(x, dtype=np.float32) for x in case) for case in cases[:4]]
    cases32 = [case for case in cases32 if all(np.isfinite(x).all() for x in case)]
    cases32 += [tuple(np.float32(x) for x in EDGES32["inside"])] * max(0, 2 - len(cases32))
    got32 = distance_point_obb(*stacked(cases32))
    assert got32.dtype == np.float32, f"float32 data: expected float32, got {got32.dtype}"
    assert_faithful(got32, cases32, np.float32)
    one = distance_point_obb(*cases32[-1])
    assert one == got32[-1], f"one float32 item: expected the batch's {got32[-1]!r}, got {one!r}"


def test_a_thousand_generic_distances_are_faithful(monkeypatch):
    from geometry import point_obb

    exact = point_obb._QUERY.exact
    calls: list[object] = []
    monkeypatch.setattr(point_obb._QUERY, "exact",
                        lambda *item: calls.append(item) or exact(*item))
    rng = np.random.default_rng(3)
    n = 1000
    axes = random_axes(rng, n)
    center, half = rng.normal(size=(n, 3)), np.abs(rng.normal(size=(n, 3)))
    point = center + rng.normal(size=(n, 3)) * rng.choice([1e-3, 1.0, 1e3], size=(n, 1))
    cases = list(zip(point, center, axes, half, strict=True))
    assert_faithful(distance_point_obb(point, center, axes, half), cases)
    assert len(calls) <= 10, f"expected the filter to certify them, {len(calls)} went exact"
    # float32 rows (orthonormal to ~1e-7), as float64s, with float64 points: decided exactly
    axes32 = axes[:40].astype(np.float32).astype(np.float64)
    got = distance_point_obb(point[:40], center[:40], axes32, half[:40])
    assert_faithful(got, list(zip(point, center, axes32, half, strict=False)))


def test_points_in_a_flat_boxs_plane_are_faithful():
    # each point is the world image of a point of the box's plane, rounded: its frame coordinate
    # across the plane is of the order of its rounding, where the double-double's high part may
    # have the other sign than the whole, and the distance is that coordinate
    rng = np.random.default_rng(11)
    n = 400
    axes = random_axes(rng, n)
    center = rng.normal(size=(n, 3)) * rng.choice([1.0, 1e3], size=(n, 1))
    half = np.abs(rng.normal(size=(n, 3))) * [1.0, 1.0, 0.0]
    u = rng.uniform(-1, 1, (n, 3)) * half
    point = world_points(center, axes, u)
    cases = list(zip(point, center, axes, half, strict=True))
    assert_faithful(distance_point_obb(point, center, axes, half), cases)


def test_points_just_beyond_a_face_that_floats_put_inside_are_faithful():
    # world images of points of a face, rounded, the face's half size 100 times below the
    # others': of those just outside the box, the ones whose float frame coordinate,
    # a . fl(p - c), lies inside the face by more than 0.5 u W (W the offset's 1-norm; the
    # float frame errs by up to 4 u W). One item, and the interpreted loop, leave an axis out
    # only where it is surely inside (OBB_DISTANCE_FREE): one of these left out would be at
    # distance 0
    rng = np.random.default_rng(5)
    n = 20000
    axes = random_axes(rng, n)
    center, half = rng.normal(size=(n, 3)), np.abs(rng.normal(size=(n, 3))) * [0.01, 1, 1]
    u = rng.uniform(-1, 1, (n, 3)) * half
    u[:, 0] = half[:, 0]
    point = world_points(center, axes, u)
    t = point - center
    frame = abs((axes[:, 0, 0] * t[:, 0] + axes[:, 0, 1] * t[:, 1]) + axes[:, 0, 2] * t[:, 2])
    inside = frame + 0.5 * 2.0**-53 * abs(t).sum(1) <= half[:, 0] * (1 - 2.0**-51)
    beyond = [k for k in np.flatnonzero(inside)
              if abs(ref.to_box_frame(point[k], center[k], axes[k])[0]) > half[k, 0]]
    assert len(beyond) >= 3, f"expected such points, found {len(beyond)}"
    cases = [(point[k], center[k], axes[k], half[k]) for k in beyond]
    got = distance_point_obb(*stacked(cases))
    assert_faithful(got, cases)
    assert (got > 0).all(), "expected every point outside"


_SKEW = np.array([[1.0, 0.0, 0.0], [2.0**-21, 1.0, 0.0], [0.0, 0.0, 1.0]])  # R01 ~ 4.8e-7
_BIG, _SMALL, TINY = 2.0**990, 2.0**-1000, 2.0**-1074
_PERM = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]])
#: (point, center, axes, half_size, exact distance or None): named edge cases, one batch
EDGES = {
    "inside": ([0.5, 0.5, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1], 0.0),
    "on a face": ([1, 0.5, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1], 0.0),
    "on an edge": ([1, -1, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1], 0.0),
    "on a corner": ([-1, 1, 1], [0, 0, 0], IDENTITY, [1, 1, 1], 0.0),
    "beyond an edge, 3-4-5": ([4, -5, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1], 5.0),
    "beyond a corner, permuted axes": ([-6, 4, -3], [1, 1, 1], _PERM, [1, 1, 1], 7.0),
    "flat box": ([0.5, 2, 0.5], [0, 0, 0], IDENTITY, [1, 0, 1], 2.0),
    "empty box": ([0, 0, 0], [0, 0, 0], IDENTITY, [1, -1, 1], None),
    "skewed rows, beyond a face": ([0.5, 3, 0.25], [0, 0, 0], _SKEW, [1, 1, 1], None),
    "skewed rows, beyond an edge": ([3, 3, 0.25], [0, 0, 0], _SKEW, [1, 1, 1], None),
    "skewed rows, beyond a corner": ([-3, 3, 4], [0, 0, 0], _SKEW, [1, 1, 1], None),
    "1e300 apart": ([1e300, 2e300, 0], [0, 0, 0], _PERM, [1, 1, 1], None),
    "near the largest float": ([1.7e308, 0, 0], [-1e308, 0, 0], IDENTITY, [1, 1, 1], None),
    "dyadic at 2**990": ([4 * _BIG, -5 * _BIG, 0], [0, 0, 0], IDENTITY, [_BIG] * 3, 5 * _BIG),
    "1e-300 apart": ([3e-300, 4e-300, 0], [0, 0, 0], IDENTITY, [1e-300] * 3, None),
    "dyadic at 2**-1000": ([4 * _SMALL, 5 * _SMALL, 0], [0, 0, 0], IDENTITY, [_SMALL] * 3,
                           5 * _SMALL),
    "subnormal apart": ([4 * TINY, 5 * TINY, 0], [0, 0, 0], IDENTITY, [TINY, TINY, 0],
                        5 * TINY),
    "rotated, far": ([1e5, 1, 2], [0, 0, 0], pyrr.matrix33.create_from_eulers([.1, .2, .3]),
                     [1, 2, 3], None),
}


def test_named_edge_cases_are_faithful():
    cases = [tuple(np.array(x, dtype=np.float64) for x in case[:4]) for case in EDGES.values()]
    got = distance_point_obb(*stacked(cases))
    assert_faithful(got, cases)
    for (name, case), d in zip(EDGES.items(), got, strict=True):
        if case[4] is not None:
            assert d == case[4], f"{name}: expected the exact distance {case[4]!r}, got {d!r}"


_F32_TINY = float(np.float32(2.0**-149))
_ROT = pyrr.matrix33.create_from_eulers([.4, -.7, 1.1]).astype(np.float32).astype(np.float64)
#: float32 data: (point, center, axes, half_size), one batch
EDGES32 = {
    "inside": ([0.5, 0.5, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1]),
    "a float32 ulp beyond a face": ([1 + 2.0**-23, 0.5, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1]),
    "a float32 ulp inside a face": ([1 - 2.0**-24, 0.5, 0.5], [0, 0, 0], IDENTITY, [1, 1, 1]),
    "skewed rows (R01 ~ 4.8e-7, past the float32 budget), beyond an edge":
        ([3, 3, 0.25], [0, 0, 0], _SKEW, [1, 1, 1]),
    "skewed rows, beyond a corner": ([-3, 3, 4], [0, 0, 0], _SKEW, [1, 1, 1]),
    "far, rotated": ([1e5, 1, 2], [0, 0, 0], pyrr.matrix33.create_from_eulers([.1, .2, .3]),
                     [1, 2, 3]),
    "near the largest float32": ([3e38, 1e30, -1e30], [-2e37, 0, 0], _PERM, [1, 1, 1]),
    "subnormal float32 apart": ([4 * _F32_TINY, 5 * _F32_TINY, 0], [0, 0, 0], IDENTITY,
                                [_F32_TINY, _F32_TINY, 0]),
    # a long rotated box, the point 2**19 along it: the float32 filter's frame error (2**-31)
    # against the excess puts the certificate's edge near an excess of 0.24
    **{f"excess 2**-{k} beside an offset of 2**19": (
        _ROT @ [1 + 2.0**-k, 2.0**19, 0.3], [0, 0, 0], _ROT.T, [1, 2.0**20, 1])
        for k in (1, 2, 3, 5)},
    "flat box, on it": ([0.5, 0, 0.5], [0, 0, 0], IDENTITY, [1, 0, 1]),
    "empty box": ([0, 0, 0], [0, 0, 0], IDENTITY, [1, -1, 1]),
}


def test_named_float32_edge_cases_are_faithful_in_float32():
    cases = [tuple(np.array(x, dtype=np.float32) for x in case) for case in EDGES32.values()]
    got = distance_point_obb(*stacked(cases))
    assert got.dtype == np.float32, f"float32 data: expected float32, got {got.dtype}"
    assert_faithful(got, cases, np.float32)
    assert got[0] == 0.0 and got[-2] == 0.0, f"inside / on a flat box: expected 0, got {got}"
    assert got[-1] == INF, f"empty box: expected inf, got {got[-1]!r}"


def test_identity_axes_give_the_aabb_distance_and_float32_gives_float32():
    rng = np.random.default_rng(4)
    point = rng.integers(-16, 17, (200, 3)) / 4.0
    center, half = rng.integers(-8, 9, (200, 3)) / 4.0, rng.integers(0, 9, (200, 3)) / 4.0
    axes = np.broadcast_to(IDENTITY, (200, 3, 3))  # per item: the loop the tests above compile
    got = distance_point_obb(point, center, axes, half)
    np.testing.assert_array_equal(got, distance_point_aabb(point, center - half, center + half),
                                  err_msg="identity axes, dyadic data: the AABB's distance")
    point, center = rng.normal(size=(200, 3)) * 3, rng.normal(size=(200, 3))
    half = np.abs(rng.normal(size=(200, 3)))
    got = distance_point_obb(point, center, axes, half)
    assert_faithful(got, [(p, c, IDENTITY, h) for p, c, h in zip(point, center, half,
                                                                 strict=True)])
    # float32 data give a float32 distance for one item too
    d = distance_point_obb(*[a.astype(np.float32) for a in (point[0], center[0], IDENTITY,
                                                            half[0])])
    assert type(d) is float and d == np.float32(d), f"float32 data: expected a float32: {d!r}"


@pytest.mark.parametrize("args, name", [
    (([np.nan, 0, 0], [0, 0, 0], IDENTITY, [1, 1, 1]), "point"),
    (([0, 0, 0], [0, INF, 0], IDENTITY, [1, 1, 1]), "box_center"),
    (([0, 0, 0], [0, 0, 0], IDENTITY * 2, [1, 1, 1]), "box_axes"),
    (([0, 0, 0], [0, 0, 0], IDENTITY, [1, np.nan, 1]), "box_half_size"),
])
def test_bad_values_name_the_argument(args, name):
    with pytest.raises(ValueError, match=name):
        distance_point_obb(*args)
    with pytest.raises(ValueError, match=name):  # a batch: per-item arguments, as above
        distance_point_obb(*(np.broadcast_to(a, (2, *np.shape(a))) for a in args))


def test_the_value_method_is_the_function():
    box = OBB([0, 0, 0], _PERM, [1, 1, 1])
    assert box.distance([-6, 4, -3]) == distance_point_obb([-6, 4, -3], [0, 0, 0], _PERM,
                                                          [1, 1, 1]), "OBB.distance"
