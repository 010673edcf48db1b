"""Why a box got its answer: the slab method and the separating-axis test, step by step.

These functions explain one query for one box. They return every intermediate value a lesson
draws -- per axis the slab's parameter interval, their intersection [t0, t1] and the rule that
decides the class; or, for a triangle, each of the 13 candidate axes with both shapes'
projected intervals -- computed in rational arithmetic on the exact values of the inputs, so
the verdict they state is exactly the one ``classify_segment_aabb`` / ``triangle_overlaps_aabb``
return (SEMANTICS.md). Floats are given for drawing (the exact values rounded to nearest, +-inf
beyond the float range); the exact ``Fraction`` values sit beside them.

References: the slab method (Kay & Kajiya 1986; Williams et al. 2004), the separating axis
test for a triangle and a box (Akenine-Möller 2001).
"""

from __future__ import annotations

import math
from enum import IntEnum
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._rational_input import (
    Exact,
    Nums,
    Vec3,
    cross,
    dot,
    exact_box,
    exact_frame,
    exact_or_none,
    exact_vec,
    nearest_float,
    nearest_floats,
    to_frame,
)
from .results import IntersectionType

__all__ = [
    "AxisTest",
    "SeparatingAxes",
    "Slab",
    "SlabKind",
    "SlabRule",
    "Slabs",
    "explain_segment_aabb",
    "explain_segment_obb",
    "explain_triangle_aabb",
    "explain_triangle_obb",
]

class SlabKind(IntEnum):
    """What one axis's slab allows of the segment's line ``start + t (end - start)``."""

    #: A bounded interval [t_in, t_out] (the direction's component on this axis is not zero).
    INTERVAL = 0
    #: Every t: the component is zero and the line runs inside the slab (or on its planes).
    ALL_T = 1
    #: No t: the component is zero and the line runs outside the slab.
    NO_T = 2
    #: No t: the box is empty on this axis (``box_min > box_max``).
    EMPTY = 3


class SlabRule(IntEnum):
    """The rule that decides the class, in the slab method's terms."""

    #: NONE: the slab intervals share no t (t0 > t1, or a slab allows no t).
    NO_COMMON_T = 0
    #: NONE: the line meets the box, but [t0, t1] misses the segment's [0, 1].
    MISSES_SEGMENT = 1
    #: INTERSECT: t0 or t1 lies in [0, 1]: the segment reaches the box's boundary.
    CROSSES_BOUNDARY = 2
    #: INTERSECT: [0, 1] lies inside (t0, t1), but the segment runs in a face plane (a zero
    #: component with the line exactly on a slab plane), so it only touches the boundary.
    IN_FACE_PLANE = 3
    #: INCLUDE: [0, 1] lies inside (t0, t1): the segment is in the box's open interior.
    INSIDE = 4


#: the class each rule decides
RULE_CLASS = {
    SlabRule.NO_COMMON_T: IntersectionType.NONE,
    SlabRule.MISSES_SEGMENT: IntersectionType.NONE,
    SlabRule.CROSSES_BOUNDARY: IntersectionType.INTERSECT,
    SlabRule.IN_FACE_PLANE: IntersectionType.INTERSECT,
    SlabRule.INSIDE: IntersectionType.INCLUDE,
}


class Slab(NamedTuple):
    """One axis's slab ``box_min[axis] <= p[axis] <= box_max[axis]`` against the line.

    ``t_in`` / ``t_out`` bound the t where the line is in the slab: finite for ``INTERVAL``,
    ``-inf`` / ``+inf`` for ``ALL_T``, ``+inf`` / ``-inf`` (no t) for ``NO_T`` and ``EMPTY``.
    ``exact_in`` / ``exact_out`` are the exact values (None where infinite). ``on_plane`` is
    True for an ``ALL_T`` slab whose line lies exactly on one of its two planes.
    """

    axis: int
    kind: SlabKind
    t_in: float
    t_out: float
    exact_in: Fraction | None
    exact_out: Fraction | None
    on_plane: bool


