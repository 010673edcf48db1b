"""geometry.explain against the exact reference and the library's own answers: every verdict,
every rule and every interval a lesson draws (SEMANTICS.md; the slab method and the separating
axes)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    IntersectionType,
    SlabKind,
    SlabRule,
    classify_segment_aabb,
    classify_segment_obb,
    explain_segment_aabb,
    explain_segment_obb,
    explain_triangle_aabb,
    explain_triangle_obb,
    triangle_overlaps_aabb,
    triangle_overlaps_obb,
)
from geometry.explain import AXIS_NAMES, RULE_CLASS
from tests.geometry import exact_reference as ref
from tests.strategies import (
    boxes,
    dyadic_coords,
    generic_coords,
    points,
    proper_boxes,
    rotations,
    segments_in_face_plane,
    segments_through_edge_or_corner,
    segments_touching,
    signed_permutation_matrices,
    signed_zero_directions,
    small_int_coords,
)

NONE, INTERSECT = IntersectionType.NONE, IntersectionType.INTERSECT
INCLUDE = IntersectionType.INCLUDE
BOX = (np.array([0.0, 0.0, 0.0]), np.array([2.0, 2.0, 2.0]))


def _q(x) -> Fraction | float:
    """Exact value of a float, keeping infinities."""
    return x if math.isinf(x) else Fraction(float(x))


def _round(q) -> float:
    """``q`` to the nearest float, +-inf beyond the float range (what a lesson draws)."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


# --- segments ---------------------------------------------------------------------------------
def check_slabs(ex, start, end, lo, hi, library_kind, reference_kind) -> None:
    """Every field of a Slabs against values derived here from the definitions."""
    assert ex.kind == reference_kind == library_kind, (
        f"expected class {reference_kind!r} (exact reference; library says {library_kind!r}), "
        f"explain says {ex.kind!r} by {ex.rule!r}")
    assert RULE_CLASS[ex.rule] == ex.kind, f"rule {ex.rule!r} cannot decide {ex.kind!r}"
    s, e = [_q(x) for x in start], [_q(x) for x in end]
    lo_q, hi_q = [_q(x) for x in lo], [_q(x) for x in hi]
    entries, exits, on_plane = [], [], False
    for i, slab in enumerate(ex.slabs):
        d = e[i] - s[i]
        assert slab.axis == i
        if lo_q[i] > hi_q[i]:
            want, t_in, t_out = SlabKind.EMPTY, math.inf, -math.inf
        elif d == 0:
            inside = lo_q[i] <= s[i] <= hi_q[i]
            want = SlabKind.ALL_T if inside else SlabKind.NO_T
            t_in, t_out = (-math.inf, math.inf) if inside else (math.inf, -math.inf)
            on_plane |= inside and (s[i] == lo_q[i] or s[i] == hi_q[i])
        else:
            want = SlabKind.INTERVAL
            t_in, t_out = sorted(((lo_q[i] - s[i]) / d, (hi_q[i] - s[i]) / d))
        assert slab.kind == want, f"axis {i}: expected {want!r}, got {slab.kind!r}"
        if want == SlabKind.INTERVAL:
            assert (slab.exact_in, slab.exact_out) == (t_in, t_out), (
                f"axis {i}: expected the slab [{t_in}, {t_out}], got "
                f"[{slab.exact_in}, {slab.exact_out}]")
            assert (slab.t_in, slab.t_out) == (_round(t_in), _round(t_out)), (
                f"axis {i}: the drawn t values must be the exact ones rounded to nearest")
        else:
            assert slab.exact_in is None and slab.exact_out is None
            assert (slab.t_in, slab.t_out) == (t_in, t_out)
        entries.append(t_in)
        exits.append(t_out)
    t0, t1 = max(entries), min(exits)
    assert (ex.exact_t0, ex.exact_t1) == tuple(None if isinstance(t, float) else t
                                               for t in (t0, t1))
    assert (ex.t0, ex.t1) == (_round(t0), _round(t1)) == ex.interval_after(3)
    # the rule, from the exact interval
    if t0 > t1:
        want_rule = SlabRule.NO_COMMON_T
        line = ref.line_interval(start, np.subtract(end, start), lo, hi)
        assert line is None, f"the slabs share no t, but the exact line interval is {line}"
    elif t1 < 0 or t0 > 1:
        want_rule = SlabRule.MISSES_SEGMENT
    elif 0 <= t0 <= 1 or 0 <= t1 <= 1:
        want_rule = SlabRule.CROSSES_BOUNDARY
    else:
        assert t0 < 0 and t1 > 1
        want_rule = SlabRule.IN_FACE_PLANE if on_plane else SlabRule.INSIDE
    assert ex.rule == want_rule, f"expected rule {want_rule!r}, got {ex.rule!r}"


