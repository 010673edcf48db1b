"""Exact reference predicates for the `geometry` test suite.

Every function here works on ``fractions.Fraction`` copies of its inputs. ``Fraction(float(x))``
is the exact value of a float64 or float32 number, so these answers are the mathematically exact
answers for the very floats the library was given -- the yardstick of the project's SEMANTICS.md.

The predicates are derived from the definitions in SEMANTICS.md, not ported from the float
kernels:

* segment vs closed box: the exact parameter interval of the segment inside the box
  (Liang & Barsky 1984, evaluated in rationals); INCLUDE iff both endpoints lie in the open box
  (the open box is convex, so then the whole segment does);
* ray vs closed box: the same interval for the ray's line, clamped to [t_min, t_max];
* triangle vs closed box: the separating axis theorem with all 13 axes (Akenine-Möller 2001) for
  a proper triangle; a degenerate triangle is reduced to the segment or point it is;
* oriented boxes: points are mapped exactly into the box frame, u = axes @ (p - center), and the
  box is then the axis-aligned box [-half_size, half_size].

Inputs are any sequences of three numbers (floats, numpy scalars, ints or Fractions). Box bounds
may be +inf / -inf only in the empty-box form of ``AABB.empty()``.
"""

from __future__ import annotations

import decimal
import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

NONE, INTERSECT, INCLUDE = 0, 1, 2
INF = math.inf

Vec = Sequence


def exact(x) -> Fraction:
    """Return the exact rational value of one finite number.

    Parameters
    ----------
    x : float, int, numpy scalar or Fraction
        A finite number; float32 values are widened exactly.

    Returns
    -------
    Fraction
    """
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return Fraction(int(x))
    value = float(x)  # exact for float64 and float32
    if not math.isfinite(value):
        raise ValueError(f"exact() needs a finite number, got {x!r}")
    return Fraction(value)


def exact_vec(v: Vec) -> tuple[Fraction, Fraction, Fraction]:
    """Return the exact rational values of a 3-vector."""
    if len(v) != 3:
        raise ValueError(f"expected 3 components, got {len(v)}")
    return tuple(exact(c) for c in v)  # type: ignore[return-value]


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _dot(a, b) -> Fraction:
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))


def _cross(a, b):
    return (
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    )


def box_is_empty(box_min: Vec, box_max: Vec) -> bool:
    """True iff ``box_min > box_max`` on some axis (the empty box, including AABB.empty())."""
    return any(lo > hi for lo, hi in zip(box_min, box_max, strict=True))


def point_in_box(point: Vec, box_min: Vec, box_max: Vec, *, strict: bool = False) -> bool:
    """Exact point-in-box test.

    Parameters
    ----------
    point, box_min, box_max : (3,) sequences
    strict : bool
        False: the closed box (boundary counts). True: the open box (interior only).
    """
    if box_is_empty(box_min, box_max):
        return False
    p, lo, hi = exact_vec(point), exact_vec(box_min), exact_vec(box_max)
    if strict:
        return all(lo[i] < p[i] < hi[i] for i in range(3))
    return all(lo[i] <= p[i] <= hi[i] for i in range(3))


def line_interval(origin: Vec, direction: Vec, box_min: Vec, box_max: Vec):
    """Exact parameter interval of a line inside a closed box (Liang–Barsky in rationals).

    The line is ``origin + t * direction`` for all real t.

    Returns
    -------
    (entry, exit) : Fraction or float
        ``entry <= exit``; ``-inf`` / ``+inf`` (floats) where the direction is zero on every
        axis. None if the line misses the box or the box is empty. A zero direction component
        (+0.0 or -0.0) constrains nothing but the origin's own coordinate: the line lies in the
        slab iff ``box_min <= origin <= box_max`` on that axis.
    """
    if box_is_empty(box_min, box_max):
        return None
    o, d = exact_vec(origin), exact_vec(direction)
    lo, hi = exact_vec(box_min), exact_vec(box_max)
    entry, exit_ = -INF, INF
    for i in range(3):
        if d[i] == 0:
            if o[i] < lo[i] or o[i] > hi[i]:
                return None
            continue
        t_a = (lo[i] - o[i]) / d[i]
        t_b = (hi[i] - o[i]) / d[i]
        if t_a > t_b:
            t_a, t_b = t_b, t_a
        entry = max(entry, t_a)
        exit_ = min(exit_, t_b)
        if entry > exit_:
            return None
    return entry, exit_


