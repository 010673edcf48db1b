"""classify_sphere_obb against the exact reference (SEMANTICS.md, "Sphere vs box"): the ball
against the box as evaluated, a parallelepiped where the float rows are not orthonormal."""

from __future__ import annotations

import math

import numpy as np
import pyrr
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import IntersectionType, classify_sphere_aabb, classify_sphere_obb, distance_point_obb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    dyadic_coords,
    half_sizes_generic,
    points,
    proper_boxes,
    rotations,
    signed_permutation_matrices,
    spheres_near,
)

pytestmark = pytest.mark.usefixtures("each_backend")

INF = math.inf
NONE, INTERSECT, INCLUDE = 0, 1, 2
IDENTITY = np.eye(3)


@st.composite
def balls_at_permuted_boxes(draw):
    """A box with dyadic corners turned by a signed permutation (exact in floats) and a ball
    placed against it in its frame (tangent to a face, edge or corner, or near it)."""
    lo, hi = draw(proper_boxes(dyadic_coords))
    axes = draw(signed_permutation_matrices())
    u, radius = draw(spheres_near((lo, hi), dyadic_coords))
    center = (lo + hi) / 2
    return axes.T @ u, radius, axes.T @ center, axes, (hi - lo) / 2


@st.composite
def balls_at_rotated_boxes(draw):
    """A rotated box (its rows rounded to float32 in a third of the draws: orthonormal only to
    ~1e-7, a parallelepiped) and a ball whose radius is the float distance from its centre to
    the box (faithful, so within an ulp of tangency) or a float next to it."""
    center, axes, half = draw(points()), draw(rotations()), draw(half_sizes_generic)
    if draw(st.integers(0, 2)) == 0:
        axes = axes.astype(np.float32).astype(np.float64)
    with np.errstate(under="ignore"):  # tiny products and the floats next to 0 are subnormal
        s = center + axes.T @ (half * np.array(draw(st.tuples(*[st.floats(-2, 2)] * 3))))
        d = distance_point_obb(s, center, axes, half)
        radius = float(np.nextafter(d, draw(st.sampled_from([-INF, INF, d]))))
    return s, max(radius, 0.0), center, axes, half


def stacked(cases):
    return [np.array(c) for c in zip(*cases, strict=True)]


def assert_batch_matches(cases, names=None):
    got = classify_sphere_obb(*stacked(cases))
    assert got.dtype == np.int8 and got.shape == (len(cases),)
    for i, case in enumerate(cases):
        want = ref.classify_sphere_obb(*case)
        assert got[i] == want, (
            f"{names[i] if names else f'case {i}'}: {[np.asarray(c).tolist() for c in case]}: "
            f"expected {IntersectionType(want).name}, got {got[i]}")
    return got


@given(batches(st.one_of(balls_at_permuted_boxes(), balls_at_rotated_boxes())))
def test_balls_match_the_exact_reference(cases):
    got = assert_batch_matches(cases)
    one = classify_sphere_obb(*cases[0])
    assert one == got[0] and isinstance(one, IntersectionType), (
        f"one item: expected the batch's {got[0]}, got {one!r}")


def test_identity_axes_agree_with_the_aabb_query():
    rng = np.random.default_rng(9)
    center = rng.integers(-12, 13, (300, 3)) / 4.0
    radius = rng.integers(0, 12, 300) / 4.0
    box_center, half = rng.integers(-4, 5, (300, 3)) / 4.0, rng.integers(0, 9, (300, 3)) / 4.0
    axes = np.broadcast_to(IDENTITY, (300, 3, 3))  # per item: the loop the tests above compile
    got = classify_sphere_obb(center, radius, box_center, axes, half)
    want = classify_sphere_aabb(center, radius, box_center - half, box_center + half)
    np.testing.assert_array_equal(got, want, err_msg="identity axes, dyadic data: the AABB's")
    assert set(got.tolist()) == {NONE, INTERSECT, INCLUDE}, "expected every class"


_SKEW = np.array([[1.0, 0.0, 0.0], [2.0**-21, 1.0, 0.0], [0.0, 0.0, 1.0]])  # R01 ~ 4.8e-7
_ROT = np.asarray(pyrr.matrix33.create_from_eulers([0.1, 0.2, 0.3]))
_BIG, _SMALL = 2.0**990, 2.0**-1000
_C, _S = float(np.float32(math.cos(1.0))), float(np.float32(math.sin(1.0)))
_Y32 = np.array([[_C, 0, _S], [0, 1, 0], [-_S, 0, _C]])  # float32 rows: R00 = R22 ~ -7.9e-8
_C, _S = float(np.float32(math.cos(0.25))), float(np.float32(math.sin(0.25)))
_Z32 = np.array([[_C, -_S, 0], [_S, _C, 0], [0, 0, 1]])
_Y32B = np.array([[-0.7208613157272339, 0, -0.6930793523788452], [0, 1, 0],
                  [0.6930793523788452, 0, -0.7208613157272339]])  # float32 rows too
_Y32C = np.array([[-0.7801467776298523, 0, 0.6255965828895569], [0, 1, 0],
                  [-0.6255965828895569, 0, -0.7801467776298523]])
