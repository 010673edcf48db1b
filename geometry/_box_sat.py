"""Separating axes of two boxes, for the box vs box queries with an oriented box (obb_obb,
aabb_obb, obb_aabb).

Two convex polyhedra are disjoint iff a plane parallel to a face of one, or to an edge of
each, separates them; for two boxes that leaves fifteen axes: three face normals of each and
the nine cross products of an edge of one with an edge of the other (Gottschalk, Lin & Manocha,
"OBBTree", SIGGRAPH 1996; Ericson, Real-Time Collision Detection 4.4.1). An OBB is the
parallelepiped ``{p : |axes[i] . (p - center)| <= half_size_i}`` of its float rows: its face
normals are the rows, its edges the cross products of two rows (``axes[j] x axes[k]``), and an
AABB is one with the identity's rows.

``box_faces`` and ``box_edges`` are the float test in the frame of one box (an affine map keeps
intersection and interior): there that box is ``[-p, p]`` and the other the parallelepiped
``t + M [-q, q]`` (``M``'s columns its edges in the frame, the rows of ``N = M^-1`` its face
normals), and the filters use one matrix ``R`` for ``M`` and for ``N`` transposed, exact for
orthonormal rows and within the axes' orthonormality defect otherwise
(``_tolerances.BOX_SAT_ROUNDING``); ``refined_matrices`` corrects ``M``, ``N`` and ``det M`` to
first order in that defect, for the items the one-matrix test doubts (float32 rows, whose
defect is some 1e-7). For one item in Python, the six face normals and one shared point
(``box_witness``) often settle the class before the nine edge axes.
``classify_boxes_exact`` is the test in integers on the floats' exact values, with the
parallelepipeds' own normals and edges and no approximation: an edge x edge axis that is zero
is skipped, one that is merely small decides like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._exact import scaled
from ._floats import axes_orthonormal, axes_residuals, interpreted, jitable
from ._frame import rotate
from ._tolerances import (
    BOX_SAT_DEFECT,
    BOX_SAT_ROUNDING,
    BOX_SAT_SECOND,
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
    ORTHONORMAL_ATOL,
)

__all__ = ["aabb_ints", "aabb_obb_class", "aabb_obb_exact", "axes_defect", "box_bound",
           "box_class", "box_edges", "box_faces", "box_witness",
           "classify_boxes_exact", "obb_ints", "refined_matrices", "zero_pairs"]

_INF = float("inf")


@jitable
def axes_defect(a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
                a20: float, a21: float, a22: float) -> float:
    """The largest computed residual ``|row_i . row_j - delta_ij|`` of rows that
    :func:`._floats.axes_orthonormal` passed (the engine's value check, which the filters apply
    first), for the filters' bound: at most ORTHONORMAL_ATOL, which a bound may take instead."""
    r0, r1, r2, r3, r4, r5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    r0, r1, r2, r3, r4, r5 = abs(r0), abs(r1), abs(r2), abs(r3), abs(r4), abs(r5)
    m: float = r0 if r0 > r1 else r1
    m = m if m > r2 else r2
    m = m if m > r3 else r3
    m = m if m > r4 else r4
    m = m if m > r5 else r5
    return m


@jitable
def zero_pairs(a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
               a20: float, a21: float, a22: float) -> tuple[int, int, int]:
    """For each row i, the coordinates (bit k for coordinate k) where rows i+1 and i+2 are
    both exactly zero: :func:`box_edges`' ``pairs``."""
    z0 = (a00 == 0.0) * 1 + (a01 == 0.0) * 2 + (a02 == 0.0) * 4
    z1 = (a10 == 0.0) * 1 + (a11 == 0.0) * 2 + (a12 == 0.0) * 4
    z2 = (a20 == 0.0) * 1 + (a21 == 0.0) * 2 + (a22 == 0.0) * 4
    return z1 & z2, z2 & z0, z0 & z1


