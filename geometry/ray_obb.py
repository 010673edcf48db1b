"""Ray vs oriented box: hit, entry and exit parameters (slabs in the box's frame).

The box is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given (SEMANTICS.md);
a negative half size makes it empty. The ray ``origin + t direction`` is mapped into the box's
centred frame, ``u = axes @ (p - center)`` (``_frame``), where the box is
``[-half_size, half_size]`` and t is unchanged, and meets the box on the intersection of
[t_min, t_max] with the three slabs' parameter intervals (Kay & Kajiya 1986; Williams et al.
2004). ``_filter`` bounds each plane's t from the float frame change (``_slab_bounds``); for
float64 answers the t that can be the entry or the exit are computed again in double-double
(``_double_double``), for float32 they are the slabs' own where their bound allows.
``_exact`` computes the slabs in integers on the floats' exact values, t as Fractions that the
engine rounds once.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._double_double import axis_ts, inverse_w, picked_axis_t, picked_plane_t, two_sum
from ._engine import BOOL, Query, T
from ._exact import clip_to_slab, scaled
from ._floats import axes_doubt, interpreted, jitable
from ._sat import larger, smaller
from ._tolerances import (
    FILTER_SCALE_MAX,
    FILTER_UNIT,
    OBB_FRAME_BOUND,
    RAY_DD_BOUND,
    RAY_QUOTIENT_BOUND,
    RAY_T32_RELATIVE,
    RAY_T_MIN,
    RAY_UNDERFLOW_SLACK,
    RAY_W_MIN,
)
from ._validate import AXES, DIRECTION, POINT, T_MAX, T_MIN
from .results import RayHit

__all__ = ["intersect_ray_obb"]

_INF = float("inf")


@jitable
def _direction_error(dx: float, dy: float, dz: float) -> tuple[float, float]:
    """``(size_d, err_w)``: a bound on ``|d|_1`` (and on every ``|a . d|`` for a unit axis
    ``a``), and on the error of the float dot product ``a . d`` (OBB_FRAME_BOUND)."""
    # the dot products with a row of the axes err by multiples of sum_j |a_j d_j|, and
    # |a_j| <= 1 + 2**-20 (axes_doubt): bounded by the 1-norm
    size_d = (abs(dx) + abs(dy) + abs(dz)) * (1.0 + 2.0**-19)
    return size_d, OBB_FRAME_BOUND * FILTER_UNIT * size_d + RAY_UNDERFLOW_SLACK


@jitable
def _slab_bounds(a0: float, a1: float, a2: float, h: float, tx: float, ty: float, tz: float,
                 dx: float, dy: float, dz: float, err_u: float, err_w: float, crossed: bool
                 ) -> tuple[float, float, float, float, float, float, bool, float, float, bool]:
    """One axis of the box: the slab ``|U + t W| <= h`` that the ray ``o + t d`` crosses, with
    ``U = a . (o - center)`` and ``W = a . d``. ``(near, near_lo, near_hi, far, far_lo, far_hi,
    outside, scale, w_rel, open)``: the exact t of the near plane lies in
    ``[near_lo, near_hi]``, ``near`` among them, and so for the far one. U and W are float dot
    products (``t``: ``o - center`` rounded), within ``err_u`` / ``err_w`` of the exact ones
    (OBB_FRAME_BOUND). A plane's bounds are ``t -+ spread``, ``spread = base + |t| per_t``, with
    ``base`` from ``err_u scale`` and ``per_t`` from ``w_rel`` (``scale`` = ``|1 / w|``; both
    zero where W is not sure).

    Parallel to the slab (every product in W has a zero factor, so W = 0 exactly):
    no constraint (near ``-inf``, far ``inf``) when surely inside it, ``outside`` when surely
    not. Where W is below RAY_W_MIN or its sign uncertain, or parallel and neither,
    ``-inf, inf`` both and ``open``: the bounds decide no hit. ``crossed``: the caller knows
    W's sign and size sure along this axis, so that W is not zero (:func:`_filter`)."""
    u = a0 * tx + a1 * ty + a2 * tz
    w = a0 * dx + a1 * dy + a2 * dz
    moving = crossed | ((a0 != 0.0) & (dx != 0.0)) | ((a1 != 0.0) & (dy != 0.0)) | (
        (a2 != 0.0) & (dz != 0.0))
    steep = abs(w) >= RAY_W_MIN
    inv_w = 1.0 / (w if steep else 1.0)
    aw = abs(inv_w)
    w_rel = err_w * aw * (1.0 + 2.0**-40)  # >= |W - w| / |w|
    sure = crossed | (steep & (w_rel <= 2.0**-20))
    b = h if w > 0.0 else -h
    near = (-b - u) * inv_w
    far = (b - u) * inv_w
    # a plane's t = (+-h - U) / W: the numerator n = fl(+-h - u) errs by at most err_u + u |n|,
    # so |t - n / w| <= (err_u + u |n|) / |W| + |n / w| |W - w| / |W|, and near / far (the
    # reciprocal and the product) within 2.0000001 u of n / w: with 1 + 2**-17 for
    # |W| >= (1 - 2**-20) |w| and the roundings, and near -+ spread rounding once more, the
    # spread is ``base + |t| per_t`` (RAY_QUOTIENT_BOUND)
    base = err_u * aw * (1.0 + 2.0**-17) + RAY_UNDERFLOW_SLACK
    per_t = w_rel * (1.0 + 2.0**-17) + RAY_QUOTIENT_BOUND * FILTER_UNIT
    near_spread = base + abs(near) * per_t
    far_spread = base + abs(far) * per_t
    # parallel (W = 0): U is the same all along the ray, within err_u of u; the factors cover
    # the roundings
    inside = (not moving) & ((abs(u) + err_u) * (1.0 + 2.0**-50) <= h)
    outside = (not moving) & ((abs(u) - err_u) * (1.0 - 2.0**-50) > h)
    return (near if sure else -_INF, near - near_spread if sure else -_INF,
            near + near_spread if sure else (-_INF if inside else _INF),
            far if sure else _INF, far - far_spread if sure else (_INF if inside else -_INF),
            far + far_spread if sure else _INF,
            outside,
            aw if sure else 0.0, w_rel if sure else 0.0,
            (not sure) & (not inside))