def segment_interval(start: Vec, end: Vec, box_min: Vec, box_max: Vec):
    """Exact sub-interval of [0, 1] where ``start + t (end - start)`` lies in the closed box.

    Returns
    -------
    (t0, t1) : Fractions with ``0 <= t0 <= t1 <= 1``, or None if the segment misses the box.
    A point segment (start == end) gives (0, 1) when the point is in the box.
    """
    s, e = exact_vec(start), exact_vec(end)
    line = line_interval(s, _sub(e, s), box_min, box_max)
    if line is None:
        return None
    t0 = max(Fraction(0), line[0])
    t1 = min(Fraction(1), line[1])
    return (t0, t1) if t0 <= t1 else None


def classify_segment_aabb(start: Vec, end: Vec, box_min: Vec, box_max: Vec) -> int:
    """Classify a segment against a closed box: NONE (0), INTERSECT (1) or INCLUDE (2).

    NONE iff the segment and the closed box share no point; INCLUDE iff the segment lies in the
    open interior (iff both endpoints do, the open box being convex); INTERSECT otherwise. So a
    flat box (no interior) is never INCLUDE and an empty box is always NONE.

    Parameters
    ----------
    start, end, box_min, box_max : (3,) sequences of numbers
    """
    if segment_interval(start, end, box_min, box_max) is None:
        return NONE
    inside = point_in_box(start, box_min, box_max, strict=True) and point_in_box(
        end, box_min, box_max, strict=True
    )
    return INCLUDE if inside else INTERSECT


class ExactRayHit(NamedTuple):
    """Exact ray answer: ``t_enter`` / ``t_exit`` are Fractions, or float inf on a miss."""

    hit: bool
    t_enter: Fraction | float
    t_exit: Fraction | float


MISS = ExactRayHit(False, INF, INF)


def _exact_or_inf(x):
    value = float(x) if not isinstance(x, Fraction) else x
    if isinstance(value, float) and math.isinf(value):
        return value
    return exact(x)


def intersect_ray_aabb(
    origin: Vec, direction: Vec, box_min: Vec, box_max: Vec, t_min=0.0, t_max=INF
) -> ExactRayHit:
    """Exact ray vs closed box: ``(hit, t_enter, t_exit)`` as defined in SEMANTICS.md.

    ``hit`` iff some ``t`` in ``[t_min, t_max]`` puts ``origin + t * direction`` in the closed
    box. Then ``t_enter = max(t_min, entry)`` and ``t_exit = min(t_max, exit)`` with
    ``[entry, exit]`` the line's interval in the box (Kay & Kajiya 1986 slabs, in rationals);
    on a miss both are ``+inf``.

    Parameters
    ----------
    origin, direction, box_min, box_max : (3,) sequences of numbers
        ``direction`` must not be zero.
    t_min, t_max : number
        May be infinite.
    """
    if all(exact(c) == 0 for c in direction):
        raise ValueError("direction must not be zero")
    line = line_interval(origin, direction, box_min, box_max)
    if line is None:
        return MISS
    t_enter = max(_exact_or_inf(t_min), line[0])
    t_exit = min(_exact_or_inf(t_max), line[1])
    if t_enter > t_exit:
        return MISS
    return ExactRayHit(True, t_enter, t_exit)


def _separated_on_axis(axis, verts, center, half) -> bool:
    """True iff the projections of the triangle and the box onto `axis` are disjoint."""
    projections = [_dot(axis, v) for v in verts]
    c = _dot(axis, center)
    r = sum((abs(a) * h for a, h in zip(axis, half, strict=True)), Fraction(0))
    return min(projections) > c + r or max(projections) < c - r


