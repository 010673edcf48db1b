"""Lines that pass through (or within rounding of) a box's corner, edge or face, with generic
float coordinates: where the slab quotients of two axes, or a quotient and t_min / t_max, are
within a few ulps of each other. The rounded comparison can go either way there; the answers
must still be the exact ones.

The cases are built the way a user builds them: a point on the box's boundary, then the
segment's ends at float distances on either side of it, so the line misses or hits the
boundary point by a rounding error.
"""

from __future__ import annotations

import numpy as np
import pytest

from geometry import classify_segment_aabb, intersect_ray_aabb
from tests.geometry import exact_reference as ref

# every test here runs with the compiled slab passes and with numpy only
pytestmark = pytest.mark.usefixtures("each_backend")

N_CASES = 600


def boundary_cases(seed: int, dtype=np.float64, dyadic_bits: int | None = None):
    """(start, end, box_min, box_max, boundary point), each (N_CASES, 3)."""
    rng = np.random.default_rng(seed)

    def coords(size, lo, hi):
        x = rng.uniform(lo, hi, size)
        return np.round(x * 2.0**dyadic_bits) / 2.0**dyadic_bits if dyadic_bits else x

    lo = coords((N_CASES, 3), -10, 10)
    hi = lo + coords((N_CASES, 3), 0.1, 5)
    p = np.where(rng.random((N_CASES, 3)) < 0.5, lo, hi)  # a corner
    free = rng.integers(0, 4, N_CASES)  # 0: corner; 1-3: on the edge along axis free - 1 ...
    for axis in range(3):
        on_edge = free == axis + 1
        p[on_edge, axis] = coords(on_edge.sum(), lo[on_edge, axis], hi[on_edge, axis])
    direction = coords((N_CASES, 3), -2, 2)
    a, b = coords((2, N_CASES, 1), 0.1, 3)
    start, end = p - a * direction, p + b * direction
    return tuple(x.astype(dtype) for x in (start, end, lo, hi, p))


CASES = [("generic", 1, np.float64, None), ("generic", 2, np.float64, None),
         ("generic float32", 3, np.float32, None), ("dyadic 26 bits", 4, np.float64, 26)]


@pytest.mark.parametrize("kind, seed, dtype, bits", CASES, ids=[c[0] + str(c[1]) for c in CASES])
def test_segments_through_corners_and_edges_match_the_exact_reference(kind, seed, dtype, bits):
    start, end, lo, hi, _ = boundary_cases(seed, dtype, bits)
    got = classify_segment_aabb(start, end, lo, hi)
    want = [
        ref.classify_segment_aabb(*(x[i] for x in (start, end, lo, hi))) for i in range(N_CASES)
    ]
    wrong = np.flatnonzero(got != np.array(want))
    assert not wrong.size, (
        f"{len(wrong)} of {N_CASES} wrong, e.g. row {wrong[0]}: start={start[wrong[0]].tolist()} "
        f"end={end[wrong[0]].tolist()} box={lo[wrong[0]].tolist()}..{hi[wrong[0]].tolist()}: "
        f"expected {want[wrong[0]]}, got {got[wrong[0]]}")
    # and the answers are not all alike: the band of near-ties really is exercised
    assert len(set(want)) >= 2


@pytest.mark.parametrize("kind, seed, dtype, bits", CASES, ids=[c[0] + str(c[1]) for c in CASES])
def test_rays_through_corners_and_edges_match_the_exact_reference(kind, seed, dtype, bits):
    start, end, lo, hi, p = boundary_cases(seed, dtype, bits)
    direction = end - start
    keep = np.flatnonzero(np.any(direction != 0, axis=1))
    start, direction, lo, hi = start[keep], direction[keep], lo[keep], hi[keep]
    # t_max: the parameter of the boundary point, rounded (a tie with the box's entry or exit)
    t_max = ((p[keep] - start) / np.where(direction == 0, 1, direction)).max(axis=1).astype(dtype)
    # each limit with the other its default repeated: the loop of per-item limits that the batch
    # tests compile, rather than one loop for each limit given alone
    zero, inf = np.zeros_like(t_max), np.full_like(t_max, np.inf)
    for limits in ({}, {"t_min": zero, "t_max": t_max}, {"t_min": t_max, "t_max": inf}):
        got = intersect_ray_aabb(start, direction, lo, hi, **limits)
        for i in range(len(keep)):
            extra = {k: v[i] for k, v in limits.items()}
            want = ref.intersect_ray_aabb(start[i], direction[i], lo[i], hi[i], **extra)
            what = (f"row {i} {limits and list(limits)}: origin={start[i].tolist()} "
                    f"direction={direction[i].tolist()} box={lo[i].tolist()}..{hi[i].tolist()}")
            assert bool(got.hit[i]) == want.hit, (
                f"{what}: expected hit={want.hit}, got {bool(got.hit[i])}")
            for name, t, exact in (("t_enter", got.t_enter[i], want.t_enter),
                                   ("t_exit", got.t_exit[i], want.t_exit)):
                assert ref.t_close(t, exact, exact_if_representable=False, dtype=dtype), (
                    f"{what}: expected {name} within 2 {dtype.__name__} ulps of {float(exact)!r} "
                    f"(SEMANTICS.md), got {t!r}")


