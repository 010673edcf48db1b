"""Why two boxes got their class: the separating-axis test on 15 axes, step by step.

:func:`explain_obb_obb` and its AABB variants explain ``classify_obb_obb`` /
``classify_aabb_aabb`` / ``classify_aabb_obb`` / ``classify_obb_aabb`` for one query box and
one box: each of the 15 candidate axes (Gottschalk, Lin & Manocha 1996; Ericson, Real-Time
Collision Detection 4.4.1), both boxes' projections onto it, whether it separates them, and the
rule that decides NONE, INTERSECT or INCLUDE. Everything is computed in rational arithmetic on
the exact values of the inputs, with no epsilon, so the verdict is the library's exact answer
(SEMANTICS.md); floats are given for drawing, intervals rounded outward.

An OBB is the set its floats describe: ``{p : |axes[i] . (p - center)| <= half_size_i}``. Its
face normals are the float rows ``a_i``; as the rows are orthonormal only within 1e-6 the set is
a parallelepiped, whose edges run along ``e_i = a_j x a_k`` ((i, j, k) cyclic) and whose
projection onto a direction ``L`` is ``L . center +- sum_i half_size_i |L . e_i| / |det|``
(``det = a_0 . e_0``). An AABB has the unit axes as normals and edges, and is never turned
into a centre and half size that round. Four functions rather than one taking either box: the
names pair with the ``classify_*`` functions they explain, and each argument list is that
function's.
"""

from __future__ import annotations

import math
from enum import IntEnum
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._exact import to_float
from ._rational_input import (
    Nums,
    Vec3,
    cross,
    dot,
    exact_box,
    exact_frame,
    nearest_float,
    nearest_floats,
)
from .results import IntersectionType

__all__ = ["BoxAxisTest", "BoxRule", "BoxSeparatingAxes", "explain_aabb_aabb",
           "explain_aabb_obb", "explain_obb_aabb", "explain_obb_obb"]


class BoxRule(IntEnum):
    """The rule that decides the class of a query box against a box."""

    #: NONE: on some axis the two projections are apart (a positive gap; touching is not
    #: apart), or one box projects to no interval (it is empty: ``min > max``, a negative
    #: half size).
    SEPARATING_AXIS = 0
    #: INTERSECT: no axis separates, and the query box reaches the box's boundary.
    TOUCHES_OR_CROSSES = 1
    #: INCLUDE: on each of the box's three face normals the query's projection lies strictly
    #: inside the box's: the query box is in the box's open interior.
    INSIDE = 2


#: the class each rule decides
BOX_RULE_CLASS = {
    BoxRule.SEPARATING_AXIS: IntersectionType.NONE,
    BoxRule.TOUCHES_OR_CROSSES: IntersectionType.INTERSECT,
    BoxRule.INSIDE: IntersectionType.INCLUDE,
}

#: names of the 15 axes, in the test's order: the query's face normals, the box's, then
#: query edge i x box edge j
BOX_AXIS_NAMES = (*(f"query normal {i}" for i in range(3)), *(f"box normal {j}" for j in range(3)),
                  *(f"query edge {i} x box edge {j}" for i in range(3) for j in range(3)))


class BoxAxisTest(NamedTuple):
    """One candidate separating axis and both boxes' projections onto it.

    ``axis`` is the (3,) float direction rounded to nearest (not normalised; exact as
    ``exact_axis``); ``zero`` marks an axis that is exactly zero (two parallel edges: it
    separates nothing and the test skips it). The projections are ``axis . p`` over each box:
    the query's ``[lo, hi]`` and the box's ``[box_lo, box_hi]``, exact as ``exact_lo`` ...
    ``exact_box_hi`` and rounded outward as floats (so the float interval holds the exact one).
    An empty box projects to ``lo > hi`` on the normal it is empty along. ``gap`` is
    ``max(box_lo - hi, lo - box_hi)`` (positive: apart by that much; zero: touching; negative:
    overlapping), exact as ``exact_gap``, rounded to nearest. ``separates``: the axis is not
    zero and the gap is positive or an interval is empty.
    """

    number: int
    name: str
    axis: np.ndarray
    exact_axis: Vec3
    zero: bool
    lo: float
    hi: float
    box_lo: float
    box_hi: float
    exact_lo: Fraction
    exact_hi: Fraction
    exact_box_lo: Fraction
    exact_box_hi: Fraction
    gap: float
    exact_gap: Fraction
    separates: bool