def check_segment(start, end, box_min, box_max) -> None:
    ex = explain_segment_aabb(start, end, box_min, box_max)
    check_slabs(ex, start, end, box_min, box_max,
                classify_segment_aabb(start, end, box_min, box_max),
                ref.classify_segment_aabb(start, end, box_min, box_max))
    assert ex.frame == "world"
    back = explain_segment_aabb(end, start, box_min, box_max)
    assert back.kind == ex.kind, "reversing the segment changed the class"


@given(points(generic_coords), points(generic_coords), boxes(generic_coords, empty=True))
def test_random_segments(start, end, box):
    check_segment(start, end, *box)


@given(points(small_int_coords), points(small_int_coords), boxes(small_int_coords, empty=True))
def test_integer_segments(start, end, box):
    check_segment(start, end, *box)


@given(points(dyadic_coords), signed_zero_directions(), boxes(dyadic_coords))
def test_zero_direction_components(start, direction, box):
    check_segment(start, start + direction, *box)


@given(proper_boxes().flatmap(lambda b: st.tuples(st.just(b), st.one_of(
    segments_touching(b), segments_in_face_plane(b), segments_through_edge_or_corner(b)))))
def test_touching_face_plane_edge_and_corner_segments(case):
    box, (start, end) = case
    check_segment(start, end, *box)


@given(points(small_int_coords), boxes(small_int_coords))
def test_point_segments(p, box):
    check_segment(p, p.copy(), *box)


@pytest.mark.parametrize("start, end, kind, rule, slab_kinds", [
    # crosses the x = 0 face: t0 = 1/3 in [0, 1]
    ([-1, 1, 1], [2, 1, 1], INTERSECT, SlabRule.CROSSES_BOUNDARY, "IAA"),
    # strictly inside: [0, 1] inside (t0, t1)
    ([0.5, 0.5, 0.5], [1.5, 1.5, 1.0], INCLUDE, SlabRule.INSIDE, "III"),
    # the line misses: the x slab ends before the y slab begins
    ([-1, 3, 1], [3, 5, 1], NONE, SlabRule.NO_COMMON_T, "IIA"),
    # the line crosses the box, the segment stops short: [t0, t1] misses [0, 1]
    ([-4, 1, 1], [-3, 1, 1], NONE, SlabRule.MISSES_SEGMENT, "IAA"),
    # zero z component outside the z slab: "no t"
    ([-1, 1, 3], [3, 1, 3], NONE, SlabRule.NO_COMMON_T, "IAN"),
    # runs in the face plane y = 2 across the box: "all t" on its plane, INTERSECT
    ([0.5, 2, 1], [1.5, 2, 1], INTERSECT, SlabRule.IN_FACE_PLANE, "IAA"),
    # ends exactly on the face x = 2: t1 = 1
    ([1, 1, 1], [2, 1, 1], INTERSECT, SlabRule.CROSSES_BOUNDARY, "IAA"),
])
def test_named_cases(start, end, kind, rule, slab_kinds):
    start, end = np.array(start, float), np.array(end, float)
    ex = explain_segment_aabb(start, end, *BOX)
    assert (ex.kind, ex.rule) == (kind, rule), f"expected {kind!r} by {rule!r}, got {ex}"
    letter = {SlabKind.INTERVAL: "I", SlabKind.ALL_T: "A", SlabKind.NO_T: "N"}
    assert "".join(letter[s.kind] for s in ex.slabs) == slab_kinds
    check_segment(start, end, *BOX)


