"""geometry.explain_boxes against an exact reference built here from the boxes' corners: every
verdict, every projection interval, and that the separating axis it names really separates."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    BoxRule,
    IntersectionType,
    classify_aabb_aabb,
    classify_aabb_obb,
    classify_obb_aabb,
    classify_obb_obb,
    explain_aabb_aabb,
    explain_aabb_obb,
    explain_obb_aabb,
    explain_obb_obb,
)
from geometry.explain_boxes import BOX_AXIS_NAMES, BOX_RULE_CLASS
from tests.strategies import (
    batches,
    boxes,
    dyadic_coords,
    half_sizes_dyadic,
    points,
    rotations,
    signed_permutation_matrices,
    small_int_coords,
)

NONE, INTERSECT = IntersectionType.NONE, IntersectionType.INTERSECT
INCLUDE = IntersectionType.INCLUDE
EXPLAIN = {("aabb", "aabb"): explain_aabb_aabb, ("aabb", "obb"): explain_aabb_obb,
           ("obb", "aabb"): explain_obb_aabb, ("obb", "obb"): explain_obb_obb}
#: the library's functions that explain explains
LIBRARY = {("aabb", "aabb"): classify_aabb_aabb, ("aabb", "obb"): classify_aabb_obb,
           ("obb", "aabb"): classify_obb_aabb, ("obb", "obb"): classify_obb_obb}


# --- the reference: boxes as their corners ------------------------------------------------
def _q(v) -> list[Fraction]:
    return [Fraction(float(x)) for x in v]


def _det(m) -> Fraction:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _solve(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """``x`` with ``rows @ x == rhs`` (Cramer's rule, exact)."""
    d = _det(rows)
    return [_det([[rhs[i] if k == j else rows[i][k] for k in range(3)] for i in range(3)]) / d
            for j in range(3)]


def as_planes(kind: str, box) -> tuple[list[list[Fraction]], list[Fraction], list[Fraction]]:
    """A box as ``(normals, center, half)``: ``{p : |normals[i] . (p - center)| <= half[i]}``."""
    if kind == "aabb":
        lo, hi = _q(box[0]), _q(box[1])
        eye = [[Fraction(int(i == j)) for j in range(3)] for i in range(3)]
        return eye, [(a + b) / 2 for a, b in zip(lo, hi, strict=True)], [
            (b - a) / 2 for a, b in zip(lo, hi, strict=True)]
    center, axes, half = box
    return [_q(row) for row in axes], _q(center), _q(half)


def inverse_columns(normals) -> list[list[Fraction]]:
    """The columns of ``normals``' inverse: the box's edge directions over its determinant."""
    return [_solve(normals, [Fraction(int(i == j)) for j in range(3)]) for i in range(3)]


def corners(cols, center, half) -> list[list[Fraction]]:
    """The eight points with ``normals[i] . (p - center) = +-half[i]``: the centre plus signed
    multiples of the inverse's columns."""
    return [[c + sum((s * h * col[k] for s, h, col in zip(signs, half, cols, strict=True)),
                     Fraction(0)) for k, c in enumerate(center)]
            for signs in itertools.product((-1, 1), repeat=3)]


def reference(query, box) -> tuple[int, list | None]:
    """The class, by definition: NONE iff some candidate axis parts the corner projections
    (the separating-axis theorem for two parallelepipeds), INCLUDE iff every corner of the
    query lies strictly inside the box's slabs; and both boxes' corner spans per axis."""
    (qn, qc, qh), (bn, bc, bh) = query, box
    if min(qh) < 0 or min(bh) < 0:
        return NONE, None
    q_cols, b_cols = inverse_columns(qn), inverse_columns(bn)
    qp, bp = corners(q_cols, qc, qh), corners(b_cols, bc, bh)
    # edge directions: the inverse's columns scaled by the determinant (the adjugate's columns)
    edges = [[[d * x for x in col] for col in cols]
             for d, cols in ((_det(qn), q_cols), (_det(bn), b_cols))]
    axes = [*qn, *bn, *([e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2],
                          e[0] * f[1] - e[1] * f[0]] for e in edges[0] for f in edges[1])]
    spans = []
    for axis in axes:
        a = [sum(x * y for x, y in zip(axis, p, strict=True)) for p in qp]
        b = [sum(x * y for x, y in zip(axis, p, strict=True)) for p in bp]
        spans.append(((min(a), max(a)), (min(b), max(b))))
    if any(any(axis) and (lo > b_hi or b_lo > hi) for axis, ((lo, hi), (b_lo, b_hi))
           in zip(axes, spans, strict=True)):
        return NONE, spans
    inside = all(abs(sum(n * (x - c) for n, x, c in zip(bn[i], p, bc, strict=True))) < bh[i]
                 for p in qp for i in range(3))
    return (INCLUDE if inside else INTERSECT), spans