def triangle_overlaps_aabb(v0: Vec, v1: Vec, v2: Vec, box_min: Vec, box_max: Vec) -> bool:
    """Exact closed triangle vs closed box: True iff they share a point (touching counts).

    A proper triangle uses the separating axis theorem over the 13 candidate axes (3 box normals,
    the triangle normal, 9 edge x box-axis products; zero axes skipped), complete for two convex
    polytopes (Akenine-Möller 2001). A degenerate triangle -- collinear or coincident vertices --
    is the segment between its two farthest vertices (or a point) and uses the segment reference.

    Parameters
    ----------
    v0, v1, v2, box_min, box_max : (3,) sequences of numbers
    """
    if box_is_empty(box_min, box_max):
        return False
    verts = [exact_vec(v0), exact_vec(v1), exact_vec(v2)]
    lo, hi = exact_vec(box_min), exact_vec(box_max)
    edges = [_sub(verts[1], verts[0]), _sub(verts[2], verts[1]), _sub(verts[0], verts[2])]
    normal = _cross(edges[0], edges[1])
    if normal == (0, 0, 0):
        pairs = [(0, 1), (1, 2), (0, 2)]
        i, j = max(pairs, key=lambda ij: _dot(_sub(verts[ij[0]], verts[ij[1]]),
                                               _sub(verts[ij[0]], verts[ij[1]])))
        return classify_segment_aabb(verts[i], verts[j], lo, hi) != NONE
    center = tuple((a + b) / 2 for a, b in zip(lo, hi, strict=True))
    half = tuple((b - a) / 2 for a, b in zip(lo, hi, strict=True))
    unit = [(Fraction(1), Fraction(0), Fraction(0)),
            (Fraction(0), Fraction(1), Fraction(0)),
            (Fraction(0), Fraction(0), Fraction(1))]
    axes = unit + [normal] + [_cross(u, e) for u in unit for e in edges]
    for axis in axes:
        if axis == (0, 0, 0):
            continue
        if _separated_on_axis(axis, verts, center, half):
            return False
    return True


def to_box_frame(point: Vec, center: Vec, axes: Sequence[Vec]) -> tuple[Fraction, ...]:
    """Exact box-frame coordinates ``u = axes @ (point - center)`` (axes given as rows)."""
    rel = _sub(exact_vec(point), exact_vec(center))
    return tuple(_dot(exact_vec(row), rel) for row in axes)


def _direction_to_box_frame(direction: Vec, axes: Sequence[Vec]) -> tuple[Fraction, ...]:
    d = exact_vec(direction)
    return tuple(_dot(exact_vec(row), d) for row in axes)


def _obb_bounds(half_size: Vec):
    h = exact_vec(half_size)
    return tuple(-x for x in h), h


def obb_contains(point: Vec, center: Vec, axes: Sequence[Vec], half_size: Vec) -> bool:
    """Exact closed OBB containment: ``|axes_i . (p - center)| <= half_size_i`` for all i."""
    lo, hi = _obb_bounds(half_size)
    return point_in_box(to_box_frame(point, center, axes), lo, hi)


def classify_segment_obb(
    start: Vec, end: Vec, center: Vec, axes: Sequence[Vec], half_size: Vec
) -> int:
    """Classify a segment against an oriented box, exactly in the box frame.

    The endpoints are mapped with ``u = axes @ (p - center)`` (an affine map, so the segment
    maps to the segment between the mapped endpoints) and classified against
    ``[-half_size, half_size]`` with :func:`classify_segment_aabb`.
    """
    lo, hi = _obb_bounds(half_size)
    return classify_segment_aabb(
        to_box_frame(start, center, axes), to_box_frame(end, center, axes), lo, hi
    )


def intersect_ray_obb(
    origin: Vec, direction: Vec, center: Vec, axes: Sequence[Vec], half_size: Vec,
    t_min=0.0, t_max=INF,
) -> ExactRayHit:
    """Exact ray vs oriented box, in the box frame; t keeps its meaning (units of direction)."""
    lo, hi = _obb_bounds(half_size)
    return intersect_ray_aabb(
        to_box_frame(origin, center, axes), _direction_to_box_frame(direction, axes),
        lo, hi, t_min, t_max,
    )


def is_float(value: Fraction | float) -> bool:
    """True iff `value` is exactly representable as a float64 (infinities count)."""
    if isinstance(value, float):
        return True
    return Fraction(float(value)) == value