def test_interval_shrinks_axis_by_axis():
    ex = explain_segment_aabb([-1.0, -0.5, 0.25], [3.0, 2.5, 1.75], *BOX)
    steps = [ex.interval_after(k) for k in range(4)]
    assert steps[0] == (-math.inf, math.inf)
    assert steps[1] == (0.25, 0.75) and steps[2] == (0.25, 0.75) and steps[3] == (0.25, 0.75)
    for (a0, a1), (b0, b1) in zip(steps, steps[1:], strict=False):
        assert b0 >= a0 and b1 <= a1, f"the interval must only shrink: {steps}"


def test_empty_box_and_flat_box():
    empty = explain_segment_aabb([0, 0, 0], [1, 1, 1], [np.inf] * 3, [-np.inf] * 3)
    assert empty.kind == NONE and empty.rule == SlabRule.NO_COMMON_T
    assert all(s.kind == SlabKind.EMPTY for s in empty.slabs)
    flat = explain_segment_aabb([-1, 1, 1], [3, 1, 1], [1, 0, 0], [1, 2, 2])
    assert flat.kind == INTERSECT and flat.t0 == flat.t1 == 0.5


def test_huge_and_tiny_values_round_for_drawing_only():
    # t = (1e300 - 0) / 1e-300 is far beyond the float range: drawn as +inf, decided exactly
    start, end = [0.0, 1.0, 1.0], [1e-300, 1.0, 1.0]
    lo, hi = [1e300, 0.0, 0.0], [2e300, 2.0, 2.0]
    ex = explain_segment_aabb(start, end, lo, hi)
    assert ex.slabs[0].t_in == math.inf and ex.slabs[0].exact_in == Fraction(1e300) / Fraction(
        1e-300)
    check_segment(start, end, lo, hi)


def test_float32_and_integer_inputs_are_exact():
    third = np.float32(1) / np.float32(3)
    start = np.array([third, 0.5, 0.5], dtype=np.float32)
    end = start + np.float32(1)  # rounded in float32: explain must use it as given
    ex = explain_segment_aabb(start, end, [0, 0, 0], [1, 1, 1])
    s, e = Fraction(float(start[0])), Fraction(float(end[0]))
    assert ex.slabs[0].exact_out == (1 - s) / (e - s) != (1 - s)
    big = 2**60 + 1  # not a float64: answered exactly from the integer
    ex = explain_segment_aabb([big, 0, 0], [big + 2, 0, 0], [big + 1, -1, -1], [big + 1, 1, 1])
    assert ex.kind == INTERSECT and ex.slabs[0].exact_in == Fraction(1, 2)


@given(points(small_int_coords), points(small_int_coords), points(small_int_coords),
       st.one_of(signed_permutation_matrices(), rotations()),
       points(st.integers(0, 4).map(float)))
def test_obb_segments(start, end, center, axes, half):
    got = explain_segment_obb(start, end, center, axes, half)
    assert got.frame == "box"
    lib = classify_segment_obb(start, end, center, axes, half)
    want = ref.classify_segment_obb(start, end, center, axes, half)
    u = [ref.to_box_frame(p, center, axes) for p in (start, end)]
    assert got.kind == want == lib, f"expected {want!r} (library {lib!r}), got {got.kind!r}"
    # the same rule and slabs as the AABB explanation of the exact box-frame segment
    local = [[float(x) for x in p] for p in u]
    exact_floats = all(Fraction(a) == b for p, q in zip(local, u, strict=True)
                       for a, b in zip(p, q, strict=True))
    if exact_floats:
        check_slabs(got, *local, -half, half, lib, want)


# --- triangles --------------------------------------------------------------------------------
@st.composite
def triangles(draw, coords=small_int_coords):
    """Proper, collinear and coincident triangles from small integers."""
    v0, v1 = draw(points(coords)), draw(points(coords))
    kind = draw(st.sampled_from(["proper", "collinear", "point", "edge"]))
    if kind == "collinear":
        return v0, v1, v0 + draw(st.sampled_from([-1.0, 0.5, 2.0])) * (v1 - v0)
    if kind == "point":
        return v0, v0.copy(), v0.copy()
    if kind == "edge":
        return v0, v1, v1.copy()
    return v0, v1, draw(points(coords))


