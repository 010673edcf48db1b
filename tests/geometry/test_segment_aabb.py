"""classify_segment_aabb against the exact reference (SEMANTICS.md, "Segment vs box")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from geometry import IntersectionType, classify_segment_aabb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    boxes,
    boxes_across_chunks,
    dyadic_coords,
    generic_coords,
    points,
    segments_in_face_plane,
    segments_near,
    segments_through_edge_or_corner,
    segments_touching,
    small_int_coords,
)

# every test here runs with the compiled slab passes and with numpy only
pytestmark = pytest.mark.usefixtures("each_backend")

NONE, INTERSECT, INCLUDE = (
    IntersectionType.NONE,
    IntersectionType.INTERSECT,
    IntersectionType.INCLUDE,
)
BOX = ([0.0, 0.0, 0.0], [2.0, 2.0, 2.0])


def assert_batch_matches_reference(cases):
    """Classify `cases` [(start, end, box_min, box_max), ...] in one batched call and compare
    every row with the exact reference."""
    start, end, box_min, box_max = (np.array(column) for column in zip(*cases, strict=True))
    got = classify_segment_aabb(start, end, box_min, box_max)
    assert got.shape == (len(cases),) and got.dtype == np.int8, (
        f"expected an int8 array of shape ({len(cases)},), got {got.dtype} {got.shape}"
    )
    for i, case in enumerate(cases):
        want = ref.classify_segment_aabb(*case)
        event(f"class {IntersectionType(want).name}")
        assert got[i] == want, (
            f"case {i}: start={case[0].tolist()} end={case[1].tolist()} box_min={case[2].tolist()} "
            f"box_max={case[3].tolist()}: expected {IntersectionType(want).name}, "
            f"got {IntersectionType(int(got[i])).name}"
        )


def segment_and_box(segment_strategy, coords=small_int_coords, box_strategy=None):
    """Strategy for one (start, end, box_min, box_max) case, the segment drawn for the box."""
    if box_strategy is None:
        box_strategy = boxes(coords, empty=True)
    return box_strategy.flatmap(
        lambda box: segment_strategy(box).map(lambda seg: (seg[0], seg[1], box[0], box[1]))
    )


def free_segments(coords):
    """Segments for a box: ends inside, on, beside or anywhere around it (every class)."""
    return lambda box: segments_near(box, coords)


# --- the blog's three cases ----------------------------------------------------------------


def test_blog_segment_missing_the_box_is_NONE():
    assert classify_segment_aabb([-1.0, -1.0, 3.0], [3.0, -1.0, 3.0], *BOX) is NONE


def test_blog_segment_crossing_the_box_is_INTERSECT():
    assert classify_segment_aabb([-1.0, 1.0, 1.0], [3.0, 1.0, 1.0], *BOX) is INTERSECT


def test_blog_segment_inside_the_box_is_INCLUDE():
    assert classify_segment_aabb([0.5, 0.5, 0.5], [1.5, 1.0, 1.25], *BOX) is INCLUDE


# --- named boundary cases from SEMANTICS.md -----------------------------------------------


def test_segment_ending_exactly_on_a_face_is_INTERSECT():
    assert classify_segment_aabb([-1.0, 1.0, 1.0], [0.0, 1.0, 1.0], *BOX) is INTERSECT
    assert classify_segment_aabb([1.0, 1.0, 1.0], [2.0, 1.0, 1.0], *BOX) is INTERSECT


def test_segment_lying_in_a_face_is_INTERSECT():
    assert classify_segment_aabb([0.5, 0.5, 2.0], [1.5, 1.5, 2.0], *BOX) is INTERSECT
    assert classify_segment_aabb([-1.0, 1.0, 0.0], [3.0, 1.0, 0.0], *BOX) is INTERSECT


def test_segment_in_a_face_plane_beside_the_box_is_NONE():
    assert classify_segment_aabb([3.0, 0.0, 2.0], [3.0, 2.0, 2.0], *BOX) is NONE


def test_segment_touching_only_an_edge_is_INTERSECT():
    # the line x + y = 0 at z = 1 meets the box only on its edge x = y = 0
    assert classify_segment_aabb([-1.0, 1.0, 1.0], [1.0, -1.0, 1.0], *BOX) is INTERSECT


def test_segment_through_a_corner_only_is_INTERSECT():
    assert classify_segment_aabb([3.0, 3.0, 1.0], [1.0, 1.0, 3.0], *BOX) is INTERSECT


def test_segment_passing_just_beside_an_edge_is_NONE():
    # the line x + y = -2**-53 (at z = 1) misses the edge x = y = 0 by one rounding step
    y = np.nextafter(1.0, 0.0)
    assert classify_segment_aabb([-1.0, y, 1.0], [y, -1.0, 1.0], *BOX) is NONE


def test_point_strictly_inside_is_INCLUDE_on_the_boundary_INTERSECT_outside_NONE():
    assert classify_segment_aabb([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], *BOX) is INCLUDE
    assert classify_segment_aabb([2.0, 1.0, 1.0], [2.0, 1.0, 1.0], *BOX) is INTERSECT
    assert classify_segment_aabb([2.0, 2.0, 2.0], [2.0, 2.0, 2.0], *BOX) is INTERSECT
    assert classify_segment_aabb([2.5, 1.0, 1.0], [2.5, 1.0, 1.0], *BOX) is NONE


def test_flat_box_is_never_INCLUDE():
    flat = ([0.0, 0.0, 1.0], [2.0, 2.0, 1.0])
    assert classify_segment_aabb([1.0, 1.0, 1.0], [1.5, 1.0, 1.0], *flat) is INTERSECT
    assert classify_segment_aabb([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], *flat) is INTERSECT
    assert classify_segment_aabb([1.0, 1.0, 0.0], [1.0, 1.0, 2.0], *flat) is INTERSECT
    point_box = ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    assert classify_segment_aabb([0.0, 0.0, 0.0], [2.0, 2.0, 2.0], *point_box) is INTERSECT


def test_empty_box_is_always_NONE():
    inside_if_it_were_a_box = ([0.5, 0.5, 0.5], [1.5, 1.5, 1.5])
    assert classify_segment_aabb(*inside_if_it_were_a_box, [0.0, 2.0, 0.0], [2.0, 0.0, 2.0]) is NONE
    inf = np.inf
    assert classify_segment_aabb(*inside_if_it_were_a_box, [inf] * 3, [-inf] * 3) is NONE
    assert classify_segment_aabb([-1e3] * 3, [1e3] * 3, [inf] * 3, [-inf] * 3) is NONE


#: The six faces of BOX, as (axis, bound): bound 0.0 is box_min's plane, 2.0 box_max's.
FACES = [(axis, bound) for axis in range(3) for bound in (0.0, 2.0)]
FACE_IDS = [f"{'-+'[bound > 0]}{'xyz'[axis]}" for axis, bound in FACES]


def point_at_face(axis, bound, depth=0.0, rest=(1.0, 1.0, 1.0)):
    """The point of BOX's face (axis, bound) at `rest` on the other axes, moved `depth` into the
    box (a negative depth: out of it); `depth` may be a float that is not a multiple of 2**-k."""
    p = list(rest)
    p[axis] = bound + depth if bound == 0.0 else bound - depth
    return p


@pytest.mark.parametrize("axis, bound", FACES, ids=FACE_IDS)
def test_each_face_decides_between_INCLUDE_INTERSECT_and_NONE(axis, bound):
    """Per face: an endpoint exactly on it (the rest strictly inside) is INTERSECT, an ulp inside
    it INCLUDE; both ends on it, or coming from outside to it, INTERSECT; beside it NONE. As one
    call, a batch of rows, and one segment against a batch of boxes (each its own kernel)."""
    center = [1.0, 1.0, 1.0]
    on = point_at_face(axis, bound)
    ulp_inside = point_at_face(axis, bound, depth=float(np.spacing(2.0)))
    ulp_outside = point_at_face(axis, bound, depth=-float(np.spacing(2.0)))
    elsewhere_on = point_at_face(axis, bound, rest=(0.5, 1.5, 0.5))
    outside, far_outside = point_at_face(axis, bound, depth=-1.0), point_at_face(axis, bound, -3.0)
    cases = [  # (what, start, end, expected)
        ("end on the face", center, on, INTERSECT),
        ("start on the face", on, center, INTERSECT),
        ("end an ulp inside the face", center, ulp_inside, INCLUDE),
        ("start an ulp inside the face", ulp_inside, center, INCLUDE),
        ("end an ulp beyond the face", center, ulp_outside, INTERSECT),
        ("both ends on the face", on, elsewhere_on, INTERSECT),
        ("a point on the face", on, on, INTERSECT),
        ("from outside to the face", outside, on, INTERSECT),
        ("from outside through the face", outside, center, INTERSECT),
        ("outside, up to an ulp before the face", outside, ulp_outside, NONE),
        ("outside, beside the face", outside, far_outside, NONE),
    ]
    for what, start, end, want in cases:
        got = classify_segment_aabb(start, end, *BOX)
        assert got is want, f"face {FACE_IDS[FACES.index((axis, bound))]}, {what}: " \
                            f"start={start} end={end}: expected {want.name}, got {got.name}"
    starts, ends = np.array([c[1] for c in cases]), np.array([c[2] for c in cases])
    wants = [c[3] for c in cases]
    rows = classify_segment_aabb(starts, ends, *BOX)
    np.testing.assert_array_equal(rows, wants, err_msg=f"a batch of rows, face {axis, bound}")
    for (what, start, end, want) in cases:
        shared = classify_segment_aabb(start, end, np.array([BOX[0]] * 3), np.array([BOX[1]] * 3))
        assert shared.tolist() == [want] * 3, (
            f"one segment, many boxes, face {axis, bound}, {what}: expected {want.name}, got "
            f"{shared.tolist()}")


def test_segment_with_signed_zero_direction_components():
    # end - start is (+-0, 0, 2): the x and y slabs decide by position alone
    assert classify_segment_aabb([0.0, 0.0, -1.0], [-0.0, 0.0, 1.0], *BOX) is INTERSECT
    assert classify_segment_aabb([-0.0, 1.0, 0.5], [0.0, 1.0, 1.5], *BOX) is INTERSECT
    assert classify_segment_aabb([-0.5, 1.0, 0.5], [-0.5, 1.0, 1.5], *BOX) is NONE


def test_one_segment_broadcasts_against_many_boxes():
    box_min = np.array([[0.0, 0.0, 0.0], [5.0, 5.0, 5.0], [-1.0, 0.0, 0.0]])
    box_max = np.array([[2.0, 2.0, 2.0], [6.0, 6.0, 6.0], [0.5, 2.0, 2.0]])
    got = classify_segment_aabb([0.5, 1.0, 1.0], [1.5, 1.0, 1.0], box_min, box_max)
    np.testing.assert_array_equal(got, [INCLUDE, NONE, INTERSECT], err_msg="classes per box")


def test_leading_dimensions_broadcast():
    starts = np.array([[[0.5, 1.0, 1.0]], [[-5.0, 1.0, 1.0]]])  # (2, 1, 3)
    box_min = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.5], [3.0, 3.0, 3.0]])  # (3, 3)
    box_max = box_min + 2.0
    got = classify_segment_aabb(starts, [1.5, 1.0, 1.0], box_min, box_max)
    assert got.shape == (2, 3), f"expected the broadcast shape (2, 3), got {got.shape}"
    np.testing.assert_array_equal(got, [[INCLUDE, NONE, NONE], [INTERSECT, NONE, NONE]])


def test_single_inputs_return_an_IntersectionType_and_rows_of_one_an_array():
    single = classify_segment_aabb([0.5, 1.0, 1.0], [1.5, 1.0, 1.0], *BOX)
    assert type(single) is IntersectionType, f"expected IntersectionType, got {type(single)}"
    one_row = classify_segment_aabb([[0.5, 1.0, 1.0]], [1.5, 1.0, 1.0], *BOX)
    assert isinstance(one_row, np.ndarray) and one_row.shape == (1,) and one_row.dtype == np.int8, (
        f"expected an int8 array of shape (1,), got {one_row!r}"
    )


def test_integer_inputs_are_accepted():
    assert classify_segment_aabb([0, 1, 1], [3, 1, 1], [0, 0, 0], [2, 2, 2]) is INTERSECT


# --- properties against the exact reference ------------------------------------------------


@given(batches(segment_and_box(free_segments(generic_coords), coords=generic_coords)))
def test_generic_segments_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases)


@given(batches(segment_and_box(free_segments(small_int_coords))))
def test_small_integer_segments_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases)


@given(batches(segment_and_box(free_segments(dyadic_coords), coords=dyadic_coords)))
def test_dyadic_segments_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases)


@given(batches(segment_and_box(segments_touching, box_strategy=boxes())))
def test_segments_with_an_endpoint_on_a_face_edge_or_corner_match_the_reference(cases):
    assert_batch_matches_reference(cases)
    for start, end, box_min, box_max in cases:
        assert classify_segment_aabb(start, end, box_min, box_max) is not INCLUDE, (
            f"a segment ending on the boundary of box {box_min.tolist()}..{box_max.tolist()} "
            f"is never INCLUDE: start={start.tolist()} end={end.tolist()}"
        )


@given(batches(segment_and_box(segments_in_face_plane, box_strategy=boxes())))
def test_segments_in_a_face_plane_match_the_reference_and_are_never_INCLUDE(cases):
    assert_batch_matches_reference(cases)
    for start, end, box_min, box_max in cases:
        assert classify_segment_aabb(start, end, box_min, box_max) is not INCLUDE, (
            f"a segment in a face plane of {box_min.tolist()}..{box_max.tolist()} is never "
            f"INCLUDE: start={start.tolist()} end={end.tolist()}"
        )


@given(batches(segment_and_box(segments_through_edge_or_corner, box_strategy=boxes())))
def test_segments_through_an_edge_or_corner_match_the_reference(cases):
    assert_batch_matches_reference(cases)
    for start, end, box_min, box_max in cases:
        assert classify_segment_aabb(start, end, box_min, box_max) is not NONE, (
            f"a segment through a boundary point touches {box_min.tolist()}..{box_max.tolist()}: "
            f"start={start.tolist()} end={end.tolist()} must not be NONE"
        )


@given(points(small_int_coords), boxes(small_int_coords, empty=True))
def test_point_segments_match_the_reference(point, box):
    want = ref.classify_segment_aabb(point, point, *box)
    got = classify_segment_aabb(point, point, *box)
    assert got == want, f"point {point.tolist()} in {box}: expected {want}, got {got!r}"


@given(st.one_of(
    segment_and_box(free_segments(small_int_coords)),
    segment_and_box(segments_through_edge_or_corner, box_strategy=boxes()),
    st.tuples(points(), points()).flatmap(lambda s: boxes(generic_coords).map(lambda b: (*s, *b))),
))
def test_reversing_a_segment_never_changes_its_class(case):
    start, end, box_min, box_max = case
    forward = classify_segment_aabb(start, end, box_min, box_max)
    backward = classify_segment_aabb(end, start, box_min, box_max)
    assert forward is backward, (
        f"start={start.tolist()} end={end.tolist()} box={box_min.tolist()}..{box_max.tolist()}: "
        f"forward {forward.name} but reversed {backward.name}"
    )


@given(batches(segment_and_box(free_segments(small_int_coords)), max_size=12))
def test_batched_call_equals_single_calls(cases):
    start, end, box_min, box_max = (np.array(column) for column in zip(*cases, strict=True))
    batched = classify_segment_aabb(start, end, box_min, box_max)
    singles = [classify_segment_aabb(*case) for case in cases]
    assert all(type(s) is IntersectionType for s in singles), (
        f"expected IntersectionType, got {singles}"
    )
    np.testing.assert_array_equal(batched, np.array(singles, dtype=np.int8),
                                  err_msg="batched classes must equal the one-by-one classes")


@given(batches(segment_and_box(free_segments(generic_coords), coords=generic_coords), max_size=12))
def test_float32_inputs_are_classified_exactly_for_their_float32_values(cases):
    cases32 = [tuple(np.asarray(x, dtype=np.float32) for x in case) for case in cases]
    start, end, box_min, box_max = (np.array(column) for column in zip(*cases32, strict=True))
    got = classify_segment_aabb(start, end, box_min, box_max)
    assert got.dtype == np.int8, f"expected int8 classes for float32 input, got {got.dtype}"
    for i, case in enumerate(cases32):
        want = ref.classify_segment_aabb(*case)
        assert got[i] == want, (
            f"float32 case {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )


# --- chunk boundaries ----------------------------------------------------------------------


def random_integer_cases(n: int, seed: int):
    """n segment/box cases with small-integer coordinates: many touch faces, edges and corners."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(-3, 4, (2, n, 3)).astype(np.float64)
    box_min, box_max = np.minimum(a, b), np.maximum(a, b)
    start, end = rng.integers(-4, 5, (2, n, 3)).astype(np.float64)
    return start, end, box_min, box_max