#: (center, radius, box_center, axes, half_size, expected): named edge cases, one batch
EDGES = {
    "inside": ([0.5, 0.5, 0.5], 0.25, [0, 0, 0], IDENTITY, [1, 1, 1], INCLUDE),
    "tangent inside": ([0.5, 0, 0], 0.5, [0, 0, 0], IDENTITY, [1, 1, 1], INTERSECT),
    "tangent to an edge, 3-4-5": ([4, -5, 0.5], 5, [0, 0, 0], IDENTITY, [1, 1, 1], INTERSECT),
    "short of an edge": ([4, -5, 0.5], math.nextafter(5, 0), [0, 0, 0], IDENTITY, [1, 1, 1],
                         NONE),
    "tangent to a corner, 2-3-6-7": ([3, -4, 7], 7, [0, 0, 0], IDENTITY, [1, 1, 1], INTERSECT),
    "radius 0 inside": ([0.5, 0.5, 0.5], 0, [0, 0, 0], _ROT, [1, 1, 1], INCLUDE),
    "radius 0 on a face": ([1, 0.5, 0.5], 0, [0, 0, 0], IDENTITY, [1, 1, 1], INTERSECT),
    "flat box": ([0.5, 0, 0.5], 0, [0, 0, 0], IDENTITY, [1, 0, 1], INTERSECT),
    "empty box": ([0, 0, 0], 10, [0, 0, 0], IDENTITY, [1, -1, 1], NONE),
    "skewed rows, beyond a face": ([0.5, 3, 0.25], 2, [0, 0, 0], _SKEW, [1, 1, 1], None),
    "skewed rows, beyond an edge": ([3, 3, 0.25], 2.8284271247461903, [0, 0, 0], _SKEW,
                                    [1, 1, 1], None),
    "skewed rows, inside": ([0.5, 0.5, 0.25], 0.5, [0, 0, 0], _SKEW, [1, 1, 1], None),
    "rotated, far": ([1e5, 1, 2], 99990, [0, 0, 0], _ROT, [1, 2, 3], None),
    "tangent at 2**990": ([4 * _BIG, -5 * _BIG, 0], 5 * _BIG, [0, 0, 0], IDENTITY, [_BIG] * 3,
                          INTERSECT),
    "tangent at 2**-1000": ([4 * _SMALL, -5 * _SMALL, 0], 5 * _SMALL, [0, 0, 0], IDENTITY,
                            [_SMALL] * 3, INTERSECT),
    "1e300 apart": ([1e300, 2e300, 0], 2.2e300, [0, 0, 0], _ROT, [1, 1, 1], None),
    # within 1e-7 of tangency: decided right only with the rows' metric correction
    "float32 rows, short of a face": ([-1.6829419136047363, 0, 1.0806045532226562],
                                      0.9999998818799116, [0, 0, 0], _Y32, [0, 0, 1], NONE),
    "float32 rows, reaching a face": ([0.4948079288005829, 1.9378248453140259, 0],
                                      1.0000000065700942, [0, 0, 0], _Z32, [0, 1, 0], INTERSECT),
    # a ball at the centre within an ulp of two faces (h = r |a_0|, rounded, then the next
    # float): INCLUDE only where h > r |a_0|, which |a_0| rounded can get wrong
    "float32 rows, inscribed, just inside": ([0, 0, 0], 1.9906833599471159, [0, 0, 0], _Y32B,
                                             [1.990683385035577, 10, 10], INCLUDE),
    "float32 rows, inscribed, reaching": ([0, 0, 0], 0.24010792545583126, [0, 0, 0], _Y32C,
                                          [0.24010793496042315, 10, 10], INTERSECT),
}


def test_named_edge_cases():
    cases = [tuple(np.array(x, dtype=np.float64) for x in case[:5]) for case in EDGES.values()]
    got = assert_batch_matches(cases, list(EDGES))
    for (name, case), code in zip(EDGES.items(), got, strict=True):
        if case[5] is not None:
            assert code == case[5], f"{name}: expected {IntersectionType(case[5]).name}"


def test_float32_data():
    rng = np.random.default_rng(10)
    axes = np.asarray(pyrr.matrix33.create_from_eulers([0.4, -1.0, 2.0]), dtype=np.float32)
    for _ in range(10):  # one item at a time: the float32 filter, no loop of its own
        s, c = rng.normal(size=3).astype(np.float32), rng.normal(size=3).astype(np.float32)
        h = np.abs(rng.normal(size=3)).astype(np.float32)
        r = np.float32(abs(rng.normal()))
        want = ref.classify_sphere_obb(s, r, c, axes, h)
        assert classify_sphere_obb(s, r, c, axes, h) == want, f"expected {want}"


@pytest.mark.parametrize("radius", [-1.0, INF, np.nan])
def test_a_bad_radius_names_the_argument(radius):
    args = ([0, 0, 0], radius, [0, 0, 0], IDENTITY, [1, 1, 1])
    with pytest.raises(ValueError, match="radius"):
        classify_sphere_obb(*args)
    with pytest.raises(ValueError, match="radius"):  # a batch: per-item arguments, as above
        classify_sphere_obb(*(np.broadcast_to(a, (2, *np.shape(a))) for a in args))
