"""The exact reference (``exact_reference.py``) checked by methods it does not use.

The reference and the library both use the slab method and the 13-axis separating axis theorem:
an error in the method itself would pass both. Here every box, axis-aligned or oriented, is
written as the six closed half-spaces ``n . p <= b`` of its definition in SEMANTICS.md, and:

* segment and triangle vs box: is the linear system "a point of the segment / triangle in every
  half-space" feasible? Decided by Fourier-Motzkin elimination over Fractions on the segment's
  parameter t in [0, 1], or the triangle's barycentric (a, b) >= 0, a + b <= 1: a degenerate
  triangle needs no special case;
* INCLUDE: both endpoints strictly inside every half-space (the open box);
* ray t values: the candidates where the ray's line meets a half-space's plane, plus t_min and
  t_max, kept where the point lies in the closed box; t_enter / t_exit are the least and the
  greatest of them (the ends of the interval of a convex set's line section are such points).

Small half-integer coordinates make every degenerate case frequent: segments and rays in face
planes, through edges and corners, flat and empty boxes, degenerate triangles. The library is
compared on the same cases too, in one batched call each.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from geometry import (
    classify_segment_aabb,
    classify_segment_obb,
    intersect_ray_aabb,
    intersect_ray_obb,
    triangle_overlaps_aabb,
    triangle_overlaps_obb,
)
from tests.geometry import exact_reference as ref

INF = math.inf
N_CASES = 500

#: Oriented box frames whose rows are exact in floats or rational-friendly: signed permutations
#: and the 3-4-5 rotation (rows (0.6, 0.8, 0), (-0.8, 0.6, 0), (0, 0, 1), in various orders);
#: the half-space method takes their float values as given, as the library does.
FRAMES = [
    np.eye(3),
    np.array([[0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]]),
    np.array([[0.6, 0.8, 0.0], [-0.8, 0.6, 0.0], [0.0, 0.0, 1.0]]),
    np.array([[0.0, 1.0, 0.0], [0.6, 0.0, 0.8], [0.8, 0.0, -0.6]]),
    np.array([[0.0, 0.6, -0.8], [1.0, 0.0, 0.0], [0.0, 0.8, 0.6]]),
]


# --- the other method --------------------------------------------------------------------


def aabb_halfspaces(box_min, box_max):
    """The closed box as six half-spaces ``(n, b)``: ``n . p <= b``."""
    lo, hi = ref.exact_vec(box_min), ref.exact_vec(box_max)
    unit = [tuple(Fraction(int(i == j)) for j in range(3)) for i in range(3)]
    return ([(unit[i], hi[i]) for i in range(3)]
            + [(tuple(-x for x in unit[i]), -lo[i]) for i in range(3)])


def obb_halfspaces(center, axes, half_size):
    """``|a_i . (p - c)| <= h_i`` as six half-spaces, on the floats' exact values."""
    c, h = ref.exact_vec(center), ref.exact_vec(half_size)
    out = []
    for row, h_i in zip(axes, h, strict=True):
        a = ref.exact_vec(row)
        a_c = dot(a, c)
        out += [(a, h_i + a_c), (tuple(-x for x in a), h_i - a_c)]
    return out


def dot(a, b) -> Fraction:
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))


def feasible(rows, n_vars: int) -> bool:
    """Whether ``sum_j coeffs[j] x_j <= rhs`` holds for some real x, for every ``(coeffs, rhs)``
    in `rows`: Fourier-Motzkin elimination, exact in Fractions."""
    rows = [(list(map(Fraction, coeffs)), Fraction(rhs)) for coeffs, rhs in rows]
    for k in reversed(range(n_vars)):
        upper = [r for r in rows if r[0][k] > 0]
        lower = [r for r in rows if r[0][k] < 0]
        rows = [r for r in rows if r[0][k] == 0]
        for cu, ru in upper:
            for cl, rl in lower:
                su, sl = 1 / cu[k], -1 / cl[k]  # scale both to coefficient +1 / -1 on x_k
                rows.append(([su * u + sl * v for u, v in zip(cu, cl, strict=True)],
                             su * ru + sl * rl))
    return all(rhs >= 0 for _, rhs in rows)


def meets_by_lp(points, halfspaces) -> bool:
    """Whether the convex hull of `points` (2: a segment, 3: a triangle) meets the half-spaces'
    intersection: ``p = p0 + sum_j x_j (p_j - p0)``, x >= 0, sum x <= 1."""
    p = [ref.exact_vec(q) for q in points]
    edges = [tuple(a - b for a, b in zip(q, p[0], strict=True)) for q in p[1:]]
    n = len(edges)
    rows = [([dot(normal, e) for e in edges], bound - dot(normal, p[0]))
            for normal, bound in halfspaces]
    rows += [([-Fraction(int(i == j)) for j in range(n)], 0) for i in range(n)]
    rows.append(([Fraction(1)] * n, 1))
    return feasible(rows, n)