def boxes_touching_one_line(seed: int, dtype=np.float64):
    """(start, end, box_min, box_max): one segment, and N_CASES boxes each with a corner or an
    edge point at ``start + t (end - start)`` computed in floats (so within rounding of the
    line), t spread over [-0.25, 1.25] with the ends 0 and 1 among them: the one-line path of
    the kernels, where every chunk shares the segment."""
    rng = np.random.default_rng(seed)
    start = rng.uniform(-10, 10, 3)
    end = start + rng.uniform(-5, 5, 3)
    t = np.concatenate([[0.0, 1.0] * 20, rng.uniform(-0.25, 1.25, N_CASES - 40)])
    p = start + t[:, None] * (end - start)
    lo = p - np.where(rng.random((N_CASES, 3)) < 0.5, 0.0, rng.uniform(0.1, 5, (N_CASES, 3)))
    hi = np.maximum(lo, p) + np.where(lo == p, rng.uniform(0.1, 5, (N_CASES, 3)), 0.0)
    on_edge = rng.random(N_CASES) < 0.4  # p inside the box's extent along one axis
    axis = rng.integers(0, 3, N_CASES)[on_edge]
    lo[on_edge, axis] = p[on_edge, axis] - rng.uniform(0.1, 2, on_edge.sum())
    hi[on_edge, axis] = p[on_edge, axis] + rng.uniform(0.1, 2, on_edge.sum())
    return tuple(x.astype(dtype) for x in (start, end, lo, hi))


@pytest.mark.parametrize("seed, dtype", [(21, np.float64), (22, np.float64), (23, np.float32)])
def test_one_segment_through_many_corners_and_edges_matches_the_exact_reference(seed, dtype):
    start, end, lo, hi = boxes_touching_one_line(seed, dtype)
    got = classify_segment_aabb(start, end, lo, hi)
    want = np.array([ref.classify_segment_aabb(start, end, lo[i], hi[i]) for i in range(N_CASES)])
    wrong = np.flatnonzero(got != want)
    assert not wrong.size, (
        f"{len(wrong)} of {N_CASES} wrong, e.g. row {wrong[0]}: start={start.tolist()} "
        f"end={end.tolist()} box={lo[wrong[0]].tolist()}..{hi[wrong[0]].tolist()}: "
        f"expected {want[wrong[0]]}, got {got[wrong[0]]}")
    # the near-ties really are exercised: the line misses some boxes and touches others
    assert {0, 1} <= set(want.tolist()), f"expected misses and touches, got {set(want.tolist())}"


@pytest.mark.parametrize("seed, dtype", [(21, np.float64), (23, np.float32)])
def test_one_ray_through_many_corners_and_edges_matches_the_exact_reference(seed, dtype):
    start, end, lo, hi = boxes_touching_one_line(seed, dtype)
    for limits in ({}, {"t_max": dtype(1.0)}, {"t_min": dtype(1.0)}, {"t_min": -np.inf}):
        got = intersect_ray_aabb(start, end - start, lo, hi, **limits)
        exact = [ref.intersect_ray_aabb(start, end - start, lo[i], hi[i], **limits)
                 for i in range(N_CASES)]
        want = [w.hit for w in exact]
        far = [i for i, w in enumerate(exact)
               if not (ref.t_close(got.t_enter[i], w.t_enter, exact_if_representable=False,
                                   dtype=dtype)
                       and ref.t_close(got.t_exit[i], w.t_exit, exact_if_representable=False,
                                       dtype=dtype))]
        assert not far, (
            f"{limits}: {len(far)} of {N_CASES} t values beyond 2 ulps (SEMANTICS.md), e.g. row "
            f"{far[0]}: expected {exact[far[0]]}, got {got.t_enter[far[0]]!r}, "
            f"{got.t_exit[far[0]]!r}")
        wrong = np.flatnonzero(got.hit != np.array(want))
        assert not wrong.size, (
            f"{limits}: {len(wrong)} of {N_CASES} wrong, e.g. row {wrong[0]}: origin="
            f"{start.tolist()} direction={(end - start).tolist()} box={lo[wrong[0]].tolist()}.."
            f"{hi[wrong[0]].tolist()}: expected hit={want[wrong[0]]}")