class Slabs(NamedTuple):
    """The slab method for one segment and one box (see :func:`explain_segment_aabb`).

    ``slabs`` are the three axes in order x, y, z (the box's own axes u, v, w for an OBB, then
    ``frame == "box"``); ``t0 = max(t_in)``, ``t1 = min(t_out)`` (``-inf`` / ``+inf`` where no
    slab bounds them), with exact values ``exact_t0`` / ``exact_t1`` (None where infinite).
    ``start`` / ``end`` / ``box_min`` / ``box_max`` are the (3,) float coordinates in that frame.
    ``rule`` decides ``kind``, which equals the library's exact answer.
    """

    frame: str
    start: np.ndarray
    end: np.ndarray
    box_min: np.ndarray
    box_max: np.ndarray
    slabs: tuple[Slab, Slab, Slab]
    t0: float
    t1: float
    exact_t0: Fraction | None
    exact_t1: Fraction | None
    rule: SlabRule
    kind: IntersectionType

    def interval_after(self, axes: int) -> tuple[float, float]:
        """``(t0, t1)`` over the first ``axes`` slabs only (0 to 3): the interval as it shrinks
        while the method takes one axis after another; ``(-inf, inf)`` for none."""
        used = self.slabs[:axes]
        return (max((s.t_in for s in used), default=-math.inf),
                min((s.t_out for s in used), default=math.inf))


class AxisTest(NamedTuple):
    """One candidate separating axis and both shapes' projections onto it.

    ``axis`` is the (3,) float direction (not normalised; exact as ``exact_axis``);
    ``zero`` marks an axis that is exactly zero (it separates nothing and the test skips it).
    Projections are ``axis . p``: the triangle's ``[tri_min, tri_max]`` and the box's
    ``[box_lo, box_hi]``; ``gap`` is ``max(box_lo - tri_max, tri_min - box_hi)`` (positive:
    the intervals are apart by that much; zero: they touch; negative: they overlap).
    ``separates`` is ``exact gap > 0``, decided exactly (touching does not separate), or that
    the box projects to no interval (``box_lo > box_hi``: an empty OBB, a negative half size).
    """

    number: int
    name: str
    axis: np.ndarray
    exact_axis: Vec3
    zero: bool
    tri_min: float
    tri_max: float
    box_lo: float
    box_hi: float
    gap: float
    separates: bool


class SeparatingAxes(NamedTuple):
    """The separating-axis test for one triangle and one box (see
    :func:`explain_triangle_aabb`). ``separating`` is the number of the first axis, in the
    test's order, that separates the shapes, or None; ``overlaps`` is ``separating is None``,
    the library's exact answer. ``center`` is the box centre in that frame, where a lesson
    draws the axes through; ``vertices`` the (3, 3) triangle and ``box_min`` / ``box_max`` the
    box, in that frame (``frame`` is "world" or "box")."""

    frame: str
    vertices: np.ndarray
    box_min: np.ndarray
    box_max: np.ndarray
    center: np.ndarray
    axes: tuple[AxisTest, ...]
    separating: int | None
    overlaps: bool


# --- segment: the slab method ----------------------------------------------------------------
def _slabs(frame: str, s: Nums, e: Nums, lo: Nums, hi: Nums) -> Slabs:
    slabs: list[Slab] = []
    entries: list[Fraction | float] = []
    exits: list[Fraction | float] = []
    for i in range(3):
        d = e[i] - s[i]
        t_in: Exact
        t_out: Exact
        if lo[i] > hi[i]:
            kind, t_in, t_out, on_plane = SlabKind.EMPTY, math.inf, -math.inf, False
        elif d == 0:
            inside = lo[i] <= s[i] <= hi[i]
            kind = SlabKind.ALL_T if inside else SlabKind.NO_T
            t_in, t_out = (-math.inf, math.inf) if inside else (math.inf, -math.inf)
            on_plane = inside and s[i] in (lo[i], hi[i])
        else:
            near, far = (lo[i], hi[i]) if d > 0 else (hi[i], lo[i])
            kind, on_plane = SlabKind.INTERVAL, False
            t_in, t_out = (near - s[i]) / d, (far - s[i]) / d
        entries.append(t_in)
        exits.append(t_out)
        slabs.append(Slab(i, kind, nearest_float(t_in), nearest_float(t_out),
                          exact_or_none(t_in), exact_or_none(t_out), on_plane))
    t0, t1 = max(entries), min(exits)  # Fractions, or +-inf where no slab bounds them
    if t0 > t1:
        rule = SlabRule.NO_COMMON_T
    elif t1 < 0 or t0 > 1:
        rule = SlabRule.MISSES_SEGMENT
    elif t0 >= 0 or t1 <= 1:  # with t0 <= 1 and t1 >= 0: t0 or t1 lies in [0, 1]
        rule = SlabRule.CROSSES_BOUNDARY
    elif any(slab.on_plane for slab in slabs):
        rule = SlabRule.IN_FACE_PLANE
    else:
        rule = SlabRule.INSIDE
    return Slabs(frame, nearest_floats(s), nearest_floats(e), nearest_floats(lo),
                 nearest_floats(hi), (slabs[0], slabs[1], slabs[2]), nearest_float(t0),
                 nearest_float(t1), exact_or_none(t0), exact_or_none(t1), rule, RULE_CLASS[rule])