def strictly_inside(point, halfspaces) -> bool:
    p = ref.exact_vec(point)
    return all(dot(normal, p) < bound for normal, bound in halfspaces)


def segment_class_by_lp(start, end, halfspaces) -> int:
    if not meets_by_lp([start, end], halfspaces):
        return ref.NONE
    inside = strictly_inside(start, halfspaces) and strictly_inside(end, halfspaces)
    return ref.INCLUDE if inside else ref.INTERSECT


def ray_by_vertices(origin, direction, halfspaces, t_min, t_max):
    """``(hit, t_enter, t_exit)`` from the candidate parameters: where the line crosses each
    half-space's plane, and the finite t limits, kept where the point is in the closed box."""
    o, d = ref.exact_vec(origin), ref.exact_vec(direction)
    lo_t = -INF if t_min == -INF else Fraction(t_min)
    hi_t = INF if t_max == INF else Fraction(t_max)
    candidates = [t for t in (lo_t, hi_t) if not isinstance(t, float)]
    for normal, bound in halfspaces:
        speed = dot(normal, d)
        if speed != 0:
            candidates.append((bound - dot(normal, o)) / speed)
    inside = [t for t in candidates if lo_t <= t <= hi_t and all(
        dot(normal, [a + t * b for a, b in zip(o, d, strict=True)]) <= bound
        for normal, bound in halfspaces)]
    return (True, min(inside), max(inside)) if inside else (False, INF, INF)


# --- the cases ------------------------------------------------------------------------------


def halves(rng, size, lo=-6, hi=6):
    """Half-integers in [lo / 2, hi / 2]."""
    return rng.integers(lo, hi + 1, size) / 2.0


def aabbs(rng, n):
    """Boxes with half-integer corners: proper, flat (a fifth) and empty (a tenth)."""
    a, b = halves(rng, (2, n, 3), -4, 4)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    kind = rng.random(n)
    axis = rng.integers(0, 3, n)
    rows = np.arange(n)
    flat, empty = kind < 0.2, (kind >= 0.2) & (kind < 0.3)
    hi[rows[flat], axis[flat]] = lo[rows[flat], axis[flat]]
    lo[rows[empty], axis[empty]] = hi[rows[empty], axis[empty]] + 0.5
    return lo, hi


def obbs(rng, n):
    """Oriented boxes: a frame of FRAMES, half-integer centers, half sizes in [0, 2] (some
    flat) and, a tenth of them, a negative half size (the empty box)."""
    frames = np.array(FRAMES)[rng.integers(0, len(FRAMES), n)]
    center = halves(rng, (n, 3), -2, 2)
    half = halves(rng, (n, 3), 0, 4)
    empty = rng.random(n) < 0.1
    half[empty, rng.integers(0, 3, empty.sum())] = -0.5
    return center, frames, half


def within(rng, lo, hi):
    """Points at a quarter, half or three quarters of the box's extent on each axis."""
    return lo + (hi - lo) * rng.choice([0.25, 0.5, 0.75], lo.shape)


def directions(rng, origin, target):
    """Integer directions, or in half the rows towards `target` (half-integer steps); none zero."""
    d = rng.integers(-2, 3, origin.shape).astype(np.float64)
    aimed = rng.random(len(d)) < 0.5
    d[aimed] = target[aimed] - origin[aimed]
    d[np.all(d == 0, axis=1), 0] = 1.0
    return d


T_LIMITS = [(0.0, INF), (-INF, INF), (0.5, 2.0), (1.0, 1.0), (2.0, 0.5), (-1.0, 0.0)]


def t_limits(rng, n):
    picked = [T_LIMITS[i] for i in rng.integers(0, len(T_LIMITS), n)]
    return np.array([p[0] for p in picked]), np.array([p[1] for p in picked])


def assert_all_classes_seen(classes, what):
    assert set(classes) == {ref.NONE, ref.INTERSECT, ref.INCLUDE}, (
        f"{what}: expected the cases to reach NONE, INTERSECT and INCLUDE, got {set(classes)}")


# --- the checks -----------------------------------------------------------------------------