#: Rays through a box's edge where the rounded quotients put the entry past the exit (gap
#: -1 or -4 ulps) though the exact line touches the box (found by a random search against
#: the exact reference): (origin, direction, box_min, box_max).
RAYS_ROUNDED_TO_A_MISS = [
    ([0.3109022646370514, -0.035979928683616436, -2.0843010776787905],
     [-1.6644767178255693, 1.4452625596137905, -1.3711614069275453],
     [-5.695353533968236, 1.5665806611235973, -6.188533035048797],
     [-3.700807428940268, 3.447381393270673, -5.014138885899653]),
    ([-2.328447743979604, -1.4472164675391548, 0.8299511013028704],
     [1.6684781581067898, 0.6605576044327943, 0.4704784839041487],
     [-0.919617413518362, -1.466814179696959, -0.2874645009000214],
     [-0.7338619951175678, -0.8894545432250238, 1.7206195401146975]),
    ([-2.328447743979604, -1.4472164675391548, 0.8299511013028704],
     [1.6684781581067898, 0.6605576044327943, 0.4704784839041487],
     [0.7480364746019965, 0.5155194452795181, 0.947809091993403],
     [2.6291547099074095, 1.3930577973098668, 3.414863200663184]),
]


@pytest.mark.parametrize("origin, direction, lo, hi", RAYS_ROUNDED_TO_A_MISS)
def test_a_hit_the_rounding_calls_a_miss_keeps_its_t(origin, direction, lo, hi):
    """The exact pass makes it a hit, and its t values stay the slab's (within a few ulps of
    the exact ones), not the +inf of a miss: one ray for many boxes and one ray per box."""
    want = ref.intersect_ray_aabb(origin, direction, lo, hi)
    assert want[0], "the case is not as built: the exact line should touch the box"
    for got in (intersect_ray_aabb(origin, direction, np.array([lo] * 3), np.array([hi] * 3)),
                intersect_ray_aabb(np.array([origin] * 3), direction, lo, hi)):
        assert got.hit.all(), f"expected hits, got {got.hit}"
        for name, t, exact in (("t_enter", got.t_enter, want[1]), ("t_exit", got.t_exit, want[2])):
            assert all(ref.t_close(x, exact, exact_if_representable=False) for x in t), (
                f"{name}: expected within 2 ulps of {exact} (= {float(exact)!r}), got {t}")


def test_float32_boxes_against_a_float64_line_are_decided_in_float64():
    """Mixed dtypes compute in float64 (SEMANTICS: float32 results only when every input is
    float32): float32 boxes are widened exactly and answered exactly, one line for all."""
    start, end, lo, hi = boxes_touching_one_line(24, np.float64)
    lo, hi = lo.astype(np.float32), hi.astype(np.float32)
    classes = classify_segment_aabb(start, end, lo, hi)
    ray = intersect_ray_aabb(start, end - start, lo, hi)
    assert ray.t_enter.dtype == np.float64, f"expected float64 t, got {ray.t_enter.dtype}"
    for i in range(N_CASES):
        box = f"row {i}: box {lo[i].tolist()}..{hi[i].tolist()}"
        want = ref.classify_segment_aabb(start, end, lo[i], hi[i])
        assert classes[i] == want, f"{box}: expected class {want}, got {classes[i]}"
        hit = ref.intersect_ray_aabb(start, end - start, lo[i], hi[i])[0]
        assert bool(ray.hit[i]) == hit, f"{box}: expected hit={hit}"


