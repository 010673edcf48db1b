"""Double-double arithmetic for ray vs OBB's float64 t: a plane's t within 1.5 ulp.

``two_sum`` is Knuth's error-free sum and ``_dot_dd`` a dot product as an unevaluated sum
``hi + lo`` from error-free products (``two_product``) and sums (Ogita, Rump & Oishi 2005). From
them, the ray's t on a plane of the box's centred frame (``_frame``), ``t = (+-h - U) / W`` with
``U = a . (origin - center)`` and ``W = a . direction`` for an axis ``a`` of the box: ``inverse_w``
gives each axis's ``1 / W``, ``picked_plane_t``, ``picked_axis_t`` and ``axis_ts`` the t of the
planes that can be the ray's entry or exit, each with whether it is certainly within 1.5 ulp of
the exact quotient (the bounds ``_tolerances.RAY_DD_BOUND`` and ``RAY_DIVISION_BOUND``).
"""

from __future__ import annotations

import math

from ._floats import jitable, two_product
from ._tolerances import FILTER_UNIT, RAY_DD_BOUND, RAY_DIVISION_BOUND, RAY_W_MIN

__all__ = ["axis_ts", "inverse_w", "picked_axis_t", "picked_plane_t", "two_sum"]


@jitable
def two_sum(a: float, b: float) -> tuple[float, float]:
    """``(s, e)``: ``s = fl(a + b)`` and ``s + e == a + b`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@jitable
def _dot_dd(a0: float, a1: float, a2: float, x0: float, x1: float, x2: float
            ) -> tuple[float, float]:
    """``(hi, lo)``: ``a . x`` as the unevaluated sum ``hi + lo``, within 22 u**2 sum_j |a_j x_j|
    of it (see RAY_DD_BOUND) plus underflow; ``hi`` is the float dot product
    ``a0 * x0 + a1 * x1 + a2 * x2``, rounded as written."""
    p0, e0 = two_product(a0, x0)
    p1, e1 = two_product(a1, x1)
    p2, e2 = two_product(a2, x2)
    s, f = two_sum(p0, p1)
    s, g = two_sum(s, p2)
    return s, (f + g) + ((e0 + e1) + e2)


@jitable
def inverse_w(a0: float, a1: float, a2: float, dx: float, dy: float, dz: float, dd_w: float
              ) -> tuple[float, float, float]:
    """``(inv_w, r_lo, room)`` for the slab of the axis ``a``, whose direction there is
    ``W = a . d`` (double-double, within ``dd_w`` of it, RAY_DD_BOUND): ``1 / W`` as
    ``inv_w + r_lo``, within 10.1 u**2 of it (``inv_w = 1`` where ``|W| < RAY_W_MIN``), and the
    relative error left to a plane's numerator (:func:`_plane_t`)."""
    w_hi, w_lo = _dot_dd(a0, a1, a2, dx, dy, dz)
    # W normalised, |w_lo| <= u |w_hi|: _dot_dd leaves w_lo up to 3 u sum_j |a_j d_j|, which
    # with cancellation in a . d can be far more than u |w_hi| (a t is used only on slabs the
    # filter made sure of, where |w_lo| <= 2**-19 |w_hi|: Fast2Sum is exact)
    w = w_hi + w_lo
    w_lo = w_lo - (w - w_hi)
    w_hi = w
    steep = abs(w_hi) >= RAY_W_MIN
    inv_w = 1.0 / (w_hi if steep else 1.0)
    # 1 / W = inv_w / (1 + g), g = inv_w W - 1 = (p - 1 + pe) + inv_w w_lo, |g| <= 2.0001 u
    # (p - 1 exact, Sterbenz); inv_w (1 - g) is within 10.1 u**2 of it, rounding included
    p, pe = two_product(inv_w, w_hi)
    r_lo = -(inv_w * (((p - 1.0) + pe) + inv_w * w_lo))
    # t is within 1.5 ulp when err_n / |n| + dd_w / |W| + RAY_DIVISION_BOUND u**2 <= u; the room
    # left for err_n / |n|, shrunk by 2**-40 and 2**-100 for its own roundings and compared as a
    # product (no division per plane)
    room = ((FILTER_UNIT - RAY_DIVISION_BOUND * FILTER_UNIT**2) / (1.0 + 2.0**-20)
            - dd_w * abs(inv_w) * (1.0 + 2.0**-40)) * (1.0 - 2.0**-40) - 2.0**-100
    return inv_w, r_lo, room