def check(kinds, query, box) -> IntersectionType:
    """explain's answer against the reference, field by field; returns its class."""
    got = EXPLAIN[kinds](*query, *box)
    want, spans = reference(as_planes(kinds[0], query), as_planes(kinds[1], box))
    assert got.kind == want, f"expected {want!r} for {kinds} {query} {box}, explain says {got}"
    assert BOX_RULE_CLASS[got.rule] == got.kind, f"rule {got.rule!r} cannot decide {got.kind!r}"
    assert len(got.axes) == 15 and [t.name for t in got.axes] == list(BOX_AXIS_NAMES)
    first = next((t.number for t in got.axes if t.separates), None)
    assert got.separating == first, f"expected the first separating axis {first}: {got}"
    if spans is None:  # an empty box: some interval is empty on the axis named
        t = got.axes[got.separating]
        assert t.exact_lo > t.exact_hi or t.exact_box_lo > t.exact_box_hi, t
        return got.kind
    for t, ((lo, hi), (b_lo, b_hi)) in zip(got.axes, spans, strict=True):
        assert (t.exact_lo, t.exact_hi, t.exact_box_lo, t.exact_box_hi) == (lo, hi, b_lo, b_hi), (
            f"expected axis {t.number}'s projections [{lo}, {hi}] and [{b_lo}, {b_hi}] (corners)")
        assert t.zero == (not any(t.exact_axis)), t
        assert t.exact_gap == max(b_lo - hi, lo - b_hi)
        assert t.separates == (not t.zero and t.exact_gap > 0), t
        assert t.lo <= lo and t.hi >= hi and t.box_lo <= b_lo and t.box_hi >= b_hi, (
            f"expected the float intervals to hold the exact ones: {t}")
    if got.separating is not None:  # that axis really parts every corner of one from the other
        t = got.axes[got.separating]
        assert t.exact_gap > 0 and not t.zero
    return got.kind


# --- hypothesis --------------------------------------------------------------------------------
def obbs():
    """Dyadic centres and half sizes; exact (signed permutation) or rounded (rotation) axes."""
    axes = st.one_of(signed_permutation_matrices(), rotations())
    return st.tuples(points(dyadic_coords), axes, half_sizes_dyadic)


def aabbs():
    """Boxes on a half-integer grid: touching, flat and nested boxes are common."""
    return boxes(small_int_coords, flat=True).map(lambda b: (b[0] / 2, b[1] / 2))


PAIRS = st.sampled_from(list(EXPLAIN)).flatmap(lambda kinds: st.tuples(
    st.just(kinds), aabbs() if kinds[0] == "aabb" else obbs(),
    aabbs() if kinds[1] == "aabb" else obbs()))


@given(batches(PAIRS, max_size=3))
def test_explain_agrees_with_the_corner_reference_and_the_library(cases):
    got = [check(kinds, query, box) for kinds, query, box in cases]
    for kinds, classify in LIBRARY.items():  # one batched call per function
        picked = [i for i, case in enumerate(cases) if case[0] == kinds]
        if picked:
            args = [np.stack([cases[i][k][j] for i in picked])
                    for k in (1, 2) for j in range(len(cases[picked[0]][k]))]
            library = classify(*args).tolist()
            want = [got[i] for i in picked]
            assert library == want, (
                f"expected {classify.__name__} to give explain's classes {want}, got {library}")


# --- named cases -------------------------------------------------------------------------------
def rot_z(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])


EYE, ONE = np.eye(3), np.ones(3)
UNIT = (np.zeros(3), np.ones(3))
BELOW_1, ABOVE_0 = math.nextafter(1.0, 0.0), math.nextafter(0.0, 1.0)
# a box rotated 45 degrees about z, tilted by 0.01 rad: its z edge and the unit cube's z edge are
# nearly parallel, and at this centre only their cross product (axis 13) separates the boxes
TILTED = np.array([[0.7056626917936305, 0.7085364326570582, 0.004035964342957951],
                   [-0.7085460555377021, 0.7056624728147656, 0.0017209424493074932],
                   [-0.0016286781546035263, -0.004074071496693906, 0.9999903746281305]])

