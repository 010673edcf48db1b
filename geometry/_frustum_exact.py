"""Exact convex polytopes of six planes and boxes against them, in rational arithmetic.

A frustum is the intersection of six closed half-spaces ``n_i . p >= o_i`` whose coefficients
are exact rationals (a matrix's planes are sums of its float entries). :func:`polytope` finds
its vertices and edges exactly and refuses planes that do not bound a non-empty convex volume
with six faces. :func:`classify_box` decides a box (an AABB, or an OBB as the parallelepiped its
float axes describe) against it by the separating axes of two convex polytopes: the frustum's
face normals, the box's face normals, and the cross products of an edge direction of each
(Gottschalk et al. 1996; Ericson 2005, 5.2.1). These are the exact passes of the frustum
queries, run on the items their float filters doubt.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple, TypeVar

from ._exact import scaled

__all__ = ["Box", "Plane", "Polytope", "box_of_aabb", "box_of_obb", "classify_aabb",
           "classify_box", "classify_obb", "cross", "dot", "plane_extremes", "polytope",
           "register",
           "registered", "unregister"]

Vec = tuple[Fraction, Fraction, Fraction]
#: exact numbers: the rationals, or integers on a common scale
Num = TypeVar("Num", int, Fraction)


class Plane(NamedTuple):
    """``normal . p >= offset`` is inside."""

    normal: Vec
    offset: Fraction


class Polytope(NamedTuple):
    """A bounded convex polytope with non-empty interior and six faces, exactly."""

    planes: tuple[Plane, ...]
    vertices: tuple[Vec, ...]
    #: the pairs of planes that meet in an edge, and the edges' directions (n_i x n_j)
    edges: tuple[tuple[int, int], ...]
    directions: tuple[Vec, ...]
    #: for the axis-aligned boxes: each axis (x, y, z, then e_k x direction) with the
    #: polytope's interval of projections on it
    aabb_axes: tuple[tuple[Vec, Fraction, Fraction], ...]
    #: the same in integers (:func:`classify_aabb`): each plane as ``(n, o)``, ``n . p >= o``;
    #: each axis as ``(a, low, high)``, its interval's ends as (numerator, denominator > 0)
    int_planes: tuple[tuple[tuple[int, ...], int], ...]
    int_axes: tuple[tuple[tuple[int, ...], tuple[int, int], tuple[int, int]], ...]
    #: the vertices times ``int_scale`` (integers), the edge directions as integer vectors
    int_vertices: tuple[tuple[int, ...], ...]
    int_scale: int
    int_directions: tuple[tuple[int, ...], ...]


class Box(NamedTuple):
    """A box as a parallelepiped: ``{center + sum_i u_i edges[i] : |u_i| <= half[i]}``, with
    face normals ``normals[i]`` (``normals[i] . edges[j] = delta_ij``)."""

    center: Vec
    normals: tuple[Vec, Vec, Vec]
    edges: tuple[Vec, Vec, Vec]
    half: Vec


_UNIT = ((Fraction(1), Fraction(0), Fraction(0)), (Fraction(0), Fraction(1), Fraction(0)),
         (Fraction(0), Fraction(0), Fraction(1)))


def dot(a: Sequence[Num], b: Sequence[Num]) -> Num:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Sequence[Num], b: Sequence[Num]) -> tuple[Num, Num, Num]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _sub(a: Sequence[Fraction], b: Sequence[Fraction]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _rank(points: Sequence[Vec]) -> int:
    """The dimension of the affine hull of ``points`` (0 for one point, up to 3)."""
    diffs = [_sub(p, points[0]) for p in points[1:]]
    nonzero = [d for d in diffs if any(d)]
    if not nonzero:
        return 0
    first = nonzero[0]
    crossed = [c for c in (cross(first, d) for d in nonzero) if any(c)]
    if not crossed:
        return 1
    return 3 if any(dot(crossed[0], d) for d in nonzero) else 2


def polytope(planes: Sequence[Plane], what: str = "planes") -> Polytope:
    """The polytope of six planes, or a ``ValueError`` (naming ``what``) unless they bound a
    non-empty convex volume with six faces: bounded, with interior points, and each plane
    holding a face with a non-empty relative interior of its own (no plane redundant or
    repeated)."""
    planes = tuple(planes)
    bad = f"{what} must bound a non-empty convex volume with six faces"
    found: dict[Vec, None] = {}
    for i, j, k in itertools.combinations(range(6), 3):
        (a, oa), (b, ob), (c, oc) = planes[i], planes[j], planes[k]
        bc = cross(b, c)
        det = dot(a, bc)
        if det == 0:
            continue
        # Cramer's rule: p = (oa (b x c) + ob (c x a) + oc (a x b)) / det
        ca, ab = cross(c, a), cross(a, b)
        p = tuple((oa * bc[t] + ob * ca[t] + oc * ab[t]) / det for t in range(3))
        if all(dot(n, p) >= o for n, o in planes):
            found[p] = None  # type: ignore[index]
    # a direction no plane bounds (an extreme ray of the cone n_i . d >= 0 lies on two of
    # its planes, or the cone holds a line, perpendicular to every normal)
    for i, j in itertools.combinations(range(6), 2):
        d = cross(planes[i].normal, planes[j].normal)
        for s in (1, -1):
            if any(d) and all(s * dot(n, d) >= 0 for n, _ in planes):
                raise ValueError(f"{bad}: they leave it unbounded")
    vertices = tuple(found)
    if len(vertices) < 4 or _rank(vertices) < 3:
        raise ValueError(f"{bad}: they enclose no volume")
    faces = [frozenset(v for v in vertices if dot(n, v) == o) for n, o in planes]
    for i, face in enumerate(faces):
        if len(face) < 3 or _rank(list(face)) < 2:
            raise ValueError(f"{bad}: plane {i} holds no face of it")
    if len(set(faces)) < 6:
        raise ValueError(f"{bad}: two planes hold the same face")
    edges = tuple((i, j) for i, j in itertools.combinations(range(6), 2)
                  if len(faces[i] & faces[j]) >= 2)
    directions = tuple(cross(planes[i].normal, planes[j].normal) for i, j in edges)
    axes = list(_UNIT) + [cross(e, d) for d in directions for e in _UNIT]
    aabb_axes = tuple((a, min(dot(a, v) for v in vertices), max(dot(a, v) for v in vertices))
                      for a in axes if any(a))
    int_planes = tuple((tuple(x[:3]), x[3]) for x in (_integers(*n, o) for n, o in planes))
    int_axes = tuple((tuple(_integers(*a)), _ratio(low * _scale(a)), _ratio(high * _scale(a)))
                     for a, low, high in aabb_axes)
    scale = _scale([x for v in vertices for x in v])
    int_vertices = tuple(tuple(int(x * scale) for x in v) for v in vertices)
    int_directions = tuple(cross(int_planes[i][0], int_planes[j][0]) for i, j in edges)
    return Polytope(planes, vertices, edges, directions, aabb_axes, int_planes, int_axes,
                    int_vertices, scale, int_directions)


def _scale(xs: Sequence[Fraction]) -> int:
    """The least common multiple of the denominators: ``xs`` times it are integers."""
    m = 1
    for x in xs:
        m = m * x.denominator // math.gcd(m, x.denominator)
    return m


def _integers(*xs: Fraction) -> list[int]:
    m = _scale(xs)
    return [int(x * m) for x in xs]


def _ratio(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


def classify_aabb(lo: Sequence[float], hi: Sequence[float], poly: Polytope,
                  planes_only: bool) -> int:
    """:func:`classify_box` for a non-empty axis-aligned box given by its float corners, in
    integers: the corners on one scale (``_exact.scaled``), the polytope's planes and axes as
    integer vectors (``Polytope.int_planes``, ``int_axes``); or, ``planes_only``, the plane
    test alone (the conservative answer)."""
    unit, x = scaled(*lo, *hi)
    inside = True
    for n, o in poly.int_planes:
        top = sum(n[i] * (x[3 + i] if n[i] > 0 else x[i]) for i in range(3))
        if top < o * unit:
            return 0
        bottom = sum(n[i] * (x[i] if n[i] > 0 else x[3 + i]) for i in range(3))
        inside = inside and bottom > o * unit
    if inside:
        return 2
    if planes_only:
        return 1
    for a, (lp, lq), (hp, hq) in poly.int_axes:
        top = sum(a[i] * (x[3 + i] if a[i] > 0 else x[i]) for i in range(3))
        bottom = sum(a[i] * (x[i] if a[i] > 0 else x[3 + i]) for i in range(3))
        if top * lq < lp * unit or bottom * hq > hp * unit:
            return 0
    return 1


def box_of_aabb(lo: Sequence[float], hi: Sequence[float]) -> Box:
    lo_, hi_ = [Fraction(x) for x in lo], [Fraction(x) for x in hi]
    center = tuple((lo_[i] + hi_[i]) / 2 for i in range(3))
    half = tuple((hi_[i] - lo_[i]) / 2 for i in range(3))
    return Box(center, _UNIT, _UNIT, half)  # type: ignore[arg-type]


def box_of_obb(center: Sequence[float], axes: Sequence[float], half: Sequence[float]) -> Box:
    """The OBB as its float axes describe it: face normals the rows, edges the columns of the
    rows' inverse (the rows are orthonormal only within ORTHONORMAL_ATOL)."""
    a = [[Fraction(axes[3 * i + j]) for j in range(3)] for i in range(3)]
    c0, c1, c2 = cross(a[1], a[2]), cross(a[2], a[0]), cross(a[0], a[1])
    det = dot(a[0], c0)
    edges = tuple(tuple(x / det for x in c) for c in (c0, c1, c2))
    return Box(tuple(Fraction(x) for x in center), tuple(tuple(r) for r in a),  # type: ignore
               edges, tuple(Fraction(x) for x in half))  # type: ignore[arg-type]


