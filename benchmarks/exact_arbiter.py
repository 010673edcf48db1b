"""Exact answers for single boxes of the benchmark scene, to settle a disagreement.

When a textbook port and the library differ on a box, rational arithmetic on the floats' exact
values says which one is right: the slab interval of the segment or ray in the box's frame, and
the separating-axis test of a triangle and a box (its 3 axes, the triangle's normal and the 9
edge x axis products; an axis that is zero separates nothing). Written here independently of
both, in the plainest form, and slow: it is run on a handful of boxes only. Two boxes: the query
box's eight corners in the box's frame, and the separating-axis test on the axes those corners
and the box's unit axes span.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["box_class", "plane_side", "ray_interval", "segment_class", "triangle_overlaps"]

Vector = list[Fraction]


def exact(p: Any) -> Vector:
    """The exact values of a float vector."""
    return [Fraction(float(x)) for x in np.ravel(p)]


def frame(box: tuple[Any, ...]) -> tuple[Vector, list[Vector], Vector]:
    """``(center, axes rows, half_size)`` of one box: ``(box_min, box_max)`` or ``(center,
    axes, half_size)``; an AABB's centre and half size are exact in rationals."""
    if len(box) == 2:
        lo, hi = exact(box[0]), exact(box[1])
        unit = [[Fraction(int(i == k)) for k in range(3)] for i in range(3)]
        return ([(a + b) / 2 for a, b in zip(lo, hi, strict=True)], unit,
                [(b - a) / 2 for a, b in zip(lo, hi, strict=True)])
    return exact(box[0]), [exact(row) for row in np.reshape(box[1], (3, 3))], exact(box[2])


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))


def local(box: tuple[Vector, list[Vector], Vector], p: Vector, *, point: bool = True) -> Vector:
    """A point (or, with ``point=False``, a direction) in the box's frame."""
    center, axes, _ = box
    q = [a - c for a, c in zip(p, center, strict=True)] if point else p
    return [dot(row, q) for row in axes]


def slab_interval(o: Vector, d: Vector, h: Vector) -> tuple[Fraction, Fraction] | None:
    """The parameters t of the line o + t d (box frame) inside [-h, h], None if it misses."""
    if 0 in d:
        raise ValueError("the exact arbiter needs a direction with no zero component")
    near = [min((-hk - ok) / dk, (hk - ok) / dk) for ok, dk, hk in zip(o, d, h, strict=True)]
    far = [max((-hk - ok) / dk, (hk - ok) / dk) for ok, dk, hk in zip(o, d, h, strict=True)]
    return (max(near), min(far)) if max(near) <= min(far) else None


def segment_class(box: tuple[Any, ...], start: Any, end: Any) -> int:
    """NONE (0), INTERSECT (1) or INCLUDE (2), exactly."""
    b = frame(box)
    s, e = local(b, exact(start)), local(b, exact(end))
    found = slab_interval(s, [ek - sk for sk, ek in zip(s, e, strict=True)], b[2])
    if found is None or found[1] < 0 or found[0] > 1:
        return 0
    return 2 if found[0] < 0 and found[1] > 1 else 1


def ray_interval(box: tuple[Any, ...], origin: Any, direction: Any
                 ) -> tuple[Fraction, Fraction] | None:
    """``(t_enter, t_exit)`` of the ray (t >= 0) and the box exactly, None on a miss."""
    b = frame(box)
    found = slab_interval(local(b, exact(origin)), local(b, exact(direction), point=False), b[2])
    if found is None or found[1] < 0:
        return None
    return max(found[0], Fraction(0)), found[1]


def triangle_overlaps(box: tuple[Any, ...], v0: Any, v1: Any, v2: Any) -> bool:
    """Whether the closed triangle and the closed box share a point, exactly (separating
    axes; the box is [-h, h] in its own frame)."""
    b = frame(box)
    h = b[2]
    verts = [local(b, exact(v)) for v in (v0, v1, v2)]
    edges = [[q - p for p, q in zip(verts[i], verts[(i + 1) % 3], strict=True)]
             for i in range(3)]
    units = [[Fraction(int(i == k)) for k in range(3)] for i in range(3)]

    def cross(a: Vector, c: Vector) -> Vector:
        return [a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]]

    candidates = units + [cross(edges[0], edges[1])] + [cross(e, u) for e in edges for u in units]
    for axis in candidates:
        p = [dot(axis, v) for v in verts]
        r = sum((abs(a) * hk for a, hk in zip(axis, h, strict=True)), Fraction(0))
        if min(p) > r or max(p) < -r:
            return False
    return True


def cross(a: Vector, c: Vector) -> Vector:
    return [a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]]


def is_empty(box: tuple[Any, ...]) -> bool:
    """``min > max`` on an axis, or a negative half size."""
    if len(box) == 2:
        return bool(np.any(np.asarray(box[0], float) > np.asarray(box[1], float)))
    return bool(np.any(np.asarray(box[2], float) < 0))


