"""The float filters and exact passes of triangle vs AABB and segment / ray / triangle vs OBB,
as pure functions on flat scalars, against the exact reference (``exact_reference``).

Every exact pass must equal the reference; every filter answer that is not flagged as doubt
must equal it too (t values within 2 ulps); and the filters compiled by numba must return
bit for bit what the interpreter returns, doubt flags and signs of zero included. The cases
are random and adversarial: integer grids (touching faces, edges and corners), points at
rounding distance of rotated faces, degenerate triangles, flat, empty and point boxes, float32
values, and magnitudes from subnormals to 1e308.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pyrr
import pytest

from geometry import _loops, ray_obb, segment_obb, triangle_aabb, triangle_obb
from tests.geometry import exact_reference as ref

CASES = 400


def _floats(values) -> tuple[float, ...]:
    return tuple(float(x) for x in values)


def triangle_aabb_cases(n: int = CASES, seed: int = 1) -> list[tuple[float, ...]]:
    """``(v0, v1, v2, box_min, box_max)`` flattened, of every kind the filter must survive."""
    with np.errstate(all="ignore"):  # building cases: subnormal products are intended
        return _triangle_aabb_cases(n, seed)


def _triangle_aabb_cases(n: int, seed: int) -> list[tuple[float, ...]]:
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        kind = i % 7
        if kind == 0:  # integer grid: touching faces, edges, corners; flat and empty boxes
            v = rng.integers(-4, 5, 9).astype(float)
            lo = rng.integers(-3, 4, 3).astype(float)
            hi = lo + rng.integers(-1, 3, 3)
        elif kind == 1:  # generic floats
            v = rng.uniform(-2, 2, 9)
            lo = rng.uniform(-1, 1, 3)
            hi = lo + rng.uniform(-0.5, 1.5, 3)
        elif kind == 2:  # an integer grid scaled to one magnitude, subnormal to 1e300
            s = 10.0 ** int(rng.integers(-320, 300))
            v = rng.integers(-4, 5, 9) * s
            lo = rng.integers(-3, 4, 3) * s
            hi = lo + rng.integers(-1, 3, 3) * s
        elif kind == 3:  # collinear or coincident vertices
            p, d = rng.integers(-4, 5, 3).astype(float), rng.integers(-2, 3, 3).astype(float)
            v = np.concatenate([p + k * d for k in rng.integers(-3, 4, 3)])
            lo = rng.integers(-3, 4, 3).astype(float)
            hi = lo + rng.integers(0, 3, 3)
        elif kind == 4:  # float32 values
            v = rng.uniform(-2, 2, 9).astype(np.float32)
            lo = rng.uniform(-1, 1, 3).astype(np.float32)
            hi = (lo + rng.uniform(0, 1.5, 3)).astype(np.float32)
        elif kind == 5:  # every coordinate on its own magnitude
            x = rng.uniform(-1, 1, 15) * 10.0 ** rng.integers(-300, 300, 15)
            v, lo, hi = x[:9], x[9:12], x[9:12] + np.abs(x[12:15])
        else:  # a vertex on the box's boundary, the empty box of AABB.empty()
            lo = rng.integers(-3, 4, 3).astype(float)
            hi = lo + rng.integers(0, 3, 3)
            v = rng.integers(-4, 5, 9).astype(float)
            v[:3] = np.where(rng.random(3) < 0.5, lo, hi)
            if rng.random() < 0.2:
                lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
        cases.append(_floats((*v, *lo, *hi)))
    cases.append(_floats((0, 0, 0, 1e103, -1e103, 0, 1e103, 0, -1e103,
                          2e102, -1.5e102, -1.5e102, 3e102, 0, 0)))  # issue 14: True
    return cases


def _rotation(rng) -> np.ndarray:
    kind = rng.integers(0, 4)
    if kind == 0:
        return np.eye(3)
    if kind == 1:  # a signed permutation: the frame change rounds only p - center
        return np.eye(3)[rng.permutation(3)] * rng.choice([-1.0, 1.0], (3, 1))
    return pyrr.matrix33.create_from_eulers(rng.uniform(-3, 3, 3))


def obb_cases(n: int = CASES, seed: int = 2) -> list:
    """``(points (3 of them), center, axes, half_size)``: rotated, permuted and identity frames;
    points at rounding distance of faces, edges and corners; flat, point and empty (negative
    half size) boxes; integer points; float32 values; magnitudes up to offsets that overflow."""
    with np.errstate(all="ignore"):  # building cases: subnormal products are intended
        return _obb_cases(n, seed)


def _obb_cases(n: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        axes, kind, scale = _rotation(rng), i % 7, 1.0
        if kind == 4:
            scale = 10.0 ** int(rng.integers(-320, 300))
        center = rng.uniform(-2, 2, 3) * scale
        half = np.abs(rng.uniform(-0.2, 1.5, 3)) * scale
        if rng.random() < 0.1:
            half[rng.integers(0, 3)] = 0.0
        if rng.random() < 0.05:
            half[rng.integers(0, 3)] = -0.5
        points = []
        for _ in range(3):
            if kind in (1, 2):  # a corner, an edge or a face point mapped to the world in floats
                u = rng.choice([-1.0, 1.0], 3) * half
                free = rng.integers(0, 4)
                if free < 3:
                    u[free] *= rng.uniform(-1, 1)
                points.append(center + axes.T @ u)
            elif kind == 3:
                points.append(rng.integers(-3, 4, 3) / 2.0)
            else:
                points.append(rng.uniform(-3, 3, 3) * scale)
        if kind == 2:
            points[1] = points[0] + rng.normal(size=3)
            points[2] = points[0] - rng.normal(size=3)
        if kind == 5:
            axes, center, half = (x.astype(np.float32) for x in (axes, center, half))
            points = [p.astype(np.float32) for p in points]
        if kind == 6:  # offsets p - center beyond the float range
            center = np.array([1.5e308, -1.7e308, 1e308]) * rng.choice([-1.0, 1.0], 3)
            half = np.array([1e308, 1.7e308, 5e307])
            points = [-center * rng.uniform(0.5, 1.0, 3) for _ in range(3)]
        cases.append(([_floats(p) for p in points], _floats(center), _floats(np.ravel(axes)),
                      _floats(half)))
    return cases


def _check_ray(args, got, exact, want, t32: bool = False) -> None:
    """The filter's ``got`` and the exact pass's ``exact`` against the reference ``want``; with
    ``t32``, t as a float32 output takes it: within 2**-26 relative before the rounding, within
    2 float32 ulps after."""
    hit, t_enter, t_exit, doubt = got
    assert exact[0] == want.hit, f"{args}: exact hit {exact[0]}, expected {want.hit}"
    if want.hit:
        assert exact[1] == want.t_enter and exact[2] == want.t_exit, (
            f"{args}: exact t {exact[1:]}, expected {want.t_enter, want.t_exit}")
    if doubt:
        return
    assert hit == want.hit, f"{args}: filter hit {hit}, expected {want.hit}"
    if hit and t32:
        for name, t, w in (("t_enter", t_enter, want.t_enter), ("t_exit", t_exit, want.t_exit)):
            assert abs(Fraction(t) - Fraction(w)) <= abs(Fraction(w)) / 2**26, (
                f"{args}: float32 {name} {t} is not within 2**-26 of {float(w)}")
            assert ref.ulps_off(float(np.float32(t)), w, np.float32) <= 2, (
                f"{args}: {name} {np.float32(t)} is not within 2 float32 ulps of {float(w)}")
    elif hit:
        for name, t, w in (("t_enter", t_enter, want.t_enter), ("t_exit", t_exit, want.t_exit)):
            assert ref.ulps_off(t, w) <= 2, f"{args}: {name} {t} is not within 2 ulps of {float(w)}"
    else:
        assert t_enter == t_exit == math.inf, f"{args}: a miss has t = +inf, got {got}"


def _ray_filter(args, t32: bool) -> tuple:
    """The ray vs OBB filter as one item runs it (``crossed`` and ``first_pass`` False),
    checked against the compiled loop's first pass: that may doubt more (two planes that can be
    the entry or the exit; for float32 t, one spread for every plane), and where it does not, it
    gives the same bits. Where the ray crosses every axis of the frame (the engine's case for
    one direction and one frame), ``crossed`` True gives the same bits in either pass."""
    got = ray_obb._filter(*args, t32, False, False)
    first = ray_obb._filter(*args, t32, False, True)
    if not first[3]:
        assert _bits(first) == _bits(got), f"{args}: first pass {first}, second {got}"
    if _crossed(args):
        for first_pass, want in ((False, got), (True, first)):
            crossed = ray_obb._filter(*args, t32, True, first_pass)
            assert _bits(crossed) == _bits(want), (
                f"{args}: crossed {crossed}, not {want} (first pass {first_pass})")
    return got


def _crossed(args) -> bool:
    """Whether the ray of ``args`` crosses every axis of its frame (the filter's ``crossed``)."""
    return ray_obb._crosses_every_axis(*args[3:6], *args[9:18])


def ray_cases():
    rng = np.random.default_rng(3)
    limits = [(0.0, math.inf), (-math.inf, math.inf), (0.25, 0.75), (0.0, 0.0), (1.0, 0.5)]
    for points, center, axes, half in obb_cases(seed=4):
        with np.errstate(over="ignore"):
            direction = [b - a for a, b in zip(points[0], points[1], strict=True)]
        if rng.random() < 0.2:
            direction[rng.integers(0, 3)] = 0.0
        if not any(direction) or not all(map(math.isfinite, direction)):
            direction = [1.0, -0.5, 0.0]
        t_min, t_max = limits[rng.integers(0, len(limits))]
        yield (*points[0], *direction, *center, *axes, *half, t_min, t_max)


def _ref_ray(args):
    o, d, c, a, h = args[0:3], args[3:6], args[6:9], args[9:18], args[18:21]
    if min(h) < 0:
        return ref.MISS
    return ref.intersect_ray_obb(o, d, c, [a[0:3], a[3:6], a[6:9]], h, args[21], args[22])


# --- against the exact reference -------------------------------------------------------------


def test_triangle_aabb_filter_and_exact_match_the_reference():
    doubts = 0
    for args in triangle_aabb_cases():
        v0, v1, v2, lo, hi = args[0:3], args[3:6], args[6:9], args[9:12], args[12:15]
        want = ref.triangle_overlaps_aabb(v0, v1, v2, lo, hi)
        assert triangle_aabb._exact(*args) is want, f"{args}: exact pass, expected {want}"
        got, doubt = triangle_aabb._filter(*args)
        assert doubt or got == want, f"{args}: filter says {got} without doubt, expected {want}"
        doubts += doubt
    assert doubts < CASES / 2, f"the filter doubts {doubts} of {CASES} cases"


def test_triangle_in_a_grid_plane_leaves_the_grid_boxes_it_touches_settled():
    """Voxelising a mesh whose faces lie on grid planes: each box the triangle touches does so
    across a face, on an axis parallel to a box normal (the triangle's normal, or a box axis x
    edge axis with a zero component), which the clamped box already decides exactly. Those
    axes are skipped; only boxes an edge meets at a grid corner are left in doubt."""
    grid = [(i, j, k) for i in range(-1, 8) for j in range(-1, 8) for k in (-1, 0)]
    v0, v1, v2 = (0.0, 0.0, 0.0), (6.0, 1.0, 0.0), (2.0, 5.0, 0.0)
    doubts = touching = 0
    for corner in grid:
        lo = tuple(float(x) for x in corner)
        hi = tuple(x + 1.0 for x in lo)
        want = ref.triangle_overlaps_aabb(v0, v1, v2, lo, hi)
        got, doubt = triangle_aabb._filter(*v0, *v1, *v2, *lo, *hi)
        assert doubt or got == want, f"box {lo}: filter says {got} without doubt"
        touching += want
        doubts += doubt
    # left in doubt: boxes meeting an edge only where it crosses a grid corner (the vertices,
    # and (5, 2), (4, 3), (3, 4) on the edge v1 v2)
    assert touching == 64 and doubts <= 20, f"{doubts} of {touching} touching boxes in doubt"


def test_issue_14_large_triangle_is_decided_exactly():
    args = _floats((0, 0, 0, 1e103, -1e103, 0, 1e103, 0, -1e103, 2e102, -1.5e102, -1.5e102,
                    3e102, 0, 0))
    assert triangle_aabb._exact(*args) is True, "the normal's products overflow in floats"
    got, doubt = triangle_aabb._filter(*args)
    assert doubt or got is True, f"the filter must doubt or say True, got {got}"


def test_obb_segment_and_triangle_filters_and_exact_match_the_reference():
    doubts = [0, 0]
    for points, center, axes, half in obb_cases():
        rows = [axes[0:3], axes[3:6], axes[6:9]]
        empty = min(half) < 0
        args = (*points[0], *points[1], *center, *axes, *half)
        want = 0 if empty else ref.classify_segment_obb(points[0], points[1], center, rows, half)
        assert segment_obb._exact(*args) == want, f"{args}: exact class, expected {want}"
        code, doubt = segment_obb._filter(*args)
        assert doubt or code == want, f"{args}: filter class {code} without doubt, expected {want}"
        doubts[0] += doubt
        args = (*points[0], *points[1], *points[2], *center, *axes, *half)
        want = not empty and ref.triangle_overlaps_obb(*points, center, rows, half)
        assert triangle_obb._exact(*args) is want, f"{args}: exact overlap, expected {want}"
        got, doubt = triangle_obb._filter(*args)
        assert doubt or got is want, f"{args}: filter says {got} without doubt, expected {want}"
        doubts[1] += doubt
    assert max(doubts) < CASES * 3 / 4, f"the filters doubt {doubts} of {CASES} cases"


@pytest.mark.parametrize("t32", [False, True], ids=["float64 t", "float32 t"])
def test_obb_ray_filter_and_exact_match_the_reference(t32):
    for args in ray_cases():
        _check_ray(args, _ray_filter(args, t32), ray_obb._exact(*args), _ref_ray(args), t32)


@pytest.mark.parametrize("t32", [False, True], ids=["float64 t", "float32 t"])
def test_obb_ray_filter_gives_t_within_two_ulps_on_generic_rotated_boxes(t32):
    """Rotated frames round the origin's offset: float64 t comes from double-double, not from
    that; float32 t from the slabs, whose error is far below a float32 ulp."""
    rng = np.random.default_rng(9)
    sure = 0
    for _ in range(300):
        axes = pyrr.matrix33.create_from_eulers(rng.uniform(-3, 3, 3))
        args = _floats((*rng.uniform(-3, 3, 3), *rng.normal(size=3), *rng.uniform(-1, 1, 3),
                        *axes.ravel(), *rng.uniform(0.1, 1.5, 3), 0.0, math.inf))
        got = _ray_filter(args, t32)
        _check_ray(args, got, ray_obb._exact(*args), _ref_ray(args), t32)
        sure += not got[3]
    assert sure >= 290, f"generic rays should rarely be in doubt: {300 - sure} of 300 were"


def test_obb_filters_settle_boxes_near_queries_far_from_the_origin():
    """Georeferenced data: segments, rays and triangles some 100 long at 4e6 from the origin,
    metre-sized rotated boxes within a metre or two of them. The filters work about a point of
    the query (the ray's, about the box's centre), so their bounds scale with the distance
    between them, not from the origin: they settle every case, and agree with the reference.
    (About the origin, the same cases left about 2 % of the segments and 9 % of the triangles in
    doubt.)"""
    rng = np.random.default_rng(5)
    base = np.array([5.2e5, 4.1e6, 120.0])
    for _ in range(150):
        v = base + rng.uniform(-50, 50, (3, 3))
        near_triangle = rng.dirichlet([1, 1, 1]) @ v + rng.normal(size=3)
        near_segment = v[0] + rng.uniform(-0.1, 1.1) * (v[1] - v[0]) + rng.normal(size=3)
        axes = _floats(pyrr.matrix33.create_from_eulers(rng.uniform(-3, 3, 3)).ravel())
        rows = [axes[0:3], axes[3:6], axes[6:9]]
        half = _floats(rng.uniform(0.2, 1.0, 3))
        p0, p1, p2 = (_floats(p) for p in v)
        for center in (_floats(near_triangle), _floats(near_segment)):
            args = (*p0, *p1, *p2, *center, *axes, *half)
            got, doubt = triangle_obb._filter(*args)
            assert not doubt, f"{args}: triangle in doubt"
            assert got is ref.triangle_overlaps_obb(p0, p1, p2, center, rows, half), args
            args = (*p0, *p1, *center, *axes, *half)
            code, doubt = segment_obb._filter(*args)
            assert not doubt, f"{args}: segment in doubt"
            assert code == ref.classify_segment_obb(p0, p1, center, rows, half), args
            ray = (*p0, *(b - a for a, b in zip(p0, p1, strict=True)), *center, *axes, *half,
                   0.0, math.inf)
            got = _ray_filter(ray, False)
            assert not got[3], f"{ray}: ray in doubt"
            _check_ray(ray, got, ray_obb._exact(*ray), _ref_ray(ray))


def test_point_segment_at_a_box_centre_is_settled_by_the_filter():
    """In the frame about the segment's start a point at the box's centre has every coordinate
    0 or +-half_size exactly, so the filter answers it (points on a lattice against boxes
    centred on it would otherwise all go to the exact pass); a flat box leaves it in doubt."""
    rng = np.random.default_rng(4)
    for _ in range(50):
        center = _floats(rng.integers(-50, 50, 3) * 0.5)
        axes = _floats(pyrr.matrix33.create_from_eulers(rng.uniform(-3, 3, 3)).ravel())
        half = _floats(rng.uniform(0.1, 2.0, 3))
        assert segment_obb._filter(*center, *center, *center, *axes, *half) == (2, False)
        flat = (half[0], 0.0, half[2])
        assert segment_obb._filter(*center, *center, *center, *axes, *flat)[1]
        assert segment_obb._exact(*center, *center, *center, *axes, *flat) == 1


def test_offsets_that_overflow_are_doubt_and_exact():
    # the box spans x in [0, 3.4e308]: p - center overflows for p beyond -1.3e308
    center, half = (1.7e308, 0.0, 0.0), (1.7e308, 1.0, 1.0)
    axes = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    rows = [axes[0:3], axes[3:6], axes[6:9]]
    start, end = (1e307, 0.0, 0.0), (-1.7e308, 0.5, 0.0)
    args = (*start, *end, *center, *axes, *half)
    assert segment_obb._filter(*args)[1], "end - center overflows: doubt"
    assert ref.classify_segment_obb(start, end, center, rows, half) == 1
    assert segment_obb._exact(*args) == 1, "the segment leaves the box through x = 0"
    args = (*start, *start, *end, *center, *axes, *half)
    assert triangle_obb._filter(*args)[1] and triangle_obb._exact(*args) is True
    ray = (-1.5e308, 0.0, 0.0, 1.0, 0.0, 0.0, *center, *axes, *half, 0.0, 1.7e308)
    want = _ref_ray(ray)
    assert want.hit and want.t_enter == Fraction(1.5e308)
    _check_ray(ray, _ray_filter(ray, False), ray_obb._exact(*ray), want)
    assert _ray_filter(ray, False)[3], "origin - center overflows: doubt"
    assert _ray_filter(ray, True)[3], "origin - center overflows: doubt (float32 t)"


# --- compiled and interpreted, bit for bit ----------------------------------------------------


def _bits(result) -> tuple:
    return tuple(float(x).hex() if isinstance(x, float) else x for x in result)


@pytest.mark.parametrize("name", ["triangle_aabb", "segment_obb", "triangle_obb", "ray_obb"])
def test_compiled_filters_are_bit_identical_to_interpreted(name):
    """Each filter compiled plainly, as the ray queries' loops are, gives the interpreted
    filter's bits, doubt flags included. (The loops of the exact-answer queries also fuse
    products and sums, which may move doubts but no answer: the next test.)"""
    numba = pytest.importorskip("numba")
    if name == "triangle_aabb":
        kernel, cases = triangle_aabb._filter, triangle_aabb_cases()
    elif name == "segment_obb":
        kernel = segment_obb._filter
        cases = [(*p[0], *p[1], *c, *a, *h) for p, c, a, h in obb_cases()]
    elif name == "triangle_obb":
        kernel = triangle_obb._filter
        cases = [(*p[0], *p[1], *p[2], *c, *a, *h) for p, c, a, h in obb_cases()]
    else:
        kernel = ray_obb._filter
        cases = [(*args, t32, crossed, first) for args in ray_cases() for t32 in (False, True)
                 for crossed in {False, _crossed(args)} for first in (False, True)]
    _loops.register_jitables()  # the helpers the filters call, as the engine's loops see them
    compiled = numba.njit(kernel)
    for args in cases:
        want, got = _bits(kernel(*args)), _bits(compiled(*args))
        assert got == want, f"{name} {args}: compiled {got}, interpreted {want}"


@pytest.mark.parametrize("name", ["segment_aabb", "triangle_aabb", "segment_obb", "triangle_obb"])
def test_loops_that_fuse_products_and_sums_answer_exactly(name):
    """The queries whose answers are exact (classes, booleans) have their loops compiled with
    products and sums fused (``Query(..., contract=True)``): a fused operation rounds once where
    the two rounded twice, which the error bounds allow. Compiled so, each filter must give the
    exact answer wherever it does not doubt, on every case above; and the loops must really
    fuse, or this tests nothing."""
    numba = pytest.importorskip("numba")
    import re

    import llvmlite.binding as ll

    from geometry import segment_aabb

    boxes = triangle_aabb_cases()
    query, cases = {
        "segment_aabb": (segment_aabb._QUERY, [(*c[0:6], *c[9:15]) for c in boxes]),
        "triangle_aabb": (triangle_aabb._QUERY, boxes),
        "segment_obb": (segment_obb._QUERY,
                        [(*p[0], *p[1], *c, *a, *h) for p, c, a, h in obb_cases()]),
        "triangle_obb": (triangle_obb._QUERY,
                         [(*p[0], *p[1], *p[2], *c, *a, *h) for p, c, a, h in obb_cases()]),
    }[name]
    assert query.contract
    _loops.register_jitables()
    fused = numba.njit(fastmath={"contract"}, error_model="numpy")(query.filter)
    settled = 0
    for args in cases:
        answer, doubt = fused(*args)
        if not doubt:
            settled += 1
            assert answer == query.exact(*args), f"{name} {args}: fused filter says {answer}"
    assert settled >= len(cases) // 4
    # the engine's loop for a batch of these queries: compiled anew with its options (numba
    # shows no code loaded from a cache), it holds fused multiply-adds
    args = np.array(cases[:64]).T
    widths = [k.width for k in query.kinds]
    columns = np.split(args, np.cumsum(widths)[:-1])
    query(*[c.T.reshape(-1, 3, 3) if w == 9 else c.T for c, w in zip(columns, widths,
                                                                        strict=True)])
    for loop, _ in query._loops.values():
        assert loop.targetoptions.get("fastmath") == {"contract"}
        options = {k: loop.targetoptions[k] for k in ("fastmath", "error_model", "boundscheck")}
        fresh = numba.njit(**options)(loop.py_func)
        fresh.compile(loop.signatures[0])
        assert re.search(r"fmul contract", fresh.inspect_llvm(loop.signatures[0])), (
            f"{name}: the loop's products may not fuse")
        if ll.get_host_cpu_features().flatten().find("+fma") >= 0:
            assert re.search(r"\tvf(n?)m(add|sub)", fresh.inspect_asm(loop.signatures[0])), (
                f"{name}: the loop fuses nothing")


def test_values_that_are_not_valid_are_doubt():
    """The engine checks values only where a filter doubts: NaN, forbidden infinities and a
    zero direction must be doubt, never an answer (and never an exception)."""
    nan, inf = math.nan, math.inf
    box = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    tri = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    for k, bad in [(0, nan), (4, inf), (8, -inf), (9, nan), (9, -inf), (14, inf), (12, nan)]:
        args = list(tri + box)
        args[k] = bad
        assert triangle_aabb._filter(*args)[-1], f"triangle vs AABB with {bad} at {k}: doubt"
    assert not triangle_aabb._filter(*tri, inf, inf, inf, -inf, -inf, -inf)[-1], "empty box"
    frame = (0.5, 0.5, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5)
    for k in range(6):
        for bad in (nan, inf, -inf):
            args = list(tri[:6] + frame)
            args[k if k < 3 else 18 + k - 3] = bad
            assert segment_obb._filter(*args)[-1], f"segment vs OBB with {bad}: doubt"
            args = list(tri + frame)
            args[k if k < 3 else 21 + k - 3] = bad
            assert triangle_obb._filter(*args)[-1], f"triangle vs OBB with {bad}: doubt"
    ray = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, *frame)
    for k, bad in [(0, nan), (3, inf), (6, -inf), (20, nan), (21, nan), (21, inf), (22, nan),
                   (22, -inf)]:
        args = list(ray + (0.0, inf))
        args[k] = bad
        for t32 in (False, True):
            assert _ray_filter(args, t32)[-1], f"ray vs OBB with {bad} at {k}: doubt"
    for t32 in (False, True):
        assert _ray_filter((0.0, 0.0, 0.0, 0.0, -0.0, 0.0, *frame, 0.0, inf), t32)[-1], (
            "zero direction: doubt")
