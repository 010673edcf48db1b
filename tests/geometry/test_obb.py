"""Oriented boxes: classify_segment_obb, intersect_ray_obb and the OBB value type.

Signed permutation axes (the only orthonormal matrices with dyadic entries) keep the frame
change exact in floats. Boxes rotated by Euler angles are compared with the exact reference for
the very float axes they hold, strictly: the library brackets the rounding of its frame change
and decides the items within it in rationals, so segments, rays, points and triangles grazing a
rotated box get the exact answers too.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pyrr
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from geometry import (
    AABB,
    OBB,
    IntersectionType,
    Triangle,
    classify_segment_aabb,
    classify_segment_obb,
    intersect_ray_aabb,
    intersect_ray_obb,
    triangle_overlaps_aabb,
    triangle_overlaps_obb,
)
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    dyadic_coords,
    generic_coords,
    points,
    proper_boxes,
    rotations,
    signed_permutation_matrices,
    small_int_coords,
)

# batches run compiled and interpreted: the answers must be the same
pytestmark = pytest.mark.usefixtures("each_backend")

NONE, INTERSECT, INCLUDE = (
    IntersectionType.NONE,
    IntersectionType.INTERSECT,
    IntersectionType.INCLUDE,
)
INF = math.inf
IDENTITY = np.eye(3)
half_sizes_dyadic = points(st.integers(0, 12).map(lambda k: k / 4.0))
half_sizes_generic = points(generic_coords.map(abs))


def nonzero(v):
    return bool(np.any(v != 0))


def rigid_matrix(rotation: np.ndarray, translation) -> np.ndarray:
    """4x4 pyrr-convention matrix: ``[p, 1] @ M = p @ rotation + translation``."""
    m = np.eye(4)
    m[:3, :3] = rotation
    m[3, :3] = translation
    return m


# --- named examples ----------------------------------------------------------------------------


def test_rotated_box_example():
    # the unit cube's centre at the origin, turned 45 degrees about z: its x extent is sqrt(2)/2
    rotation = pyrr.matrix33.create_from_z_rotation(np.pi / 4)
    box = OBB([0.0, 0.0, 0.0], rotation, [0.5, 0.5, 0.5])
    assert (
        classify_segment_obb([0.6, 0.0, 0.0], [0.75, 0.0, 0.0], box.center, box.axes, box.half_size)
        is INTERSECT
    )
    assert (
        classify_segment_obb([0.8, 0.0, 0.0], [0.9, 0.0, 0.0], box.center, box.axes, box.half_size)
        is NONE
    )
    assert (
        classify_segment_obb([0.1, 0.0, 0.0], [0.6, 0.0, 0.0], box.center, box.axes, box.half_size)
        is INCLUDE
    )


def test_ray_vs_rotated_box_keeps_t_in_units_of_direction():
    rotation = pyrr.matrix33.create_from_z_rotation(np.pi / 4)
    hit, t_enter, t_exit = intersect_ray_obb([-2.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 0.0],
                                             rotation, [0.5, 0.5, 0.5])
    assert (
        hit
        and t_enter == pytest.approx(1 - math.sqrt(2) / 4, rel=1e-12)
        and t_exit == pytest.approx(1 + math.sqrt(2) / 4, rel=1e-12)
    ), f"expected (True, 1 -+ sqrt(2)/4), got {(hit, t_enter, t_exit)}"


def test_ending_exactly_on_a_face_of_a_turned_box_is_INTERSECT():
    axes = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # 90 degrees about z
    center, half = [1.0, 1.0, 1.0], [0.5, 2.0, 1.0]  # x extent 2 (axis 1), y extent 0.5 (axis 0)
    assert classify_segment_obb([1.0, 1.0, 1.0], [1.0, 1.5, 1.0], center, axes, half) is INTERSECT
    assert classify_segment_obb([1.0, 1.0, 1.0], [2.75, 1.25, 1.0], center, axes, half) is INCLUDE
    assert classify_segment_obb([3.0, 1.0, 1.0], [4.0, 1.0, 1.0], center, axes, half) is INTERSECT
    assert classify_segment_obb([3.25, 1.0, 1.0], [4.0, 1.0, 1.0], center, axes, half) is NONE


def test_flat_obb_is_never_INCLUDE():
    assert (
        classify_segment_obb([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0] * 3, IDENTITY, [1.0, 1.0, 0.0])
        is INTERSECT
    )


def test_batched_axes_per_box():
    axes = np.stack([IDENTITY, IDENTITY[[1, 0, 2]], -IDENTITY])
    got = classify_segment_obb([0.0, 0.0, 0.0], [1.5, 0.0, 0.0], np.zeros((3, 3)), axes,
                               [[2.0, 1.0, 1.0], [2.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(got, [INCLUDE, INTERSECT, INTERSECT], err_msg="per-box axes")


# --- OBB with identity axes == AABB ------------------------------------------------------------


def obb_aabb_case(coords):
    """(start, end, center, half_size): dyadic, so center -+ half_size is exact."""
    return st.tuples(points(coords), points(coords), points(coords), half_sizes_dyadic)


@given(batches(obb_aabb_case(dyadic_coords)))
def test_identity_axes_obb_equals_the_aabb_test(cases):
    start, end, center, half = (np.array(c) for c in zip(*cases, strict=True))
    obb = classify_segment_obb(start, end, center, IDENTITY, half)
    aabb = classify_segment_aabb(start, end, center - half, center + half)
    np.testing.assert_array_equal(
        obb, aabb, err_msg="OBB with identity axes must equal the AABB test"
    )
    direction = np.where(np.all(end == start, axis=1)[:, None], 1.0, end - start)
    got_obb = intersect_ray_obb(start, direction, center, IDENTITY, half)
    got_aabb = intersect_ray_aabb(start, direction, center - half, center + half)
    np.testing.assert_array_equal(got_obb.hit, got_aabb.hit, err_msg="ray hit: OBB with identity "
                                  "axes vs AABB")
    # t: each within 2 ulps of the exact value (the two may round it differently)
    for i in np.flatnonzero(got_obb.hit):
        want = ref.intersect_ray_aabb(start[i], direction[i], center[i] - half[i],
                                      center[i] + half[i])
        for got, exact, name in ((got_obb.t_enter[i], want.t_enter, "t_enter"),
                                 (got_obb.t_exit[i], want.t_exit, "t_exit")):
            assert ref.ulps_off(got, exact) <= 2, (
                f"ray {i}: OBB {name} {got} is not within 2 ulps of {float(exact)}")


# --- exact: signed permutation axes --------------------------------------------------------


@given(batches(st.tuples(points(dyadic_coords), points(dyadic_coords), points(dyadic_coords),
                         signed_permutation_matrices(), half_sizes_dyadic)))
def test_permuted_axes_segments_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_segment_obb(start, end, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.classify_segment_obb(*case)
        assert got[i] == want, (
            f"case {i}: start={case[0].tolist()} end={case[1].tolist()} center={case[2].tolist()} "
            f"axes={case[3].tolist()} half={case[4].tolist()}: expected {want}, got {got[i]}"
        )
        assert classify_segment_obb(case[1], case[0], *case[2:]) == want, "reversed segment differs"


@given(batches(st.tuples(points(dyadic_coords), points(dyadic_coords).filter(nonzero),
                         points(dyadic_coords), signed_permutation_matrices(), half_sizes_dyadic)))
def test_permuted_axes_rays_match_the_exact_reference(cases):
    origin, direction, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = intersect_ray_obb(origin, direction, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.intersect_ray_obb(*case)
        what = f"case {i}: {[c.tolist() for c in case]}"
        assert bool(got.hit[i]) == want.hit, f"{what}: expected hit={want.hit}, got {got.hit[i]}"
        for g, w, name in (
            (got.t_enter[i], want.t_enter, "t_enter"),
            (got.t_exit[i], want.t_exit, "t_exit"),
        ):
            assert ref.t_close(g, w, exact_if_representable=True), (
                f"{what}: expected {name}={w}, got {g}"
            )


@given(
    proper_boxes(small_int_coords),
    signed_permutation_matrices(),
    points(small_int_coords),
    st.tuples(points(st.integers(-5, 5).map(float)), points(st.integers(-5, 5).map(float))),
)
def test_rigid_obb_from_aabb_equals_the_aabb_test_in_the_box_frame(
    box, rotation, translation, local_segment
):
    """A segment and box moved together by an exact rigid motion keep their class and t."""
    matrix = rigid_matrix(rotation, translation)
    obb = OBB.from_aabb(AABB(*box), matrix)
    start, end = (p @ rotation + translation for p in local_segment)
    want = classify_segment_aabb(*local_segment, *box)
    got = classify_segment_obb(start, end, obb.center, obb.axes, obb.half_size)
    assert got is want, (
        f"local segment {[p.tolist() for p in local_segment]} in {box}: AABB says {want.name}; "
        f"moved by "
        f"rotation {rotation.tolist()} + {translation.tolist()} the OBB says {got.name}"
    )
    if not np.array_equal(*local_segment):
        local_ray = ref.intersect_ray_aabb(local_segment[0], local_segment[1] - local_segment[0],
                                           *box)
        world_ray = intersect_ray_obb(start, end - start, obb.center, obb.axes, obb.half_size)
        assert world_ray.hit == local_ray.hit, f"ray: expected {local_ray} as in the box frame"
        if local_ray.hit:
            for got, exact in zip(world_ray[1:], local_ray[1:], strict=True):
                assert ref.t_close(got, exact, exact_if_representable=False), (
                    f"ray: expected t within 2 ulps of {local_ray} (box frame), got {world_ray}")


# --- rotated boxes (pyrr Euler angles) ---------------------------------------------------------


@given(batches(st.tuples(points(), points(), points(), rotations(), half_sizes_generic)))
def test_rotated_segments_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_segment_obb(start, end, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.classify_segment_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {IntersectionType(want).name}, "
            f"got {IntersectionType(int(got[i])).name}")


@given(
    batches(
        st.tuples(points(), points().filter(nonzero), points(), rotations(), half_sizes_generic)
    )
)
def test_rotated_rays_match_the_exact_reference(cases):
    origin, direction, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = intersect_ray_obb(origin, direction, center, axes, half)
    for i, case in enumerate(cases):
        what = (f"case {i}: origin={case[0].tolist()} direction={case[1].tolist()} "
                f"center={case[2].tolist()} axes={case[3].tolist()} half={case[4].tolist()}")
        assert not (np.isnan(got.t_enter[i]) or np.isnan(got.t_exit[i])), f"{what}: NaN t"
        want = ref.intersect_ray_obb(*case)
        assert bool(got.hit[i]) == want.hit, f"{what}: expected hit={want.hit}, got {got.hit[i]}"
        if want.hit:
            for name, t, exact in (("t_enter", got.t_enter[i], want.t_enter),
                                   ("t_exit", got.t_exit[i], want.t_exit)):
                assert ref.ulps_off(t, exact) <= 2, (
                    f"{what}: expected {name} = {float(exact)} within 2 ulps, got {t}")
        else:
            assert got.t_enter[i] == got.t_exit[i] == INF, f"{what}: a miss has t = +inf"


def test_rays_almost_parallel_to_a_turned_face_get_t_within_two_ulps():
    """Rays that cross a face of a box turned about z at a grazing angle: ``axes[0] . direction``
    is about 1e-9, summed from products near +-0.5 that cancel, so the double-double W keeps a
    low part far above an ulp of its high part. The entry t (through that face) must still be
    within 2 ulps of the exact value, one ray at a time and all at once (t was 24 ulps off
    before W was normalised)."""
    rng = np.random.default_rng(20261125)
    n = 400
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    cos, sin = np.cos(angle), np.sin(angle)
    zeros, ones = np.zeros(n), np.ones(n)
    axes = np.stack([np.stack([cos, sin, zeros], -1), np.stack([-sin, cos, zeros], -1),
                     np.stack([zeros, zeros, ones], -1)], axis=1)
    across = 10.0 ** rng.uniform(-9.3, -8.0, n) * rng.choice([-1.0, 1.0], n)  # axes[0] . d
    direction = axes[:, 1] * -1.0 + across[:, None] * axes[:, 0]
    t_face = 10.0 ** rng.uniform(0.0, 8.0, n)  # where the ray crosses the near face
    origin = (-np.sign(across) - across * t_face)[:, None] * axes[:, 0]
    center, half = np.zeros((n, 3)), np.tile([1.0, 1e20, 1.0], (n, 1))
    together = intersect_ray_obb(origin, direction, center, axes, half)
    for i in range(n):
        case = (origin[i], direction[i], center[i], axes[i], half[i])
        want = ref.intersect_ray_obb(*case)
        alone = intersect_ray_obb(*case)
        assert want.hit and alone.hit and together.hit[i], f"ray {i}: expected a hit"
        for name, exact, ts in (("t_enter", want.t_enter, (alone.t_enter, together.t_enter[i])),
                                ("t_exit", want.t_exit, (alone.t_exit, together.t_exit[i]))):
            for how, t in zip(("alone", "with the others"), ts, strict=True):
                assert ref.ulps_off(t, exact) <= 2, (
                    f"ray {i} ({how}): {[c.tolist() for c in case]}: expected {name} = "
                    f"{float(exact)} within 2 ulps, got {t} ({float(ref.ulps_off(t, exact)):.1f} "
                    "ulps off)")


@given(
    batches(
        st.tuples(points(), points().filter(nonzero), points(), rotations(), half_sizes_generic)
    )
)
def test_float32_rays_get_float32_t_within_two_ulps_of_the_exact_values(cases):
    """float32 data: the hits exact, t within 2 float32 ulps of the exact t of those floats."""
    origin, direction, center, axes, half = (np.array(c).astype(np.float32)
                                             for c in zip(*cases, strict=True))
    assume(np.all(np.any(direction != 0, axis=-1)))
    got = intersect_ray_obb(origin, direction, center, axes, half)
    assert got.t_enter.dtype == got.t_exit.dtype == np.float32
    for i in range(len(cases)):
        case = [x[i].astype(np.float64) for x in (origin, direction, center, axes, half)]
        what = f"case {i}: {[c.tolist() for c in case]} (float32)"
        want = ref.intersect_ray_obb(*case)
        assert bool(got.hit[i]) == want.hit, f"{what}: expected hit={want.hit}, got {got.hit[i]}"
        if want.hit:
            for name, t, exact in (("t_enter", got.t_enter[i], want.t_enter),
                                   ("t_exit", got.t_exit[i], want.t_exit)):
                assert ref.ulps_off(t, exact, np.float32) <= 2, (
                    f"{what}: expected {name} = {float(exact)} within 2 float32 ulps, got {t}")
        else:
            assert got.t_enter[i] == got.t_exit[i] == INF, f"{what}: a miss has t = +inf"


@st.composite
def rays_near_rotated_faces(draw):
    """A rotated box and a segment through a point at rounding distance of its surface: a
    corner, an edge or a face point, mapped to the world in floats (so off by an ulp or so)."""
    center, axes, half = draw(points()), draw(rotations()), draw(half_sizes_generic)
    signs = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=3, max_size=3)))
    free = draw(st.integers(0, 3))  # 3: a corner; else that axis runs free (an edge)
    along = draw(st.floats(-1, 1))
    d = np.array(draw(st.tuples(*[st.floats(-2, 2)] * 3)))
    a, b = draw(st.floats(0.1, 3)), draw(st.floats(0.1, 3))
    with np.errstate(all="ignore"):  # building a case: tiny products may underflow, harmlessly
        u = signs * half
        if free < 3:
            u[free] = along * half[free]
        p = center + axes.T @ u
        start, end = p - a * d, p + b * d
    assume(np.any(end != start))
    return start, end, center, axes, half


@given(batches(rays_near_rotated_faces()))
def test_segments_and_rays_grazing_rotated_boxes_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = classify_segment_obb(start, end, center, axes, half)
    hits = intersect_ray_obb(start, end - start, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.classify_segment_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )
        s, e, c, ax, h = case
        if np.any(e != s):
            ray = ref.intersect_ray_obb(s, e - s, c, ax, h)
            assert bool(hits.hit[i]) == ray.hit, f"case {i}: ray {[x.tolist() for x in case]}"


def test_ray_exactly_through_a_rotated_point_box_hits():
    """The ray (0,0,0) + t (0,0,1) passes exactly through the point box at (0,0,5); in any
    rotated float frame the slabs' t values round apart, so it is decided in rationals."""
    axes = pyrr.matrix33.create_from_y_rotation(1.25)
    got = intersect_ray_obb(
        [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 5.0], axes, [0.0, 0.0, 0.0]
    )
    assert ref.intersect_ray_obb(
        [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 5.0], axes, [0.0] * 3
    ).hit
    assert got.hit and got.t_enter == got.t_exit == 5.0, f"expected a hit at t = 5, got {got}"