def check_triangle(v0, v1, v2, lo, hi, got, library) -> None:
    want = ref.triangle_overlaps_aabb(v0, v1, v2, lo, hi)
    assert got.overlaps == want == library, (
        f"expected overlap={want} (library {library}), explain says {got.overlaps} with "
        f"separating axis {got.separating}")
    assert [a.name for a in got.axes] == list(AXIS_NAMES) and len(AXIS_NAMES) == 13
    verts = [ref.exact_vec(v) for v in (v0, v1, v2)]
    lo_q, hi_q = ref.exact_vec(lo), ref.exact_vec(hi)
    center = tuple((a + b) / 2 for a, b in zip(lo_q, hi_q, strict=True))
    half = tuple((b - a) / 2 for a, b in zip(lo_q, hi_q, strict=True))
    edges = [tuple(b - a for a, b in zip(verts[j], verts[(j + 1) % 3], strict=True))
             for j in range(3)]
    unit = [tuple(Fraction(int(i == k)) for i in range(3)) for k in range(3)]
    want_axes = unit + [ref._cross(edges[0], edges[1])] + [ref._cross(u, e) for u in unit
                                                           for e in edges]
    first = None
    for test, axis in zip(got.axes, want_axes, strict=True):
        assert tuple(test.exact_axis) == axis, f"{test.name}: expected axis {axis}"
        assert test.zero == (axis == (0, 0, 0))
        separates = not test.zero and ref._separated_on_axis(axis, verts, center, half)
        assert test.separates == separates, f"{test.name}: expected separates={separates}"
        proj = [ref._dot(axis, v) for v in verts]
        assert (test.tri_min, test.tri_max) == (_round(min(proj)), _round(max(proj)))
        c = ref._dot(axis, center)
        r = sum(abs(a) * h for a, h in zip(axis, half, strict=True))
        assert (test.box_lo, test.box_hi) == (_round(c - r), _round(c + r))
        assert (test.gap > 0) == separates or test.zero
        if separates and first is None:
            first = test.number
    assert got.separating == first, f"expected the first separating axis {first}"


@given(triangles(), boxes(small_int_coords))
def test_triangles_against_reference(tri, box):
    got = explain_triangle_aabb(*tri, *box)
    assert got.frame == "world"
    check_triangle(*tri, *box, got, triangle_overlaps_aabb(*tri, *box))


@given(triangles(dyadic_coords), boxes(dyadic_coords))
def test_dyadic_triangles_against_reference(tri, box):
    check_triangle(*tri, *box, explain_triangle_aabb(*tri, *box),
                   triangle_overlaps_aabb(*tri, *box))


@pytest.mark.parametrize("tri, separating", [
    (([3, 0, 0], [4, 0, 0], [3, 1, 0]), 0),  # beyond x = 2: the box's x normal
    (([0, 3, 0], [1, 3, 1], [1, 3, 0]), 1),  # above: y
    (([3, 3, 3], [3, 3, -1], [-1, 3, 3]), 1),
    (([6.5, 0, 0], [0, 6.5, 0], [0, 0, 6.5]), 3),  # passes the corner: its plane separates
    (([2, 0, 0], [3, 1, 1], [2, 2, 2]), None),  # touches the face x = 2: overlap
    (([1, 1, 1], [1, 1, 1], [1, 1, 1]), None),  # a point inside
])
def test_named_triangles(tri, separating):
    got = explain_triangle_aabb(*tri, *BOX)
    assert got.separating == separating, f"expected separating axis {separating}, got {got}"
    check_triangle(*(np.array(v, float) for v in tri), *BOX, got,
                   triangle_overlaps_aabb(*tri, *BOX))


def test_edge_axis_separates():
    # no box normal and not the triangle's plane separates these: x x edge 0 is the first
    tri = ([-2.0, 3.0, 0.0], [1.0, 0.0, -1.0], [2.0, 0.0, -2.0])
    got = explain_triangle_aabb(*tri, *BOX)
    check_triangle(*(np.array(v) for v in tri), *BOX, got, triangle_overlaps_aabb(*tri, *BOX))
    assert got.separating == 4 and got.axes[4].gap == 1.0, got.separating


