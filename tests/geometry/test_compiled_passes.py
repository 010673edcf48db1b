"""The compiled passes of all six queries: threads, shared arguments as loop constants, the axes
check inside the OBB filters, float32 data read in place, and the fused two_product."""

import math
import re
import tracemalloc

import numpy as np
import pytest

import geometry
from geometry import _floats, _loops, _threads

N = 2 * _threads.PARALLEL_MIN + 5  # two threads' shares


def rotations(n: int, seed: int) -> np.ndarray:
    """(n, 3, 3) rotation matrices (rows orthonormal) from random unit quaternions."""
    q = np.random.default_rng(seed).normal(size=(n, 4))
    q /= np.sqrt((q * q).sum(axis=1))[:, None]
    w, x, y, z = q.T
    return np.stack([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                     2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                     2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)],
                    axis=1).reshape(n, 3, 3)


def scene(n: int, dtype=np.float64, seed: int = 3):
    """Boxes on a coarse grid (many touch the queries exactly) and random rotations."""
    rng = np.random.default_rng(seed)
    center = rng.integers(-4, 5, (n, 3)) / 2.0
    half = rng.integers(1, 4, (n, 3)) / 4.0
    axes = rotations(n, seed)
    return [a.astype(dtype) for a in (center - half, center + half, center, axes, half)]


SEGMENT = ([-2.0, 0.5, 1.0], [2.0, 1.0, 1.0])
RAY = ([-2.0, 0.5, 1.0], [4.0, 1.0, 0.0])
TRIANGLE = ([-2.0, 0.0, 1.0], [2.0, 1.0, 1.0], [0.0, 3.0, -1.0])

QUERIES = {
    "segment_aabb": lambda lo, hi, c, ax, h: geometry.classify_segment_aabb(*SEGMENT, lo, hi),
    "ray_aabb": lambda lo, hi, c, ax, h: geometry.intersect_ray_aabb(*RAY, lo, hi),
    "triangle_aabb": lambda lo, hi, c, ax, h: geometry.triangle_overlaps_aabb(*TRIANGLE, lo, hi),
    "segment_obb": lambda lo, hi, c, ax, h: geometry.classify_segment_obb(*SEGMENT, c, ax, h),
    "ray_obb": lambda lo, hi, c, ax, h: geometry.intersect_ray_obb(*RAY, c, ax, h, 0.25, 0.75),
    "triangle_obb": lambda lo, hi, c, ax, h: geometry.triangle_overlaps_obb(*TRIANGLE, c, ax, h),
}


def assert_same(got, want) -> None:
    if isinstance(want, tuple):
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.fixture
def threads():
    before = geometry.get_num_threads()
    yield geometry.set_num_threads
    geometry.set_num_threads(before)


@pytest.mark.parametrize("query", sorted(QUERIES))
def test_two_threads_equal_one(threads, query):
    data = scene(N)
    threads(2)
    threaded = QUERIES[query](*data)
    threads(1)
    assert_same(threaded, QUERIES[query](*data))