@jitable
def _edge(x: float, y: float, ax: float, ay: float, tx: float, ty: float, hy: float, hx: float,
          gy: float, gx: float, zx: float, zy: float, exact_edges: bool, pairs: int,
          sep: float) -> float:
    """The larger of ``sep`` and the margin of the axis ``e_i x M_l`` (``x = M[i+1, l]``, ``y =
    M[i+2, l]``, ``ax, ay`` their magnitudes, ``tx = t[i+2]``, ``ty = t[i+1]``; ``hy, hx`` the
    frame box's half sizes on axes i+1, i+2; ``zx = |det M| |N[l+2, i]|``, ``zy = |det M|
    |N[l+1, i]|`` with ``gy, gx`` the other box's half sizes on l+1, l+2), that margin positive
    iff it separates. An axis that is zero exactly is skipped (-inf): where ``exact_edges``
    (``x, y`` are the exact entries) and both are zero, or where ``pairs`` (see
    :func:`box_edges`)."""
    m = abs(x * tx - y * ty) - (hy * ay + hx * ax + gy * zx + gx * zy)
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
def box_faces(t0: float, t1: float, t2: float, p0: float, p1: float, p2: float, q0: float,
              q1: float, q2: float, n00: float, n01: float, n02: float, n10: float, n11: float,
              n12: float, n20: float, n21: float, n22: float, am00: float, am01: float,
              am02: float, am10: float, am11: float, am12: float, am20: float, am21: float,
              am22: float, an00: float, an01: float, an02: float, an10: float, an11: float,
              an12: float, an20: float, an21: float, an22: float) -> tuple[float, float, float]:
    """``(separation, p_inside, q_inside)`` over the six face normals of the box ``P = [-p, p]``
    and the parallelepiped ``Q = t + M [-q, q]`` (the frame's picture, module docstring), from
    ``am = |M|`` entrywise (``M``'s columns Q's edges), ``n`` with ``n[i, l] = N[l, i]`` (``N =
    M^-1``, its rows Q's face normals) and ``an = |n|``, each row-major:

    - ``separation``: the largest of the six margins ``|L . t| - r_P(L) - r_Q(L)``, positive
      iff that axis separates;
    - ``p_inside``: the largest over Q's faces of ``|N_l . t| + r_P(N_l) - q_l``, negative iff
      P lies in Q's open interior (every corner of P strictly inside every slab of Q);
    - ``q_inside``: the largest over P's faces of ``|t_i| + r_Q(e_i) - p_i``, negative iff Q
      lies in P's open interior.

    The filters pass one float matrix ``R`` for ``M`` and for ``n`` (Ericson's formulas, RTCD
    4.4.1); :func:`refined_matrices` gives the two apart."""
    # P's faces e_i: Q's radius there is sum_l q_l |M[i, l]|
    c, s = abs(t0), q0 * am00 + q1 * am01 + q2 * am02
    sep, q_in = c - p0 - s, c + s - p0
    sep, q_in = _face(abs(t1), q0 * am10 + q1 * am11 + q2 * am12, p1, sep, q_in)
    sep, q_in = _face(abs(t2), q0 * am20 + q1 * am21 + q2 * am22, p2, sep, q_in)
    # Q's faces N_l (column l of n): P's radius there is sum_i p_i |n[i, l]|
    c, s = abs(n00 * t0 + n10 * t1 + n20 * t2), p0 * an00 + p1 * an10 + p2 * an20
    m, p_in = c - q0 - s, c + s - q0
    sep = m if m > sep else sep
    sep, p_in = _face(abs(n01 * t0 + n11 * t1 + n21 * t2), p0 * an01 + p1 * an11 + p2 * an21,
                      q1, sep, p_in)
    sep, p_in = _face(abs(n02 * t0 + n12 * t1 + n22 * t2), p0 * an02 + p1 * an12 + p2 * an22,
                      q2, sep, p_in)
    return sep, p_in, q_in