@given(batches(st.tuples(points(), points(), points(), points(), rotations(), half_sizes_generic)))
def test_rotated_triangles_match_the_exact_reference(cases):
    v0, v1, v2, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = triangle_overlaps_obb(v0, v1, v2, center, axes, half)
    assert got.dtype == bool and got.shape == (len(cases),)
    for i, case in enumerate(cases):
        want = ref.triangle_overlaps_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )


@st.composite
def triangles_touching_rotated_boxes(draw):
    """A rotated box and a triangle with a vertex at rounding distance of its surface (a
    corner, an edge or a face point mapped to the world in floats), or an edge through it."""
    start, end, center, axes, half = draw(rays_near_rotated_faces())
    third = draw(points())
    if draw(st.booleans()):  # the vertex itself at the surface point (start + a d ~ p)
        mid = (start + end) / 2
        return mid, third, third + end - start, center, axes, half
    return start, end, third, center, axes, half


@given(batches(triangles_touching_rotated_boxes()))
def test_triangles_grazing_rotated_boxes_match_the_exact_reference(cases):
    v0, v1, v2, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    got = triangle_overlaps_obb(v0, v1, v2, center, axes, half)
    for i, case in enumerate(cases):
        want = ref.triangle_overlaps_obb(*case)
        assert got[i] == want, (
            f"case {i}: {[c.tolist() for c in case]}: expected {want}, got {got[i]}"
        )