@pytest.mark.parametrize("query", ["segment_obb", "ray_obb", "triangle_obb"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_one_frame_for_all_boxes_equals_it_repeated(query, dtype):
    """A shared (3, 3) frame is a constant of the loop; the answers are those of the frame
    repeated per box."""
    lo, hi, c, axes, h = scene(4000, dtype)
    frame = axes[7]
    repeated = np.ascontiguousarray(np.broadcast_to(frame, axes.shape))
    assert_same(QUERIES[query](lo, hi, c, frame, h), QUERIES[query](lo, hi, c, repeated, h))


def _cases_run(monkeypatch, query) -> list:
    """The ``case`` of every loop ``query`` runs from now on (the list fills as it runs)."""
    real = query._loop
    cases = []
    monkeypatch.setattr(query, "_loop",
                        lambda singles, t32, case: cases.append(case) or real(singles, t32, case))
    return cases


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_ray_across_every_axis_of_one_frame_runs_the_loop_compiled_for_that(monkeypatch,
                                                                             dtype):
    """One direction and one frame: the engine works out once whether the ray crosses every
    axis of the frame (the filter's ``crossed``) and runs the loop compiled with that as a
    constant, True for a rotated frame, False for one with an axis the ray is parallel to; the
    answers are those of the frame repeated per box, whose loop works it out per box."""
    from geometry import ray_obb

    lo, hi, c, axes, h = scene(4000, dtype)
    cases = _cases_run(monkeypatch, ray_obb._QUERY)
    for frame in (axes[7], np.eye(3, dtype=dtype)):
        repeated = np.ascontiguousarray(np.broadcast_to(frame, axes.shape))
        assert_same(QUERIES["ray_obb"](lo, hi, c, frame, h),
                    QUERIES["ray_obb"](lo, hi, c, repeated, h))
    assert cases == [True, False, False, False], cases


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_one_ray_with_no_zero_component_runs_the_aabb_loop_compiled_for_that(monkeypatch,
                                                                             dtype):
    """One ray against many boxes: the engine works out once whether its direction has no zero
    component (the filter's ``crossing``) and runs the loop compiled with that as a constant;
    the answers are those of the ray repeated per box, whose loop works it out per box."""
    from geometry import ray_aabb

    lo, hi = scene(4000, dtype)[:2]
    cases = _cases_run(monkeypatch, ray_aabb._QUERY)
    for direction in ([4.0, 1.0, -0.5], [4.0, 1.0, 0.0]):
        origin = np.asarray(RAY[0], dtype)
        direction = np.asarray(direction, dtype)
        many = [np.ascontiguousarray(np.broadcast_to(p, lo.shape)) for p in (origin, direction)]
        assert_same(geometry.intersect_ray_aabb(origin, direction, lo, hi, 0.25, 0.75),
                    geometry.intersect_ray_aabb(*many, lo, hi, 0.25, 0.75))
    assert cases == [True, False, False, False], cases


def test_shared_box_against_many_segments():
    """A shared argument after per-item ones (one box, many segments) answers as if repeated."""
    rng = np.random.default_rng(5)
    start, end = rng.integers(-4, 5, (2, 3000, 3)) / 2.0
    lo, hi = np.array([-1.0, -0.5, 0.0]), np.array([1.0, 0.5, 1.5])
    got = geometry.classify_segment_aabb(start, end, lo, hi)
    want = geometry.classify_segment_aabb(start, end, np.broadcast_to(lo, start.shape).copy(),
                                          np.broadcast_to(hi, start.shape).copy())
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("query", ["segment_obb", "ray_obb", "triangle_obb"])
@pytest.mark.parametrize("bad", ["sheared", "nan", "inf"])
def test_bad_axes_raise_naming_the_index(query, bad):
    lo, hi, c, axes, h = scene(500)
    axes = axes.copy()
    if bad == "sheared":
        axes[321, 0, 1] += 1e-3
    else:
        axes[321, 2, 2] = math.nan if bad == "nan" else math.inf
    with pytest.raises(ValueError, match=r"axes must .*index.*321"):
        QUERIES[query](lo, hi, c, axes, h)
    with pytest.raises(ValueError, match="axes must"):  # one item
        QUERIES[query](lo[321], hi[321], c[321], axes[321], h[321])


def test_axes_within_tolerance_are_accepted():
    """Rows orthonormal to 1e-7 (float32 rotations) pass, in a batch and for one item."""
    lo, hi, c, axes, h = scene(200)
    axes = axes.astype(np.float32).astype(np.float64)
    QUERIES["segment_obb"](lo, hi, c, axes, h)
    QUERIES["ray_obb"](lo[0], hi[0], c[0], axes[0], h[0])


def peak_bytes(call) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_float32_boxes_and_a_shared_frame_are_not_copied():
    """float32 boxes are read in place (no float64 copy) and a shared frame is not repeated
    per box: a call allocates little beyond its outputs (1 byte per box) and doubt flags (1 byte),
    where a float64 copy of the boxes would take 48 bytes per box and a repeated frame 72."""
    n = 200_000
    lo, hi, c, axes, h = scene(n, np.float32)
    QUERIES["segment_aabb"](lo[:10], hi[:10], None, None, None)  # compile outside the count
    assert peak_bytes(lambda: QUERIES["segment_aabb"](lo, hi, c, axes, h)) < 8 * n
    c64, h64 = c.astype(np.float64), h.astype(np.float64)
    frame = rotations(1, 9)[0]
    QUERIES["triangle_obb"](None, None, c64[:10], frame, h64[:10])
    assert peak_bytes(lambda: QUERIES["triangle_obb"](None, None, c64, frame, h64)) < 8 * n


# --- two_product: one FMA compiled, Dekker or rationals in Python, the same bits -------------

def edge_floats() -> np.ndarray:
    with np.errstate(all="ignore"):
        return _edge_floats()


def _edge_floats() -> np.ndarray:
    rng = np.random.default_rng(17)
    mags = 2.0 ** rng.integers(-1074, 1024, 4000).astype(np.float64)
    mags = np.where(np.isinf(mags), 1.0, mags)
    values = mags * rng.uniform(1.0, 2.0, 4000) * rng.choice([-1.0, 1.0], 4000)
    special = [0.0, -0.0, 5e-324, 2.0**-1022, 2.0**990, 2.0**1000, 1.7976931348623157e308,
               math.inf, -math.inf, math.nan, 1.0 / 3.0, 134217729.0]
    return np.concatenate([np.nan_to_num(values, posinf=1e308, neginf=-1e308), special])


def test_two_product_compiled_equals_python():
    import numba

    _loops.register_jitables()
    two_product = _floats.two_product

    @numba.njit
    def both(a, b, p, e):
        for i in range(a.shape[0]):
            p[i], e[i] = two_product(a[i], b[i])

    x = edge_floats()
    rng = np.random.default_rng(23)
    a = np.concatenate([x, rng.permutation(x), x])
    with np.errstate(all="ignore"):
        b = np.concatenate([rng.permutation(x), x, 1.0 / np.where(x == 0, 1.0, x)])
    p, e = np.empty_like(a), np.empty_like(a)
    both(a, b, p, e)
    py = np.array([two_product(float(u), float(v)) for u, v in zip(a, b, strict=True)])
    np.testing.assert_array_equal(p, py[:, 0])
    np.testing.assert_array_equal(e, py[:, 1])


def _as_one_item_and_exact(answers, origin, direction, center, frame, half, *,
                           exact_if_representable: bool) -> np.ndarray:
    """The ray's batched ``answers`` against the boxes: every box's is, bit for bit, that of one
    box at a time, and the exact reference's (t within 2 ulps of the output dtype). The hits."""
    from .exact_reference import intersect_ray_obb, t_close

    hit, t_enter, t_exit = answers
    assert t_enter.dtype == np.asarray(center).dtype
    rows = np.asarray(frame, dtype=float).tolist()
    for k in range(len(center)):
        want = intersect_ray_obb(np.asarray(origin, dtype=float).tolist(),
                                 np.asarray(direction, dtype=float).tolist(),
                                 np.asarray(center[k], dtype=float).tolist(), rows,
                                 np.asarray(half[k], dtype=float).tolist())
        one = geometry.intersect_ray_obb(origin, direction, center[k], frame, half[k])
        assert (hit[k], t_enter[k], t_exit[k]) == one, f"box {k}: batched and one item differ"
        assert hit[k] == want.hit, f"box {k}: hit {hit[k]}, expected {want.hit}"
        for got, w in ((t_enter[k], want.t_enter), (t_exit[k], want.t_exit)):
            assert t_close(float(got), w, exact_if_representable=exact_if_representable,
                           dtype=t_enter.dtype.type), (k, got, w)
    return hit


@pytest.mark.parametrize("axes", ["identity", "permuted"])
@pytest.mark.parametrize("direction", [(1.0, 1.0, 1.0), (1.0, -1.0, 0.0), (2.0, 1.0, 0.0)])
def test_rays_by_box_edges_are_settled_by_the_loops_second_pass(monkeypatch, axes, direction):
    """A ray along a lattice diagonal passes the boxes it meets by their edges or corners, where
    two or three planes can be its entry (the same t): the compiled loop's first pass leaves
    those to its second, which settles them in double-double. Only the boxes that one item
    doubts too (a ray that touches a box only along an edge) reach the exact pass, and the
    answers are the exact reference's, and bit for bit those of one box at a time."""
    from geometry import ray_obb

    g = np.arange(-3.0, 4.0)
    center = np.stack(np.meshgrid(g, g, g, indexing="ij"), axis=-1).reshape(-1, 3)
    half = np.full_like(center, 0.5)
    frame = np.eye(3) if axes == "identity" else np.eye(3)[[2, 0, 1]]
    origin = (-5.5, 5.5 if direction[1] < 0 else -5.5, -5.5 if direction[2] else 0.25)

    def doubts(first_pass: bool) -> int:
        crossed = first_pass and ray_obb._crosses_every_axis(*direction, *frame.ravel())
        return sum(ray_obb._filter(*origin, *direction, *c, *frame.ravel(), *h, 0.0, math.inf,
                                   False, crossed, first_pass)[3]
                   for c, h in zip(center, half, strict=True))

    assert doubts(True) >= doubts(False) + 5, "the first pass should doubt boxes met by an edge"
    exact = ray_obb._QUERY.exact
    calls = []
    monkeypatch.setattr(ray_obb._QUERY, "exact", lambda *args: calls.append(args) or exact(*args))
    answers = geometry.intersect_ray_obb(origin, direction, center, frame, half)
    assert len(calls) == doubts(False), "the second pass should settle what one item settles"
    hit = _as_one_item_and_exact(answers, origin, direction, center, frame, half,
                                 exact_if_representable=True)
    assert hit.sum() >= 7


@pytest.mark.parametrize("tiny", [1e-7, 1e-9])
def test_float32_rays_nearly_across_an_axis_are_settled_by_the_loops_second_pass(monkeypatch,
                                                                                   tiny):
    """A float32 ray nearly across one axis of the frame: that axis's planes have a large
    spread, which the first pass's one spread for the entry (and one for the exit) gives every
    plane, so it doubts the hits; the second pass settles them with each plane's own bounds. No
    box reaches the exact pass, and the answers are the exact reference's, and bit for bit those
    of one box at a time."""
    from geometry import ray_obb

    rng = np.random.default_rng(11)
    center = rng.random((300, 3)).astype(np.float32)
    half = (rng.random((300, 3)) * 0.2 + 0.05).astype(np.float32)
    frame = np.eye(3, dtype=np.float32)
    origin = np.array([-1.0, 0.5, 0.2], np.float32)
    direction = np.array([1.0, tiny, 0.3], np.float32)

    def doubts(first_pass: bool) -> int:
        crossed = first_pass and ray_obb._crosses_every_axis(*map(float, direction),
                                                             *map(float, frame.ravel()))
        return sum(ray_obb._filter(*map(float, origin), *map(float, direction), *map(float, c),
                                   *map(float, frame.ravel()), *map(float, h), 0.0, math.inf,
                                   True, crossed, first_pass)[3]
                   for c, h in zip(center, half, strict=True))

    assert doubts(False) == 0
    assert doubts(True) >= 10, "the first pass should doubt the hits"
    exact = ray_obb._QUERY.exact
    calls = []
    monkeypatch.setattr(ray_obb._QUERY, "exact", lambda *args: calls.append(args) or exact(*args))
    answers = geometry.intersect_ray_obb(origin, direction, center, frame, half)
    assert not calls, "the second pass should settle every box"
    hit = _as_one_item_and_exact(answers, origin, direction, center, frame, half,
                                 exact_if_representable=False)
    assert hit.sum() >= 10


@pytest.mark.parametrize("query", ["segment_aabb", "triangle_obb"])
def test_loops_realign_their_frame_for_vector_spills(query, monkeypatch):
    """A loop's vector spill slots lie in a frame aligned to 64 bytes (``_aligned_frame``), not
    across cache lines wherever the caller's stack happened to leave them. Every loop is made
    by ``_compile``; these two cover its plain and its blocked (per-box axes) forms."""
    import numba

    from geometry import segment_aabb, triangle_obb

    target = {"segment_aabb": segment_aabb._QUERY, "triangle_obb": triangle_obb._QUERY}[query]
    # only the loop this call runs is compiled anew (not every pattern other tests compiled)
    monkeypatch.setattr(target, "_loops", {})
    QUERIES[query](*scene(8))
    loops = [loop for loop, _ in target._loops.values()]
    assert len(loops) == 1, f"{query}: expected the one compiled loop of this call, got {loops}"
    for loop in loops:
        fresh = numba.njit(loop.py_func)  # compiled anew: numba shows no code loaded from a cache
        fresh.compile(loop.signatures[0])
        ir = fresh.inspect_llvm(loop.signatures[0])
        assert re.search(r"= alloca \[64 x i8\], align 64\n", ir), (
            f"{loop.py_func.__name__}: no 64-byte aligned slot in its frame")
