"""triangle_overlaps_aabb against the exact reference (SEMANTICS.md, "Triangle vs box")."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import classify_segment_aabb, triangle_overlaps_aabb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    boxes,
    dyadic_coords,
    generic_coords,
    int_directions,
    points,
    points_on_boundary,
    small_int_coords,
)

# batches run compiled and interpreted: the answers must be the same
pytestmark = pytest.mark.usefixtures("each_backend")

BOX = ([0.0, 0.0, 0.0], [2.0, 2.0, 2.0])
INF = np.inf


def assert_batch_matches_reference(cases):
    """Test `cases` [(v0, v1, v2, box_min, box_max)] in one batched call against the reference."""
    v0, v1, v2, box_min, box_max = (np.array(c) for c in zip(*cases, strict=True))
    got = triangle_overlaps_aabb(v0, v1, v2, box_min, box_max)
    assert got.shape == (len(cases),) and got.dtype == bool, (
        f"expected a bool array of shape ({len(cases)},), got {got.dtype} {got.shape}"
    )
    for i, case in enumerate(cases):
        want = ref.triangle_overlaps_aabb(*case)
        assert got[i] == want, (
            f"case {i}: v0={case[0].tolist()} v1={case[1].tolist()} v2={case[2].tolist()} "
            f"box={case[3].tolist()}..{case[4].tolist()}: expected {want}, got {got[i]}"
        )


def triangle_and_box(vertices, box_strategy):
    """Strategy for (v0, v1, v2, box_min, box_max); ``vertices(box)`` is a strategy for
    the three vertices given the box."""
    return box_strategy.flatmap(lambda box: vertices(box).map(lambda vs: (*vs, box[0], box[1])))


def free_vertices(coords):
    return lambda box: st.tuples(*[points(coords)] * 3)


def vertices_on_boundary(box):
    """v0 on the box's boundary (face, edge or corner), v1 maybe, v2 a small-integer point."""
    free = points(st.integers(-6, 8).map(float))
    return st.tuples(points_on_boundary(box), points_on_boundary(box) | free, free)


@st.composite
def collinear_vertices(draw, box):
    """Three exactly collinear (possibly coincident) integer vertices p + k_i d."""
    p = draw(points(st.integers(-4, 6).map(float)))
    d = draw(int_directions())
    ks = draw(st.tuples(*[st.integers(-3, 3)] * 3))
    return tuple(p + k * d for k in ks)


# --- named examples ----------------------------------------------------------------------------


def test_triangle_inside_the_box_overlaps():
    assert triangle_overlaps_aabb([0.5, 0.5, 0.5], [1.5, 0.5, 0.5], [1.0, 1.5, 1.0], *BOX) is True


def test_triangle_far_away_does_not_overlap():
    assert triangle_overlaps_aabb([5.0, 5.0, 5.0], [6.0, 5.0, 5.0], [5.0, 6.0, 5.0], *BOX) is False


def test_triangle_spanning_the_box_without_a_vertex_inside_overlaps():
    assert (
        triangle_overlaps_aabb([-5.0, -5.0, 1.0], [10.0, -5.0, 1.0], [-5.0, 10.0, 1.0], *BOX)
        is True
    )


def test_triangle_touching_a_corner_with_a_vertex_overlaps():
    assert triangle_overlaps_aabb([2.0, 2.0, 2.0], [3.0, 2.0, 2.0], [3.0, 3.0, 3.0], *BOX) is True