@given(triangles(), points(small_int_coords), signed_permutation_matrices(),
       points(st.integers(0, 3).map(float)))
def test_obb_triangles(tri, center, axes, half):
    got = explain_triangle_obb(*tri, center, axes, half)
    assert got.frame == "box"
    want = ref.triangle_overlaps_obb(*tri, center, axes, half)
    assert got.overlaps == want == triangle_overlaps_obb(*tri, center, axes, half)


# --- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda: explain_segment_aabb([0, 0], [1, 1, 1], *BOX), "start must have shape (3,)"),
    (lambda: explain_segment_aabb([0, 0, np.nan], [1, 1, 1], *BOX), "start must be finite"),
    (lambda: explain_segment_aabb([0, 0, 0], [1, 1, 1], [-np.inf, 0, 0], [1, 1, 1]), "box_min"),
    (lambda: explain_segment_aabb([0, 0, 0], [1, 1, 1], [0, 0, 0], [np.inf, 1, 1]), "box_max"),
    (lambda: explain_segment_aabb(["a", "b", "c"], [1, 1, 1], *BOX), "start"),
    (lambda: explain_segment_obb([0, 0, 0], [1, 1, 1], [0, 0, 0], np.eye(3) * 2, [1, 1, 1]),
     "orthonormal"),
    (lambda: explain_segment_obb([0, 0, 0], [1, 1, 1], [0, 0, 0], np.eye(2), [1, 1, 1]),
     "axes must have shape (3, 3)"),
    (lambda: explain_triangle_aabb([0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 1], [0, 0, 0]),
     "empty box"),
    (lambda: explain_segment_aabb(np.array([1, 2, 3], dtype=np.longdouble) / 3, [1, 1, 1], *BOX),
     "float64 cannot represent"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


# --- an OBB with a negative half size is the empty box, as the queries treat it --------------
@pytest.mark.parametrize("half, axis", [([1, -1, 1], 1), ([-1, 1, 1], 0), ([1, 1, -0.5], 2),
                                        ([-1, -1, -1], 0)])
def test_triangle_obb_with_a_negative_half_size_is_empty(half, axis):
    tri = ([0, 0, 0], [1, 0, 0], [0, 1, 0])  # through the box's centre
    got = explain_triangle_obb(*tri, [0, 0, 0], np.eye(3), half)
    assert triangle_overlaps_obb(*tri, [0, 0, 0], np.eye(3), half) is False
    assert got.overlaps is False and got.separating == axis, \
        f"expected the empty box separated on box axis {axis}, got {got.separating}"
    test = got.axes[axis]
    assert test.box_lo > test.box_hi and test.separates, \
        f"expected an empty box interval on axis {axis}, got [{test.box_lo}, {test.box_hi}]"


@pytest.mark.parametrize("half", [[1, -1, 1], [-1e-300, 1, 1], [-1, -1, -1]])
def test_segment_obb_with_a_negative_half_size_is_empty(half):
    segment = ([-2, 0, 0], [2, 0, 0])  # through the box's centre
    got = explain_segment_obb(*segment, [0, 0, 0], np.eye(3), half)
    assert classify_segment_obb(*segment, [0, 0, 0], np.eye(3), half) == NONE
    assert got.kind == NONE and got.rule == SlabRule.NO_COMMON_T, got
    assert any(s.kind == SlabKind.EMPTY for s in got.slabs), \
        f"expected an EMPTY slab where the half size is negative, got {got.slabs}"


@given(triangles(), points(small_int_coords), signed_permutation_matrices(),
       points(st.integers(-2, 2).map(float)))
def test_obb_with_any_half_sizes_agrees_with_the_queries(tri, center, axes, half):
    """Negative half sizes included: explain's verdict is the queries' (an empty box overlaps
    nothing), for triangles and for segments (the first two vertices)."""
    got = explain_triangle_obb(*tri, center, axes, half)
    assert got.overlaps == triangle_overlaps_obb(*tri, center, axes, half)
    segment = explain_segment_obb(tri[0], tri[1], center, axes, half)
    assert segment.kind == classify_segment_obb(tri[0], tri[1], center, axes, half)