def corners(box: tuple[Any, ...]) -> list[Vector]:
    """The eight corners of a box, exactly: ``center + sum_i +-h_i e_i / det`` with ``e_i`` the
    cross product of the other two axis rows (the box as its floats describe it: a
    parallelepiped); corner ``4 b0 + 2 b1 + b2`` takes ``+h_i`` where ``b_i`` is 1."""
    center, axes, half = frame(box)
    edges = [cross(axes[(i + 1) % 3], axes[(i + 2) % 3]) for i in range(3)]
    det = dot(axes[0], edges[0])
    return [[c + sum((s * h * e[k] for s, h, e in zip(signs, half, edges, strict=True)),
                     Fraction(0)) / det for k, c in enumerate(center)]
            for signs in itertools.product((-1, 1), repeat=3)]


def box_class(query: tuple[Any, ...], box: tuple[Any, ...]) -> int:
    """NONE (0), INTERSECT (1) or INCLUDE (2: the query in the box's open interior) of two
    closed boxes, each ``(box_min, box_max)`` or ``(center, axes, half_size)``, exactly."""
    if is_empty(query) or is_empty(box):
        return 0
    b = frame(box)
    h = b[2]
    pts = [local(b, p) for p in corners(query)]
    edges = [[q - p for p, q in zip(pts[0], pts[k], strict=True)] for k in (4, 2, 1)]
    units = [[Fraction(int(i == k)) for k in range(3)] for i in range(3)]
    candidates = (units + [cross(edges[i], edges[j]) for i, j in ((1, 2), (2, 0), (0, 1))]
                  + [cross(e, u) for e in edges for u in units])
    for axis in candidates:
        p = [dot(axis, v) for v in pts]
        r = sum((abs(a) * hk for a, hk in zip(axis, h, strict=True)), Fraction(0))
        if min(p) > r or max(p) < -r:
            return 0
    return 2 if all(-hk < x < hk for v in pts for x, hk in zip(v, h, strict=True)) else 1


def squared_distance(box: tuple[Any, ...], point: Any) -> Fraction:
    """The squared Euclidean distance from the point to the closed box (a parallelepiped for
    an OBB), exactly: the least over the 27 faces, edges, corners and interior (each ``u_i``
    fixed at ``-h_i`` or ``+h_i``, or free) of the distance to that piece's affine hull, where
    the nearest point of the hull lies in the box. The nearest point of the box is the nearest
    point of the hull of the piece it lies inside, so it is among them."""
    center, axes, half = frame(box)
    edges = [cross(axes[(i + 1) % 3], axes[(i + 2) % 3]) for i in range(3)]
    det = dot(axes[0], edges[0])
    cols = [[x / det for x in e] for e in edges]  # p = center + sum_i u_i cols[i]
    rel = [x - c for x, c in zip(exact(point), center, strict=True)]
    best: Fraction | None = None
    for pattern in itertools.product((-1, 0, 1), repeat=3):
        free = [i for i in range(3) if pattern[i] == 0]
        fixed = [[p * h * x for x in col]
                 for p, h, col in zip(pattern, half, cols, strict=True) if p]
        target = [r - sum((f[k] for f in fixed), Fraction(0)) for k, r in enumerate(rel)]
        u = _least_squares([cols[i] for i in free], target)
        if any(abs(x) > half[i] for x, i in zip(u, free, strict=True)):
            continue
        near = [sum((x * cols[i][k] for x, i in zip(u, free, strict=True)), Fraction(0))
                for k in range(3)]
        d2 = sum(((t - n) ** 2 for t, n in zip(target, near, strict=True)), Fraction(0))
        best = d2 if best is None or d2 < best else best
    assert best is not None  # the box's centre piece (all free) or a corner always qualifies
    return best


def _least_squares(cols: list[Vector], target: Vector) -> Vector:
    """Coefficients x minimising |sum_i x_i cols[i] - target| (independent cols), exactly."""
    n = len(cols)
    g = [[dot(a, b) for b in cols] + [dot(a, target)] for a in cols]
    for i in range(n):  # Gauss-Jordan on the normal equations
        g[i] = [x / g[i][i] for x in g[i]]
        for r in range(n):
            if r != i:
                g[r] = [x - g[r][i] * y for x, y in zip(g[r], g[i], strict=True)]
    return [g[i][n] for i in range(n)]


def sphere_class(box: tuple[Any, ...], center: Any, radius: float) -> int:
    """NONE (0), INTERSECT (1) or INCLUDE (2: the ball in the box's open interior) of the
    closed ball and the closed box, exactly."""
    if is_empty(box):
        return 0
    r = Fraction(float(radius))
    if squared_distance(box, center) > r * r:
        return 0
    # in the open interior iff, for each face plane, the centre is farther than r inside it
    c, axes, half = frame(box)
    u = local((c, axes, half), exact(center))
    norms = [dot(a, a) for a in axes]  # |axes[i] . (p - c)| < h_i, scaled by |axes[i]|
    inside = all((h - abs(x)) > 0 and (h - abs(x)) ** 2 > r * r * n
                 for x, h, n in zip(u, half, norms, strict=True))
    return 2 if inside else 1


def plane_side(box: tuple[Any, ...], normal: Any, offset: float) -> int:
    """-1 / +1: the closed box lies strictly on that side of ``normal . p = offset``; 0: the
    plane meets it (corners exactly)."""
    n, o = exact(normal), Fraction(float(offset))
    values = [dot(n, c) - o for c in corners(box)]
    return -1 if max(values) < 0 else (1 if min(values) > 0 else 0)