def test_triangle_whose_edge_touches_a_box_edge_overlaps():
    # the edge v0-v1 lies on x + y = 0 (z = 1) and meets the box only at (0, 0, 1)
    assert (
        triangle_overlaps_aabb([-1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [-2.0, -2.0, 1.0], *BOX) is True
    )
    assert (
        triangle_overlaps_aabb([-1.0, 0.0, 1.0], [0.0, -1.0, 1.0], [-2.0, -2.0, 1.0], *BOX) is False
    )


def test_triangle_whose_plane_touches_a_box_corner_overlaps():
    # x + y + z = 3 touches the unit box only at its corner (1, 1, 1), inside the triangle
    unit = ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    assert triangle_overlaps_aabb([3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0], *unit) is True
    smaller = ([0.0, 0.0, 0.0], [1.0, 1.0, 0.75])
    assert (
        triangle_overlaps_aabb([3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0], *smaller) is False
    )


def test_triangle_separated_only_by_an_edge_cross_axis_does_not_overlap():
    # no box face normal and not the triangle's normal separates these; an edge x axis does
    assert triangle_overlaps_aabb([0.0, 2.0, 3.0], [3.0, -1.0, 3.0], [4.0, 0.0, 2.0], *BOX) is False


def test_triangle_lying_in_a_face_overlaps():
    assert (
        triangle_overlaps_aabb([-1.0, -1.0, 2.0], [3.0, -1.0, 2.0], [-1.0, 3.0, 2.0], *BOX) is True
    )


def test_degenerate_triangles_are_segments_or_points():
    # collinear: the segment from x = -1 to x = 3 through the box
    assert triangle_overlaps_aabb([-1.0, 1.0, 1.0], [3.0, 1.0, 1.0], [1.0, 1.0, 1.0], *BOX) is True
    assert triangle_overlaps_aabb([-1.0, 3.0, 1.0], [3.0, 3.0, 1.0], [5.0, 3.0, 1.0], *BOX) is False
    # collinear with its middle vertex listed last, crossing the box between the outer two
    assert (
        triangle_overlaps_aabb([-1.0, -1.0, -1.0], [3.0, 3.0, 3.0], [5.0, 5.0, 5.0], *BOX) is True
    )
    # a point inside, on the boundary, outside
    for point, want in (([1.0] * 3, True), ([2.0, 1.0, 0.0], True), ([2.5, 1.0, 1.0], False)):
        got = triangle_overlaps_aabb(point, point, point, *BOX)
        assert got is want, f"point triangle {point}: expected {want}, got {got}"


def test_flat_and_empty_boxes():
    flat = ([0.0, 0.0, 1.0], [2.0, 2.0, 1.0])
    assert triangle_overlaps_aabb([1.0, 1.0, 0.0], [1.0, 1.0, 3.0], [1.0, 2.0, 3.0], *flat) is True
    for empty in (([0.0, 2.0, 0.0], [2.0, 0.0, 2.0]), ([INF] * 3, [-INF] * 3)):
        got = triangle_overlaps_aabb([-9.0, -9.0, 1.0], [9.0, -9.0, 1.0], [0.0, 9.0, 1.0], *empty)
        assert got is False, f"an empty box {empty} overlaps nothing, got {got}"


def test_batched_result_is_a_bool_array():
    got = triangle_overlaps_aabb([[0.5, 0.5, 0.5]], [1.5, 0.5, 0.5], [1.0, 1.5, 1.0], *BOX)
    assert isinstance(got, np.ndarray) and got.dtype == bool and got.shape == (1,), (
        f"expected a bool array of shape (1,), got {got!r}"
    )


# --- properties against the exact reference ----------------------------------------------------


@given(batches(triangle_and_box(free_vertices(generic_coords), boxes(generic_coords, empty=True))))
def test_generic_triangles_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases)


@given(batches(triangle_and_box(free_vertices(small_int_coords), boxes(empty=True))))
def test_small_integer_triangles_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases)


@given(batches(triangle_and_box(free_vertices(dyadic_coords), boxes(dyadic_coords))))
def test_dyadic_triangles_match_the_exact_reference(cases):
    assert_batch_matches_reference(cases)


@given(batches(triangle_and_box(vertices_on_boundary, boxes())))
def test_triangles_touching_the_boundary_match_the_reference_and_overlap(cases):
    assert_batch_matches_reference(cases)
    for v0, v1, v2, box_min, box_max in cases:
        assert triangle_overlaps_aabb(v0, v1, v2, box_min, box_max), (
            f"v0={v0.tolist()} is on the boundary of {box_min.tolist()}..{box_max.tolist()}: "
            f"the triangle with v1={v1.tolist()} v2={v2.tolist()} must overlap"
        )


@given(batches(triangle_and_box(collinear_vertices, boxes(empty=True))))
def test_degenerate_triangles_match_the_segment_through_their_vertices(cases):
    assert_batch_matches_reference(cases)
    for v0, v1, v2, box_min, box_max in cases:
        segments_meet = any(classify_segment_aabb(a, b, box_min, box_max) != 0
                            for a, b in ((v0, v1), (v1, v2), (v0, v2)))
        got = triangle_overlaps_aabb(v0, v1, v2, box_min, box_max)
        assert got == segments_meet, (
            f"collinear v0={v0.tolist()} v1={v1.tolist()} v2={v2.tolist()} box="
            f"{box_min.tolist()}..{box_max.tolist()}: segments meet the box: {segments_meet}, "
            f"got {got}"
        )


@given(st.one_of(
    triangle_and_box(free_vertices(small_int_coords), boxes()),
    triangle_and_box(vertices_on_boundary, boxes()),
    triangle_and_box(free_vertices(generic_coords), boxes(generic_coords)),
))
def test_vertex_order_never_changes_the_answer(case):
    *verts, box_min, box_max = case
    answers = [triangle_overlaps_aabb(*order, box_min, box_max)
               for order in itertools.permutations(verts)]
    assert len(set(answers)) == 1, (
        f"triangle {[v.tolist() for v in verts]} box {box_min.tolist()}..{box_max.tolist()}: "
        f"answers differ by vertex order (all 6 orders): {answers}"
    )