@jitable
def box_edges(t0: float, t1: float, t2: float, p0: float, p1: float, p2: float, q0: float,
              q1: float, q2: float, m00: float, m01: float, m02: float, m10: float, m11: float,
              m12: float, m20: float, m21: float, m22: float, am00: float, am01: float,
              am02: float, am10: float, am11: float, am12: float, am20: float, am21: float,
              am22: float, z00: float, z01: float, z02: float, z10: float, z11: float,
              z12: float, z20: float, z21: float, z22: float, exact_edges: bool, pa0: int,
              pa1: int, pa2: int, pb0: int, pb1: int, pb2: int, sep: float) -> float:
    """The larger of ``sep`` and the nine edge x edge axes' margins ``e_i x M_l`` of
    :func:`box_faces`' P and Q, from ``M``, ``am = |M|`` and ``z = |det M| |n|`` (Q's radius on
    ``e_i x M_l`` is ``sum_m q_m |e_i . (M_l x M_m)|``, and ``M_l x M_m = det M N_n`` for
    (l, m, n) in cyclic order), each row-major.

    ``pa_i`` (``pb_l``): bit k set where the frame box's rows i+1 and i+2 (the other box's
    rows l+1 and l+2) are both zero in coordinate k (:func:`zero_pairs`; 0 where R is not a
    product of two boxes' rows). Where ``pa_i & pb_l``, those four rows lie in one coordinate
    plane, so ``M[i+1, l] = a_{i+1} . (b_{l+1} x b_{l+2}) / det`` and ``M[i+2, l]`` are zero
    exactly and the axis ``e_i x M_l`` is zero (two boxes turned about the same coordinate axis).
    """
    sep = _edge(m10, m20, am10, am20, t2, t1, p1, p2, q1, q2, z02, z01, exact_edges, pa0 & pb0,
                sep)
    sep = _edge(m11, m21, am11, am21, t2, t1, p1, p2, q2, q0, z00, z02, exact_edges, pa0 & pb1,
                sep)
    sep = _edge(m12, m22, am12, am22, t2, t1, p1, p2, q0, q1, z01, z00, exact_edges, pa0 & pb2,
                sep)
    sep = _edge(m20, m00, am20, am00, t0, t2, p2, p0, q1, q2, z12, z11, exact_edges, pa1 & pb0,
                sep)
    sep = _edge(m21, m01, am21, am01, t0, t2, p2, p0, q2, q0, z10, z12, exact_edges, pa1 & pb1,
                sep)
    sep = _edge(m22, m02, am22, am02, t0, t2, p2, p0, q0, q1, z11, z10, exact_edges, pa1 & pb2,
                sep)
    sep = _edge(m00, m10, am00, am10, t1, t0, p0, p1, q1, q2, z22, z21, exact_edges, pa2 & pb0,
                sep)
    sep = _edge(m01, m11, am01, am11, t1, t0, p0, p1, q2, q0, z20, z22, exact_edges, pa2 & pb1,
                sep)
    sep = _edge(m02, m12, am02, am12, t1, t0, p0, p1, q0, q1, z21, z20, exact_edges, pa2 & pb2,
                sep)
    return sep


@jitable
def box_witness(t0: float, t1: float, t2: float, p0: float, p1: float, p2: float, q0: float,
                q1: float, q2: float, n00: float, n01: float, n02: float, n10: float, n11: float,
                n12: float, n20: float, n21: float, n22: float) -> float:
    """The largest over Q's faces of ``|N_l . y| - q_l`` (``n`` as in :func:`box_faces`), ``y =
    t - x`` for the point ``x`` of P nearest Q's centre coordinate by coordinate (``t`` clamped
    to ``[-p, p]``, which is in P exactly): negative iff ``x``, a point of P, lies in Q's
    interior, so that the boxes meet (``_tolerances.BOX_SAT_ROUNDING`` bounds it)."""
    y0 = t0 - p0 if t0 > p0 else (t0 + p0 if t0 < -p0 else 0.0)
    y1 = t1 - p1 if t1 > p1 else (t1 + p1 if t1 < -p1 else 0.0)
    y2 = t2 - p2 if t2 > p2 else (t2 + p2 if t2 < -p2 else 0.0)
    w = abs(n00 * y0 + n10 * y1 + n20 * y2) - q0
    v = abs(n01 * y0 + n11 * y1 + n21 * y2) - q1
    w = v if v > w else w
    v = abs(n02 * y0 + n12 * y1 + n22 * y2) - q2
    return v if v > w else w