def test_triangle_obb_with_identity_axes_is_the_aabb_test_on_dyadic_data():
    rng = np.random.default_rng(11)
    n = 500
    v = rng.integers(-8, 9, (3, n, 3)) / 4.0
    center, half = rng.integers(-4, 5, (n, 3)) / 4.0, rng.integers(0, 5, (n, 3)) / 4.0
    got = triangle_overlaps_obb(*v, center, IDENTITY, half)
    np.testing.assert_array_equal(got, triangle_overlaps_aabb(*v, center - half, center + half),
                                  err_msg="identity axes: the AABB [center - half, center + half]")
    assert triangle_overlaps_obb(*v[:, 0], center[0], IDENTITY, half[0]) is bool(got[0])
    float32 = triangle_overlaps_obb(*v.astype(np.float32), center.astype(np.float32),
                                    IDENTITY.astype(np.float32), half.astype(np.float32))
    np.testing.assert_array_equal(float32, got, err_msg="float32 inputs, same exact answers")
    empty = triangle_overlaps_obb(*v, center, IDENTITY, -np.abs(half) - 0.25)
    assert not empty.any(), "a negative half size is an empty box: never overlaps"


def test_points_and_triangles_at_rounding_distance_of_a_rotated_box_are_decided_exactly():
    axes = pyrr.matrix33.create_from_eulers([0.3, 1.1, -0.7])
    center, half = np.array([0.25, -1.5, 2.0]), np.array([1.0, 0.5, 2.0])
    box = OBB(center, axes, half)
    rng = np.random.default_rng(3)
    triangles, wants = [], []
    for _ in range(300):
        u = rng.choice([-1.0, 1.0], 3) * half
        u[rng.integers(0, 3)] *= rng.uniform(-1, 1)
        p = center + axes.T @ u  # within an ulp or so of the surface
        want = ref.obb_contains(p, center, axes, half)
        assert box.contains(p) == want, f"contains({p.tolist()}): expected {want}"
        t = Triangle(p, p + rng.normal(size=3), p + rng.normal(size=3))
        tri = ref.triangle_overlaps_obb(t.v0, t.v1, t.v2, center, axes, half)
        assert t.overlaps(box) == tri, f"overlaps({t}): expected {tri}"
        triangles.append((t.v0, t.v1, t.v2))
        wants.append(tri)
    got = triangle_overlaps_obb(*np.array(triangles).transpose(1, 0, 2), center, axes, half)
    np.testing.assert_array_equal(got, wants, err_msg="the batched call answers as one by one")