def test_the_other_method_on_named_cases():
    """The half-space method itself, on answers known by hand."""
    box = aabb_halfspaces([0, 0, 0], [2, 2, 2])
    assert segment_class_by_lp([1, 1, 1], [1.5, 1, 1], box) == ref.INCLUDE
    assert segment_class_by_lp([1, 1, 1], [2, 1, 1], box) == ref.INTERSECT
    assert segment_class_by_lp([3, 3, 1], [1, 1, 3], box) == ref.INTERSECT  # a corner only
    assert segment_class_by_lp([-1, 1, 3], [3, 1, 3], box) == ref.NONE
    assert meets_by_lp([[3, 0, 0], [0, 3, 0], [0, 0, 3]], box)  # cuts a corner off
    assert not meets_by_lp([[7, 0, 0], [0, 7, 0], [0, 0, 7]], box)  # x + y + z = 7 > 6
    assert ray_by_vertices([-1, 1, 1], [4, 0, 0], box, 0.0, INF) == (True, 0.25, 0.75)
    assert ray_by_vertices([3, 1, 1], [1, 0, 0], box, 0.0, INF) == (False, INF, INF)


@pytest.mark.parametrize("seed", [1])
def test_segment_aabb_reference_agrees_with_lp_feasibility(seed):
    rng = np.random.default_rng(seed)
    lo, hi = aabbs(rng, N_CASES)
    start, end = halves(rng, (2, N_CASES, 3))
    inside = rng.random(N_CASES) < 0.3  # ends inside the box, for INCLUDE
    start[inside], end[inside] = (within(rng, lo[inside], hi[inside]) for _ in range(2))
    got = classify_segment_aabb(start, end, lo, hi)
    classes = []
    for i in range(N_CASES):
        want = segment_class_by_lp(start[i], end[i], aabb_halfspaces(lo[i], hi[i]))
        what = (f"start={start[i].tolist()} end={end[i].tolist()} "
                f"box={lo[i].tolist()}..{hi[i].tolist()}")
        assert ref.classify_segment_aabb(start[i], end[i], lo[i], hi[i]) == want, (
            f"reference: {what}: LP feasibility says {want}")
        assert got[i] == want, f"library: {what}: expected {want}, got {got[i]}"
        classes.append(want)
    assert_all_classes_seen(classes, "segment vs AABB")


@pytest.mark.parametrize("seed", [3])
def test_segment_obb_reference_agrees_with_lp_feasibility(seed):
    rng = np.random.default_rng(seed)
    center, axes, half = obbs(rng, N_CASES)
    start, end = halves(rng, (2, N_CASES, 3))
    near = rng.random(N_CASES) < 0.3  # ends near the center, for INCLUDE
    start[near] = center[near] + halves(rng, (near.sum(), 3), -1, 1)
    end[near] = center[near] + halves(rng, (near.sum(), 3), -1, 1)
    got = classify_segment_obb(start, end, center, axes, half)
    classes = []
    for i in range(N_CASES):
        want = segment_class_by_lp(start[i], end[i], obb_halfspaces(center[i], axes[i], half[i]))
        what = (f"start={start[i].tolist()} end={end[i].tolist()} center={center[i].tolist()} "
                f"axes={axes[i].tolist()} half_size={half[i].tolist()}")
        assert ref.classify_segment_obb(start[i], end[i], center[i], axes[i], half[i]) == want, (
            f"reference: {what}: LP feasibility says {want}")
        assert got[i] == want, f"library: {what}: expected {want}, got {got[i]}"
        classes.append(want)
    assert_all_classes_seen(classes, "segment vs OBB")


def assert_same_ray(got, want, what):
    assert tuple(got) == tuple(want), f"{what}: expected {want}, got {tuple(got)}"


@pytest.mark.parametrize("seed", [5])
def test_ray_aabb_reference_t_agree_with_vertex_enumeration(seed):
    rng = np.random.default_rng(seed)
    lo, hi = aabbs(rng, N_CASES)
    origin = halves(rng, (N_CASES, 3))
    direction = directions(rng, origin, within(rng, lo, hi))
    t_min, t_max = t_limits(rng, N_CASES)
    got = intersect_ray_aabb(origin, direction, lo, hi, t_min=t_min, t_max=t_max)
    hits = 0
    for i in range(N_CASES):
        want = ray_by_vertices(origin[i], direction[i], aabb_halfspaces(lo[i], hi[i]),
                               t_min[i], t_max[i])
        what = (f"origin={origin[i].tolist()} direction={direction[i].tolist()} "
                f"box={lo[i].tolist()}..{hi[i].tolist()} t in [{t_min[i]}, {t_max[i]}]")
        assert_same_ray(ref.intersect_ray_aabb(origin[i], direction[i], lo[i], hi[i], t_min[i],
                                               t_max[i]), want, f"reference: {what}")
        assert bool(got.hit[i]) == want[0], f"library: {what}: expected hit={want[0]}"
        for name, g, w in zip(("t_enter", "t_exit"), (got.t_enter[i], got.t_exit[i]), want[1:],
                              strict=True):
            assert ref.t_close(g, w, exact_if_representable=True), (
                f"library: {what}: expected {name} = {w} (within 2 ulps), got {g!r}")
        hits += want[0]
    assert 0.2 * N_CASES < hits < 0.8 * N_CASES, f"expected hits and misses, got {hits} hits"