def explain_segment_aabb(start: ArrayLike, end: ArrayLike, box_min: ArrayLike,
                         box_max: ArrayLike) -> Slabs:
    """Explain :func:`classify_segment_aabb` for one segment and one box by the slab method.

    For each axis, the slab between the box's two planes on that axis holds the segment's line
    ``start + t (end - start)`` for t in [t_in, t_out] -- or, where the direction's component is
    zero, for every t ("all t", the line runs inside the slab) or none ("no t"). The line is in
    the box for t in [t0, t1] = [max t_in, min t_out], and the rule follows (SEMANTICS.md):
    NONE when the slabs share no t or [t0, t1] misses [0, 1]; INTERSECT when t0 or t1 lies in
    [0, 1], or when [0, 1] is inside (t0, t1) but the segment lies in a face plane; INCLUDE when
    [0, 1] is inside (t0, t1) otherwise. A point segment (start == end) has no bounded slab;
    an empty box (``box_min > box_max`` on an axis) gives that slab ``EMPTY``, hence NONE.

    Parameters
    ----------
    start, end : (3,) array_like
        The segment's endpoints (finite).
    box_min, box_max : (3,) array_like
        The closed box (``+inf`` / ``-inf`` only as ``AABB.empty()``'s empty-box marker).

    Returns
    -------
    Slabs
        Exact, in rationals; ``kind`` equals ``classify_segment_aabb(start, end, box_min,
        box_max)``.

    Raises
    ------
    ValueError
        For a shape other than (3,), a non-finite coordinate or a value float64 cannot hold.
    """
    s, e = exact_vec("start", start), exact_vec("end", end)
    lo, hi = exact_box(box_min, box_max)
    return _slabs("world", s, e, lo, hi)


def explain_segment_obb(start: ArrayLike, end: ArrayLike, center: ArrayLike, axes: ArrayLike,
                        half_size: ArrayLike) -> Slabs:
    """Explain :func:`classify_segment_obb` by the slab method in the box's own frame.

    The endpoints are mapped exactly to ``u = axes @ (p - center)``, where the box is
    ``[-half_size, half_size]``, and explained as :func:`explain_segment_aabb` does
    (``frame == "box"``, slabs along the box's axes). The map is affine, so every t means the
    same point of the segment in both frames. A negative half size is an empty box
    (SEMANTICS.md): that axis's slab is ``EMPTY``, hence NONE, as
    :func:`classify_segment_obb` answers.

    Parameters
    ----------
    start, end, center, half_size : (3,) array_like
    axes : (3, 3) array_like
        Rows are the box's unit axes (orthonormal within 1e-6).

    Returns
    -------
    Slabs
        ``kind`` equals ``classify_segment_obb(start, end, center, axes, half_size)``.

    Raises
    ------
    ValueError
        For a bad shape, a non-finite coordinate or axes that are not orthonormal.
    """
    s, e = exact_vec("start", start), exact_vec("end", end)
    c, a, h = exact_frame(center, axes, half_size)
    return _slabs("box", to_frame(s, c, a), to_frame(e, c, a), [-x for x in h], h)


# --- triangle: the separating axes -----------------------------------------------------------
#: names of the 13 axes, in the test's order: box normals, triangle normal, e_k x edge_j
AXIS_NAMES = ("box x", "box y", "box z", "triangle normal",
              *(f"{u} x edge {j}" for u in "xyz" for j in range(3)))