def rounded(value: Fraction, toward: int) -> float:
    """``value`` rounded to float64 down (``toward < 0``) or up (``toward > 0``): the bounds a
    box that holds ``value`` may have."""
    f = float(value)
    if toward < 0 and Fraction(f) > value:
        return math.nextafter(f, -INF)
    if toward > 0 and Fraction(f) < value:
        return math.nextafter(f, INF)
    return f


def ulps_off(got: float, want: Fraction | float, dtype: type = np.float64) -> Fraction:
    """How many ulps of ``dtype`` at the exact value ``want`` the float ``got`` lies from it
    (SEMANTICS allows 2 for every t, in the output dtype); beyond ``dtype``'s range, ulps of its
    largest value."""
    want = Fraction(want)
    near = dtype(float(want))
    info = np.finfo(dtype)
    unit = (float(np.spacing(abs(near))) if np.isfinite(near)
            else 2.0 ** (info.maxexp - info.nmant - 1))
    return abs(Fraction(float(got)) - want) / Fraction(unit)


def t_close(got: float, want: Fraction | float, *, exact_if_representable: bool,
            dtype: type = np.float64) -> bool:
    """Whether a t from the library meets the contract for the exact t ``want``: within 2 ulps
    of it in the output ``dtype``, and equal to it where it is infinite.

    Parameters
    ----------
    got : float
        The library's value.
    want : Fraction or float
        The exact value (float only for infinities).
    exact_if_representable : bool
        Demand ``got == want`` when `want` is exactly a float of ``dtype`` (for small integer /
        dyadic inputs, where a correct slab kernel makes no rounding error).
    dtype : float64 or float32
        The output dtype.
    """
    got = float(got)
    if math.isnan(got):
        return False
    if isinstance(want, float) or math.isinf(got):
        return got == want
    if exact_if_representable and Fraction(float(dtype(float(want)))) == want:
        return got == float(want)
    return ulps_off(got, want, dtype) <= 2


def triangle_overlaps_obb(
    v0: Vec, v1: Vec, v2: Vec, center: Vec, axes: Sequence[Vec], half_size: Vec
) -> bool:
    """Exact closed triangle vs closed oriented box, in the box frame (the map is affine, so the
    triangle maps to the triangle of the mapped vertices)."""
    lo, hi = _obb_bounds(half_size)
    return triangle_overlaps_aabb(*(to_box_frame(v, center, axes) for v in (v0, v1, v2)), lo, hi)


def classify_aabb_aabb(box_min_a: Vec, box_max_a: Vec, box_min: Vec, box_max: Vec) -> int:
    """Classify the closed box A = [box_min_a, box_max_a] against the closed box B, exactly.

    NONE iff A and B share no point: some axis where ``max(lo_A, lo_B) > min(hi_A, hi_B)`` (the
    intersection of two boxes is the box of the larger mins and smaller maxes; it is empty iff
    some interval is). INCLUDE iff every point of A lies in B's open interior: A is not empty and
    its corners, the extremes on each axis, are strictly inside. Empty boxes (``min > max``,
    infinities allowed) share no point with anything.
    """
    if box_is_empty(box_min_a, box_max_a) or box_is_empty(box_min, box_max):
        return NONE
    a_lo, a_hi = exact_vec(box_min_a), exact_vec(box_max_a)
    b_lo, b_hi = exact_vec(box_min), exact_vec(box_max)
    if any(max(a_lo[i], b_lo[i]) > min(a_hi[i], b_hi[i]) for i in range(3)):
        return NONE
    corners = [tuple((a_lo, a_hi)[(k >> i) & 1][i] for i in range(3)) for k in range(8)]
    inside = all(point_in_box(c, b_lo, b_hi, strict=True) for c in corners)
    return INCLUDE if inside else INTERSECT


# --- point-box distance and sphere vs box ----------------------------------------------------
def distance2_point_aabb(point: Vec, box_min: Vec, box_max: Vec) -> Fraction | None:
    """The exact squared distance from a point to the closed box (the point minus its clamp onto
    the box, squared); None for an empty box."""
    if box_is_empty(box_min, box_max):
        return None
    p, lo, hi = exact_vec(point), exact_vec(box_min), exact_vec(box_max)
    nearest = [min(max(p[i], lo[i]), hi[i]) for i in range(3)]
    return _dot(_sub(p, nearest), _sub(p, nearest))