@jitable
def refined_matrices(r00: float, r01: float, r02: float, r10: float, r11: float, r12: float,
                     r20: float, r21: float, r22: float, da0: float, da1: float, da2: float,
                     da3: float, da4: float, da5: float, db0: float, db1: float, db2: float,
                     db3: float, db4: float, db5: float) -> tuple[float, ...]:
    """``(m, |m|, n, |n|, |det M| |n|)``, 45 values (each row-major), for :func:`box_faces` and
    :func:`box_edges` in place of ``R`` and ``|R|``: ``M``, ``N`` and ``det M`` corrected to
    first order in the rows' orthonormality defect (``_tolerances.BOX_SAT_SECOND``). With ``R =
    A B^T`` and the residuals ``D = A A^T - I`` (``da``, :func:`._floats.axes_residuals`'
    order) and ``E = B B^T - I`` (``db``; zero for an AABB, where ``m`` is ``R``), ``M = R (I +
    E)^-1 ~ R - R E``, ``n = (R^T (I + D)^-1)^T ~ R - D R`` and ``|det M| = sqrt(det(I + D) /
    det(I + E)) ~ 1 + (tr D - tr E) / 2``."""
    m00 = r00 - (r00 * db0 + r01 * db1 + r02 * db2)
    m01 = r01 - (r00 * db1 + r01 * db3 + r02 * db4)
    m02 = r02 - (r00 * db2 + r01 * db4 + r02 * db5)
    m10 = r10 - (r10 * db0 + r11 * db1 + r12 * db2)
    m11 = r11 - (r10 * db1 + r11 * db3 + r12 * db4)
    m12 = r12 - (r10 * db2 + r11 * db4 + r12 * db5)
    m20 = r20 - (r20 * db0 + r21 * db1 + r22 * db2)
    m21 = r21 - (r20 * db1 + r21 * db3 + r22 * db4)
    m22 = r22 - (r20 * db2 + r21 * db4 + r22 * db5)
    n00 = r00 - (da0 * r00 + da1 * r10 + da2 * r20)
    n01 = r01 - (da0 * r01 + da1 * r11 + da2 * r21)
    n02 = r02 - (da0 * r02 + da1 * r12 + da2 * r22)
    n10 = r10 - (da1 * r00 + da3 * r10 + da4 * r20)
    n11 = r11 - (da1 * r01 + da3 * r11 + da4 * r21)
    n12 = r12 - (da1 * r02 + da3 * r12 + da4 * r22)
    n20 = r20 - (da2 * r00 + da4 * r10 + da5 * r20)
    n21 = r21 - (da2 * r01 + da4 * r11 + da5 * r21)
    n22 = r22 - (da2 * r02 + da4 * r12 + da5 * r22)
    det = 1.0 + ((da0 + da3 + da5) - (db0 + db3 + db5)) * 0.5
    b00, b01, b02, b10, b11, b12, b20, b21, b22 = (
        abs(n00), abs(n01), abs(n02), abs(n10), abs(n11), abs(n12), abs(n20), abs(n21), abs(n22))
    return (m00, m01, m02, m10, m11, m12, m20, m21, m22,
            abs(m00), abs(m01), abs(m02), abs(m10), abs(m11), abs(m12), abs(m20), abs(m21),
            abs(m22), n00, n01, n02, n10, n11, n12, n20, n21, n22,
            b00, b01, b02, b10, b11, b12, b20, b21, b22,
            det * b00, det * b01, det * b02, det * b10, det * b11, det * b12, det * b20,
            det * b21, det * b22)


