"""The two stages of segment and ray vs AABB on their own, as the engine runs them: ``_exact``
equals the exact reference at every magnitude, and ``_filter``'s answer equals it wherever the
filter does not doubt (its doubt is certified), on drawn data and on near-ties."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from geometry import ray_aabb, segment_aabb
from tests.geometry import exact_reference as ref
from tests.geometry.test_magnitudes import ray_cases, segment_cases
from tests.geometry.test_near_ties import boundary_cases


def flat(*points) -> list[float]:
    return [float(x) for p in points for x in np.asarray(p, dtype=np.float64).reshape(-1)]


def check_segment(case) -> bool:
    """Both stages against the reference; returns the filter's doubt."""
    want = ref.classify_segment_aabb(*case)
    args = flat(*case)
    assert segment_aabb._exact(*args) == want, f"{case}: _exact, expected {want}"
    code, doubt = segment_aabb._filter(*args)
    assert doubt or code == want, f"{case}: the filter is sure of {code}, exactly {want}"
    return doubt


def check_ray(case, t_min, t_max) -> bool:
    want = ref.intersect_ray_aabb(*case, t_min, t_max)
    args = flat(*case) + [float(t_min), float(t_max)]
    hit, t_enter, t_exit = ray_aabb._exact(*args)
    assert (hit, t_enter, t_exit) == tuple(want), f"{case} [{t_min}, {t_max}]: _exact"
    f_hit, f_enter, f_exit, doubt = ray_aabb._filter(*args, False)
    if all(args[3:6]):  # no zero component: the loop's case (crossing) gives the same bits
        crossing = ray_aabb._filter(*args, True)
        assert repr(crossing) == repr((f_hit, f_enter, f_exit, doubt)), (
            f"{case} [{t_min}, {t_max}]: crossing {crossing}")
    if not doubt:
        assert f_hit == want.hit, f"{case} [{t_min}, {t_max}]: the filter is sure of {f_hit}"
        for got, exact in ((f_enter, want.t_enter), (f_exit, want.t_exit)):
            if math.isinf(got) or isinstance(exact, float):
                assert got == exact, f"{case}: t {got}, exactly {exact}"
            else:
                ulp = Fraction(math.ulp(float(exact)))
                assert abs(Fraction(got) - exact) <= 2 * ulp, f"{case}: t {got}, {exact}"
    return doubt


@given(segment_cases())
def test_segment_stages_at_every_magnitude(case):
    check_segment(case)


@given(ray_cases())
def test_ray_stages_at_every_magnitude(case):
    args, kw = case
    check_ray(args, kw["t_min"], kw["t_max"])


def test_stages_on_near_ties():
    """Corners and edges within rounding of the line: the filter doubts some, never errs."""
    doubted = 0
    for seed, dtype in ((1, np.float64), (3, np.float32)):
        start, end, lo, hi, _ = boundary_cases(seed, dtype)
        for i in range(len(lo)):
            doubted += check_segment((start[i], end[i], lo[i], hi[i]))
            doubted += check_ray((start[i], end[i] - start[i], lo[i], hi[i]), 0.0, 1.0)
    assert doubted > 0, "expected near-ties the filter cannot decide (the test lost its point)"


@given(st.integers(-1074, 1023), st.integers(1, 2**52))
def test_exact_segment_at_one_scale(exponent, mantissa):
    """Coordinates sharing one binade far from 1: the integers of ``_exact.scaled`` stay exact."""
    x = math.ldexp(mantissa, exponent) if exponent + 53 < 1024 else 1e308
    x = min(x, 1e308)
    case = ([-x, 0.0, 0.0], [x, x, 0.0], [0.0, 0.0, 0.0], [x, x / 2, 0.0])
    check_segment(case)