def _separating_axes(frame: str, verts: list[Nums], lo: Nums, hi: Nums) -> SeparatingAxes:
    edges = [[b - a for a, b in zip(verts[j], verts[(j + 1) % 3], strict=True)] for j in range(3)]
    one, zero_ = Fraction(1), Fraction(0)
    units: list[Vec3] = [(one, zero_, zero_), (zero_, one, zero_), (zero_, zero_, one)]
    candidates = [*units, cross(edges[0], edges[1]),
                  *(cross(u, edge) for u in units for edge in edges)]
    center = [(a + b) / 2 for a, b in zip(lo, hi, strict=True)]
    half = [(b - a) / 2 for a, b in zip(lo, hi, strict=True)]
    tests: list[AxisTest] = []
    for index, axis in enumerate(candidates):
        proj = [dot(axis, v) for v in verts]
        c = dot(axis, center)
        r = dot([x if x >= 0 else -x for x in axis], half)
        gap = max(c - r - max(proj), min(proj) - (c + r))
        zero = not any(axis)
        # an empty box (a negative half size) projects to no interval (c - r > c + r) on the
        # normal it is empty along: nothing of it lies there, so that axis separates
        separates = not zero and (gap > 0 or r < 0)
        tests.append(AxisTest(index, AXIS_NAMES[index], nearest_floats(axis), axis, zero,
                              nearest_float(min(proj)), nearest_float(max(proj)),
                              nearest_float(c - r), nearest_float(c + r), nearest_float(gap),
                              separates))
    separating = next((t.number for t in tests if t.separates), None)
    return SeparatingAxes(frame, np.array([nearest_floats(v) for v in verts]),
                          nearest_floats(lo), nearest_floats(hi), nearest_floats(center),
                          tuple(tests), separating, separating is None)


def explain_triangle_aabb(v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, box_min: ArrayLike,
                          box_max: ArrayLike) -> SeparatingAxes:
    """Explain :func:`triangle_overlaps_aabb` for one triangle and one box by separating axes.

    The 13 candidate axes come in the test's order: the box normals x, y, z, the triangle's
    normal ``(v1 - v0) x (v2 - v1)``, then ``e_k x edge_j`` for k = x, y, z and the edges
    ``edge_j = v_{j+1} - v_j`` (Akenine-Möller 2001). On each the triangle and the box project
    to intervals; the shapes are apart iff on some axis the intervals are apart (a positive
    gap: touching overlaps). An axis that is exactly zero (a degenerate triangle's normal, an
    edge parallel to a box axis) separates nothing. For a degenerate triangle (a segment or a
    point) the remaining axes still decide exactly.

    Parameters
    ----------
    v0, v1, v2 : (3,) array_like
        The triangle's vertices (finite).
    box_min, box_max : (3,) array_like
        A non-empty closed box.

    Returns
    -------
    SeparatingAxes
        Exact, in rationals; ``overlaps`` equals ``triangle_overlaps_aabb(v0, v1, v2,
        box_min, box_max)``.

    Raises
    ------
    ValueError
        For a shape other than (3,), a non-finite coordinate, or an empty box.
    """
    verts = [exact_vec(name, v) for name, v in (("v0", v0), ("v1", v1), ("v2", v2))]
    lo, hi = exact_box(box_min, box_max)
    if any(a > b for a, b in zip(lo, hi, strict=True)):
        raise ValueError("box_min must not exceed box_max: an empty box has no separating axes "
                         "to show (it overlaps nothing)")
    return _separating_axes("world", verts, lo, hi)


def explain_triangle_obb(v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, center: ArrayLike,
                         axes: ArrayLike, half_size: ArrayLike) -> SeparatingAxes:
    """Explain :func:`triangle_overlaps_obb` by separating axes in the box's own frame.

    The vertices are mapped exactly to ``u = axes @ (v - center)`` and explained as
    :func:`explain_triangle_aabb` does against ``[-half_size, half_size]`` (``frame ==
    "box"``: axes, vertices and projections are box-frame values). A negative half size is an
    empty box (SEMANTICS.md), which projects to no interval on the box normal it is negative
    along (``box_lo > box_hi`` there): that axis separates, and ``overlaps`` is False, as
    :func:`triangle_overlaps_obb` answers.

    Raises
    ------
    ValueError
        For a bad shape, a non-finite coordinate or non-orthonormal axes.
    """
    verts = [exact_vec(name, v) for name, v in (("v0", v0), ("v1", v1), ("v2", v2))]
    c, a, h = exact_frame(center, axes, half_size)
    return _separating_axes("box", [to_frame(v, c, a) for v in verts], [-x for x in h], h)