class BoxSeparatingAxes(NamedTuple):
    """The separating-axis test for a query box and a box (see :func:`explain_obb_obb`).

    ``axes`` are the 15 tests in order (``BOX_AXIS_NAMES``); ``separating`` is the number of
    the first that separates, or None. ``query_corners`` / ``box_corners`` are each box's eight
    corners (8, 3), rounded to nearest, for drawing (corner k takes ``+half`` on axis i where
    bit i of k is set); ``rule`` decides ``kind``, which equals the library's exact answer.
    """

    query_corners: np.ndarray
    box_corners: np.ndarray
    axes: tuple[BoxAxisTest, ...]
    separating: int | None
    rule: BoxRule
    kind: IntersectionType


class _Solid(NamedTuple):
    """A box as a parallelepiped: ``{p : |normals[i] . (p - center)| <= half[i]}``, edges along
    ``edges[i] = normals[j] x normals[k]``, ``det = normals[0] . edges[0]`` (exact)."""

    center: Nums
    normals: list[Vec3]
    edges: list[Vec3]
    half: Nums
    det: Fraction

    def interval(self, axis: Vec3) -> tuple[Fraction, Fraction]:
        """The projection ``[lo, hi]`` of the solid onto ``axis`` (lo > hi: it is empty)."""
        mid = dot(axis, self.center)
        widths = [abs(Fraction(dot(axis, e))) for e in self.edges]
        reach = dot(self.half, widths) / abs(self.det)
        return Fraction(mid - reach), Fraction(mid + reach)

    def corners(self) -> np.ndarray:
        """The eight corners ``center + sum_i +-half_i edges_i / det``, rounded to nearest."""
        out = np.empty((8, 3))
        for k in range(8):
            signs = [1 if k >> i & 1 else -1 for i in range(3)]
            out[k] = nearest_floats([
                self.center[d] + sum((s * h * e[d] for s, h, e in
                                      zip(signs, self.half, self.edges, strict=True)),
                                     Fraction(0)) / self.det
                for d in range(3)])
        return out


_UNITS: list[Vec3] = [(Fraction(1), Fraction(0), Fraction(0)),
                      (Fraction(0), Fraction(1), Fraction(0)),
                      (Fraction(0), Fraction(0), Fraction(1))]


def _aabb(box_min: ArrayLike, box_max: ArrayLike, min_name: str, max_name: str) -> _Solid:
    lo, hi = exact_box(box_min, box_max, min_name, max_name)
    if any(math.isinf(x) for x in (*lo, *hi)):
        raise ValueError(f"{min_name} / {max_name} hold the empty-box marker (an infinity): an "
                         "empty box projects to nothing to show (it classifies as NONE)")
    return _Solid([(a + b) / 2 for a, b in zip(lo, hi, strict=True)], _UNITS, _UNITS,
                  [(b - a) / 2 for a, b in zip(lo, hi, strict=True)], Fraction(1))


def _obb(center: ArrayLike, axes: ArrayLike, half_size: ArrayLike, prefix: str) -> _Solid:
    c, a, h = exact_frame(center, axes, half_size, prefix)
    normals: list[Vec3] = [(r[0], r[1], r[2]) for r in a]
    edges = [cross(normals[(i + 1) % 3], normals[(i + 2) % 3]) for i in range(3)]
    return _Solid(c, normals, edges, h, Fraction(dot(normals[0], edges[0])))


def _separating_axes(query: _Solid, box: _Solid) -> BoxSeparatingAxes:
    candidates = [*query.normals, *box.normals,
                  *(cross(e, f) for e in query.edges for f in box.edges)]
    tests: list[BoxAxisTest] = []
    for number, axis in enumerate(candidates):
        lo, hi = query.interval(axis)
        box_lo, box_hi = box.interval(axis)
        gap = max(box_lo - hi, lo - box_hi)
        zero = not any(axis)
        separates = not zero and (gap > 0 or lo > hi or box_lo > box_hi)
        tests.append(BoxAxisTest(
            number, BOX_AXIS_NAMES[number], nearest_floats(axis), axis, zero,
            to_float(lo, -1), to_float(hi, 1), to_float(box_lo, -1), to_float(box_hi, 1),
            lo, hi, box_lo, box_hi, nearest_float(gap), gap, separates))
    separating = next((t.number for t in tests if t.separates), None)
    if separating is not None:
        rule = BoxRule.SEPARATING_AXIS
    elif all(t.exact_box_lo < t.exact_lo and t.exact_hi < t.exact_box_hi for t in tests[3:6]):
        rule = BoxRule.INSIDE
    else:
        rule = BoxRule.TOUCHES_OR_CROSSES
    return BoxSeparatingAxes(query.corners(), box.corners(), tuple(tests), separating, rule,
                             BOX_RULE_CLASS[rule])