NAMED = [
    # (kinds, query, box, class, first separating axis)
    (("aabb", "aabb"), UNIT, ([1.0, 0, 0], [2.0, 1, 1]), INTERSECT, None),  # touching faces
    (("aabb", "aabb"), UNIT, ([1.0, 1, 0], [2.0, 2, 1]), INTERSECT, None),  # touching edges
    (("aabb", "aabb"), UNIT, ([1.0, 1, 1], [2.0, 2, 2]), INTERSECT, None),  # touching corners
    (("aabb", "aabb"), ([1.0, 0, 0], [1.0, 1, 1]), UNIT, INTERSECT, None),  # flat, in a face
    (("aabb", "aabb"), ([math.nextafter(1.0, 2.0), 0, 0], [2.0, 1, 1]), UNIT, NONE, 0),  # 1 ulp
    (("aabb", "aabb"), ([ABOVE_0] * 3, [BELOW_1] * 3), UNIT, INCLUDE, None),  # one ulp inside
    (("aabb", "aabb"), ([0.0, ABOVE_0, ABOVE_0], [BELOW_1] * 2 + [BELOW_1]), UNIT, INTERSECT,
     None),  # on the face x = 0
    (("aabb", "aabb"), ([0.5, 0.5, 0.5], [0.25, 0.75, 0.75]), UNIT, NONE, 0),  # empty query
    (("obb", "obb"), ([0, 0, 0], rot_z(30), ONE), ([0, 0, 0.0], rot_z(30), ONE * 2), INCLUDE,
     None),  # same frame: the parallel edges' axes are exactly zero
    (("obb", "obb"), ([0, 0, 0], EYE, ONE), ([3.0, 0, 0], -EYE, ONE), NONE, 0),  # anti-parallel
    (("obb", "obb"), ([0, 0, 0], EYE, ONE), ([2.0, 2, 0], EYE[[1, 0, 2]], ONE), INTERSECT,
     None),  # parallel edges touching along z
    (("obb", "obb"), ([0, 0, 0], EYE, ONE),
     ([1.7099563599300058, 1.7099563599300058, 0.0], TILTED, ONE), NONE, 13),  # nearly parallel
    (("obb", "obb"), ([0, 0, 0], EYE, [1.0, -1, 1]), ([0, 0, 0], EYE, ONE), NONE, 1),  # empty
    (("obb", "obb"), ([0, 0, 0], EYE[[2, 0, 1]], [BELOW_1] * 3), ([0, 0, 0], -EYE, ONE),
     INCLUDE, None),  # one ulp inside, frames permuted and flipped
    (("obb", "obb"), ([0, 0, 0], EYE[[2, 0, 1]], [BELOW_1, 1, BELOW_1]), ([0, 0, 0], -EYE, ONE),
     INTERSECT, None),  # one face shared
    (("aabb", "obb"), ([0.375] * 3, [0.625] * 3), ([0.5] * 3, rot_z(45), [0.5] * 3), INCLUDE,
     None),
    (("aabb", "obb"), UNIT, ([0.5] * 3, rot_z(45), [0.125] * 3), INTERSECT, None),  # holds it
    (("obb", "aabb"), ([0.5] * 3, rot_z(45), [0.125] * 3), UNIT, INCLUDE, None),
    (("obb", "aabb"), ([0.5] * 3, rot_z(45), [0.5] * 3), UNIT, INTERSECT, None),
    (("obb", "aabb"), ([0.5, 0.5, 3.0], rot_z(45), [0.5] * 3), UNIT, NONE, 2),
]


@pytest.mark.parametrize("kinds, query, box, kind, separating", NAMED)
def test_named_cases(kinds, query, box, kind, separating):
    got = check(kinds, query, box)
    ex = EXPLAIN[kinds](*query, *box)
    if kinds in LIBRARY:
        assert LIBRARY[kinds](*query, *box) == got, f"expected the library to answer {got!r}"
    assert got == kind and ex.separating == separating, (
        f"expected {kind!r} with first separating axis {separating}, got {ex.kind!r}, "
        f"{ex.separating} by {ex.rule!r}")
    assert ex.rule == {NONE: BoxRule.SEPARATING_AXIS, INTERSECT: BoxRule.TOUCHES_OR_CROSSES,
                       INCLUDE: BoxRule.INSIDE}[kind]


def test_parallel_edges_give_exactly_zero_axes():
    ex = explain_obb_obb([0, 0, 0], rot_z(30), ONE, [5.0, 0, 0], rot_z(30), ONE)
    assert [t.number for t in ex.axes if t.zero] == [6, 10, 14], (
        "expected the three edge x edge axes of the shared frame to be exactly zero")
    assert ex.query_corners.shape == ex.box_corners.shape == (8, 3)


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda: explain_obb_obb([0, 0, 0], EYE, ONE, [0, 0, 0], EYE * 2, ONE), "box_axes"),
    (lambda: explain_obb_aabb([0, 0, 0], EYE, ONE, [0, 0], [1, 1, 1]), "box_min"),
    (lambda: explain_aabb_obb([0, 0, np.nan], ONE, [0, 0, 0], EYE, ONE), "min"),
    (lambda: explain_aabb_aabb([np.inf] * 3, [-np.inf] * 3, *UNIT), "empty-box marker"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