@given(batches(triangle_and_box(free_vertices(small_int_coords), boxes()), max_size=12))
def test_batched_call_equals_single_calls(cases):
    v0, v1, v2, box_min, box_max = (np.array(c) for c in zip(*cases, strict=True))
    batched = triangle_overlaps_aabb(v0, v1, v2, box_min, box_max)
    singles = [triangle_overlaps_aabb(*case) for case in cases]
    assert all(type(s) is bool for s in singles), f"expected Python bools, got {singles}"
    np.testing.assert_array_equal(
        batched, singles, err_msg="batched answers must equal single answers"
    )


@given(batches(triangle_and_box(free_vertices(generic_coords), boxes(generic_coords)), max_size=12))
def test_float32_inputs_are_answered_for_their_float32_values(cases):
    cases32 = [tuple(np.asarray(x, dtype=np.float32) for x in case) for case in cases]
    v0, v1, v2, box_min, box_max = (np.array(c) for c in zip(*cases32, strict=True))
    got = triangle_overlaps_aabb(v0, v1, v2, box_min, box_max)
    for i, case in enumerate(cases32):
        want = ref.triangle_overlaps_aabb(*case)
        assert got[i] == want, (
            f"float32 case {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )


# --- chunk boundaries ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 32767, 32768, 32769, 65537])
def test_batches_across_chunk_boundaries_match_the_reference(n):
    rng = np.random.default_rng(n)
    a, b = rng.integers(-2, 3, (2, n, 3)).astype(np.float64)
    box_min, box_max = np.minimum(a, b), np.maximum(a, b)
    v0, v1, v2 = rng.integers(-4, 5, (3, n, 3)).astype(np.float64)
    got = triangle_overlaps_aabb(v0, v1, v2, box_min, box_max)
    assert got.shape == (n,), f"expected shape ({n},), got {got.shape}"
    edges = {k * 32768 + d for k in range(n // 32768 + 1) for d in (-2, -1, 0, 1)}
    sample = sorted(
        i for i in edges | {0, n - 1} | set(rng.integers(0, n, 200).tolist()) if 0 <= i < n
    )
    for i in sample:
        want = ref.triangle_overlaps_aabb(v0[i], v1[i], v2[i], box_min[i], box_max[i])
        assert got[i] == want, (
            f"N={n} row {i}: v0={v0[i].tolist()} v1={v1[i].tolist()} v2={v2[i].tolist()} "
            f"box={box_min[i].tolist()}..{box_max[i].tolist()}: expected {want}, got {got[i]}"
        )


@pytest.mark.parametrize("shared", ["v0", "v1", "v2", "box_min", "box_max"])
def test_one_shared_argument_broadcasts_like_the_repeated_rows(shared):
    rng = np.random.default_rng(13)
    a, b = rng.integers(-2, 3, (2, 64, 3)).astype(np.float64)
    v0, v1, v2 = rng.integers(-4, 5, (3, 64, 3)).astype(np.float64)
    arguments = {
        "v0": v0,
        "v1": v1,
        "v2": v2,
        "box_min": np.minimum(a, b),
        "box_max": np.maximum(a, b),
    }
    single = {**arguments, shared: arguments[shared][3]}
    repeated = {**arguments, shared: np.broadcast_to(arguments[shared][3], (64, 3))}
    np.testing.assert_array_equal(
        triangle_overlaps_aabb(*single.values()), triangle_overlaps_aabb(*repeated.values()),
        err_msg=f"one {shared} of shape (3,) must act as that row repeated for every item",
    )


def test_regression_float32_triangle_with_a_vertex_on_a_point_box_overlaps():
    # found by hypothesis at f1bdf7d: float32 input answered False
    f32 = lambda v: np.array(v, dtype=np.float32)  # noqa: E731
    got = triangle_overlaps_aabb(f32([1.0, 1.1837413311004639, 3.0]), f32([0.0, 0.0, 0.0]),
                                 f32([0.0, 0.0, 0.5]), f32([0.0, 0.0, 0.0]), f32([0.0, 0.0, 0.0]))
    assert got is True, "v1 is the point box itself: expected True"


def test_regression_vertex_order_with_a_vertex_on_a_flat_box():
    # found by hypothesis at f1bdf7d: two of the six vertex orders answered False
    verts = [
        np.array(v) for v in ([0.0, 0.0, 91.17405079648734], [0.0, 1.5, 0.0], [15.0, 0.0, 1.0])
    ]
    for order in itertools.permutations(verts):
        got = triangle_overlaps_aabb(*order, [0.0, 1.5, 0.0], [0.0, 2.0, 0.0])
        assert got is True, (
            f"vertex (0, 1.5, 0) is the box's min corner: expected True for order {order}"
        )