@jitable
def box_bound(reach: float, t0: float, t1: float, t2: float, p0: float, p1: float, p2: float,
              q0: float, q1: float, q2: float, defect: float, second: float) -> tuple[float, bool]:
    """``(bound, far)``: the certified bound on every margin of :func:`box_faces`,
    :func:`box_edges` and :func:`box_witness` (``_tolerances.BOX_SAT_ROUNDING``), ``reach`` the
    L1 size of what the frame change rounded and ``defect`` the sum of both boxes' computed
    orthonormality residuals (largest magnitude); with ``defect`` 0 and that sum as ``second``,
    the bound with :func:`refined_matrices` (``_tolerances.BOX_SAT_SECOND``). ``far`` where the
    scale is outside the range the bound holds in (or not a number). The half sizes ``p, q``
    are taken as non-negative: a negative one is an empty box, which no bound decides."""
    size = reach + abs(t0) + abs(t1) + abs(t2) + p0 + p1 + p2 + q0 + q1 + q2
    far = not ((FILTER_SCALE_MIN <= size) & (size <= FILTER_SCALE_MAX))
    return (BOX_SAT_ROUNDING * FILTER_UNIT + BOX_SAT_DEFECT * defect
            + BOX_SAT_SECOND * (second * second)) * size, far


@jitable
def box_class(separation: float, inside: float, can_include: bool, bound: float, empty: bool,
              bad: bool, far: bool) -> tuple[int, bool]:
    """``(code, doubt)`` from the faces' and edges' ``separation`` and the query's ``inside``
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
                   h1: float, h2: float, aabb_query: bool, first_pass: bool
                   ) -> tuple[int, bool]:
    """``(code, doubt)`` of the AABB ``[l, u]`` and the OBB (``c, a, h``), the query being the
    AABB where ``aabb_query`` (a constant in each caller, so compiled it folds) and the OBB
    otherwise. In the OBB's frame about its centre the OBB is ``[-h, h]`` and the AABB the
    parallelepiped with centre ``a @ ((l + u) / 2 - c)``, half sizes ``(u - l) / 2`` and edges
    the columns of ``a`` exactly, so an edge x edge axis computed as zero is zero (skipped). A
    value that is not valid (NaN, an infinity but an empty AABB's) or rows that are not
    orthonormal are doubt. The compiled loop's second pass (not ``first_pass``) tests the pairs
    its first pass doubted again with the rows' defect corrected (:func:`refined_matrices`)."""
    ok = axes_orthonormal(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((lx <= ux) & (ly <= uy) & (lz <= uz) & (h0 >= 0.0) & (h1 >= 0.0)
                 & (h2 >= 0.0))
    l0, l1, l2, u0, u1, u2 = lx - cx, ly - cy, lz - cz, ux - cx, uy - cy, uz - cz
    reach = abs(l0) + abs(l1) + abs(l2) + abs(u0) + abs(u1) + abs(u2)
    q0, q1, q2 = (ux - lx) * 0.5, (uy - ly) * 0.5, (uz - lz) * 0.5
    t0, t1, t2, _ = rotate((l0 + u0) * 0.5, (l1 + u1) * 0.5, (l2 + u2) * 0.5, a00, a01, a02,
                           a10, a11, a12, a20, a21, a22)
    k00, k01, k02, k10, k11, k12, k20, k21, k22 = (
        abs(a00), abs(a01), abs(a02), abs(a10), abs(a11), abs(a12), abs(a20), abs(a21), abs(a22))
    # INCLUDE needs an interior in the box that is not the query
    solid = ((h0 > 0.0) & (h1 > 0.0) & (h2 > 0.0)) if aabb_query else \
        ((lx < ux) & (ly < uy) & (lz < uz))
    code, doubt = -1, False
    if interpreted() & ok & (not empty):  # one item: the faces may settle it
        # (a value that is not finite makes the scale far, or a margin NaN)
        separation, obb_inside, aabb_inside = box_faces(
            t0, t1, t2, h0, h1, h2, q0, q1, q2, a00, a01, a02, a10, a11, a12, a20, a21, a22, k00,
            k01, k02, k10, k11, k12, k20, k21, k22, k00, k01, k02, k10, k11, k12, k20, k21, k22)
        inside = aabb_inside if aabb_query else obb_inside
        bound, far = box_bound(reach, t0, t1, t2, h0, h1, h2, q0, q1, q2, ORTHONORMAL_ATOL, 0.0)
        # NONE where a face separates, INCLUDE where the query is inside, else INTERSECT where
        # the boxes share a point (box_witness) and the query is surely not inside
        code = -1 if far else 0 if separation > bound else 2 if solid & (inside < -bound) else -1
        if (code < 0) & (not far):
            witness = box_witness(t0, t1, t2, h0, h1, h2, q0, q1, q2, a00, a01, a02, a10, a11,
                                  a12, a20, a21, a22)
            code = 1 if (witness < -bound) & ((not solid) | (inside > bound)) else -1
    if code < 0:
        valid = (lx > -_INF) & (ly > -_INF) & (lz > -_INF) & (ux < _INF) & (uy < _INF) \
            & (uz < _INF)
        total = cx + cy + cz + h0 + h1 + h2
        bad = (not valid) | (not total - total == 0.0) | (not ok)
        defect = axes_defect(a00, a01, a02, a10, a11, a12, a20, a21, a22)
        # the compiled loop's second pass tests again with the defect corrected
        refine = (not first_pass) & (not interpreted())
        if refine:
            d0, d1, d2, d3, d4, d5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
            (m00, m01, m02, m10, m11, m12, m20, m21, m22, j00, j01, j02, j10, j11, j12, j20, j21,
             j22, n00, n01, n02, n10, n11, n12, n20, n21, n22, e00, e01, e02, e10, e11, e12, e20,
             e21, e22, z00, z01, z02, z10, z11, z12, z20, z21, z22) = refined_matrices(
                a00, a01, a02, a10, a11, a12, a20, a21, a22, d0, d1, d2, d3, d4, d5, 0.0, 0.0,
                0.0, 0.0, 0.0, 0.0)
        else:
            (m00, m01, m02, m10, m11, m12, m20, m21, m22, j00, j01, j02, j10, j11, j12, j20, j21,
             j22, n00, n01, n02, n10, n11, n12, n20, n21, n22, e00, e01, e02, e10, e11, e12, e20,
             e21, e22, z00, z01, z02, z10, z11, z12, z20, z21, z22) = (
                a00, a01, a02, a10, a11, a12, a20, a21, a22, k00, k01, k02, k10, k11, k12, k20,
                k21, k22, a00, a01, a02, a10, a11, a12, a20, a21, a22, k00, k01, k02, k10, k11,
                k12, k20, k21, k22, k00, k01, k02, k10, k11, k12, k20, k21, k22)
        separation, obb_inside, aabb_inside = box_faces(
            t0, t1, t2, h0, h1, h2, q0, q1, q2, n00, n01, n02, n10, n11, n12, n20, n21, n22, j00,
            j01, j02, j10, j11, j12, j20, j21, j22, e00, e01, e02, e10, e11, e12, e20, e21, e22)
        separation = box_edges(
            t0, t1, t2, h0, h1, h2, q0, q1, q2, m00, m01, m02, m10, m11, m12, m20, m21, m22, j00,
            j01, j02, j10, j11, j12, j20, j21, j22, z00, z01, z02, z10, z11, z12, z20, z21, z22,
            True, 0, 0, 0, 0, 0, 0, separation)
        bound, far = box_bound(reach, t0, t1, t2, h0, h1, h2, q0, q1, q2,
                               0.0 if refine else defect, defect if refine else 0.0)
        code, doubt = box_class(separation, aabb_inside if aabb_query else obb_inside, solid,
                                bound, empty, bad, far)
    return code, doubt


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
