"""Exact at every magnitude (SEMANTICS.md, "Numbers"): overflow and underflow inside the filter,
float32 data with float64 t bounds, t arrays, mixed dtypes, integers beyond 2**53 and
longdouble. Every case is checked against the exact reference, for one item and inside a batch,
compiled and interpreted alike (``each_backend``)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, classify_segment_aabb, intersect_ray_aabb
from tests.geometry import exact_reference as ref

pytestmark = pytest.mark.usefixtures("each_backend")

BIG = 1.7976931348623157e308
F32 = np.float32


def ulps_between(got: float, want, dtype) -> float:
    """|got - want| in ulps of the dtype at ``want`` (want exact: a Fraction or a float)."""
    want_f = float(want) if not isinstance(want, float) else want
    if dtype == np.float32:
        with np.errstate(all="ignore"):  # the spacing of a subnormal underflows, as intended
            spacing = float(np.spacing(np.float32(abs(want_f))))
    else:
        spacing = math.ulp(want_f)
    return float(abs(Fraction(got) - Fraction(want)) / Fraction(spacing))


def check_ray(args, kw, got, dtype=np.float64):
    want = ref.intersect_ray_aabb(*args, kw.get("t_min", 0.0), kw.get("t_max", math.inf))
    assert bool(got[0]) == want.hit, f"{args} {kw}: expected hit={want.hit}, got {got}"
    if want.hit:
        top = Fraction(float(np.finfo(dtype).max))
        for name, g, w in (("t_enter", got[1], want.t_enter), ("t_exit", got[2], want.t_exit)):
            if abs(w) > top:  # beyond the dtype: the rounded value is +-inf or +-max
                assert math.copysign(1, g) == (1 if w > 0 else -1) and abs(g) >= top, (
                    f"{args} {kw}: {name} {g} for an exact t beyond {dtype.__name__}")
                continue
            assert math.isfinite(g), f"{args} {kw}: {name} {g} for an exact {float(w)}"
            assert ulps_between(float(g), w, dtype) <= 2, (
                f"{args} {kw}: {name} {g} is more than 2 ulps from the exact {float(w)}")
    else:
        assert got[1] == math.inf and got[2] == math.inf, f"{args}: a miss must give +inf t"


def check_segment(args, got):
    want = ref.classify_segment_aabb(*args)
    assert int(got) == want, f"{args}: expected class {want}, got {int(got)}"


def one_and_batched_ray(args, **kw):
    """The ray answer for one item, and the same item inside a batch of three."""
    one = intersect_ray_aabb(*args, **kw)
    lo = np.stack([np.asarray(args[2])] * 3)
    hi = np.stack([np.asarray(args[3])] * 3)
    many = intersect_ray_aabb(args[0], args[1], lo, hi, **kw)
    return one, tuple(x[1] for x in many)


# --- the issue's cases --------------------------------------------------------------------
ISSUE_RAYS = [
    # float32 data, Python-float t_max: the box starts after t_max
    ((F32([.5, 0, .5]), F32([0, 1, 0]), F32([0, 57.14454650878906, 0]),
      F32([1, 114.28909301757812, 1])), dict(t_min=0.0, t_max=57.14454544304444)),
    # overflow of the slab differences: exactly a hit at t ~ 3.05e307
    (([1.2474820338676422e308, -.5, -.5], [-8., 0, 0], [-1.4307505211269272e308, -1, -1],
      [-1.1901443871128752e308, 0, 0]), dict(t_max=BIG)),
    # a direction of 1e308 and t bounds beyond what the quotients could reach
    (([0.0, 0.0, 0.0], [1e308, 1e-300, 0.0], [1e307, -1.0, -1.0], [BIG, 1.0, 1.0]),
     dict(t_min=-BIG, t_max=BIG)),
    # subnormal direction: quotients overflow
    (([0.0, 0.5, 0.5], [5e-324, 0.0, 0.0], [1e-10, 0.0, 0.0], [1.0, 1.0, 1.0]), {}),
    (([0.0, 0.5, 0.5], [5e-324, 0.0, 0.0], [1e-320, 0.0, 0.0], [1e-300, 1.0, 1.0]), {}),
    # a t at the bottom of the normal range (1 / 4.49e307)
    (([0.0, 0.0, -1.0], [0.0, 0.0, 4.494232837155792e307], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
     {}),
    # subnormal everything
    (([-2e-323, 1e-323, 0.0], [1e-323, 0.0, 5e-324], [-1e-323, 0.0, -5e-324],
      [0.0, 2e-323, 5e-324]), dict(t_min=-math.inf)),
]


@pytest.mark.parametrize("args, kw", ISSUE_RAYS)
def test_issue_rays(args, kw):
    one, batched = one_and_batched_ray(args, **kw)
    dtype = np.float32 if all(np.asarray(a).dtype == F32 for a in args) else np.float64
    check_ray(args, kw, one, dtype)
    check_ray(args, kw, batched, dtype)
    assert [bool(one[0]), *map(float, one[1:])] == [bool(batched[0]), *map(float, batched[1:])]


def test_float32_with_a_python_float_t_max_answers_for_the_float64_bound():
    args, kw = ISSUE_RAYS[0]
    got = intersect_ray_aabb(*args, **kw)
    assert not got.hit, "the box starts after t_max (float64), though not after float32(t_max)"
    assert isinstance(got.t_enter, float)
    many = intersect_ray_aabb(args[0], args[1], np.stack([args[2]] * 2), np.stack([args[3]] * 2),
                              **kw)
    assert many.t_enter.dtype == F32, "float32 arrays with a Python float bound give float32 t"


ISSUE_SEGMENTS = [
    ([-2e-323, 1.1744729489797225e308, 1e-323], [-3e-323, -1.3593545349585593e308, 3e-323],
     [-2.5e-323, 2.2471164185778946e307, 1e-323], [-2e-323, 8.988465674311579e307, 3e-323]),
    ([-BIG, -BIG, -BIG], [BIG, BIG, BIG], [-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]),
    ([-BIG, 0.0, 0.0], [BIG, 0.0, 0.0], [BIG, -1.0, -1.0], [BIG, 1.0, 1.0]),
    ([-BIG, 0.0, 0.0], [BIG, 5e-324, 0.0], [BIG / 2, 5e-324, -1.0], [BIG, 1.0, 1.0]),
    ([0.0, 0.0, 0.0], [5e-324, 5e-324, 5e-324], [5e-324, 0.0, 0.0], [1e-300, 1e-300, 1e-300]),
    ([0.0, 0.0, 0.0], [1e-320, 1e-320, 0.0], [5e-321, 5e-321, 0.0], [1.0, 1.0, 0.0]),
]


@pytest.mark.parametrize("args", ISSUE_SEGMENTS)
def test_issue_segments(args):
    check_segment(args, classify_segment_aabb(*args))
    batched = classify_segment_aabb(args[0], args[1], [args[2]] * 3, [args[3]] * 3)
    check_segment(args, batched[1])
    check_segment((args[1], args[0], args[2], args[3]),
                  classify_segment_aabb(args[1], args[0], args[2], args[3]))


# --- families, drawn --------------------------------------------------------------------------
def magnitude_floats():
    """Floats from every binade, subnormals and +-0.0 included (never inf or NaN)."""
    return st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1e-320, BIG, -BIG, 1e308, -1e308]),
        st.integers(-4, 4).map(float),
    )


def coords():
    return st.lists(magnitude_floats(), min_size=3, max_size=3)


@st.composite
def segment_cases(draw):
    a, b = draw(coords()), draw(coords())
    lo = [min(x, y) for x, y in zip(a, b, strict=True)]
    hi = [max(x, y) for x, y in zip(a, b, strict=True)]
    return draw(coords()), draw(coords()), lo, hi


@st.composite
def ray_cases(draw):
    start, end, lo, hi = draw(segment_cases())
    direction = draw(coords())
    if all(x == 0 for x in direction):
        direction[draw(st.integers(0, 2))] = draw(st.sampled_from([5e-324, -1.0, BIG]))
    t_min = draw(st.one_of(st.just(0.0), st.just(-math.inf), magnitude_floats()))
    t_max = draw(st.one_of(st.just(math.inf), magnitude_floats()))
    return (start, direction, lo, hi), dict(t_min=t_min, t_max=t_max)


@given(st.lists(segment_cases(), min_size=1, max_size=6))
def test_segments_at_every_magnitude(cases):
    got = classify_segment_aabb(*(np.array([c[k] for c in cases]) for k in range(4)))
    for case, g in zip(cases, got, strict=True):
        check_segment(case, g)
    check_segment(cases[0], classify_segment_aabb(*cases[0]))


@given(st.lists(ray_cases(), min_size=1, max_size=6))
def test_rays_at_every_magnitude(cases):
    arrays = [np.array([c[0][k] for c in cases]) for k in range(4)]
    t_min = np.array([c[1]["t_min"] for c in cases])
    t_max = np.array([c[1]["t_max"] for c in cases])
    got = intersect_ray_aabb(*arrays, t_min=t_min, t_max=t_max)
    for i, (args, kw) in enumerate(cases):
        check_ray(args, kw, (got.hit[i], got.t_enter[i], got.t_exit[i]))
    args, kw = cases[0]
    check_ray(args, kw, intersect_ray_aabb(*args, **kw))


@given(st.lists(ray_cases(), min_size=1, max_size=6))
def test_float32_data_with_float64_t_arrays(cases):
    """float32 points, a float64 t array: answered for the float64 bounds, in float64."""
    with np.errstate(all="ignore"):  # rounded into float32, clipped to its range
        arrays = [np.clip(np.array([c[0][k] for c in cases]), -3e38, 3e38).astype(F32)
                  for k in range(4)]
    arrays[2], arrays[3] = np.minimum(arrays[2], arrays[3]), np.maximum(arrays[2], arrays[3])
    arrays[1][np.all(arrays[1] == 0, axis=1), 0] = 1.0
    t_min = np.array([c[1]["t_min"] for c in cases])
    t_max = np.array([c[1]["t_max"] for c in cases])
    got = intersect_ray_aabb(*arrays, t_min=t_min, t_max=t_max)
    assert got.t_enter.dtype == np.float64, "a float64 t array makes the output float64"
    for i in range(len(cases)):
        args = [a[i] for a in arrays]
        kw = dict(t_min=t_min[i], t_max=t_max[i])
        check_ray(args, kw, (got.hit[i], got.t_enter[i], got.t_exit[i]))


def test_mixed_float32_and_float64_arrays():
    lo32 = F32([[0.1, 0.1, 0.1], [0.3, 0.3, 0.3]])
    hi32 = F32([[0.7, 0.7, 0.7], [0.9, 0.9, 0.9]])
    start, end = np.array([0.1, 0.1, 0.1]), np.array([0.9, 0.9, 0.9])  # float64
    got = classify_segment_aabb(start, end, lo32, hi32)
    for i in range(2):
        check_segment((start, end, lo32[i], hi32[i]), got[i])
    hit = intersect_ray_aabb(start, end - start, lo32, hi32)
    assert hit.t_enter.dtype == np.float64, "a float64 array makes the output float64"
    for i in range(2):
        check_ray((start, end - start, lo32[i], hi32[i]), {}, (hit.hit[i], hit.t_enter[i],
                                                            hit.t_exit[i]))


# --- integers and extended precision -------------------------------------------------------
def test_integers_float64_holds_are_exact():
    two60 = 2**60  # a power of two: float64 holds it
    got = classify_segment_aabb([0, 0, two60], [1, 1, two60], [0, 0, 0], [1, 1, two60])
    check_segment(([0, 0, two60], [1, 1, two60], [0, 0, 0], [1, 1, two60]), got)
    arr = np.array([[0, 0, two60]], dtype=np.int64)
    assert classify_segment_aabb(arr, arr + [1, 1, 0], [0, 0, 0], [1, 1, two60])[0] == got


@pytest.mark.parametrize("value", [2**53 + 1, -(2**60) - 1, 2**63 - 1, 10**30])
@pytest.mark.parametrize("where", ["list", "int64 array", "object array"])
def test_integers_float64_would_round_are_refused(value, where):
    point = [0, value, 0]
    if where == "int64 array":
        if value > 2**63 - 1:
            pytest.skip("does not fit int64")
        point = np.array(point, dtype=np.int64)
    elif where == "object array":
        point = np.array(point, dtype=object)
    with pytest.raises(ValueError, match="end"):
        classify_segment_aabb([0, 0, 0], point, [0, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="box_max"):
        intersect_ray_aabb([0, 0, 0], [1, 1, 1], [0, 0, 0], [point, point])


def test_longdouble_exact_values_are_accepted_and_others_refused():
    exact = np.array([0.5, 0.25, 0.75], dtype=np.longdouble)
    assert classify_segment_aabb(exact, exact, [0, 0, 0], [1, 1, 1]) == 2
    if np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("longdouble is float64 on this platform")
    fine = exact + np.longdouble(2.0) ** -60
    with pytest.raises(ValueError, match="start"):
        classify_segment_aabb(fine, exact, [0, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="t_max"):
        intersect_ray_aabb([0, 0, 0], [1, 1, 1], [0, 0, 0], [1, 1, 1],
                           t_max=np.longdouble(1) + np.longdouble(2.0) ** -60)


def test_fractions_and_decimals_are_taken_exactly_or_refused():
    half = [Fraction(1, 2), Decimal("0.25"), 0.75]  # float64 holds them: taken as they are
    assert classify_segment_aabb(half, half, [0, 0, 0], [1, 1, 1]) == 2
    for value in (Fraction(1, 3), Decimal("0.1"), Decimal("1e400")):
        with pytest.raises(ValueError, match=r"^end holds .* at index \(1,\)"):
            classify_segment_aabb([0, 0, 0], [0, value, 0], [0, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="^t_min holds Fraction"):
        intersect_ray_aabb([0, 0, 0], [1, 1, 1], [0, 0, 0], [1, 1, 1], t_min=Fraction(1, 3))
    with pytest.raises(ValueError, match="^min must hold numbers, got '0.5'"):
        AABB(np.array(["0.5", 0, 0], dtype=object), [1, 1, 1])


def test_t_bounds_beyond_the_float_range_of_the_quotients():
    """t bounds of +-BIG with quotients that overflow: the exact t is beyond float64 (+inf)."""
    got = intersect_ray_aabb([0.0, 0.0, 0.0], [5e-324, 0.0, 0.0], [1.0, -1.0, -1.0],
                             [2.0, 1.0, 1.0], t_min=0.0, t_max=math.inf)
    assert got.hit and got.t_enter == math.inf and got.t_exit == math.inf, (
        f"entry at t = 2**1074 is beyond float64: expected a hit at +inf, got {got}")
    got = intersect_ray_aabb([0.0, 0.0, 0.0], [5e-324, 0.0, 0.0], [1.0, -1.0, -1.0],
                             [2.0, 1.0, 1.0], t_max=BIG)
    assert not got.hit, "the box is entered only after t = BIG"