def test_inside_by_less_than_the_rounding_of_a_quotient_is_still_include():
    """Segments strictly inside a box where a rounded quotient says "on the boundary": the
    face an ulp beyond the end, where fl(max - start) == fl(end - start) makes exit exactly 1;
    and the box's min a subnormal below the start with a huge direction, where entry
    underflows to -0.0. The exact class is INCLUDE (both ends strictly inside); the mirrored
    boxes are INTERSECT. One segment for many boxes and one segment per box alike."""
    up = np.nextafter(1.0, 2.0)
    tiny = 5e-324  # the smallest subnormal
    cases = [  # (start, end, box_min, box_max, exact class)
        ([-3.0, 0.5, 0.5], [1.0, 0.5, 0.5], [-4.0, 0.0, 0.0], [up, 1.0, 1.0], 2),
        ([-3.0, 0.5, 0.5], [1.0, 0.5, 0.5], [-4.0, 0.0, 0.0], [1.0, 1.0, 1.0], 1),
        ([1.0, 0.5, 0.5], [-3.0, 0.5, 0.5], [-4.0, 0.0, 0.0], [up, 1.0, 1.0], 2),
        ([0.0, 0.5, 0.5], [1e10, 0.5, 0.5], [-tiny, 0.0, 0.0], [2e10, 1.0, 1.0], 2),
        ([0.0, 0.5, 0.5], [1e10, 0.5, 0.5], [0.0, 0.0, 0.0], [2e10, 1.0, 1.0], 1),
    ]
    for start, end, lo, hi, want in cases:
        assert ref.classify_segment_aabb(start, end, lo, hi) == want, "the case is not as built"
        shared = classify_segment_aabb(start, end, np.array([lo] * 3), np.array([hi] * 3))
        per_box = classify_segment_aabb(np.array([start] * 3), end, np.array([lo] * 3),
                                        np.array([hi] * 3))
        for name, got in (("one segment", shared), ("per box", per_box)):
            assert got.tolist() == [want] * 3, (
                f"{name}: start={start} end={end} box={lo}..{hi}: expected {want}, got {got}")


def touching_triangles(seed: int, dtype=np.float64, decimal: bool = False):
    """(v0, v1, v2, box_min, box_max): triangles through a box's corner or edge point p, built
    in floats (an edge through p, or p inside the triangle's plane); ``decimal`` puts every
    coordinate on a 0.1 grid, as a voxeliser's would be (not representable: 0.1 is not dyadic)."""
    rng = np.random.default_rng(seed)
    n = N_CASES // 2

    def coords(size, lo, hi):
        x = rng.uniform(lo, hi, size)
        return np.round(x * 10) / 10 if decimal else x

    lo = coords((n, 3), -5, 5)
    hi = lo + coords((n, 3), 0.2, 3)
    p = np.where(rng.random((n, 3)) < 0.5, lo, hi)
    on_edge = rng.random(n) < 0.5
    axis = rng.integers(0, 3, n)
    p[on_edge, axis[on_edge]] = coords(on_edge.sum(), lo[on_edge, axis[on_edge]],
                                       hi[on_edge, axis[on_edge]])
    u = coords((n, 3), -1, 1)
    a, b = coords((2, n, 1), 0.2, 2)
    v0, v1 = p - a * u, p + b * u  # an edge through p
    w = coords((n, 3), -2, 2)
    v2 = np.where(rng.random((n, 1)) < 0.5, p + w, 2 * p - v0 + 0 * w)  # or p on the plane
    return tuple(x.astype(dtype) for x in (v0, v1, v2, lo, hi))


@pytest.mark.parametrize("seed, dtype, decimal", [(7, np.float64, False), (8, np.float32, False),
                                                  (9, np.float64, True)])
def test_triangles_touching_corners_and_edges_match_the_exact_reference(seed, dtype, decimal):
    from geometry import triangle_overlaps_aabb

    v0, v1, v2, lo, hi = touching_triangles(seed, dtype, decimal)
    got = triangle_overlaps_aabb(v0, v1, v2, lo, hi)
    want = np.array([ref.triangle_overlaps_aabb(*(x[i] for x in (v0, v1, v2, lo, hi)))
                     for i in range(len(lo))])
    wrong = np.flatnonzero(got != want)
    assert not wrong.size, (
        f"{len(wrong)} of {len(lo)} wrong, e.g. row {wrong[0]}: "
        f"{[x[wrong[0]].tolist() for x in (v0, v1, v2, lo, hi)]}: expected {want[wrong[0]]}")
    assert want.any() and not want.all()