def _inverse3(m):
    """The exact inverse of a 3x3 matrix of Fractions (adjugate over determinant)."""
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    adj = [[e * i - f * h, c * h - b * i, b * f - c * e],
           [f * g - d * i, a * i - c * g, c * d - a * f],
           [d * h - e * g, b * g - a * h, a * e - b * d]]
    return [[x / det for x in row] for row in adj]


def distance2_point_obb(point: Vec, center: Vec, axes: Sequence[Vec],
                        half_size: Vec) -> Fraction | None:
    """The exact squared distance from a point to the OBB as evaluated, the parallelepiped
    ``{center + E s : |s_k| <= half_size_k}`` with ``E = axes^-1`` (its columns the edge
    directions): ``min |t - E s|**2`` over that box of ``s`` (``t = point - center``), a convex
    box-constrained least-squares problem. For a way to fix each ``s_k`` at ``-h_k``, ``h_k``
    or leave it free (27 in all; the clamp of ``axes @ t`` tried first), the free ones solve
    the normal equations; the first choice whose ``s`` lies in the box and whose gradient
    ``E^T (E s - t)`` points out of the box on each fixed axis (the KKT conditions) is the
    minimiser. None for an empty box."""
    h = exact_vec(half_size)
    if any(x < 0 for x in h):
        return None
    rows = [exact_vec(r) for r in axes]
    inv = _inverse3(rows)
    cols = [tuple(inv[r][k] for r in range(3)) for k in range(3)]  # E's columns
    t = _sub(exact_vec(point), exact_vec(center))
    u = [_dot(r, t) for r in rows]
    guess = tuple((u[k] > h[k]) - (u[k] < -h[k]) for k in range(3))
    for fixed in (guess, *itertools.product((-1, 0, 1), repeat=3)):
        free = [k for k in range(3) if fixed[k] == 0]
        s = [fixed[k] * h[k] for k in range(3)]
        base = tuple(t[j] - sum(s[k] * cols[k][j] for k in range(3)) for j in range(3))
        if free:
            gram = [[_dot(cols[a], cols[b]) for b in free] for a in free]
            sol = _solve_small(gram, [_dot(cols[a], base) for a in free])
            if any(abs(x) > h[k] for x, k in zip(sol, free, strict=True)):
                continue
            for x, k in zip(sol, free, strict=True):
                s[k] = x
        residual = tuple(t[j] - sum(s[k] * cols[k][j] for k in range(3)) for j in range(3))
        # the gradient of |t - E s|**2 / 2 on a fixed s_k is -E_k . residual: it must not
        # point into the box (s_k = h_k: E_k . residual >= 0; s_k = -h_k: <= 0)
        if all(fixed[k] * _dot(cols[k], residual) >= 0 for k in range(3) if fixed[k]):
            return _dot(residual, residual)
    raise AssertionError("no choice meets the KKT conditions")


def _solve_small(m, b):
    """Solve a 1x1..3x3 symmetric positive definite system exactly (Cramer's rule)."""
    n = len(b)
    if n == 1:
        return [b[0] / m[0][0]]
    if n == 2:
        det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
        return [(b[0] * m[1][1] - m[0][1] * b[1]) / det, (m[0][0] * b[1] - b[0] * m[1][0]) / det]
    inv = _inverse3(m)
    return [_dot(inv[r], b) for r in range(3)]


def root_text(d2: Fraction | None) -> str:
    """The root of an exact square, to 20 digits, for messages (``inf`` for None)."""
    if d2 is None:
        return "inf"
    with decimal.localcontext() as context:
        context.prec = 20
        return str((decimal.Decimal(d2.numerator) / d2.denominator).sqrt())