@given(proper_boxes(dyadic_coords), rotations(), points(small_int_coords))
def test_from_aabb_of_a_rotation_holds_the_rotation_and_moved_centre(box, rotation, translation):
    obb = OBB.from_aabb(AABB(*box), rigid_matrix(rotation, translation))
    center = (box[0] + box[1]) / 2
    np.testing.assert_allclose(
        obb.axes, rotation, rtol=0, atol=1e-15, err_msg="axes = rotation rows"
    )
    np.testing.assert_allclose(obb.center, center @ rotation + translation, rtol=1e-12, atol=1e-12,
                               err_msg="centre = [c, 1] @ M")
    np.testing.assert_array_equal(obb.half_size, (box[1] - box[0]) / 2, err_msg="half sizes kept")


# --- the OBB value type ----------------------------------------------------------------------


@given(points(dyadic_coords), signed_permutation_matrices(), half_sizes_dyadic,
       st.lists(points(dyadic_coords), min_size=1, max_size=6))
def test_contains_and_closest_point_are_exact_for_permuted_axes(center, axes, half, pts):
    obb = OBB(center, axes, half)
    pts = np.array(pts)
    got = obb.contains(pts)
    want = [ref.obb_contains(p, center, axes, half) for p in pts]
    np.testing.assert_array_equal(got, want, err_msg=f"contains for {pts.tolist()} in {obb}")
    assert obb.contains(pts[0]) is bool(want[0]), "a single point gives a Python bool"
    closest = obb.closest_point(pts)
    assert all(ref.obb_contains(q, center, axes, half) for q in closest), (
        "closest points lie in the box"
    )
    np.testing.assert_array_equal(closest[np.array(want)], pts[np.array(want)],
                                  err_msg="a point inside is its own closest point")