def _filter(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, cx: float,
            cy: float, cz: float, a00: float, a01: float, a02: float, a10: float, a11: float,
            a12: float, a20: float, a21: float, a22: float, h0: float, h1: float, h2: float,
            t_min: float, t_max: float, t32: bool, crossed: bool, first_pass: bool
            ) -> tuple[bool, float, float, bool]:
    """``(hit, t_enter, t_exit, doubt)``: the ray against the OBB by slabs in the box's centred
    frame.

    Each plane's t is bounded from float dot products (:func:`_slab_bounds`): the exact entry
    (the largest near t, or ``t_min``) lies in ``[low, top]``, the exact exit in
    ``[floor, high]``. The ray surely misses when ``low > high``, and surely hits when
    ``top <= floor``. For a sure hit and float64 t, the planes that can be the entry and the exit
    are then computed again in double-double, so that ``t_enter`` and ``t_exit`` are within 1.5
    ulp of the exact values (``t_min`` / ``t_max`` themselves where they win); where two planes
    can be the entry or the exit, the compiled loop's ``first_pass`` doubts and its second pass
    computes both (``Query(..., second_pass=True)``). For float32 t (``t32``), the float t are
    the answer when their bounds are within RAY_T32_RELATIVE, and doubt otherwise; the first
    pass bounds the entry and the exit with one spread each, from the largest terms of the
    three axes, and leaves what these do not settle to the planes' own bounds. A value that
    is not valid (not finite, a zero direction, a NaN bound, ``t_min = +inf`` or
    ``t_max = -inf``, axes that are not orthonormal) is doubt: the ray's and the frame's in
    ``bad``, the box's (a NaN or infinite center or half size) by ``fine``. ``crossed``: the
    caller knows that the direction crosses every axis of the frame (:func:`_crosses_every_axis`,
    the engine's ``case`` for one direction and one frame, a constant of its loop, which then
    leaves out the parallel and unsure slabs' tests); the same bits as without it."""
    total = ox + oy + oz + dx + dy + dz
    bad = ((not ((total - total == 0.0) & ((dx != 0.0) | (dy != 0.0) | (dz != 0.0))
                 & (t_min < _INF) & (t_max > -_INF)))
           | axes_doubt(a00, a01, a02, a10, a11, a12, a20, a21, a22))
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0) & (t_min <= t_max))
    tx, ty, tz = two_sum(ox, -cx), two_sum(oy, -cy), two_sum(oz, -cz)
    # as for the direction (_direction_error): bounded by the 1-norm
    size_t = (abs(tx[0]) + abs(ty[0]) + abs(tz[0])) * (1.0 + 2.0**-19)
    size_d, err_w = _direction_error(dx, dy, dz)
    err_u = OBB_FRAME_BOUND * FILTER_UNIT * size_t + RAY_UNDERFLOW_SLACK
    fine = ((size_t <= FILTER_SCALE_MAX) & (size_d <= FILTER_SCALE_MAX)
            & (abs(h0) <= FILTER_SCALE_MAX) & (abs(h1) <= FILTER_SCALE_MAX)
            & (abs(h2) <= FILTER_SCALE_MAX))  # False for a NaN
    n0, nl0, nh0, f0, fl0, fh0, out0, s0, wr0, open0 = _slab_bounds(
        a00, a01, a02, h0, tx[0], ty[0], tz[0], dx, dy, dz, err_u, err_w, crossed)
    n1, nl1, nh1, f1, fl1, fh1, out1, s1, wr1, open1 = _slab_bounds(
        a10, a11, a12, h1, tx[0], ty[0], tz[0], dx, dy, dz, err_u, err_w, crossed)
    n2, nl2, nh2, f2, fl2, fh2, out2, s2, wr2, open2 = _slab_bounds(
        a20, a21, a22, h2, tx[0], ty[0], tz[0], dx, dy, dz, err_u, err_w, crossed)
    if t32 & first_pass:
        # float32 t need no plane but the entry's and the exit's: their bounds, with each
        # spread's terms the largest of the three axes' and 2**-20 more, hold the exact entry
        # and exit. A near plane's t + spread grows with its t (per_t < 1; the 2**-20 covers the
        # steps of the spread's roundings), so no plane's upper bound is above the largest near
        # t's, and the largest near t's lower bound is below its own; and so for the far
        # planes. The planes' own bounds (below) are within these, so what these settle they
        # settle alike; the loop's second pass tries them on the rest (an axis nearly across
        # the ray has a large spread, which these would give every plane)
        first = larger(larger(n0, n1), n2)  # the largest near t, the smallest far t
        last = smaller(smaller(f0, f1), f2)
        # (base and per_t as _slab_bounds forms them, from the largest scale and w_rel: with one
        # frame those are constants of the loop, cheaper than the largest of the three axes'
        # base, which gives the same bits)
        base = err_u * larger(larger(s0, s1), s2) * (1.0 + 2.0**-17) + RAY_UNDERFLOW_SLACK
        per_t = (larger(larger(wr0, wr1), wr2) * (1.0 + 2.0**-17)
                 + RAY_QUOTIENT_BOUND * FILTER_UNIT)
        first_spread = (base + (abs(first) if first > -_INF else 0.0) * per_t) * (1.0 + 2.0**-20)
        last_spread = (base + (abs(last) if last < _INF else 0.0) * per_t) * (1.0 + 2.0**-20)
        low = larger(first - first_spread, t_min)
        top = larger(first + first_spread, t_min)
        high = smaller(last + last_spread, t_max)
        floor = smaller(last - last_spread, t_max)
        blocked = open0 | open1 | open2
    else:
        low = larger(larger(larger(t_min, nl0), nl1), nl2)
        top = larger(larger(larger(t_min, nh0), nh1), nh2)
        high = smaller(smaller(smaller(t_max, fh0), fh1), fh2)
        floor = smaller(smaller(smaller(t_max, fl0), fl1), fl2)
        blocked = False  # an open slab's bounds are -inf and inf: top > floor
    # the answer, by the first test that settles it: bad values, and coordinates out of range
    # (or not finite), are doubt; an empty box or interval misses; a slab parallel and outside,
    # or the entry surely after the exit: miss; the entry surely not after the exit: hit, if its
    # t are certain; else doubt
    settled = bad | (not fine)
    doubt = settled
    settled = settled | empty | out0 | out1 | out2 | (low > high)
    sure = (not settled) & (top <= floor) & (not blocked)
    doubt = doubt | ((not settled) & (not sure))
    if t32:
        # the float t: the entry within top - low of the exact one, the exit within
        # high - floor; within 2**-28 of themselves puts them within RAY_T32_RELATIVE (a straight
        # line, so the loop vectorises)
        entry = larger(t_min, larger(larger(n0, n1), n2))
        leave = smaller(t_max, smaller(smaller(f0, f1), f2))
        hit = (sure & (top - low <= 0.5 * RAY_T32_RELATIVE * abs(entry))
               & (high - floor <= 0.5 * RAY_T32_RELATIVE * abs(leave)))
        return hit, entry if hit else _INF, leave if hit else _INF, doubt | (sure & (not hit))
    if not sure:
        return False, _INF, _INF, doubt
    # float64 t: in double-double, from the planes that can be the largest near t / the smallest
    # far t (the others' exact t lie below low / above high); not certain: doubt
    dd_u = (RAY_DD_BOUND * FILTER_UNIT * FILTER_UNIT * size_t + RAY_UNDERFLOW_SLACK
            + 2.0 * RAY_T_MIN * FILTER_UNIT * larger(1.0, size_d))  # size_d >= |W|
    dd_w = RAY_DD_BOUND * FILTER_UNIT * FILTER_UNIT * size_d + RAY_UNDERFLOW_SLACK
    near0, near1, near2 = nh0 >= low, nh1 >= low, nh2 >= low
    far0, far1, far2 = fl0 <= high, fl1 <= high, fl2 <= high
    need_near, need_far = near0 | near1 | near2, far0 | far1 | far2
    several = ((near0 & (near1 | near2)) | (near1 & near2) | (far0 & (far1 | far2))
               | (far1 & far2))
    if (several | interpreted()) & (not first_pass):
        # two planes can be the entry (or the exit), as where the ray passes by an edge: each
        # of them, in branches (the compiled loop's first pass leaves such rays to its second);
        # and one item, which shares U between an axis's two planes
        t_enter, t_exit, ok = t_min, t_max, True
        t_enter, t_exit, ok = axis_ts(t_enter, t_exit, ok, near0, far0, a00, a01, a02, h0,
                                      tx[0], ty[0], tz[0], tx[1], ty[1], tz[1], dx, dy, dz,
                                      dd_u, dd_w)
        t_enter, t_exit, ok = axis_ts(t_enter, t_exit, ok, near1, far1, a10, a11, a12, h1,
                                      tx[0], ty[0], tz[0], tx[1], ty[1], tz[1], dx, dy, dz,
                                      dd_u, dd_w)
        t_enter, t_exit, ok = axis_ts(t_enter, t_exit, ok, near2, far2, a20, a21, a22, h2,
                                      tx[0], ty[0], tz[0], tx[1], ty[1], tz[1], dx, dy, dz,
                                      dd_u, dd_w)
    else:
        # at most one plane each: the entry's and the exit's, picked (a straight line, which
        # vectorises: two planes' double-double instead of six)
        if crossed:
            # one frame for all boxes (the engine's case): each axis's 1 / W is a constant of
            # the loop
            i0, r0, m0 = inverse_w(a00, a01, a02, dx, dy, dz, dd_w)
            i1, r1, m1 = inverse_w(a10, a11, a12, dx, dy, dz, dd_w)
            i2, r2, m2 = inverse_w(a20, a21, a22, dx, dy, dz, dd_w)
            tn, good_n = picked_plane_t(near0, near1, -1.0, a00, a01, a02, a10, a11, a12,
                                        a20, a21, a22, h0, h1, h2, tx, ty, tz, i0, i1, i2, r0,
                                        r1, r2, m0, m1, m2, dd_u)
            tf, good_f = picked_plane_t(far0, far1, 1.0, a00, a01, a02, a10, a11, a12, a20,
                                        a21, a22, h0, h1, h2, tx, ty, tz, i0, i1, i2, r0, r1,
                                        r2, m0, m1, m2, dd_u)
        else:
            # each picked axis's 1 / W worked out for it alone (the same floats): two slabs'
            # instead of three where the axes may differ from box to box
            tn, good_n = picked_axis_t(near0, near1, -1.0, a00, a01, a02, a10, a11, a12, a20,
                                       a21, a22, h0, h1, h2, tx, ty, tz, dx, dy, dz, dd_u, dd_w)
            tf, good_f = picked_axis_t(far0, far1, 1.0, a00, a01, a02, a10, a11, a12, a20,
                                       a21, a22, h0, h1, h2, tx, ty, tz, dx, dy, dz, dd_u, dd_w)
        t_enter = t_min if (t_min > tn) | (not need_near) else tn
        t_exit = t_max if (t_max < tf) | (not need_far) else tf
        ok = (good_n | (not need_near)) & (good_f | (not need_far)) & (not several)
    hit = ok & (t_enter <= t_exit)
    return hit, t_enter if hit else _INF, t_exit if hit else _INF, not hit


