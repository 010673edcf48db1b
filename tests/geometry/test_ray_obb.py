"""intersect_ray_obb against the exact reference (SEMANTICS.md): the hits exact, ``t_enter`` /
``t_exit`` within 2 ulps of the exact values in the output dtype, for boxes whose axes are
signed permutations (a frame change exact in floats), the identity (the AABB test's answers) or
rotations by Euler angles (the float axes as they are), rays grazing them included."""

from __future__ import annotations

import math

import numpy as np
import pyrr
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from geometry import AABB, OBB, intersect_ray_aabb, intersect_ray_obb
from tests.geometry import exact_reference as ref
from tests.strategies import (
    batches,
    dyadic_coords,
    half_sizes_dyadic,
    half_sizes_generic,
    points,
    rigid_matrix,
    rigid_motion_cases,
    rotations,
    segments_near_rotated_surfaces,
    signed_permutation_matrices,
)

# batches run compiled and interpreted: the answers must be the same
pytestmark = pytest.mark.usefixtures("each_backend")

INF = math.inf
IDENTITY = np.eye(3)


# --- named examples ----------------------------------------------------------------------------


def test_ray_vs_rotated_box_keeps_t_in_units_of_direction():
    """The unit cube turned 45 degrees about z and a ray along x whose direction is 2 long: t is
    in units of the direction, 1 -+ sqrt(2)/4, within 2 ulps of the exact values for the float
    axes the box holds (SEMANTICS.md)."""
    rotation = pyrr.matrix33.create_from_z_rotation(np.pi / 4)
    args = ([-2.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 0.0], rotation, [0.5, 0.5, 0.5])
    want = ref.intersect_ray_obb(*args)
    assert want.hit and (float(want.t_enter), float(want.t_exit)) == (
        1 - math.sqrt(2) / 4, 1 + math.sqrt(2) / 4), (
        f"the reference: expected exact t that round to 1 -+ sqrt(2)/4, got {want}")
    got = intersect_ray_obb(*args)
    assert got.hit, f"expected a hit, got {got}"
    for name, t, exact in (("t_enter", got.t_enter, want.t_enter),
                           ("t_exit", got.t_exit, want.t_exit)):
        assert ref.ulps_off(t, exact) <= 2, (
            f"expected {name} = {float(exact)} within 2 ulps, got {t}")


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


# --- OBB with identity axes == AABB ------------------------------------------------------------


def nonzero(v):
    return bool(np.any(v != 0))


@given(batches(st.tuples(points(dyadic_coords), points(dyadic_coords), points(dyadic_coords),
                         half_sizes_dyadic)))
def test_identity_axes_obb_equals_the_aabb_test(cases):
    start, end, center, half = (np.array(c) for c in zip(*cases, strict=True))
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


@given(rigid_motion_cases())
def test_rigid_obb_from_aabb_equals_the_aabb_test_in_the_box_frame(case):
    """A ray and box moved together by an exact rigid motion keep their hit and t."""
    box, rotation, translation, local_segment = case
    assume(not np.array_equal(*local_segment))
    obb = OBB.from_aabb(AABB(*box), rigid_matrix(rotation, translation))
    start, end = (p @ rotation + translation for p in local_segment)
    local_ray = ref.intersect_ray_aabb(local_segment[0], local_segment[1] - local_segment[0],
                                       *box)
    world_ray = intersect_ray_obb(start, end - start, obb.center, obb.axes, obb.half_size)
    assert world_ray.hit == local_ray.hit, f"ray: expected {local_ray} as in the box frame"
    if local_ray.hit:
        for got, exact in zip(world_ray[1:], local_ray[1:], strict=True):
            assert ref.t_close(got, exact, exact_if_representable=False), (
                f"ray: expected t within 2 ulps of {local_ray} (box frame), got {world_ray}")


# --- rotated boxes (pyrr Euler angles) ---------------------------------------------------------


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
        st.tuples(points(), points().filter(nonzero), points(), rotations(), half_sizes_generic),
        min_size=2,  # a batch of one compiles a float32 loop of its own that no other test needs
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


@given(batches(segments_near_rotated_surfaces()))
def test_rays_grazing_rotated_boxes_match_the_exact_reference(cases):
    start, end, center, axes, half = (np.array(c) for c in zip(*cases, strict=True))
    hits = intersect_ray_obb(start, end - start, center, axes, half)
    for i, case in enumerate(cases):
        s, e, c, ax, h = case
        ray = ref.intersect_ray_obb(s, e - s, c, ax, h)
        assert bool(hits.hit[i]) == ray.hit, f"case {i}: ray {[x.tolist() for x in case]}"