@jitable
def _plane_t(bound: float, u_hi: float, u_lo: float, inv_w: float, r_lo: float, err_n: float,
             room: float) -> tuple[float, bool]:
    """``(t, ok)``: the ray's t on the plane ``a . (p - center) = bound`` (``bound = +-h``),
    ``t = (bound - U) / W``, for the box frame's origin ``U = u_hi + u_lo``
    (:func:`_frame_origin`) and ``1 / W = inv_w + r_lo`` with the ``room`` of
    :func:`inverse_w`; ``ok`` when ``t`` is within 1.5 ulp of the exact quotient: when the
    numerator's error bound ``err_n`` over ``|n_hi|`` is within ``room`` (``err_n`` is large
    enough that ``|n_hi|`` and ``|q|`` are then above RAY_T_MIN).

    The numerator ``n_hi + n_lo`` times ``1 / W``: ``q + qe = n_hi * inv_w`` exactly (Dekker),
    plus ``n_hi * r_lo + n_lo * inv_w``. ``n_lo`` is not normalised: it holds U's low part, up to
    4.01 u T (T = sum_j |a_j t_j|: :func:`_dot_dd` and the low parts of ``origin - center``).
    Before its last rounding (u |t|), ``t`` errs by at most 4.001 u |n_lo| / |W| (the dropped
    ``n_lo * r_lo`` and the rounding of ``n_lo * inv_w``) + 18.6 u**2 |t| (the other roundings
    and ``1 / W``'s error) + 2**-1072 (underflow, below 2**-170 |t| above RAY_T_MIN): the first
    part, at most 4.3 u**2 |t| + 16.1 u**2 T / |W|, is counted in ``err_n`` (RAY_DD_BOUND), the
    rest in RAY_DIVISION_BOUND."""
    n_hi, e = two_sum(bound, -u_hi)
    n_lo = e - u_lo
    ok = err_n <= abs(n_hi) * room
    q, qe = two_product(n_hi, inv_w)
    return q + ((qe + n_hi * r_lo) + n_lo * inv_w), ok


@jitable
def _frame_origin(a0: float, a1: float, a2: float, h: float, tx: float, ty: float, tz: float,
                  ex: float, ey: float, ez: float, dd_u: float) -> tuple[float, float, float]:
    """``(u_hi, u_lo, err_n)``: the ray's origin in the frame of the axis ``a``,
    ``U = a . (origin - center)`` in double-double from ``origin - center = t + e`` exactly
    (within ``dd_u`` of it, RAY_DD_BOUND, which also holds the RAY_T_MIN floor), and the error
    bound of a plane's numerator ``+-h - U`` (:func:`_plane_t`)."""
    u_hi, u_lo = _dot_dd(a0, a1, a2, tx, ty, tz)
    return (u_hi, u_lo + ((a0 * ex + a1 * ey) + a2 * ez),
            dd_u + RAY_DD_BOUND * FILTER_UNIT * FILTER_UNIT * h)


@jitable
def _pick(first: bool, second: bool, v0: float, v1: float, v2: float) -> float:
    """``v0`` if ``first``, else ``v1`` if ``second``, else ``v2`` (a value of the axis picked)."""
    return v0 if first else (v1 if second else v2)


@jitable
def _axis_plane_t(side: float, a0: float, a1: float, a2: float, h: float,
                  tx: tuple[float, float], ty: tuple[float, float], tz: tuple[float, float],
                  inv_w: float, r_lo: float, room: float, dd_u: float) -> tuple[float, bool]:
    """:func:`_plane_t` on the slab of the axis ``a`` of half size ``h`` (``inv_w, r_lo, room``:
    its :func:`inverse_w`): its near plane for ``side = -1`` (``-h`` where W > 0: ``1 / W`` has
    W's sign), its far plane for ``side = 1``. ``t, e``: ``origin - center`` as ``t + e``."""
    u_hi, u_lo, err_n = _frame_origin(a0, a1, a2, h, tx[0], ty[0], tz[0], tx[1], ty[1], tz[1],
                                      dd_u)
    return _plane_t(side * math.copysign(h, inv_w), u_hi, u_lo, inv_w, r_lo, err_n, room)