def _exact(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, cx: float,
           cy: float, cz: float, a00: float, a01: float, a02: float, a10: float, a11: float,
           a12: float, a20: float, a21: float, a22: float, h0: float, h1: float, h2: float,
           t_min: float, t_max: float) -> tuple[bool, float | Fraction, float | Fraction]:
    """``(hit, t_enter, t_exit)`` exactly, t as a ``Fraction`` (``inf, inf`` on a miss): slabs
    in the box frame of the floats' exact values, each plane's t a ratio of exact integers
    (``_exact.scaled``: the points and t bounds on one scale, the axes on another)."""
    miss = (False, _INF, _INF)
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0 and t_min <= t_max):
        return miss
    bounds = [t for t in (t_min, t_max) if abs(t) != _INF]
    unit, v = scaled(ox, oy, oz, cx, cy, cz, dx, dy, dz, h0, h1, h2, *bounds)
    scale, a = scaled(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    q = [v[0] - v[3], v[1] - v[4], v[2] - v[5]]  # origin - center
    enter = None if t_min == -_INF else (v[12], unit)  # t = numerator / denominator > 0
    leave = None if t_max == _INF else (v[-1], unit)
    for i in range(3):
        row = a[3 * i:3 * i + 3]
        u = row[0] * q[0] + row[1] * q[1] + row[2] * q[2]  # on the scale unit * scale
        w = row[0] * v[6] + row[1] * v[7] + row[2] * v[8]
        half = v[9 + i] * scale
        if w == 0:  # parallel to the slab: inside it throughout, or never
            if abs(u) > half:
                return miss
            continue
        enter, leave = clip_to_slab(-half - u, half - u, w, enter, leave)
    # (invertible axes and a direction that is not zero: some axis moves, and bounds both)
    assert enter is not None and leave is not None
    if enter[0] * leave[1] > leave[0] * enter[1]:
        return miss
    return True, Fraction(*enter), Fraction(*leave)


def _crosses_every_axis(dx: float, dy: float, dz: float, a00: float, a01: float, a02: float,
                        a10: float, a11: float, a12: float, a20: float, a21: float, a22: float
                        ) -> bool:
    """Whether W's sign and size are sure along every axis of the frame (which makes W not
    zero: the ray moves across each slab): the ``crossed`` of :func:`_filter`, as the engine
    works it out once for a call with one direction and one frame. Read from
    :func:`_slab_bounds` itself, for a slab no parallel ray lies in (half size -1): its ``open``
    is then exactly "not sure"."""
    err_w = _direction_error(dx, dy, dz)[1]
    return not any(_slab_bounds(a0, a1, a2, -1.0, 0.0, 0.0, 0.0, dx, dy, dz, 0.0, err_w, False)[9]
                   for a0, a1, a2 in ((a00, a01, a02), (a10, a11, a12), (a20, a21, a22)))


def _crossing(columns: Sequence[Any]) -> bool:
    """The engine's ``case`` for ray vs OBB: the direction and the frame are each one for the
    whole call (the loop's constants), and the ray surely crosses every axis of the frame."""
    direction, axes = columns[1], columns[3]
    return (isinstance(direction, tuple) and isinstance(axes, tuple)
            and _crosses_every_axis(*direction, *axes))


_QUERY = Query(_filter, _exact,
               args=[("origin", POINT), ("direction", DIRECTION), ("center", POINT),
                     ("axes", AXES), ("half_size", POINT), ("t_min", T_MIN), ("t_max", T_MAX)],
               outputs=[BOOL, T, T], t32=True, case=_crossing, second_pass=True)


@dask_aware
def intersect_ray_obb(
    origin: ArrayLike,
    direction: ArrayLike,
    center: ArrayLike,
    axes: ArrayLike,
    half_size: ArrayLike,
    t_min: ArrayLike = 0.0,
    t_max: ArrayLike = float("inf"),
    *,
    out: Sequence[np.ndarray] | None = None,
) -> RayHit:
    """Intersect each ray with each closed oriented box: ``(hit, t_enter, t_exit)``.

    Semantics as :func:`intersect_ray_aabb` (t in units of ``direction``, ``t_enter == t_min``
    for a ray starting inside, ``+inf`` on a miss, ``t_enter`` / ``t_exit`` within 2 ulps of the
    exact values), for the box ``{p : |axes[i] . (p - center)| <= half_size_i}``. The ray is
    mapped into the box's frame, which leaves t unchanged: slabs there with certified t bounds
    decide the hit; a float64 t is then computed in double-double, while a float32 t (every
    array input float32) is the slabs' own where their bound puts it well within a float32 ulp.

    Parameters
    ----------
    origin, direction : (3,) or (N, 3) array_like
        A zero direction is a ``ValueError``.
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
    t_min, t_max : float or (N,) array_like
    out : (hit, t_enter, t_exit) ndarrays, optional

    Returns
    -------
    RayHit
    """
    hit, t_enter, t_exit = _QUERY(origin, direction, center, axes, half_size, t_min, t_max,
                                  out=out)
    return RayHit(hit, t_enter, t_exit)