def _extent(box: Box, axis: Sequence[Fraction]) -> Fraction:
    """Half the width of the box's projection on ``axis``."""
    return sum((box.half[i] * abs(dot(axis, box.edges[i])) for i in range(3)), Fraction(0))


def plane_extremes(box: Box, plane: Plane) -> tuple[Fraction, Fraction]:
    """``(near, far)``: the least and the greatest ``normal . p - offset`` over the box."""
    middle = dot(plane.normal, box.center) - plane.offset
    r = _extent(box, plane.normal)
    return middle - r, middle + r


def classify_box(box: Box, poly: Polytope) -> int:
    """0 (no common point), 2 (the box in the open interior) or 1, for a non-empty box."""
    inside = True
    for plane in poly.planes:
        near, far = plane_extremes(box, plane)
        if far < 0:
            return 0
        inside = inside and near > 0
    if inside:
        return 2
    axes = list(box.normals) + [cross(e, d) for d in poly.directions for e in box.edges]
    tests = tuple((a, min(dot(a, v) for v in poly.vertices),
                   max(dot(a, v) for v in poly.vertices)) for a in axes if any(a))
    for axis, lo, hi in tests:
        middle, r = dot(axis, box.center), _extent(box, axis)
        if middle + r < lo or middle - r > hi:
            return 0
    return 1


