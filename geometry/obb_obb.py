"""Oriented box vs oriented box: NONE, INTERSECT or INCLUDE (fifteen separating axes).

Each box is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given
(SEMANTICS.md), a parallelepiped whose face normals are the rows and whose edges are the cross
products of two rows; a negative half size makes it empty. ``_filter`` works in the query's
frame about its centre, where the query is ``[-half_size, half_size]`` and the box has centre
``t = axes @ (box_center - center)`` and edges ``R = axes @ box_axes.T`` (Gottschalk, Lin &
Manocha 1996; Ericson, Real-Time Collision Detection 4.4.1), and tests the fifteen axes with no
epsilon: every margin against a certified bound that covers rounding and the rows'
orthonormality defect (``_box_sat``). Boxes with the very same axes have ``R = I`` exactly and
skip the zero edge axes, and so do boxes turned about the same coordinate axis (rows in one
coordinate plane, ``_box_sat.zero_pairs``). ``_exact`` runs the test in integers for the
parallelepipeds themselves: a zero edge x edge axis is skipped, a nearly zero one decides like
any other.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._box_sat import (
    axes_defect,
    box_bound,
    box_class,
    box_edges,
    box_faces,
    box_witness,
    classify_boxes_exact,
    obb_ints,
    refined_matrices,
    zero_pairs,
)
from ._dask import dask_aware
from ._engine import CLASS, Query
from ._exact import scaled
from ._floats import axes_orthonormal, axes_residuals, interpreted
from ._frame import rotate
from ._tolerances import ORTHONORMAL_ATOL
from ._validate import AXES, POINT
from .results import IntersectionType

__all__ = ["classify_obb_obb"]


def _filter(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
            a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
            h2: float, dx: float, dy: float, dz: float, b00: float, b01: float, b02: float,
            b10: float, b11: float, b12: float, b20: float, b21: float, b22: float, g0: float,
            g1: float, g2: float, first_pass: bool) -> tuple[int, bool]:
    """``(code, doubt)`` of the query OBB (``c, a, h``) against the box (``d, b, g``), in the
    query's frame about its centre: there the query is ``[-h, h]`` and the box the
    parallelepiped ``t + R [-g, g]``, ``R[i, l] = a_i . b_l`` (``R = I`` exactly where the rows
    are the same floats, ``a @ inverse(b)`` being the identity then). With one query, or one
    frame for all boxes, what depends on the query alone is a constant of the loop. A value
    that is not finite, or rows that are not orthonormal, are doubt. The compiled loop's second
    pass (not ``first_pass``) tests the items its first pass doubted again with the rows'
    defect corrected (``refined_matrices``)."""
    ok = axes_orthonormal(a00, a01, a02, a10, a11, a12, a20, a21, a22) \
        & axes_orthonormal(b00, b01, b02, b10, b11, b12, b20, b21, b22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0) & (g0 >= 0.0) & (g1 >= 0.0)
                 & (g2 >= 0.0))
    same = (a00 == b00) & (a01 == b01) & (a02 == b02) & (a10 == b10) & (a11 == b11) \
        & (a12 == b12) & (a20 == b20) & (a21 == b21) & (a22 == b22)
    t0, t1, t2, reach = rotate(dx - cx, dy - cy, dz - cz, a00, a01, a02, a10, a11, a12, a20,
                               a21, a22)
    r00 = 1.0 if same else a00 * b00 + a01 * b01 + a02 * b02
    r01 = 0.0 if same else a00 * b10 + a01 * b11 + a02 * b12
    r02 = 0.0 if same else a00 * b20 + a01 * b21 + a02 * b22
    r10 = 0.0 if same else a10 * b00 + a11 * b01 + a12 * b02
    r11 = 1.0 if same else a10 * b10 + a11 * b11 + a12 * b12
    r12 = 0.0 if same else a10 * b20 + a11 * b21 + a12 * b22
    r20 = 0.0 if same else a20 * b00 + a21 * b01 + a22 * b02
    r21 = 0.0 if same else a20 * b10 + a21 * b11 + a22 * b12
    r22 = 1.0 if same else a20 * b20 + a21 * b21 + a22 * b22
    k00, k01, k02, k10, k11, k12, k20, k21, k22 = (
        abs(r00), abs(r01), abs(r02), abs(r10), abs(r11), abs(r12), abs(r20), abs(r21), abs(r22))
    solid = (g0 > 0.0) & (g1 > 0.0) & (g2 > 0.0)
    if interpreted() & ok & (not empty):  # one item: the faces may settle it
        # (a value that is not finite makes the scale far, or a margin NaN)
        separation, inside, _ = box_faces(t0, t1, t2, h0, h1, h2, g0, g1, g2, r00, r01, r02,
                                          r10, r11, r12, r20, r21, r22, k00, k01, k02, k10, k11,
                                          k12, k20, k21, k22, k00, k01, k02, k10, k11, k12, k20,
                                          k21, k22)
        bound, far = box_bound(reach, t0, t1, t2, h0, h1, h2, g0, g1, g2,
                               0.0 if same else 2.0 * ORTHONORMAL_ATOL, 0.0)
        if not far:
            if separation > bound:  # a face separates
                return 0, False
            if solid & (inside < -bound):
                return 2, False
            if ((not solid) | (inside > bound)) & (box_witness(
                    t0, t1, t2, h0, h1, h2, g0, g1, g2, r00, r01, r02, r10, r11, r12, r20, r21,
                    r22) < -bound):  # a point in both, and the query not inside
                return 1, False
    total = cx + cy + cz + h0 + h1 + h2 + dx + dy + dz + g0 + g1 + g2
    bad = (not total - total == 0.0) | (not ok)
    defect = axes_defect(a00, a01, a02, a10, a11, a12, a20, a21, a22) \
        + axes_defect(b00, b01, b02, b10, b11, b12, b20, b21, b22)
    # the compiled loop's second pass tests again with the defect corrected
    refine = (not first_pass) & (not interpreted()) & (not same)
    if refine:
        da0, da1, da2, da3, da4, da5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
        db0, db1, db2, db3, db4, db5 = axes_residuals(b00, b01, b02, b10, b11, b12, b20, b21, b22)
        (m00, m01, m02, m10, m11, m12, m20, m21, m22, j00, j01, j02, j10, j11, j12, j20, j21, j22,
         n00, n01, n02, n10, n11, n12, n20, n21, n22, e00, e01, e02, e10, e11, e12, e20, e21, e22,
         z00, z01, z02, z10, z11, z12, z20, z21, z22) = refined_matrices(
            r00, r01, r02, r10, r11, r12, r20, r21, r22, da0, da1, da2, da3, da4, da5, db0, db1,
            db2, db3, db4, db5)
    else:
        (m00, m01, m02, m10, m11, m12, m20, m21, m22, j00, j01, j02, j10, j11, j12, j20, j21, j22,
         n00, n01, n02, n10, n11, n12, n20, n21, n22, e00, e01, e02, e10, e11, e12, e20, e21, e22,
         z00, z01, z02, z10, z11, z12, z20, z21, z22) = (
            r00, r01, r02, r10, r11, r12, r20, r21, r22, k00, k01, k02, k10, k11, k12, k20, k21,
            k22, r00, r01, r02, r10, r11, r12, r20, r21, r22, k00, k01, k02, k10, k11, k12, k20,
            k21, k22, k00, k01, k02, k10, k11, k12, k20, k21, k22)
    separation, inside, _ = box_faces(t0, t1, t2, h0, h1, h2, g0, g1, g2, n00, n01, n02, n10,
                                      n11, n12, n20, n21, n22, j00, j01, j02, j10, j11, j12, j20,
                                      j21, j22, e00, e01, e02, e10, e11, e12, e20, e21, e22)
    pa0, pa1, pa2 = zero_pairs(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    pb0, pb1, pb2 = zero_pairs(b00, b01, b02, b10, b11, b12, b20, b21, b22)
    separation = box_edges(t0, t1, t2, h0, h1, h2, g0, g1, g2, m00, m01, m02, m10, m11, m12, m20,
                           m21, m22, j00, j01, j02, j10, j11, j12, j20, j21, j22, z00, z01, z02,
                           z10, z11, z12, z20, z21, z22, same, pa0, pa1, pa2, pb0, pb1, pb2,
                           separation)
    bound, far = box_bound(reach, t0, t1, t2, h0, h1, h2, g0, g1, g2,
                           0.0 if same | refine else defect, defect if refine else 0.0)
    return box_class(separation, inside, solid, bound, empty, bad, far)


def _exact(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
           a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
           h2: float, dx: float, dy: float, dz: float, b00: float, b01: float, b02: float,
           b10: float, b11: float, b12: float, b20: float, b21: float, b22: float, g0: float,
           g1: float, g2: float) -> int:
    """The class of the query OBB against the box, exactly, for the parallelepipeds the
    floats describe."""
    if min(h0, h1, h2, g0, g1, g2) < 0.0:
        return 0
    _, coords = scaled(cx, cy, cz, h0, h1, h2, dx, dy, dz, g0, g1, g2)
    return classify_boxes_exact(
        obb_ints((a00, a01, a02, a10, a11, a12, a20, a21, a22), coords, 0),
        obb_ints((b00, b01, b02, b10, b11, b12, b20, b21, b22), coords, 6))


_QUERY = Query(_filter, _exact,
               args=[("center", POINT), ("axes", AXES), ("half_size", POINT),
                     ("box_center", POINT), ("box_axes", AXES), ("box_half_size", POINT)],
               outputs=[CLASS], second_pass=True, contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_obb_obb(
    center: ArrayLike, axes: ArrayLike, half_size: ArrayLike, box_center: ArrayLike,
    box_axes: ArrayLike, box_half_size: ArrayLike, *, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each oriented box against the query oriented box: NONE, INTERSECT or INCLUDE.

    Each box is the closed set ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the
    floats given (a parallelepiped where the rows are orthonormal only within rounding).
    ``NONE``: the boxes share no point. ``INCLUDE``: the query lies in the box's open interior
    (all eight corners strictly inside). ``INTERSECT``: otherwise. The fifteen separating axes
    of Gottschalk et al. (1996) with no epsilon: parallel and anti-parallel edges, whose cross
    product is zero or nearly so, are decided exactly.

    Boundary cases: boxes touching at a face, an edge or a corner are INTERSECT; a flat box
    (a zero ``box_half_size``) is never INCLUDE; a negative half size on either makes that box
    empty and the answer NONE. Exact for the floats given, at every magnitude.

    Parameters
    ----------
    center, half_size : (3,) or (N, 3) array_like
        The query boxes.
    axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    box_center, box_half_size : (3,) or (N, 3) array_like
    box_axes : (3, 3) or (N, 3, 3) array_like
        The boxes; rows orthonormal within 1e-6.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite value, axes that are not orthonormal, or shapes that do not
        broadcast; the message names the argument.
    """
    codes = _QUERY(center, axes, half_size, box_center, box_axes, box_half_size, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