def explain_obb_obb(center: ArrayLike, axes: ArrayLike, half_size: ArrayLike,
                    box_center: ArrayLike, box_axes: ArrayLike,
                    box_half_size: ArrayLike) -> BoxSeparatingAxes:
    """Explain :func:`classify_obb_obb` for one query box and one box by 15 separating axes.

    The axes come in the test's order: the query's face normals (its rows ``axes[i]``), the
    box's (``box_axes[j]``), then ``e_i x f_j`` for the query's edge directions ``e_i`` and the
    box's ``f_j`` (each the cross product of the other two rows, exact for the parallelepiped
    the floats describe). The boxes are apart (NONE) iff on some axis their projections are
    apart: touching is not apart, and an axis that is exactly zero (parallel edges) is skipped
    -- with no epsilon, so a nearly-zero axis is decided exactly like any other. Otherwise the
    query lies in the box's open interior (INCLUDE) iff on each of the box's face normals its
    projection lies strictly inside the box's; else INTERSECT. A negative half size is an empty
    box, which projects to no interval on that normal: NONE, as the library answers.

    Parameters
    ----------
    center, box_center, half_size, box_half_size : (3,) array_like
    axes, box_axes : (3, 3) array_like
        Rows are the boxes' unit axes (orthonormal within 1e-6).

    Returns
    -------
    BoxSeparatingAxes
        Exact, in rationals; ``kind`` equals ``classify_obb_obb`` of the same arguments.

    Raises
    ------
    ValueError
        For a bad shape, a non-finite coordinate or axes that are not orthonormal.
    """
    return _separating_axes(_obb(center, axes, half_size, ""),
                            _obb(box_center, box_axes, box_half_size, "box_"))


def explain_aabb_aabb(min: ArrayLike, max: ArrayLike, box_min: ArrayLike,
                      box_max: ArrayLike) -> BoxSeparatingAxes:
    """Explain :func:`classify_aabb_aabb` by the same 15 axes as :func:`explain_obb_obb`.

    Both boxes' normals and edges are the unit axes, so the nine edge x edge axes are three
    zero axes (skipped) and six repeats of the normals: the answer is decided on x, y and z.
    ``min > max`` on an axis is an empty box (NONE); the infinite empty-box marker of
    ``AABB.empty()`` has no projections to show and is a ValueError.

    Returns
    -------
    BoxSeparatingAxes
        ``kind`` equals ``classify_aabb_aabb(min, max, box_min, box_max)``.
    """
    return _separating_axes(_aabb(min, max, "min", "max"),
                            _aabb(box_min, box_max, "box_min", "box_max"))


def explain_aabb_obb(min: ArrayLike, max: ArrayLike, box_center: ArrayLike, box_axes: ArrayLike,
                     box_half_size: ArrayLike) -> BoxSeparatingAxes:
    """Explain :func:`classify_aabb_obb` (an AABB query against an OBB) by the 15 axes of
    :func:`explain_obb_obb`; the AABB as in :func:`explain_aabb_aabb`.

    Returns
    -------
    BoxSeparatingAxes
        ``kind`` equals ``classify_aabb_obb(min, max, box_center, box_axes, box_half_size)``.
    """
    return _separating_axes(_aabb(min, max, "min", "max"),
                            _obb(box_center, box_axes, box_half_size, "box_"))


def explain_obb_aabb(center: ArrayLike, axes: ArrayLike, half_size: ArrayLike,
                     box_min: ArrayLike, box_max: ArrayLike) -> BoxSeparatingAxes:
    """Explain :func:`classify_obb_aabb` (an OBB query against an AABB) by the 15 axes of
    :func:`explain_obb_obb`; the AABB as in :func:`explain_aabb_aabb`.

    Returns
    -------
    BoxSeparatingAxes
        ``kind`` equals ``classify_obb_aabb(center, axes, half_size, box_min, box_max)``.
    """
    return _separating_axes(_obb(center, axes, half_size, ""),
                            _aabb(box_min, box_max, "box_min", "box_max"))
