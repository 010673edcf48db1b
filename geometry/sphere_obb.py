"""Sphere vs oriented box: NONE, INTERSECT or INCLUDE, for the box as evaluated.

The box is ``{x : |a_i . (x - c)| <= h_i}`` for the float rows ``a_i`` (SEMANTICS.md), a
parallelepiped where they are not exactly orthonormal. The closed ball ``|p - s| <= r`` meets it
iff the centre's squared distance to it is at most ``r**2``, and lies in its open interior iff
its centre is farther than ``r`` from every face plane: ``h_i - |a_i . (s - c)| > r |a_i|``.
``_filter`` works in the box's frame: the squared excess of the clamped centre, corrected to
first order for the rows' defect as ``distance_point_obb`` does, against ``r**2``, and the
margins, each sure outside a certified band (``_tolerances.SPHERE_OBB_RELATIVE``, the frame's
and the metric's errors); ``_exact`` decides the rest in rationals (``_closest.obb_distance2``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ._closest import obb_distance2
from ._dask import dask_aware
from ._engine import CLASS, Query
from ._floats import axes_residuals, residuals_small
from ._tolerances import (
    FILTER_UNIT,
    OBB_DISTANCE_METRIC,
    OBB_FRAME_BOUND,
    SPHERE_ABSOLUTE,
    SPHERE_OBB_RELATIVE,
    SPHERE_SCALE_MAX,
)
from ._validate import AXES, POINT, RADIUS
from .results import IntersectionType

__all__ = ["classify_sphere_obb"]


def _filter(sx: float, sy: float, sz: float, r: float, cx: float, cy: float, cz: float,
            a00: float, a01: float, a02: float, a10: float, a11: float, a12: float, a20: float,
            a21: float, a22: float, h0: float, h1: float, h2: float,
            first_pass: bool) -> tuple[int, bool]:
    """``(class, doubt)`` of one ball against one oriented box, in float64.

    The centre's frame coordinates ``U_i`` are within ``spread`` of the exact ones; per axis the
    excess ``w_i = max(|U_i| - h_i, 0)`` (surely 0 where ``|U_i| - h_i < -spread``: a centre
    surely inside on every axis is surely a hit); ``|w|**2 - w^T R w - r**2`` decides the miss,
    and the margins ``h_i - |U_i| - r |a_i|`` INCLUDE, each sure outside its band. Doubt also for
    a non-finite value, a negative radius, axes that are not orthonormal, and offsets or radii
    beyond SPHERE_SCALE_MAX. The compiled loop's pass over every item (``first_pass``) leaves
    the correction out and widens the band by its size instead (fewer operations a box, for
    about as few doubts); its second pass runs the whole test on the items that doubts."""
    tx, ty, tz = sx - cx, sy - cy, sz - cz
    # finite iff the ball and the half sizes are (or it overflowed: doubt either way), the
    # ball's terms first (one ball for all boxes: a constant of the loop); a box centre that is
    # not finite makes reach so, doubt too
    sizes = h0 + h1 + h2
    total = (r + (sx + sy + sz)) + sizes
    reach = abs(tx) + abs(ty) + abs(tz)
    # the rows' residuals R = M M^T - I in plain floats: the value check, and the metric's terms
    r00, r01, r02, r11, r12, r22 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    bad = (not total - total == 0.0) | (not reach <= SPHERE_SCALE_MAX) | (not r >= 0.0) \
        | (r > SPHERE_SCALE_MAX) | (not residuals_small(r00, r01, r02, r11, r12, r22))
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    p0 = a00 * tx + a01 * ty + a02 * tz  # the centre's frame coordinates
    p1 = a10 * tx + a11 * ty + a12 * tz
    p2 = a20 * tx + a21 * ty + a22 * tz
    u0, u1, u2 = abs(p0), abs(p1), abs(p2)
    spread = OBB_FRAME_BOUND * FILTER_UNIT * reach + 2.0**-1020  # (normal: SLAB_ABSOLUTE)
    x0, x1, x2 = u0 - h0, u1 - h1, u2 - h2
    w0, w1, w2 = max(x0, 0.0), max(x1, 0.0), max(x2, 0.0)
    squares = w0 * w0 + w1 * w1 + w2 * w2
    e = max(max(abs(r00), abs(r01)), max(max(abs(r02), abs(r11)), max(abs(r12), abs(r22))))
    e = e * (1.0 + 2.0**-50) + 6.0 * FILTER_UNIT
    rr = r * r
    if first_pass:
        # |w^T R w| <= e (sum |w_i|)**2 <= 3 e |w|**2 joins the band; one spread for every axis
        # (each excess errs by at most spread + u |x_i|, and |x_i| <= |U_i| + h_i)
        size = (u0 + u1 + u2) + sizes
        spread3 = 3.0 * (spread + 1.0001 * FILTER_UNIT * size)
        band = (OBB_DISTANCE_METRIC * e * e + 3.0001 * e) * squares \
            + 1.03 * spread3 * (2.0 * (w0 + w1 + w2) + spread3) \
            + SPHERE_OBB_RELATIVE * (squares + rr) + SPHERE_ABSOLUTE
        gap = squares - rr
        miss = gap > band
        hit = gap < -band
        # INCLUDE: h_i - |U_i| > r |a_i| on every axis, |a_i| = sqrt(1 + R_ii) taken as
        # 1 + R_ii / 2 (within R_ii**2 / 8: no root a box); the least margin against one bound
        least = min(min((h0 - u0) - r * (1.0 + 0.5 * r00), (h1 - u1) - r * (1.0 + 0.5 * r11)),
                    (h2 - u2) - r * (1.0 + 0.5 * r22))
        bound = spread + SPHERE_OBB_RELATIVE * (size + r) + 0.126 * e * e * r
        inside = least > bound
        touching = least < -bound
    else:
        # each excess also rounds once (u |x_i|); where it is surely 0, it errs not at all
        s0 = spread + FILTER_UNIT * abs(x0)
        s0 = 0.0 if x0 < -1.01 * s0 else s0
        s1 = spread + FILTER_UNIT * abs(x1)
        s1 = 0.0 if x1 < -1.01 * s1 else s1
        s2 = spread + FILTER_UNIT * abs(x2)
        s2 = 0.0 if x2 < -1.01 * s2 else s2
        # signed excesses: the correction's cross terms need the sides
        v0, v1, v2 = math.copysign(w0, p0), math.copysign(w1, p1), math.copysign(w2, p2)
        d2 = squares - ((r00 * w0 * w0 + r11 * w1 * w1 + r22 * w2 * w2)
                        + 2.0 * ((r01 * v0 * v1 + r02 * v0 * v2) + r12 * v1 * v2))
        spread_sum = s0 + s1 + s2
        band = OBB_DISTANCE_METRIC * e * e * squares \
            + 1.03 * spread_sum * (2.0 * (w0 + w1 + w2) + spread_sum) \
            + SPHERE_OBB_RELATIVE * (squares + rr) + SPHERE_ABSOLUTE
        gap = d2 - rr
        miss = gap > band
        hit = (gap < -band) | (spread_sum == 0.0)
        # INCLUDE: h_i - |U_i| > r |a_i| on every axis
        g0 = (h0 - u0) - r * math.sqrt(1.0 + r00)
        g1 = (h1 - u1) - r * math.sqrt(1.0 + r11)
        g2 = (h2 - u2) - r * math.sqrt(1.0 + r22)
        b0 = spread + SPHERE_OBB_RELATIVE * (h0 + u0 + r)
        b1 = spread + SPHERE_OBB_RELATIVE * (h1 + u1 + r)
        b2 = spread + SPHERE_OBB_RELATIVE * (h2 + u2 + r)
        inside = (g0 > b0) & (g1 > b1) & (g2 > b2)
        touching = (g0 < -b0) | (g1 < -b1) | (g2 < -b2)
    code = 0 if empty | miss else (2 if inside else 1)
    unsure = (not (miss | hit)) | (hit & (not (inside | touching)))
    return code, bad | ((not empty) & unsure)


def _exact(sx: float, sy: float, sz: float, r: float, cx: float, cy: float, cz: float,
           a00: float, a01: float, a02: float, a10: float, a11: float, a12: float, a20: float,
           a21: float, a22: float, h0: float, h1: float, h2: float) -> int:
    """The class of one ball against the box the floats describe, exactly."""
    axes = (a00, a01, a02, a10, a11, a12, a20, a21, a22)
    d2 = obb_distance2((sx, sy, sz), (cx, cy, cz), axes, (h0, h1, h2))
    radius = Fraction(r)
    if d2 is None or d2 > radius * radius:
        return 0
    t = (Fraction(sx) - Fraction(cx), Fraction(sy) - Fraction(cy), Fraction(sz) - Fraction(cz))
    for i, h in enumerate((h0, h1, h2)):
        row = [Fraction(a) for a in axes[3 * i:3 * i + 3]]
        margin = Fraction(h) - abs(sum((row[j] * t[j] for j in range(3)), Fraction(0)))
        if margin <= 0 or margin * margin <= radius * radius * sum(a * a for a in row):
            return 1
    return 2


_QUERY = Query(_filter, _exact,
               args=[("center", POINT), ("radius", RADIUS), ("box_center", POINT),
                     ("box_axes", AXES), ("box_half_size", POINT)],
               outputs=[CLASS], second_pass=True, contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_sphere_obb(
    center: ArrayLike, radius: ArrayLike, box_center: ArrayLike, box_axes: ArrayLike,
    box_half_size: ArrayLike, *, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each oriented box against the ball: NONE, INTERSECT or INCLUDE.

    Semantics as :func:`classify_sphere_aabb`, for the box ``{x : |box_axes[i] . (x -
    box_center)| <= box_half_size_i}`` of the rows given (a parallelepiped where they are
    orthonormal only within rounding): ``NONE`` when the centre is farther than ``radius`` from
    it, ``INCLUDE`` when the ball lies in its open interior (farther than ``radius`` from every
    face plane), ``INTERSECT`` otherwise. A negative half size is an empty box (NONE). Exact for
    the floats given, at every magnitude.

    Parameters
    ----------
    center : (3,) or (N, 3) array_like
    radius : float or (N,) array_like
        Finite and not negative, else ``ValueError``.
    box_center, box_half_size : (3,) or (N, 3) array_like
    box_axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    out : (N,) int8 ndarray, optional

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item.
    """
    codes = _QUERY(center, radius, box_center, box_axes, box_half_size, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
