"""intersect_ray_aabb against the exact reference (SEMANTICS.md, "Ray vs box")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from geometry import RayHit, classify_segment_aabb, intersect_ray_aabb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    boxes,
    boxes_across_chunks,
    dyadic_coords,
    generic_coords,
    int_directions,
    origins_on_slab_plane,
    points,
    points_near,
    rays_near,
    signed_zero_directions,
    small_int_coords,
)

# every test here runs with the compiled slab passes and with numpy only
pytestmark = pytest.mark.usefixtures("each_backend")

BOX = ([0.0, 0.0, 0.0], [2.0, 2.0, 2.0])
INF = math.inf

def nonzero(direction):
    return bool(np.any(direction != 0))


def assert_hit_matches(got, want, what, *, dtype=np.float64, exact_if_representable=False):
    """Compare one library answer (hit, t_enter, t_exit) with the exact ExactRayHit: the hit
    exactly, each t within 2 ulps of ``dtype`` (the output's), as SEMANTICS asks."""
    hit, t_enter, t_exit = (x.item() if isinstance(x, np.generic) else x for x in got)
    assert bool(hit) == want.hit, f"{what}: expected hit={want.hit}, got {hit}"
    for name, g, w in (("t_enter", t_enter, want.t_enter), ("t_exit", t_exit, want.t_exit)):
        assert not math.isnan(g), f"{what}: {name} is NaN"
        assert ref.t_close(g, w, exact_if_representable=exact_if_representable, dtype=dtype), (
            f"{what}: expected {name}={w} (= {float(w)!r}), got {g!r}"
        )


def assert_batch_matches_reference(cases, *, exact_if_representable):
    """Intersect `cases` [(origin, direction, box_min, box_max, t_min, t_max)] in one batched
    call and compare every row with the exact reference."""
    origin, direction, box_min, box_max, t_min, t_max = (
        np.array(c) for c in zip(*cases, strict=True)
    )
    got = intersect_ray_aabb(origin, direction, box_min, box_max, t_min=t_min, t_max=t_max)
    assert isinstance(got, RayHit), f"expected a RayHit, got {type(got)}"
    n = len(cases)
    assert got.hit.shape == got.t_enter.shape == got.t_exit.shape == (n,), (
        f"expected three arrays of shape ({n},), got {got.hit.shape} {got.t_enter.shape} "
        f"{got.t_exit.shape}"
    )
    assert got.hit.dtype == bool and got.t_enter.dtype == np.float64, (
        f"expected bool / float64 arrays, got {got.hit.dtype} / {got.t_enter.dtype}"
    )
    for i, case in enumerate(cases):
        want = ref.intersect_ray_aabb(*case)
        event("hit" if want.hit else "miss")
        what = (f"case {i}: origin={case[0].tolist()} direction={case[1].tolist()} "
                f"box={case[2].tolist()}..{case[3].tolist()} t_min={case[4]} t_max={case[5]}")
        assert_hit_matches((got.hit[i], got.t_enter[i], got.t_exit[i]), want, what,
                           exact_if_representable=exact_if_representable)


def t_limits(coords):
    """Strategy for (t_min, t_max): the defaults, or a drawn interval (possibly inverted)."""
    t_min = st.sampled_from([0.0, -INF]) | coords
    t_max = st.just(INF) | coords
    return st.just((0.0, INF)) | st.tuples(t_min, t_max)


@st.composite
def ray_cases(draw, coords, origin=None, direction=None, box_strategy=None):
    """Strategy for (origin, direction, box_min, box_max, t_min, t_max)."""
    box = draw(box_strategy if box_strategy is not None else boxes(coords, empty=True))
    if origin is None and direction is None:
        o, d = draw(rays_near(box, coords))  # aimed at the box in half of the draws
    else:
        o = draw(origin(box) if origin is not None else points_near(box, coords))
        d = draw(direction if direction is not None else points(coords).filter(nonzero))
    t_min, t_max = draw(t_limits(coords))
    return o, d, box[0], box[1], t_min, t_max


# --- named examples --------------------------------------------------------------------------


def test_ray_from_outside_enters_and_leaves_at_the_faces():
    assert intersect_ray_aabb([-1.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX) == (True, 1.0, 3.0)


def test_t_is_measured_in_units_of_the_direction():
    assert intersect_ray_aabb([-1.0, 1.0, 1.0], [4.0, 0.0, 0.0], *BOX) == (True, 0.25, 0.75)


def test_ray_starting_inside_enters_at_t_min():
    assert intersect_ray_aabb([1.0, 1.0, 1.0], [0.0, 0.0, -2.0], *BOX) == (True, 0.0, 0.5)
    assert intersect_ray_aabb([1.0, 1.0, 1.0], [0.0, 0.0, -2.0], *BOX, t_min=0.25) == (
        True,
        0.25,
        0.5,
    )


def test_miss_gives_infinite_t():
    got = intersect_ray_aabb([-1.0, 3.0, 1.0], [1.0, 0.0, 0.0], *BOX)
    assert got == (False, INF, INF), f"expected (False, inf, inf) for a miss, got {got}"


def test_ray_pointing_away_misses_but_its_line_does_not():
    assert intersect_ray_aabb([3.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX) == (False, INF, INF)
    assert intersect_ray_aabb([3.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX, t_min=-INF) == (
        True,
        -3.0,
        -1.0,
    )


def test_t_max_ending_exactly_on_the_entry_face_is_a_touching_hit():
    assert intersect_ray_aabb([-1.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX, t_max=1.0) == (
        True,
        1.0,
        1.0,
    )
    assert intersect_ray_aabb([-1.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX, t_max=0.5) == (
        False,
        INF,
        INF,
    )


def test_ray_with_negative_zero_direction_and_origin_on_a_slab_plane():
    # x = 0 lies on the slab plane x = box_min; the direction's x is -0.0: the ray runs in the
    # face x = 0 and hits the closed box (1/-0.0 = -inf must not turn into NaN)
    assert intersect_ray_aabb([0.0, -1.0, 1.0], [-0.0, 1.0, 0.0], *BOX) == (True, 1.0, 3.0)
    assert intersect_ray_aabb([2.0, 1.0, -1.0], [-0.0, -0.0, 1.0], *BOX) == (True, 1.0, 3.0)
    assert intersect_ray_aabb([2.0, 2.0, 2.0], [-0.0, 0.0, -1.0], *BOX) == (True, 0.0, 2.0)


#: The six faces of BOX, as (axis, bound): bound 0.0 is box_min's plane, 2.0 box_max's.
FACES = [(axis, bound) for axis in range(3) for bound in (0.0, 2.0)]
FACE_IDS = [f"{'-+'[bound > 0]}{'xyz'[axis]}" for axis, bound in FACES]


@pytest.mark.parametrize("axis, bound", FACES, ids=FACE_IDS)
def test_each_face_is_entered_left_and_touched_at_its_exact_t(axis, bound):
    """Per face: a ray through it enters (or leaves) at its exact t; from the face inwards it
    enters at t = 0, outwards it touches at t = 0; t_max ending on the face touches, an ulp short
    misses; a ray in the face plane hits and one an ulp beside the plane misses, with +0.0 and
    -0.0 for the plane's direction component. As one call, a batch of rows, and one ray against
    a batch of boxes."""
    inward = 1.0 if bound == 0.0 else -1.0

    def at(depth, rest=(1.0, 1.0, 1.0)):
        p = list(rest)
        p[axis] = bound + inward * depth
        return p

    e = [0.0, 0.0, 0.0]
    e[axis] = inward
    along = [0.0, 0.0, 0.0]
    along[(axis + 1) % 3] = 1.0
    ulp = float(np.spacing(2.0))
    beside_rest = [1.0, 1.0, 1.0]
    beside_rest[(axis + 1) % 3] = -1.0
    cases = [  # (what, origin, direction, t_min, t_max, expected)
        ("through the face", at(-1.0), e, 0.0, INF, (True, 1.0, 3.0)),
        ("out through the face", at(1.0), [-c for c in e], 0.0, INF, (True, 0.0, 1.0)),
        ("from the face inwards", at(0.0), e, 0.0, INF, (True, 0.0, 2.0)),
        ("from the face outwards", at(0.0), [-c for c in e], 0.0, INF, (True, 0.0, 0.0)),
        ("away from the face", at(-1.0), [-c for c in e], 0.0, INF, (False, INF, INF)),
        ("t_max on the face", at(-1.0), e, 0.0, 1.0, (True, 1.0, 1.0)),
        ("t_max an ulp short of the face", at(-1.0), e, 0.0, 1.0 - ulp / 4, (False, INF, INF)),
        ("t_min on the far face", at(-1.0), e, 3.0, INF, (True, 3.0, 3.0)),
    ]
    for zero in (0.0, -0.0):
        in_plane = list(along)
        in_plane[axis] = zero
        cases += [
            (f"in the face plane ({zero})", at(0.0, beside_rest), in_plane, 0.0, INF,
             (True, 1.0, 3.0)),
            (f"an ulp beside the face plane ({zero})", at(-ulp, beside_rest), in_plane, 0.0,
             INF, (False, INF, INF)),
        ]
    name = FACE_IDS[FACES.index((axis, bound))]
    for what, origin, direction, t_min, t_max, want in cases:
        got = intersect_ray_aabb(origin, direction, *BOX, t_min=t_min, t_max=t_max)
        assert got == want, f"face {name}, {what}: expected {want}, got {got}"
    origin, direction, t_min, t_max = (np.array([c[i] for c in cases]) for i in range(1, 5))
    rows = intersect_ray_aabb(origin, direction, *BOX, t_min=t_min, t_max=t_max)
    for i, (what, *_, want) in enumerate(cases):
        got = (bool(rows.hit[i]), float(rows.t_enter[i]), float(rows.t_exit[i]))
        assert got == want, f"face {name}, {what}, row {i} of a batch: expected {want}, got {got}"
        shared = intersect_ray_aabb(cases[i][1], cases[i][2], np.array([BOX[0]] * 2),
                                    np.array([BOX[1]] * 2), t_min=cases[i][3], t_max=cases[i][4])
        got = (bool(shared.hit[1]), float(shared.t_enter[1]), float(shared.t_exit[1]))
        assert got == want, f"face {name}, {what}, one ray, many boxes: expected {want}, got {got}"


def test_ray_in_a_slab_plane_just_outside_misses():
    x = -1e-300  # just outside the x slab
    assert intersect_ray_aabb([x, -1.0, 1.0], [-0.0, 1.0, 0.0], *BOX) == (False, INF, INF)


def test_ray_grazing_an_edge_is_a_touching_hit():
    assert intersect_ray_aabb([-1.0, 1.0, 0.0], [1.0, -1.0, 0.0], *BOX) == (True, 1.0, 1.0)


def test_flat_box_is_hit_in_a_single_parameter():
    flat = ([0.0, 0.0, 1.0], [2.0, 2.0, 1.0])
    assert intersect_ray_aabb([1.0, 1.0, 0.0], [0.0, 0.0, 0.5], *flat) == (True, 2.0, 2.0)


def test_empty_box_is_never_hit():
    for box in (([0.0, 2.0, 0.0], [2.0, 0.0, 2.0]), ([INF] * 3, [-INF] * 3)):
        got = intersect_ray_aabb([1.0, 1.0, 1.0], [1.0, 0.0, 0.0], *box)
        assert got == (False, INF, INF), f"expected a miss of the empty box {box}, got {got}"


def test_single_inputs_return_python_scalars():
    hit, t_enter, t_exit = intersect_ray_aabb([-1.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX)
    assert type(hit) is bool and type(t_enter) is float and type(t_exit) is float, (
        f"expected (bool, float, float), got {(type(hit), type(t_enter), type(t_exit))}"
    )


def test_per_ray_t_limits_broadcast():
    got = intersect_ray_aabb([-1.0, 1.0, 1.0], [1.0, 0.0, 0.0], *BOX,
                             t_min=np.array([0.0, 2.0, 4.0]), t_max=np.array([INF, 2.5, 5.0]))
    np.testing.assert_array_equal(got.hit, [True, True, False], err_msg="hits per t interval")
    np.testing.assert_array_equal(got.t_enter, [1.0, 2.0, INF], err_msg="t_enter per t interval")
    np.testing.assert_array_equal(got.t_exit, [3.0, 2.5, INF], err_msg="t_exit per t interval")


# --- properties against the exact reference ------------------------------------------------


@given(batches(ray_cases(generic_coords)))
def test_generic_rays_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases, exact_if_representable=False)


@given(batches(ray_cases(small_int_coords, direction=int_directions())))
def test_small_integer_rays_match_the_reference_with_exact_t(cases):
    assert_batch_matches_reference(cases, exact_if_representable=True)


@given(batches(ray_cases(dyadic_coords)))
def test_dyadic_rays_match_the_reference_with_exact_t(cases):
    assert_batch_matches_reference(cases, exact_if_representable=True)


@given(batches(ray_cases(small_int_coords, origin=origins_on_slab_plane,
                         direction=signed_zero_directions(), box_strategy=boxes())))
def test_rays_from_slab_planes_with_signed_zero_directions_match_the_reference(cases):
    assert_batch_matches_reference(cases, exact_if_representable=True)


@given(batches(ray_cases(generic_coords)))
def test_results_are_never_nan_and_ordered(cases):
    origin, direction, box_min, box_max, t_min, t_max = (
        np.array(c) for c in zip(*cases, strict=True)
    )
    hit, t_enter, t_exit = intersect_ray_aabb(origin, direction, box_min, box_max,
                                              t_min=t_min, t_max=t_max)
    assert not np.isnan(t_enter).any() and not np.isnan(t_exit).any(), "t must never be NaN"
    assert np.all(t_enter[hit] <= t_exit[hit]), "on a hit t_enter <= t_exit"
    assert np.all((t_enter[hit] >= t_min[hit]) & (t_exit[hit] <= t_max[hit])), (
        "t within [t_min, t_max]"
    )
    assert np.all(np.isposinf(t_enter[~hit]) & np.isposinf(t_exit[~hit])), "a miss has t = +inf"


@given(batches(st.tuples(points(small_int_coords), points(small_int_coords)).flatmap(
    lambda seg: boxes(empty=True).map(lambda box: (seg[0], seg[1], *box)))))
def test_segment_meets_box_iff_ray_start_to_end_hits_within_t_1(cases):
    for start, end, box_min, box_max in cases:
        if np.array_equal(start, end):
            continue
        ray = intersect_ray_aabb(start, end - start, box_min, box_max, t_max=1.0)
        segment = classify_segment_aabb(start, end, box_min, box_max)
        assert ray.hit == (segment != 0), (
            f"start={start.tolist()} end={end.tolist()} "
            f"box={box_min.tolist()}..{box_max.tolist()}: "
            f"segment class {segment.name} but ray hit={ray.hit}"
        )


@given(batches(ray_cases(small_int_coords, direction=signed_zero_directions()), max_size=12))
def test_batched_call_equals_single_calls(cases):
    origin, direction, box_min, box_max, t_min, t_max = (
        np.array(c) for c in zip(*cases, strict=True)
    )
    batched = intersect_ray_aabb(origin, direction, box_min, box_max, t_min=t_min, t_max=t_max)
    for i, case in enumerate(cases):
        single = intersect_ray_aabb(*case[:4], t_min=case[4], t_max=case[5])
        assert single == (batched.hit[i], batched.t_enter[i], batched.t_exit[i]), (
            f"row {i}: batched {(batched.hit[i], batched.t_enter[i], batched.t_exit[i])} "
            f"but single {single}"
        )


@given(batches(ray_cases(generic_coords, box_strategy=boxes(generic_coords)), max_size=12))
def test_float32_inputs_give_float32_t_for_their_float32_values(cases):
    cases32 = [tuple(np.asarray(x, dtype=np.float32) for x in case[:4]) for case in cases]
    origin, direction, box_min, box_max = (np.array(c) for c in zip(*cases32, strict=True))
    got = intersect_ray_aabb(origin, direction, box_min, box_max)
    assert got.t_enter.dtype == np.float32 and got.t_exit.dtype == np.float32, (
        f"expected float32 t for float32 input, got {got.t_enter.dtype} / {got.t_exit.dtype}"
    )
    for i, case in enumerate(cases32):
        want = ref.intersect_ray_aabb(*case)
        assert_hit_matches((got.hit[i], got.t_enter[i], got.t_exit[i]), want,
                           f"float32 case {[c.tolist() for c in case]}", dtype=np.float32)


# --- chunk boundaries ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 32767, 32768, 32769, 65537])
def test_batches_across_chunk_boundaries_match_the_reference(n):
    rng = np.random.default_rng(n)
    a, b = rng.integers(-3, 4, (2, n, 3)).astype(np.float64)
    box_min, box_max = np.minimum(a, b), np.maximum(a, b)
    origin = rng.integers(-4, 5, (n, 3)).astype(np.float64)
    direction = rng.choice([-2.0, -1.0, -0.0, 0.0, 1.0, 3.0], (n, 3))
    direction[np.all(direction == 0, axis=1), 0] = 1.0
    got = intersect_ray_aabb(origin, direction, box_min, box_max)
    assert got.hit.shape == (n,), f"expected shape ({n},), got {got.hit.shape}"
    edges = {k * 32768 + d for k in range(n // 32768 + 1) for d in (-2, -1, 0, 1)}
    sample = sorted(
        i for i in edges | {0, n - 1} | set(rng.integers(0, n, 200).tolist()) if 0 <= i < n
    )
    for i in sample:
        want = ref.intersect_ray_aabb(origin[i], direction[i], box_min[i], box_max[i])
        assert_hit_matches((got.hit[i], got.t_enter[i], got.t_exit[i]), want,
                           f"N={n} row {i}", exact_if_representable=True)


#: One ray for a whole batch (the kernels' shared-line path), over small-integer boxes: integer
#: origins on slab planes, signed zero components, negative components, t limits.
SHARED_RAYS = {
    "generic": ([-4.0, 0.5, 1.0], [1.0, 0.1, 0.05], 0.0, INF),
    "integer, on planes": ([-4.0, 1.0, -2.0], [1.0, 0.0, 0.5], 0.0, INF),
    "signed zeros": ([0.0, -1.0, 2.0], [-0.0, 1.0, -2.0], 0.0, INF),
    "a segment of a line": ([3.0, 3.0, 3.0], [-1.0, -1.0, -0.5], 1.0, 5.0),
    "a whole line": ([0.5, 0.0, 0.0], [0.25, 1.0, -3.0], -INF, INF),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("extra", [-1, 0, 1, "2 chunks + 1"])
def test_one_ray_against_batches_across_chunk_boundaries(dtype, extra, each_backend):
    """A shared line against batches around a thread's share (2**17 boxes) and two of them
    (which two threads split): 256 rows around every seam and 4096 others as the same ray given
    per row (the per-item path), rows nearest the seams as the exact reference. (The per-row
    call on a subset: its rows, unlike the shared ones, decide many ties in the exact pass.)"""
    if each_backend == "interpreted":
        pytest.skip("large batches are split (into thread shares) only when compiled; "
                    "interpreted parity: test_jit_parity")
    box_min, box_max, sample = boxes_across_chunks(dtype, extra)
    n = len(box_min)
    rng = np.random.default_rng(n)
    rows = np.unique(np.concatenate(
        [np.arange(max(i - 128, 0), min(i + 128, n)) for i in sample]
        + [rng.integers(0, n, 4096)]))
    for name, (origin, direction, t_min, t_max) in SHARED_RAYS.items():
        origin, direction = np.array(origin, dtype), np.array(direction, dtype)
        got = intersect_ray_aabb(origin, direction, box_min, box_max, t_min=t_min, t_max=t_max)
        assert got.t_enter.dtype == dtype and got.hit.shape == (n,), f"{name}: {got.t_enter.dtype}"
        per_row = intersect_ray_aabb(np.broadcast_to(origin, (len(rows), 3)), direction,
                                     box_min[rows], box_max[rows], t_min=t_min, t_max=t_max)
        for field, g, w in zip(("hit", "t_enter", "t_exit"), got, per_row, strict=True):
            np.testing.assert_array_equal(g[rows], w,
                                          err_msg=f"{name}: {field}, shared vs per-row ray")
        for i in sample:
            want = ref.intersect_ray_aabb(origin, direction, box_min[i], box_max[i], t_min, t_max)
            assert_hit_matches(
                (got.hit[i], got.t_enter[i], got.t_exit[i]),
                want,
                f"{name}, {dtype.__name__}, N={n}, row {i}",
                dtype=dtype,
                exact_if_representable=True,
            )


@pytest.mark.parametrize("shared", ["origin", "direction", "box_min", "box_max"])
def test_one_shared_argument_broadcasts_like_the_repeated_rows(shared):
    rng = np.random.default_rng(11)
    a, b = rng.integers(-3, 4, (2, 64, 3)).astype(np.float64)
    direction = rng.choice([-2.0, -1.0, -0.0, 0.0, 1.0, 3.0], (64, 3))
    direction[np.all(direction == 0, axis=1), 2] = 1.0
    arguments = {"origin": rng.integers(-4, 5, (64, 3)).astype(np.float64), "direction": direction,
                 "box_min": np.minimum(a, b), "box_max": np.maximum(a, b)}
    single = {**arguments, shared: arguments[shared][3]}
    repeated = {**arguments, shared: np.broadcast_to(arguments[shared][3], (64, 3))}
    for got, want, name in zip(
        intersect_ray_aabb(*single.values()),
        intersect_ray_aabb(*repeated.values()),
        ("hit", "t_enter", "t_exit"),
        strict=True,
    ):
        np.testing.assert_array_equal(
            got,
            want,
            err_msg=f"{name}: one {shared} of shape (3,) must act "
            "as that row repeated for every item",
        )