def is_faithful(got: float, d2: Fraction | None, dtype: type = np.float64) -> bool:
    """Whether the distance ``got`` is a faithful rounding, in ``dtype``, of the distance whose
    exact square is ``d2`` (None: an empty box, distance inf): ``pred(got) < d < succ(got)``,
    compared squared (the exact distance itself where it is a float)."""
    if d2 is None:
        return got == INF
    got = dtype(got)
    if not np.isfinite(got):
        return bool(got == np.inf) and d2 > Fraction(float(np.finfo(dtype).max)) ** 2
    with np.errstate(all="ignore"):  # the floats next to 0 are subnormal
        below = np.nextafter(got, dtype(-INF))
        above = np.nextafter(got, dtype(INF))
    low_ok = below < 0 or Fraction(float(below)) ** 2 < d2
    high_ok = not np.isfinite(above) or d2 < Fraction(float(above)) ** 2
    return bool(got >= 0 and low_ok and high_ok)


def classify_sphere_aabb(center: Vec, radius, box_min: Vec, box_max: Vec) -> int:
    """The closed ball ``|p - center| <= radius`` against the closed box: NONE iff the squared
    distance from the centre exceeds ``radius**2``; INCLUDE iff the ball lies in the open box,
    ``box_min + radius < center < box_max - radius`` per axis; INTERSECT otherwise."""
    d2 = distance2_point_aabb(center, box_min, box_max)
    r = exact(radius)
    if d2 is None or d2 > r * r:
        return NONE
    s, lo, hi = exact_vec(center), exact_vec(box_min), exact_vec(box_max)
    inside = all(lo[i] + r < s[i] < hi[i] - r for i in range(3))
    return INCLUDE if inside else INTERSECT


def classify_sphere_obb(center: Vec, radius, box_center: Vec, box_axes: Sequence[Vec],
                        box_half_size: Vec) -> int:
    """The closed ball against the OBB as evaluated: NONE iff the squared distance from the
    centre (:func:`distance2_point_obb`) exceeds ``radius**2``; INCLUDE iff the ball is in the
    open interior: the centre's distance to each face plane, ``(h_i -+ a_i . (s - c)) / |a_i|``,
    exceeds ``radius`` (compared squared, after the sign); INTERSECT otherwise."""
    d2 = distance2_point_obb(center, box_center, box_axes, box_half_size)
    r = exact(radius)
    if d2 is None or d2 > r * r:
        return NONE
    u = to_box_frame(center, box_center, box_axes)
    h = exact_vec(box_half_size)
    for i, row in enumerate(box_axes):
        norm2 = _dot(exact_vec(row), exact_vec(row))
        for gap in (h[i] - u[i], h[i] + u[i]):
            if gap <= 0 or gap * gap <= r * r * norm2:
                return INTERSECT
    return INCLUDE


# --- planes and frusta (plane_side_*, Frustum, classify_*_frustum) ------------------------------
# A box is given by its planes (inside: n . p >= o) and its corners; a frustum by its planes.
# Box vs frustum: INCLUDE iff every corner is strictly inside every frustum plane (both convex);
# NONE iff the twelve half-spaces have no common point, decided by vertex enumeration: the
# system is bounded (the frustum is), so it has a point iff it has a vertex, the solution of
# three of its planes that satisfies all twelve. No separating axes here.


def aabb_planes_corners(box_min: Vec, box_max: Vec):
    """``(planes, corners)`` of a non-empty closed axis-aligned box."""
    lo, hi = exact_vec(box_min), exact_vec(box_max)
    unit = [tuple(Fraction(int(i == k)) for i in range(3)) for k in range(3)]
    planes = [(u, lo[k]) for k, u in enumerate(unit)] + \
        [(tuple(-x for x in u), -hi[k]) for k, u in enumerate(unit)]
    corners = [(a, b, c) for a in (lo[0], hi[0]) for b in (lo[1], hi[1]) for c in (lo[2], hi[2])]
    return planes, corners


def obb_planes_corners(center: Vec, axes: Sequence[Vec], half_size: Vec):
    """``(planes, corners)`` of ``{p : |axes[i] . (p - center)| <= half_size_i}`` (non-empty):
    the corners solve ``axes @ (p - center) = (+-h0, +-h1, +-h2)`` by Cramer's rule."""
    c, h = exact_vec(center), exact_vec(half_size)
    a = [exact_vec(row) for row in axes]
    planes = []
    for i in range(3):
        ac = _dot(a[i], c)
        planes.append((a[i], ac - h[i]))
        planes.append((tuple(-x for x in a[i]), -ac - h[i]))
    det = _dot(a[0], _cross(a[1], a[2]))
    corners = []
    for s0 in (-1, 1):
        for s1 in (-1, 1):
            for s2 in (-1, 1):
                rhs = (s0 * h[0], s1 * h[1], s2 * h[2])
                u = _solve3(a, rhs, det)
                corners.append(tuple(c[k] + u[k] for k in range(3)))
    return planes, corners


