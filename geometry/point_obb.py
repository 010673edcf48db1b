"""Point vs oriented box: the Euclidean distance, faithfully rounded, for the box as evaluated.

The box is ``{x : |a_i . (x - c)| <= h_i}`` for the float rows ``a_i`` (SEMANTICS.md): a
parallelepiped where they are not exactly orthonormal, whose distance from ``p`` is the least
``w^T G^-1 w`` over the box in frame coordinates (``_closest``). ``_filter`` clamps the point's
frame coordinates, computed in double-double, and corrects the squared excess to first order
for the metric, ``|w|**2 - w^T R w`` with ``R = M M^T - I``: the rest is second order in R
(``_tolerances.OBB_DISTANCE_METRIC``). With a certified bound on all of it the root of its
rounded sum (``_closest.sqrt_dd``) is faithful (float32 data: the same in plain float64, whose
rounding is far inside float32's budget, ``_filter32``); past the bound (a point within
rounding of the surface, rows far from orthonormal) ``_exact`` solves the quadratic program in
rationals, by the box's 27 faces, edges, vertices and interior, and rounds the root correctly
(Ericson 2005, 5.1.4).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._closest import (
    frame_excess,
    gram_residual,
    obb_distance2,
    sqrt_dd,
    sqrt_rounded,
    square_sum_dd,
    surely_free,
)
from ._dask import dask_aware
from ._double_double import two_sum
from ._engine import Query, T
from ._floats import axes_doubt, axes_residuals, interpreted, jitable, residuals_small
from ._tolerances import (
    DISTANCE_FAITHFUL,
    FILTER_UNIT,
    OBB_DISTANCE32_FRAME,
    OBB_DISTANCE32_STATIC,
    OBB_DISTANCE_FLOOR,
    OBB_DISTANCE_FRAME,
    OBB_DISTANCE_FREE,
    OBB_DISTANCE_METRIC,
    OBB_DISTANCE_SHARE,
    OBB_DISTANCE_STATIC,
)
from ._validate import AXES, POINT

__all__ = ["distance_point_obb"]

_INF = math.inf
_FAITHFUL64 = DISTANCE_FAITHFUL[np.float64] * OBB_DISTANCE_SHARE
_FAITHFUL32 = DISTANCE_FAITHFUL[np.float32] * OBB_DISTANCE_SHARE


@jitable
def _filter32(px: float, py: float, pz: float, cx: float, cy: float, cz: float, a00: float,
              a01: float, a02: float, a10: float, a11: float, a12: float, a20: float, a21: float,
              a22: float, h0: float, h1: float, h2: float) -> tuple[float, bool]:
    """:func:`_filter` for float32 data (every value a float32, the answer rounded to float32):
    plain float64 suffices there (OBB_DISTANCE32_FRAME, OBB_DISTANCE32_STATIC). Each frame
    coordinate ``u_i = a_i . (p - c)`` within ``e_u`` of the exact one; a point surely within
    every slab is at distance 0; else the excesses ``w_i`` give ``D = |w|**2 - w^T R w`` with a
    certified bound, ``R = M M^T - I`` from exact products."""
    t0, t1, t2 = px - cx, py - cy, pz - cz
    total = (px - px) + (py - py) + (pz - pz) + (cx - cx) + (cy - cy) + (cz - cz) \
        + (h0 - h0) + (h1 - h1) + (h2 - h2)
    bad = (not total == 0.0) | axes_doubt(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    e_u = OBB_DISTANCE32_FRAME * (abs(t0) + abs(t1) + abs(t2))
    u0 = a00 * t0 + a01 * t1 + a02 * t2
    u1 = a10 * t0 + a11 * t1 + a12 * t2
    u2 = a20 * t0 + a21 * t1 + a22 * t2
    inside = (abs(u0) + e_u <= h0) & (abs(u1) + e_u <= h1) & (abs(u2) + e_u <= h2)
    x0, x1, x2 = abs(u0) - h0, abs(u1) - h1, abs(u2) - h2
    w0 = (x0 if u0 >= 0.0 else -x0) if x0 > 0.0 else 0.0
    w1 = (x1 if u1 >= 0.0 else -x1) if x1 > 0.0 else 0.0
    w2 = (x2 if u2 >= 0.0 else -x2) if x2 > 0.0 else 0.0
    r00 = (a00 * a00 + a01 * a01 + a02 * a02) - 1.0
    r11 = (a10 * a10 + a11 * a11 + a12 * a12) - 1.0
    r22 = (a20 * a20 + a21 * a21 + a22 * a22) - 1.0
    r01 = a00 * a10 + a01 * a11 + a02 * a12
    r02 = a00 * a20 + a01 * a21 + a02 * a22
    r12 = a10 * a20 + a11 * a21 + a12 * a22
    correction = (r00 * w0 * w0 + r11 * w1 * w1 + r22 * w2 * w2) \
        + 2.0 * ((r01 * w0 * w1 + r02 * w0 * w2) + r12 * w1 * w2)
    d2 = (w0 * w0 + w1 * w1 + w2 * w2) - correction
    width = abs(w0) + abs(w1) + abs(w2)
    spread = e_u + 2.0**-52 * width
    reach = width + 2.0 * spread
    err = 1.01 * (OBB_DISTANCE32_STATIC * reach * reach + 3.5 * spread * (width + spread)) \
        + 2.0**-1000
    sure = inside | (err <= _FAITHFUL32 * d2)
    distance = 0.0 if inside else math.sqrt(d2 if d2 > 0.0 else 0.0)
    return (_INF if empty | bad else distance), bad | ((not empty) & (not sure))


def _filter(px: float, py: float, pz: float, cx: float, cy: float, cz: float, a00: float,
            a01: float, a02: float, a10: float, a11: float, a12: float, a20: float, a21: float,
            a22: float, h0: float, h1: float, h2: float, t32: bool) -> tuple[float, bool]:
    """``(distance, doubt)`` of one point to one box (``inf`` for an empty box, a negative half
    size). The offset ``p - c`` is exact (TwoSum), its 1-norm within [2**-398, 2**400] or 0
    (else doubt: coordinates beyond about 1e120 apart, or a point within 1e-120
    of the centre), the half sizes capped at 2**900, far beyond any offset; per axis the
    excess ``w_i`` beyond the box and its error bound (``_closest.frame_excess``);
    ``d**2 ~ |w|**2 - w^T R w``, within the bound ``err``; certified when ``err`` is within
    OBB_DISTANCE_SHARE of the faithful budget. Doubt also for a non-finite value or axes that
    are not orthonormal within ORTHONORMAL_ATOL. Float32 data (``t32``) take the cheaper
    :func:`_filter32`."""
    if t32:
        return _filter32(px, py, pz, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20, a21, a22,
                         h0, h1, h2)
    t0, l0 = two_sum(px, -cx)
    t1, l1 = two_sum(py, -cy)
    t2, l2 = two_sum(pz, -cz)
    # the rows' residuals R = M M^T - I in plain floats (each within 5.01 u): the value check,
    # and R's largest entry bounded above for the metric's bound
    q0, q1, q2, q3, q4, q5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    e = max(max(max(abs(q0), abs(q1)), max(abs(q2), abs(q3))), max(abs(q4), abs(q5))) + 2.0**-50
    # the offset's 1-norm: each frame coordinate's error scales with it (OBB_DISTANCE_FRAME),
    # and the bounds are derived for one within [2**-398, 2**400] (the largest offset within
    # [2**-400, 2**400]), or 0
    size_t = abs(t0) + abs(t1) + abs(t2)
    # finite iff every value is (a non-finite point or centre makes the offset so, as does an
    # offset that overflows: doubt either way)
    total = (h0 + h1) + (h2 + size_t)
    bad = (not total - total == 0.0) | (not residuals_small(q0, q1, q2, q3, q4, q5))
    ranged = (size_t <= 2.0**400) & ((size_t >= 2.0**-398) | (size_t == 0.0))
    err_u = OBB_DISTANCE_FRAME * FILTER_UNIT * FILTER_UNIT * size_t + OBB_DISTANCE_FLOOR
    g0, g1, g2 = min(h0, 2.0**900), min(h1, 2.0**900), min(h2, 2.0**900)
    # in CPython, an axis whose float coordinate is surely within its slab has no excess:
    # frame_excess's (0, 0, 0) without its double-double (OBB_DISTANCE_FREE); and R's entries
    # only for the excesses that are not 0. Compiled, every axis and entry (straight-line code
    # vectorises; a term with a zero excess is 0)
    skip = interpreted()
    slack = OBB_DISTANCE_FREE * FILTER_UNIT * size_t + 2.01 * err_u
    free0 = surely_free(a00, a01, a02, t0, t1, t2, g0, slack) if skip else False
    free1 = surely_free(a10, a11, a12, t0, t1, t2, g1, slack) if skip else False
    free2 = surely_free(a20, a21, a22, t0, t1, t2, g2, slack) if skip else False
    w0, v0, e0 = (0.0, 0.0, 0.0) if free0 else frame_excess(a00, a01, a02, t0, t1, t2, l0, l1,
                                                            l2, g0, err_u)
    w1, v1, e1 = (0.0, 0.0, 0.0) if free1 else frame_excess(a10, a11, a12, t0, t1, t2, l0, l1,
                                                            l2, g1, err_u)
    w2, v2, e2 = (0.0, 0.0, 0.0) if free2 else frame_excess(a20, a21, a22, t0, t1, t2, l0, l1,
                                                            l2, g2, err_u)
    s_hi, s_lo = square_sum_dd(w0, v0, w1, v1, w2, v2)
    z0, z1, z2 = skip and w0 == 0.0, skip and w1 == 0.0, skip and w2 == 0.0
    r00 = 0.0 if z0 else gram_residual(a00, a01, a02, a00, a01, a02, 1.0)
    r11 = 0.0 if z1 else gram_residual(a10, a11, a12, a10, a11, a12, 1.0)
    r22 = 0.0 if z2 else gram_residual(a20, a21, a22, a20, a21, a22, 1.0)
    r01 = 0.0 if z0 or z1 else gram_residual(a00, a01, a02, a10, a11, a12, 0.0)
    r02 = 0.0 if z0 or z2 else gram_residual(a00, a01, a02, a20, a21, a22, 0.0)
    r12 = 0.0 if z1 or z2 else gram_residual(a10, a11, a12, a20, a21, a22, 0.0)
    correction = (r00 * w0 * w0 + r11 * w1 * w1 + r22 * w2 * w2) \
        + 2.0 * ((r01 * w0 * w1 + r02 * w0 * w2) + r12 * w1 * w2)
    d_hi, g = two_sum(s_hi, -correction)
    d_lo = s_lo + g
    spread = e0 + e1 + e2  # |w - w_exact|, summed over the axes not surely free
    width = abs(w0) + abs(w1) + abs(w2)
    err = (OBB_DISTANCE_METRIC * e * e + OBB_DISTANCE_STATIC) * s_hi \
        + 1.02 * spread * (2.0 * width + spread) \
        + (OBB_DISTANCE_FLOOR if spread > 0.0 else 0.0)
    sure = ranged & (err <= _FAITHFUL64 * d_hi)
    distance = sqrt_dd(d_hi, d_lo)
    return (_INF if empty | bad else distance), bad | ((not empty) & (not sure))


def _exact(px: float, py: float, pz: float, cx: float, cy: float, cz: float, a00: float,
           a01: float, a02: float, a10: float, a11: float, a12: float, a20: float, a21: float,
           a22: float, h0: float, h1: float, h2: float) -> float:
    """The distance rounded to nearest from the exact squared distance (``inf`` for an empty
    box)."""
    d2 = obb_distance2((px, py, pz), (cx, cy, cz),
                       (a00, a01, a02, a10, a11, a12, a20, a21, a22), (h0, h1, h2))
    return _INF if d2 is None else sqrt_rounded(d2)


_QUERY = Query(_filter, _exact,
               args=[("point", POINT), ("box_center", POINT), ("box_axes", AXES),
                     ("box_half_size", POINT)],
               outputs=[T], t32=True)


@dask_aware
def distance_point_obb(
    point: ArrayLike, box_center: ArrayLike, box_axes: ArrayLike, box_half_size: ArrayLike, *,
    out: np.ndarray | None = None,
) -> float | np.ndarray:
    """The Euclidean distance from each point to each closed oriented box; 0 inside or on it.

    The box is ``{x : |box_axes[i] . (x - box_center)| <= box_half_size_i}`` for the rows given
    (SEMANTICS.md): where they are orthonormal only within rounding it is that parallelepiped,
    and the distance is to it. A negative half size is an empty box, at distance ``inf``.
    Faithfully rounded at every magnitude, as :func:`distance_point_aabb`: a float filter that
    certifies its error bound, and the exact quadratic program (the box's 27 faces, edges,
    vertices and interior, in rationals) where it cannot.

    Parameters
    ----------
    point : (3,) or (N, 3) array_like
    box_center, box_half_size : (3,) or (N, 3) array_like
    box_axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    out : (N,) float ndarray, optional
        Written with the distances and returned (float64, or float32 for float32 data).

    Returns
    -------
    float or (N,) ndarray
        A Python float when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite value, axes that are not orthonormal, a bad shape, shapes that do not
        broadcast, or an integer float64 cannot hold exactly; the message names the argument.
    """
    distance: float | np.ndarray = _QUERY(point, box_center, box_axes, box_half_size, out=out)
    return distance