def sample_indices(n: int, rng) -> np.ndarray:
    """Indices around every multiple of 2**15 below n, the ends, and 200 random ones."""
    near_edges = [k * 32768 + d for k in range(n // 32768 + 1) for d in (-2, -1, 0, 1)]
    picked = set(near_edges) | {0, n - 1} | set(rng.integers(0, n, 200).tolist())
    return np.array(sorted(i for i in picked if 0 <= i < n))


@pytest.mark.parametrize("n", [1, 2, 32767, 32768, 32769, 65537])
def test_batches_across_chunk_boundaries_match_the_reference(n):
    start, end, box_min, box_max = random_integer_cases(n, seed=n)
    got = classify_segment_aabb(start, end, box_min, box_max)
    assert got.shape == (n,), f"expected shape ({n},), got {got.shape}"
    for i in sample_indices(n, np.random.default_rng(0)):
        want = ref.classify_segment_aabb(start[i], end[i], box_min[i], box_max[i])
        assert got[i] == want, (
            f"N={n}, row {i}: start={start[i].tolist()} end={end[i].tolist()} "
            f"box={box_min[i].tolist()}..{box_max[i].tolist()}: expected {want}, got {got[i]}"
        )
    # every row, against the same rows classified as a batch of their own
    if n > 2:
        tail = slice(n - 40, n)
        np.testing.assert_array_equal(
            got[tail], classify_segment_aabb(start[tail], end[tail], box_min[tail], box_max[tail]),
            err_msg="rows after the last chunk boundary must not depend on the batch size",
        )


#: One segment for a whole batch (the kernels' shared-line path): integer ends, so many of the
#: small-integer boxes are touched exactly; a zero y component; every component negative.
SHARED_SEGMENTS = {
    "generic": ([-2.5, 0.5, 1.0], [2.0, 1.0, 1.5]),
    "integer ends": ([-3.0, -1.0, 0.0], [2.0, 1.0, 3.0]),
    "zero dy": ([-2.5, 1.0, 1.0], [2.0, 1.0, 1.5]),
    "backwards": ([2.0, 3.0, 1.0], [-1.0, -2.0, -3.0]),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("extra", [-1, 0, 1, "2 chunks + 1"])
def test_one_segment_against_batches_across_chunk_boundaries(dtype, extra, each_backend):
    """A shared line against batches around a thread's share (2**17 boxes) and two of them
    (which two threads split): every row as the same segment given per row (the per-item path),
    rows near the seams as the exact reference."""
    if each_backend == "interpreted":
        pytest.skip("large batches are split (into thread shares) only when compiled; "
                    "interpreted parity: test_jit_parity")
    box_min, box_max, sample = boxes_across_chunks(dtype, extra)
    n = len(box_min)
    for name, (start, end) in SHARED_SEGMENTS.items():
        start, end = np.array(start, dtype), np.array(end, dtype)
        got = classify_segment_aabb(start, end, box_min, box_max)
        assert got.dtype == np.int8 and got.shape == (n,), f"{name}: got {got.dtype} {got.shape}"
        per_row = classify_segment_aabb(np.broadcast_to(start, (n, 3)), end, box_min, box_max)
        np.testing.assert_array_equal(got, per_row, err_msg=f"{name}: shared vs per-row segment")
        for i in sample:
            want = ref.classify_segment_aabb(start, end, box_min[i], box_max[i])
            assert got[i] == want, (
                f"{name}, {dtype.__name__}, N={n}, row {i}: box "
                f"{box_min[i].tolist()}..{box_max[i].tolist()}: expected {want}, got {got[i]}"
            )


@pytest.mark.parametrize("shared", ["start", "end", "box_min", "box_max"])
def test_one_shared_argument_broadcasts_like_the_repeated_rows(shared):
    start, end, box_min, box_max = random_integer_cases(64, seed=5)
    box_max = np.maximum(box_min, box_max)
    arguments = {"start": start, "end": end, "box_min": box_min, "box_max": box_max}
    single = {**arguments, shared: arguments[shared][3]}
    repeated = {**arguments, shared: np.broadcast_to(arguments[shared][3], (64, 3))}
    np.testing.assert_array_equal(
        classify_segment_aabb(*single.values()), classify_segment_aabb(*repeated.values()),
        err_msg=f"one {shared} of shape (3,) must act as that row repeated for every item",
    )