def _solve3(rows, rhs, det):
    """The solution of ``rows @ x = rhs`` (det the rows' non-zero determinant)."""
    out = []
    for k in range(3):
        m = [list(r) for r in rows]
        for i in range(3):
            m[i][k] = rhs[i]
        out.append(_dot(m[0], _cross(m[1], m[2])) / det)
    return tuple(out)


def plane_side(normal: Vec, offset, corners) -> int:
    """-1 / 0 / +1: every corner below, some on or across, every corner above the plane."""
    n, o = exact_vec(normal), exact(offset)
    values = [_dot(n, p) - o for p in corners]
    if all(v < 0 for v in values):
        return -1
    return 1 if all(v > 0 for v in values) else 0


def frustum_planes_from_matrix(m) -> list:
    """The six clip inequalities of ``[p, 1] @ m`` (``-w <= x, y, z <= w``) as planes
    ``n . p >= o``: ``w + s clip_j >= 0`` with ``clip_j = sum_k p_k m[k][j] + m[3][j]``."""
    e = [[exact(x) for x in row] for row in np.asarray(m, dtype=np.float64)]
    planes = []
    for j in range(3):
        for s in (1, -1):
            planes.append((tuple(e[k][3] + s * e[k][j] for k in range(3)),
                           -(e[3][3] + s * e[3][j])))
    return planes


def in_clip_volume(m, point: Vec) -> bool:
    """Whether ``[p, 1] @ m`` satisfies ``-w <= x, y, z <= w``, exactly."""
    e = [[exact(x) for x in row] for row in np.asarray(m, dtype=np.float64)]
    p = [*exact_vec(point), Fraction(1)]
    clip = [sum((p[k] * e[k][j] for k in range(4)), Fraction(0)) for j in range(4)]
    return all(-clip[3] <= clip[j] <= clip[3] for j in range(3))


def feasible(planes) -> bool:
    """Whether the bounded system ``n . p >= o`` has a point (it has a vertex then)."""
    for i in range(len(planes)):
        for j in range(i + 1, len(planes)):
            for k in range(j + 1, len(planes)):
                rows = [planes[i][0], planes[j][0], planes[k][0]]
                det = _dot(rows[0], _cross(rows[1], rows[2]))
                if det == 0:
                    continue
                p = _solve3(rows, (planes[i][1], planes[j][1], planes[k][1]), det)
                if all(_dot(n, p) >= o for n, o in planes):
                    return True
    return False


def classify_box_frustum(box_planes, box_corners, frustum_planes) -> int:
    """NONE / INTERSECT / INCLUDE of a non-empty box against a frustum's planes."""
    if all(_dot(n, p) > o for n, o in frustum_planes for p in box_corners):
        return INCLUDE
    if any(all(_dot(n, p) < o for p in box_corners) for n, o in frustum_planes):
        return NONE  # (a shortcut: the vertex enumeration gives the same)
    return INTERSECT if feasible(list(frustum_planes) + list(box_planes)) else NONE


def classify_box_frustum_planes_only(box_corners, frustum_planes) -> int:
    """The conservative answer: NONE iff one plane has every corner behind it."""
    if any(all(_dot(n, p) < o for p in box_corners) for n, o in frustum_planes):
        return NONE
    if all(_dot(n, p) > o for n, o in frustum_planes for p in box_corners):
        return INCLUDE
    return INTERSECT


# --- box vs box: two boxes as slabs, decided by vertex enumeration ---------------------------
# Independent of the library's separating axes: each box is three slabs lo <= n . x <= hi (an
# OBB's rows, or the coordinate axes), their intersection is a bounded polyhedron, and a bounded
# polyhedron whose normals span space is non-empty iff it has a vertex: a point where three
# slabs with independent normals are tight and every other slab holds (Cramer's rule in
# integers, each slab scaled to integers on its own).