def _exact_corner(center, axes, u) -> list[Fraction]:
    """The point p with ``axes @ (p - center) == u`` exactly (Gauss-Jordan on Fractions)."""
    m = [[Fraction(float(x)) for x in row] + [Fraction(u_i)]
         for row, u_i in zip(axes, u, strict=True)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(3):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[col], strict=True)]
    return [Fraction(float(center[j])) + m[j][3] / m[j][j] for j in range(3)]


@given(points(), rotations(), half_sizes_generic)
def test_corners_are_exact_corners_rounded_and_aabb_the_smallest_float_box_holding_them(
        center, axes, half):
    obb = OBB(center, axes, half)
    exact = [_exact_corner(center, axes, [h if (i >> k) & 1 else -h
                                          for k, h in enumerate(map(Fraction, half))])
             for i in range(8)]
    np.testing.assert_array_equal(obb.corners(), [[float(x) for x in c] for c in exact],
                                  err_msg="corner i: -/+ half_size by bit k, rounded to nearest")
    box = obb.aabb()
    np.testing.assert_array_equal(box.min, [ref.rounded(min(c[j] for c in exact), -1)
                                            for j in range(3)], err_msg="aabb().min rounded down")
    np.testing.assert_array_equal(box.max, [ref.rounded(max(c[j] for c in exact), 1)
                                            for j in range(3)], err_msg="aabb().max rounded up")