@jitable
def picked_plane_t(first: bool, second: bool, side: float, a00: float, a01: float, a02: float,
                   a10: float, a11: float, a12: float, a20: float, a21: float, a22: float,
                   h0: float, h1: float, h2: float, tx: tuple[float, float],
                   ty: tuple[float, float], tz: tuple[float, float], i0: float, i1: float,
                   i2: float, r0: float, r1: float, r2: float, m0: float, m1: float, m2: float,
                   dd_u: float) -> tuple[float, bool]:
    """:func:`_axis_plane_t` on the slab of the axis :func:`_pick` picks (``i, r, m``: each
    axis's :func:`inverse_w`, worked out beforehand)."""
    return _axis_plane_t(side, _pick(first, second, a00, a10, a20),
                         _pick(first, second, a01, a11, a21), _pick(first, second, a02, a12, a22),
                         _pick(first, second, h0, h1, h2), tx, ty, tz,
                         _pick(first, second, i0, i1, i2), _pick(first, second, r0, r1, r2),
                         _pick(first, second, m0, m1, m2), dd_u)


@jitable
def picked_axis_t(first: bool, second: bool, side: float, a00: float, a01: float, a02: float,
                  a10: float, a11: float, a12: float, a20: float, a21: float, a22: float,
                  h0: float, h1: float, h2: float, tx: tuple[float, float],
                  ty: tuple[float, float], tz: tuple[float, float], dx: float, dy: float,
                  dz: float, dd_u: float, dd_w: float) -> tuple[float, bool]:
    """:func:`picked_plane_t` with the picked axis's :func:`inverse_w` worked out here, for that
    axis alone (the same floats): where each box has its own axes, two slabs' ``1 / W`` instead
    of three."""
    a0 = _pick(first, second, a00, a10, a20)
    a1 = _pick(first, second, a01, a11, a21)
    a2 = _pick(first, second, a02, a12, a22)
    inv_w, r_lo, room = inverse_w(a0, a1, a2, dx, dy, dz, dd_w)
    return _axis_plane_t(side, a0, a1, a2, _pick(first, second, h0, h1, h2), tx, ty, tz, inv_w,
                         r_lo, room, dd_u)


@jitable
def axis_ts(t_enter: float, t_exit: float, ok: bool, need_near: bool, need_far: bool,
            a0: float, a1: float, a2: float, h: float, tx: float, ty: float, tz: float,
            ex: float, ey: float, ez: float, dx: float, dy: float, dz: float, dd_u: float,
            dd_w: float) -> tuple[float, float, bool]:
    """``(t_enter, t_exit, ok)`` updated with the t of the slab of axis ``a`` (:func:`_plane_t`):
    its near plane's if ``need_near`` (a max into ``t_enter``), its far plane's if ``need_far``
    (a min into ``t_exit``); ``ok`` stays True while every t used is within 1.5 ulp. In
    branches: for one item, and for rays with two candidates for the entry or the exit in the
    compiled loop's second pass (the same floats as :func:`picked_plane_t`)."""
    if need_near | need_far:
        inv_w, r_lo, room = inverse_w(a0, a1, a2, dx, dy, dz, dd_w)
        u_hi, u_lo, err_n = _frame_origin(a0, a1, a2, h, tx, ty, tz, ex, ey, ez, dd_u)
        b = math.copysign(h, inv_w)
        if need_near:
            tn, good = _plane_t(-b, u_hi, u_lo, inv_w, r_lo, err_n, room)
            t_enter = t_enter if t_enter > tn else tn
            ok = ok & good
        if need_far:
            tf, good = _plane_t(b, u_hi, u_lo, inv_w, r_lo, err_n, room)
            t_exit = t_exit if t_exit < tf else tf
            ok = ok & good
    return t_enter, t_exit, ok