def _int_slab(normal, lo, hi):
    """A slab ``lo <= normal . x <= hi`` with rational entries, scaled to integers."""
    den = math.lcm(*(x.denominator for x in (*normal, lo, hi)))
    return [int(x * den) for x in normal], int(lo * den), int(hi * den)


def _obb_slabs(center: Vec, axes: Sequence[Vec], half_size: Vec):
    """The OBB as its three slabs ``|a_i . (x - center)| <= half_size_i``; None when empty."""
    c, h = exact_vec(center), exact_vec(half_size)
    if any(x < 0 for x in h):
        return None
    rows = [exact_vec(row) for row in axes]
    return [_int_slab(a, _dot(a, c) - hi, _dot(a, c) + hi) for a, hi in zip(rows, h, strict=True)]


def _aabb_slabs(box_min: Vec, box_max: Vec):
    """The AABB as its three slabs; None when empty."""
    if box_is_empty(box_min, box_max):
        return None
    lo, hi = exact_vec(box_min), exact_vec(box_max)
    unit = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    return [_int_slab([Fraction(x) for x in unit[i]], lo[i], hi[i]) for i in range(3)]


def _idot(a, b) -> int:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _tight_points(slabs):
    """Each point where three of ``slabs`` with independent normals are tight, at either
    bound: ``(numerators, denominator)`` (the point is numerators / denominator, denominator
    positive)."""
    for s1, s2, s3 in itertools.combinations(slabs, 3):
        m = [s1[0], s2[0], s3[0]]
        det = _det3(m)
        if det == 0:
            continue
        # the adjugate: x = adj(m) r / det
        adj = [[m[(j + 1) % 3][(i + 1) % 3] * m[(j + 2) % 3][(i + 2) % 3]
                - m[(j + 1) % 3][(i + 2) % 3] * m[(j + 2) % 3][(i + 1) % 3]
                for j in range(3)] for i in range(3)]
        if det < 0:
            adj, det = [[-x for x in row] for row in adj], -det
        (p0, p1, p2), (q0, q1, q2), (w0, w1, w2) = adj
        for r0, r1, r2 in itertools.product((s1[1], s1[2]), (s2[1], s2[2]), (s3[1], s3[2])):
            yield (p0 * r0 + p1 * r1 + p2 * r2, q0 * r0 + q1 * r1 + q2 * r2,
                   w0 * r0 + w1 * r1 + w2 * r2), det


def _classify_slabs(query, box) -> int:
    if query is None or box is None:
        return NONE
    slabs = query + box
    meets = any(all(lo * den <= _idot(n, x) <= hi * den for n, lo, hi in slabs)
                for x, den in _tight_points(slabs))
    if not meets:
        return NONE
    inside = all(lo * den < _idot(n, x) < hi * den for x, den in _tight_points(query)
                 for n, lo, hi in box)
    return INCLUDE if inside else INTERSECT


def classify_obb_obb(center: Vec, axes: Sequence[Vec], half_size: Vec, box_center: Vec,
                     box_axes: Sequence[Vec], box_half_size: Vec) -> int:
    """Classify the closed OBB (the query) against the closed OBB ``box_*``, exactly: NONE iff
    they share no point, INCLUDE iff the query lies in the box's open interior (its corners
    strictly inside), INTERSECT otherwise. A negative half size is an empty box."""
    return _classify_slabs(_obb_slabs(center, axes, half_size),
                           _obb_slabs(box_center, box_axes, box_half_size))


def classify_aabb_obb(box_min_a: Vec, box_max_a: Vec, box_center: Vec, box_axes: Sequence[Vec],
                      box_half_size: Vec) -> int:
    """:func:`classify_obb_obb` for a query AABB."""
    return _classify_slabs(_aabb_slabs(box_min_a, box_max_a),
                           _obb_slabs(box_center, box_axes, box_half_size))


def classify_obb_aabb(center: Vec, axes: Sequence[Vec], half_size: Vec, box_min: Vec,
                      box_max: Vec) -> int:
    """:func:`classify_obb_obb` for an AABB box."""
    return _classify_slabs(_obb_slabs(center, axes, half_size), _aabb_slabs(box_min, box_max))