# --- frusta by key: the exact passes receive a frustum as a float key among their scalars -------
_POLYTOPES: dict[int, Polytope] = {}
_keys = itertools.count(1)


def register(poly: Polytope) -> int:
    """A new key for ``poly`` (an integer float64 holds exactly); the caller drops it with
    :func:`unregister` when the frustum that owns it goes."""
    key = next(_keys)
    _POLYTOPES[key] = poly
    return key


def unregister(key: int) -> None:
    _POLYTOPES.pop(key, None)


def registered(key: float) -> Polytope:
    """The polytope of a live frustum's key."""
    return _POLYTOPES[int(key)]


def classify_obb(center: Sequence[float], axes: Sequence[float], half: Sequence[float],
                 poly: Polytope) -> int:
    """:func:`classify_box` for a non-empty OBB given by its floats, in integers: with the
    rows ``R / t`` and centre and half sizes ``C / s``, ``H / s`` on integer scales, the edges
    are ``t adj(R)[:, i] / det(R)``, so every projection, times ``s |det R|`` (and the
    vertices' scale), is an integer."""
    t, r = scaled(*axes)
    s, ch = scaled(*center, *half)
    c, h = ch[:3], ch[3:]
    rows = [r[0:3], r[3:6], r[6:9]]
    cols = [cross(rows[1], rows[2]), cross(rows[2], rows[0]), cross(rows[0], rows[1])]
    det = dot(rows[0], cols[0])  # cols[i] . rows[j] = det delta_ij: the adjugate's columns
    d = abs(det)

    def spans(a: Sequence[int]) -> tuple[int, int]:
        """The box's projection on ``a``, times ``s |det|``: centre and half width."""
        return d * dot(a, c), t * sum(h[i] * abs(dot(a, cols[i])) for i in range(3))

    inside = True
    for n, o in poly.int_planes:
        middle, width = spans(n)
        if middle + width < o * s * d:
            return 0
        inside = inside and middle - width > o * s * d
    if inside:
        return 2
    k = poly.int_scale
    tests = [tuple(row) for row in rows] + [cross(e, dr) for dr in poly.int_directions
                                             for e in cols]
    for a in tests:
        if not any(a):
            continue
        middle, width = spans(a)
        values = [dot(a, v) for v in poly.int_vertices]
        if (middle + width) * k < min(values) * s * d or \
                (middle - width) * k > max(values) * s * d:
            return 0
    return 1