@pytest.mark.parametrize("seed", [7])
def test_ray_obb_reference_t_agree_with_vertex_enumeration(seed):
    rng = np.random.default_rng(seed)
    center, axes, half = obbs(rng, N_CASES)
    origin = halves(rng, (N_CASES, 3))
    direction = directions(rng, origin, center)
    t_min, t_max = t_limits(rng, N_CASES)
    got = intersect_ray_obb(origin, direction, center, axes, half, t_min=t_min, t_max=t_max)
    hits = 0
    for i in range(N_CASES):
        want = ray_by_vertices(origin[i], direction[i], obb_halfspaces(center[i], axes[i], half[i]),
                               t_min[i], t_max[i])
        what = (f"origin={origin[i].tolist()} direction={direction[i].tolist()} "
                f"center={center[i].tolist()} axes={axes[i].tolist()} half_size={half[i].tolist()} "
                f"t in [{t_min[i]}, {t_max[i]}]")
        assert_same_ray(ref.intersect_ray_obb(origin[i], direction[i], center[i], axes[i], half[i],
                                              t_min[i], t_max[i]), want, f"reference: {what}")
        assert bool(got.hit[i]) == want[0], f"library: {what}: expected hit={want[0]}"
        for name, g, w in zip(("t_enter", "t_exit"), (got.t_enter[i], got.t_exit[i]), want[1:],
                              strict=True):
            assert ref.t_close(g, w, exact_if_representable=False), (
                f"library: {what}: expected {name} within 2 ulps of {w}, got {g!r}")
        hits += want[0]
    assert 0.2 * N_CASES < hits < 0.8 * N_CASES, f"expected hits and misses, got {hits} hits"


def triangles(rng, n, center):
    """Triangles around `center` (half-integer offsets): proper, and a fifth degenerate
    (collinear or coincident vertices)."""
    v0, v1, v2 = center + halves(rng, (3, n, 3), -5, 5)
    collinear = rng.random(n) < 0.15
    v2[collinear] = v0[collinear] + 2.0 * (v1[collinear] - v0[collinear])
    point = rng.random(n) < 0.05
    v1[point] = v2[point] = v0[point]
    return v0, v1, v2


@pytest.mark.parametrize("seed", [9])
def test_triangle_aabb_reference_agrees_with_lp_feasibility(seed):
    rng = np.random.default_rng(seed)
    lo, hi = aabbs(rng, N_CASES)
    v0, v1, v2 = triangles(rng, N_CASES, (lo + hi) / 2 * (lo <= hi).all(axis=1)[:, None])
    got = triangle_overlaps_aabb(v0, v1, v2, lo, hi)
    for i in range(N_CASES):
        want = meets_by_lp([v0[i], v1[i], v2[i]], aabb_halfspaces(lo[i], hi[i]))
        what = (f"v0={v0[i].tolist()} v1={v1[i].tolist()} v2={v2[i].tolist()} "
                f"box={lo[i].tolist()}..{hi[i].tolist()}")
        assert ref.triangle_overlaps_aabb(v0[i], v1[i], v2[i], lo[i], hi[i]) == want, (
            f"reference: {what}: LP feasibility says {want}")
        assert bool(got[i]) == want, f"library: {what}: expected {want}"
    assert 0.2 * N_CASES < got.sum() < 0.8 * N_CASES, f"expected overlaps and not, {got.sum()}"


@pytest.mark.parametrize("seed", [11])
def test_triangle_obb_reference_agrees_with_lp_feasibility(seed):
    rng = np.random.default_rng(seed)
    center, axes, half = obbs(rng, N_CASES)
    v0, v1, v2 = triangles(rng, N_CASES, center)
    got = triangle_overlaps_obb(v0, v1, v2, center, axes, half)
    for i in range(N_CASES):
        want = meets_by_lp([v0[i], v1[i], v2[i]], obb_halfspaces(center[i], axes[i], half[i]))
        what = (f"v0={v0[i].tolist()} v1={v1[i].tolist()} v2={v2[i].tolist()} "
                f"center={center[i].tolist()} axes={axes[i].tolist()} half_size={half[i].tolist()}")
        exact = ref.triangle_overlaps_obb(v0[i], v1[i], v2[i], center[i], axes[i], half[i])
        assert exact == want, f"reference: {what}: LP feasibility says {want}"
        assert bool(got[i]) == want, f"library: {what}: expected {want}"
    assert 0.2 * N_CASES < got.sum() < 0.8 * N_CASES, f"expected overlaps and not, {got.sum()}"