TURNED = np.array([[math.sqrt(0.5), math.sqrt(0.5), 0.0], [-math.sqrt(0.5), math.sqrt(0.5), 0.0],
                   [0.0, 0.0, 1.0]])  # a quarter of a right angle about z


def test_contains_is_exact_where_the_float_frame_change_overflows():
    obb = OBB([1e308, 0.0, 0.0], TURNED, [1.7e308, 1.7e308, 1.0])
    # p - center = -2e308 (beyond float64); in the frame about (-1.414e308, 1.414e308, 0): inside
    points_ = np.array([[-1e308, 0.0, 0.0], [-1.7e308, 0.0, 0.0]])
    want = [ref.obb_contains(p, obb.center, obb.axes, obb.half_size) for p in points_]
    assert want == [True, False], "the reference: the first point is inside, the second not"
    assert obb.contains(points_[0]) is True
    np.testing.assert_array_equal(obb.contains(points_), want)


def test_closest_point_where_floats_overflow_is_exact_or_a_value_error():
    obb = OBB([1e308, 0.0, 0.0], IDENTITY, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(obb.closest_point([-1e308, 0.0, 0.0]), [1e308, 0.0, 0.0],
                                  err_msg="1e308 - 1, rounded: no NaN from an overflowed offset")
    inside = OBB([1e308, 0.0, 0.0], TURNED, [1.7e308, 1.7e308, 1.0])
    np.testing.assert_array_equal(inside.closest_point([[-1e308, 0.0, 0.0]]),
                                  [[-1e308, 0.0, 0.0]], err_msg="a point inside is its own")
    long = OBB([1.7e308, -1.7e308, 0.0], TURNED, [1.7e308, 1.0, 1.0])
    with pytest.raises(ValueError, match="closest_point of OBB.* is beyond float64"):
        long.closest_point([1.7e308, 1.7e308, 0.0])  # about (2.9e308, -0.5e308, 0)


def test_corners_and_aabb_beyond_float64_or_of_an_empty_box():
    big = OBB([1e308, 0.0, 0.0], TURNED, [1.7e308, 1.7e308, 1.0])
    with pytest.raises(ValueError, match="corners of OBB.* reach beyond float64"):
        big.corners()
    with pytest.raises(ValueError, match="aabb of OBB.* reaches beyond float64"):
        big.aabb()
    empty = OBB([0.0, 0.0, 0.0], TURNED, [1.0, -1.0, 1.0])
    assert empty.aabb().is_empty, "an empty OBB's AABB is empty"
    with pytest.raises(ValueError, match="corners of an empty OBB"):
        empty.corners()


def test_from_aabb_with_its_centre_beyond_float64_is_a_value_error():
    matrix = np.eye(4)
    matrix[3, 0] = 1e308
    with pytest.raises(ValueError, match="moved by matrix has its centre beyond float64"):
        OBB.from_aabb(AABB([1e308, 0.0, 0.0], [1e308, 1.0, 1.0]), matrix)


@given(points(dyadic_coords), signed_permutation_matrices(), half_sizes_dyadic)
def test_aabb_of_a_permuted_box_is_exact(center, axes, half):
    box = OBB(center, axes, half).aabb()
    extent = np.abs(axes).T @ half
    np.testing.assert_array_equal(box.min, center - extent, err_msg="aabb().min exact")
    np.testing.assert_array_equal(box.max, center + extent, err_msg="aabb().max exact")


def test_obb_triangle_overlap_matches_the_reference():
    axes = IDENTITY[[2, 0, 1]] * np.array([[1.0], [-1.0], [1.0]])
    obb = OBB([1.0, 1.0, 1.0], axes, [1.0, 0.5, 2.0])
    rng = np.random.default_rng(7)
    for _ in range(300):
        v = rng.integers(-3, 5, (3, 3)).astype(float)
        want = ref.triangle_overlaps_obb(*v, obb.center, obb.axes, obb.half_size)
        got = Triangle(*v).overlaps(obb)
        assert got == want, f"triangle {v.tolist()} vs {obb}: expected {want}, got {got}"


@pytest.mark.parametrize("shared", ["start", "end", "center", "axes", "half_size"])
def test_one_shared_argument_broadcasts_like_the_repeated_rows(shared):
    rng = np.random.default_rng(17)
    n = 64
    signs = rng.choice([-1.0, 1.0], (n, 3, 1))
    axes = np.stack([np.eye(3)[rng.permutation(3)] for _ in range(n)]) * signs
    arguments = {
        "start": rng.integers(-4, 5, (n, 3)) / 2.0,
        "end": rng.integers(-4, 5, (n, 3)) / 2.0,
        "center": rng.integers(-2, 3, (n, 3)) / 2.0,
        "axes": axes,
        "half_size": rng.integers(0, 4, (n, 3)) / 2.0,
    }
    single = {**arguments, shared: arguments[shared][3]}
    repeated = {**arguments, shared: np.broadcast_to(arguments[shared][3], arguments[shared].shape)}
    np.testing.assert_array_equal(
        classify_segment_obb(*single.values()), classify_segment_obb(*repeated.values()),
        err_msg=f"one {shared} must act as that item repeated for every box",
    )
    direction = np.where(np.all(arguments["end"] == arguments["start"], axis=1)[:, None], 1.0,
                         arguments["end"] - arguments["start"])
    ray_arguments = {**arguments, "end": direction}
    single = {**ray_arguments, shared: ray_arguments[shared][3]}
    repeated = {
        **ray_arguments,
        shared: np.broadcast_to(ray_arguments[shared][3], ray_arguments[shared].shape),
    }
    for got, want, name in zip(
        intersect_ray_obb(*single.values()),
        intersect_ray_obb(*repeated.values()),
        ("hit", "t_enter", "t_exit"),
        strict=True,
    ):
        np.testing.assert_array_equal(
            got, want, err_msg=f"ray {name}: one {shared} must act as repeated"
        )
