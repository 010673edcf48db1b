"""Separating axes of two boxes, for the box vs box queries with an oriented box (obb_obb,
aabb_obb, obb_aabb).

Two convex polyhedra are disjoint iff a plane parallel to a face of one, or to an edge of
each, separates them; for two boxes that leaves fifteen axes: three face normals of each and
the nine cross products of an edge of one with an edge of the other (Gottschalk, Lin & Manocha,
"OBBTree", SIGGRAPH 1996; Ericson, Real-Time Collision Detection 4.4.1). An OBB is the
parallelepiped ``{p : |axes[i] . (p - center)| <= half_size_i}`` of its float rows: its face
normals are the rows, its edges the cross products of two rows (``axes[j] x axes[k]``), and an
AABB is one with the identity's rows.

``box_margins`` is the float test in the frame of one box (an affine map keeps intersection
and interior): there that box is ``[-p, p]`` and the other the parallelepiped ``t + M [-q, q]``
(``M``'s columns its edges in the frame, the rows of ``M^-1`` its face normals), and the
filter uses one matrix ``R`` for ``M`` and for ``M^-1`` transposed, exact for orthonormal rows
and within the axes' orthonormality defect otherwise (``_tolerances.BOX_SAT_ROUNDING``).
``classify_boxes_exact`` is the test in integers on the floats' exact values, with the
parallelepipeds' own normals and edges and no approximation: an edge x edge axis that is zero
is skipped, one that is merely small decides like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._exact import scaled
from ._floats import axes_residuals, jitable, residuals_small
from ._frame import rotate
from ._tolerances import (
    BOX_SAT_DEFECT,
    BOX_SAT_ROUNDING,
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
)

__all__ = ["aabb_ints", "aabb_obb_class", "aabb_obb_exact", "axes_defect", "box_bound",
           "box_class", "box_margins", "classify_boxes_exact", "obb_ints", "zero_pairs"]

_INF = float("inf")


@jitable
def axes_defect(a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
                a20: float, a21: float, a22: float) -> tuple[bool, float]:
    """``(ok, defect)``: whether the rows are orthonormal within ORTHONORMAL_ATOL
    (:func:`._floats.residuals_small`, the rule the engine's value check applies), and the
    largest computed residual ``|row_i . row_j - delta_ij|``, for the filters' bound."""
    r0, r1, r2, r3, r4, r5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    r0, r1, r2, r3, r4, r5 = abs(r0), abs(r1), abs(r2), abs(r3), abs(r4), abs(r5)
    m = r0 if r0 > r1 else r1
    m = m if m > r2 else r2
    m = m if m > r3 else r3
    m = m if m > r4 else r4
    m = m if m > r5 else r5
    return residuals_small(r0, r1, r2, r3, r4, r5), m


@jitable
def zero_pairs(a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
               a20: float, a21: float, a22: float) -> tuple[int, int, int]:
    """For each row i, the coordinates (bit k for coordinate k) where rows i+1 and i+2 are
    both exactly zero: :func:`box_margins`' ``pairs``."""
    z0 = (a00 == 0.0) * 1 + (a01 == 0.0) * 2 + (a02 == 0.0) * 4
    z1 = (a10 == 0.0) * 1 + (a11 == 0.0) * 2 + (a12 == 0.0) * 4
    z2 = (a20 == 0.0) * 1 + (a21 == 0.0) * 2 + (a22 == 0.0) * 4
    return z1 & z2, z2 & z0, z0 & z1


@jitable
def _edge(x: float, y: float, tx: float, ty: float, hy: float, hx: float, gy: float, gx: float,
          zx: float, zy: float, exact_edges: bool, pairs: int, sep: float) -> float:
    """The larger of ``sep`` and the margin of the axis ``e_i x M_l`` (``x = M[i+1, l]``, ``y =
    M[i+2, l]``, ``tx = t[i+2]``, ``ty = t[i+1]``; ``hy, hx`` the frame box's half sizes on axes
    i+1, i+2; ``zx = R[i, l+2]``, ``zy = R[i, l+1]`` with ``gy, gx`` the other box's on l+1,
    l+2), that margin positive iff it separates. An axis that is zero exactly is skipped (-inf):
    where ``exact_edges`` (``x, y`` are the exact entries) and both are zero, or where ``pairs``
    (see :func:`box_margins`)."""
    m = abs(x * tx - y * ty) - (hy * abs(y) + hx * abs(x) + gy * abs(zx) + gx * abs(zy))
    m = -_INF if (exact_edges & (x == 0.0) & (y == 0.0)) | (pairs != 0) else m
    return m if m > sep else sep


@jitable
def _face(c: float, s: float, half: float, sep: float, inside: float) -> tuple[float, float]:
    """``sep`` and ``inside`` raised to one face's margins: the separation ``c - half - s`` and
    the inside margin ``c + s - half`` (``c`` the centres' distance along the face's normal,
    ``half`` the box's own half size there, ``s`` the other's radius)."""
    m, n = c - half - s, c + s - half
    return (m if m > sep else sep), (n if n > inside else inside)


@jitable
def box_margins(t0: float, t1: float, t2: float, p0: float, p1: float, p2: float, q0: float,
                q1: float, q2: float, r00: float, r01: float, r02: float, r10: float, r11: float,
                r12: float, r20: float, r21: float, r22: float, exact_edges: bool, pa0: int,
                pa1: int, pa2: int, pb0: int, pb1: int, pb2: int) -> tuple[float, float, float]:
    """``(separation, p_inside, q_inside)`` of the box ``P = [-p, p]`` and the parallelepiped
    ``Q = t + R [-q, q]`` (``R`` row-major; its columns Q's edges, the rows of its transpose
    Q's face normals), in float64:

    - ``separation``: the largest of the fifteen axes' margins ``|L . t| - r_P(L) - r_Q(L)``,
      positive iff that axis separates (Ericson's formulas, RTCD 4.4.1, with ``R`` for both
      ``M`` and ``M^-1`` transposed);
    - ``p_inside``: the largest over Q's faces of ``|N_l . t| + r_P(N_l) - q_l``, negative iff
      P lies in Q's open interior (every corner of P strictly inside every slab of Q);
    - ``q_inside``: the largest over P's faces of ``|t_i| + r_Q(e_i) - p_i``, negative iff Q
      lies in P's open interior.

    ``pa_i`` (``pb_l``): bit k set where the frame box's rows i+1 and i+2 (the other box's
    rows l+1 and l+2) are both zero in coordinate k (:func:`zero_pairs`; 0 where R is not a
    product of two boxes' rows). Where ``pa_i & pb_l``, those four rows lie in one coordinate
    plane, so ``M[i+1, l] = a_{i+1} . (b_{l+1} x b_{l+2}) / det`` and ``M[i+2, l]`` are zero
    exactly and the axis ``e_i x M_l`` is zero (two boxes turned about the same coordinate axis).

    Straight-line code (selects, no early exit), so that a compiled loop vectorises.
    """
    a00, a01, a02, a10, a11, a12, a20, a21, a22 = (
        abs(r00), abs(r01), abs(r02), abs(r10), abs(r11), abs(r12), abs(r20), abs(r21), abs(r22))
    # P's faces e_i: Q's radius there is sum_l q_l |R[i, l]|
    c, s = abs(t0), q0 * a00 + q1 * a01 + q2 * a02
    sep, q_in = c - p0 - s, c + s - p0
    sep, q_in = _face(abs(t1), q0 * a10 + q1 * a11 + q2 * a12, p1, sep, q_in)
    sep, q_in = _face(abs(t2), q0 * a20 + q1 * a21 + q2 * a22, p2, sep, q_in)
    # Q's faces N_l (column l of R): P's radius there is sum_i p_i |R[i, l]|
    c, s = abs(r00 * t0 + r10 * t1 + r20 * t2), p0 * a00 + p1 * a10 + p2 * a20
    m, p_in = c - q0 - s, c + s - q0
    sep = m if m > sep else sep
    sep, p_in = _face(abs(r01 * t0 + r11 * t1 + r21 * t2), p0 * a01 + p1 * a11 + p2 * a21, q1,
                      sep, p_in)
    sep, p_in = _face(abs(r02 * t0 + r12 * t1 + r22 * t2), p0 * a02 + p1 * a12 + p2 * a22, q2,
                      sep, p_in)
    # the edge x edge axes e_i x M_l
    sep = _edge(r10, r20, t2, t1, p1, p2, q1, q2, r02, r01, exact_edges, pa0 & pb0, sep)
    sep = _edge(r11, r21, t2, t1, p1, p2, q2, q0, r00, r02, exact_edges, pa0 & pb1, sep)
    sep = _edge(r12, r22, t2, t1, p1, p2, q0, q1, r01, r00, exact_edges, pa0 & pb2, sep)
    sep = _edge(r20, r00, t0, t2, p2, p0, q1, q2, r12, r11, exact_edges, pa1 & pb0, sep)
    sep = _edge(r21, r01, t0, t2, p2, p0, q2, q0, r10, r12, exact_edges, pa1 & pb1, sep)
    sep = _edge(r22, r02, t0, t2, p2, p0, q0, q1, r11, r10, exact_edges, pa1 & pb2, sep)
    sep = _edge(r00, r10, t1, t0, p0, p1, q1, q2, r22, r21, exact_edges, pa2 & pb0, sep)
    sep = _edge(r01, r11, t1, t0, p0, p1, q2, q0, r20, r22, exact_edges, pa2 & pb1, sep)
    sep = _edge(r02, r12, t1, t0, p0, p1, q0, q1, r21, r20, exact_edges, pa2 & pb2, sep)
    return sep, p_in, q_in


@jitable
def box_bound(reach: float, t0: float, t1: float, t2: float, p0: float, p1: float, p2: float,
              q0: float, q1: float, q2: float, defect: float) -> tuple[float, bool]:
    """``(bound, far)``: the certified bound on every margin of :func:`box_margins`
    (``_tolerances.BOX_SAT_ROUNDING``), ``reach`` the L1 size of what the frame change rounded
    and ``defect`` the sum of both boxes' computed orthonormality residuals (largest magnitude);
    ``far`` where the scale is outside the range the bound holds in (or not a number)."""
    size = reach + abs(t0) + abs(t1) + abs(t2) + abs(p0) + abs(p1) + abs(p2) + abs(q0) \
        + abs(q1) + abs(q2)
    far = not ((FILTER_SCALE_MIN <= size) & (size <= FILTER_SCALE_MAX))
    return (BOX_SAT_ROUNDING * FILTER_UNIT + BOX_SAT_DEFECT * defect) * size, far


@jitable
def box_class(separation: float, inside: float, can_include: bool, bound: float, empty: bool,
              bad: bool, far: bool) -> tuple[int, bool]:
    """``(code, doubt)`` from :func:`box_margins`' ``separation`` and the query's ``inside``
    margin: NONE where an axis separates beyond ``bound`` (or a box is ``empty``), INCLUDE
    where the query lies inside beyond it (and ``can_include``: the box has an interior),
    INTERSECT where no axis separates and the query is surely not inside; doubt for the rest,
    and for any ``bad`` value or a ``far`` scale."""
    none = separation > bound
    include = can_include & (inside < -bound)
    meets = (separation < -bound) & ((not can_include) | (inside > bound))
    code = 0 if empty | none else (2 if include else 1)
    sure = (not far) & (none | include | meets)
    return code, bad | ((not empty) & (not sure))


@jitable
def aabb_obb_class(lx: float, ly: float, lz: float, ux: float, uy: float, uz: float, cx: float,
                   cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
                   a11: float, a12: float, a20: float, a21: float, a22: float, h0: float,
                   h1: float, h2: float, aabb_query: bool) -> tuple[int, bool]:
    """``(code, doubt)`` of the AABB ``[l, u]`` and the OBB (``c, a, h``), the query being the
    AABB where ``aabb_query`` (a constant in each caller, so compiled it folds) and the OBB
    otherwise. In the OBB's frame about its centre the OBB is ``[-h, h]`` and the AABB the
    parallelepiped with centre ``a @ ((l + u) / 2 - c)``, half sizes ``(u - l) / 2`` and edges
    the columns of ``a`` exactly, so an edge x edge axis computed as zero is zero (skipped). A
    value that is not valid (NaN, an infinity but an empty AABB's) or rows that are not
    orthonormal are doubt."""
    valid = (lx > -_INF) & (ly > -_INF) & (lz > -_INF) & (ux < _INF) & (uy < _INF) \
        & (uz < _INF)
    total = cx + cy + cz + h0 + h1 + h2
    ok, defect = axes_defect(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    bad = (not valid) | (not total - total == 0.0) | (not ok)
    empty = not ((lx <= ux) & (ly <= uy) & (lz <= uz) & (h0 >= 0.0) & (h1 >= 0.0)
                 & (h2 >= 0.0))
    l0, l1, l2, u0, u1, u2 = lx - cx, ly - cy, lz - cz, ux - cx, uy - cy, uz - cz
    reach = abs(l0) + abs(l1) + abs(l2) + abs(u0) + abs(u1) + abs(u2)
    q0, q1, q2 = (ux - lx) * 0.5, (uy - ly) * 0.5, (uz - lz) * 0.5
    t0, t1, t2, _ = rotate((l0 + u0) * 0.5, (l1 + u1) * 0.5, (l2 + u2) * 0.5, a00, a01, a02,
                           a10, a11, a12, a20, a21, a22)
    separation, obb_inside, aabb_inside = box_margins(
        t0, t1, t2, h0, h1, h2, q0, q1, q2, a00, a01, a02, a10, a11, a12, a20, a21, a22, True,
        0, 0, 0, 0, 0, 0)
    bound, far = box_bound(reach, t0, t1, t2, h0, h1, h2, q0, q1, q2, defect)
    # INCLUDE needs an interior in the box that is not the query
    solid = ((h0 > 0.0) & (h1 > 0.0) & (h2 > 0.0)) if aabb_query else \
        ((lx < ux) & (ly < uy) & (lz < uz))
    return box_class(separation, aabb_inside if aabb_query else obb_inside, solid, bound, empty,
                     bad, far)


# --- the exact pass ----------------------------------------------------------------------------
#: A box for the exact pass: ``(center, rows, half)``, integers; the centres and half sizes of
#: both boxes of a pair on one scale, each box's half sizes times its rows' own scale.
IntBox = tuple[list[int], list[list[int]], list[int]]


def obb_ints(axes: Sequence[float], coords: list[int], at: int) -> IntBox:
    """The OBB as an :data:`IntBox`: ``coords[at:at + 6]`` are its centre and half sizes on
    the pair's scale, doubled here as :func:`aabb_ints` doubles every coordinate."""
    unit, rows = scaled(*axes)
    return ([2 * x for x in coords[at:at + 3]], [rows[0:3], rows[3:6], rows[6:9]],
            [2 * x * unit for x in coords[at + 3:at + 6]])


def aabb_ints(coords: list[int], at: int) -> IntBox:
    """The AABB whose corners are ``coords[at:at + 6]`` as an :data:`IntBox`: the identity's
    rows, centre ``lo + hi`` and half size ``hi - lo``, which are the exact midpoint and half
    extent on the doubled scale (every coordinate of the pair is doubled)."""
    lo, hi = coords[at:at + 3], coords[at + 3:at + 6]
    return ([a + b for a, b in zip(lo, hi, strict=True)], [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
            [b - a for a, b in zip(lo, hi, strict=True)])


def _cross(a: list[int], b: list[int]) -> list[int]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _dot(a: list[int], b: list[int]) -> int:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def classify_boxes_exact(query: IntBox, box: IntBox) -> int:
    """The class of ``query`` against ``box`` (non-negative half sizes), exactly: 0 NONE, 1
    INTERSECT, 2 INCLUDE.

    With rows ``a`` (half sizes ``h``) and ``b`` (``g``), ``t`` from the query's centre to the
    box's, edges ``E_i = a_j x a_k``, ``F_l = b_m x b_n`` (cyclic), ``alpha = a_0 . E_0``,
    ``delta = b_0 . F_0``, ``V[i][l] = a_i . F_l`` and ``P[l][i] = b_l . E_i``, a query corner
    is ``c +- sum_i h_i E_i / alpha``, so the query's radius on ``L`` is ``sum_i h_i |L . E_i| /
    |alpha|`` (the box's likewise), and on the fifteen axes (multiplied out of every division):
    ``a_i``: ``|a_i . t| |delta| > h_i |delta| + sum_l g_l |V[i][l]|``; ``b_l``: the same with
    the roles swapped; ``E_i x F_l``, where not zero: ``|det(E_i, F_l, t)| > sum_{j != i} h_j
    |V[n][l]| + sum_{m != l} g_m |P[p][i]|`` (n, p the third index), as
    ``|(E_i x F_l) . E_j| = |alpha| |a_n . F_l|``. The query is inside the box's open interior
    iff every corner is strictly inside every slab of the box."""
    (c, a, h), (d, b, g) = query, box
    t = [d[k] - c[k] for k in range(3)]
    e = [_cross(a[1], a[2]), _cross(a[2], a[0]), _cross(a[0], a[1])]
    f = [_cross(b[1], b[2]), _cross(b[2], b[0]), _cross(b[0], b[1])]
    alpha, delta = abs(_dot(a[0], e[0])), abs(_dot(b[0], f[0]))
    v = [[_dot(a[i], f[m]) for m in range(3)] for i in range(3)]
    p = [[_dot(b[m], e[i]) for i in range(3)] for m in range(3)]
    for i in range(3):
        if abs(_dot(a[i], t)) * delta > h[i] * delta + sum(g[m] * abs(v[i][m]) for m in range(3)):
            return 0
    box_side = [abs(_dot(b[m], t)) * alpha for m in range(3)]
    reach = [sum(h[i] * abs(p[m][i]) for i in range(3)) for m in range(3)]
    for m in range(3):
        if box_side[m] > g[m] * alpha + reach[m]:
            return 0
    for i in range(3):
        for m in range(3):
            axis = _cross(e[i], f[m])
            if axis == [0, 0, 0]:
                continue
            j, k = (i + 1) % 3, (i + 2) % 3
            n, o = (m + 1) % 3, (m + 2) % 3
            radius = (h[j] * abs(v[k][m]) + h[k] * abs(v[j][m]) + g[n] * abs(p[o][i])
                      + g[o] * abs(p[n][i]))
            if abs(_dot(axis, t)) > radius:
                return 0
    if all(box_side[m] + reach[m] < g[m] * alpha for m in range(3)):
        return 2
    return 1


def aabb_obb_exact(lx: float, ly: float, lz: float, ux: float, uy: float, uz: float, cx: float,
                   cy: float, cz: float, axes: Sequence[float], h0: float, h1: float, h2: float,
                   aabb_query: bool) -> int:
    """:func:`aabb_obb_class`'s answer exactly (the empty-box infinities allowed)."""
    if lx > ux or ly > uy or lz > uz or min(h0, h1, h2) < 0.0:
        return 0
    _, coords = scaled(lx, ly, lz, ux, uy, uz, cx, cy, cz, h0, h1, h2)
    aabb, obb = aabb_ints(coords, 0), obb_ints(axes, coords, 6)
    return classify_boxes_exact(aabb, obb) if aabb_query else classify_boxes_exact(obb, aabb)
