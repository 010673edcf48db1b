"""Oriented boxes: segment / ray / triangle queries against OBBs, and the OBB value.

SEMANTICS.md defines the box as ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the given
floats. Each query maps its points into the box's frame and answers there: an affine map takes
the segment, ray or triangle to the segment, ray or triangle of the mapped points, and keeps
ray parameters t. The segment and triangle filters rotate about a point of the query ``q`` (a
segment's start, a triangle's first vertex), ``x' = axes @ (x - q)``, where the box is
``[k - half_size, k + half_size]``, ``k = axes @ (center - q)``, so that with one frame for all
boxes the query's own points are rotated once, and coordinates are as small as the distance
from the query. The ray's filter and the exact passes work in the centred frame,
``u = axes @ (p - center)``, where the box is ``[-half_size, half_size]`` (the ray's origin there
in double-double, which its t needs; the exact passes on the floats' exact values). The
filters bound what the map rounds (``_tolerances.OBB_FRAME_BOUND``) in every margin they test.
A negative half size is an empty box. The engine (``_engine``) runs the filter once for one item
and in a compiled loop for many, and the exact pass on the items it doubts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import BOOL, CLASS, Query, T
from ._exact import clip_to_slab, rational, scaled, to_float, to_frame_rational
from ._floats import axes_doubt, interpreted, jitable, two_product
from ._tolerances import (
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
    OBB_FRAME_BOUND,
    RAY_DD_BOUND,
    RAY_DIVISION_BOUND,
    RAY_QUOTIENT_BOUND,
    RAY_T32_RELATIVE,
    RAY_T_MIN,
    RAY_UNDERFLOW_SLACK,
    RAY_W_MIN,
    TRIANGLE_EDGE_BOUND,
    UNDERFLOW_SLACK,
    UNIT_ROUNDOFF,
)
from ._validate import (
    AXES,
    DIRECTION,
    POINT,
    T_MAX,
    T_MIN,
    as_axes,
    as_finite_points,
    as_matrix44,
    check_finite,
    check_orthonormal,
)
from ._value import Value
from .aabb import AABB
from .results import IntersectionType, RayHit
from .triangle_box import (
    _box_normals,
    _edge_axis_margin,
    _larger,
    _max_abs3,
    _smaller,
    _triangle_box_exact,
    _triangle_box_sat,
)

__all__ = ["OBB", "classify_segment_obb", "intersect_ray_obb", "triangle_overlaps_obb"]


# --- the kernels: float filters and exact passes ---------------------------------------------
# Each filter maps its points into the box's frame (module docstring) and bounds what that
# rounded (OBB_FRAME_BOUND): every test after it compares a margin with a bound that includes the
# frame error. The exact passes work in the centred frame, u = axes @ (p - center), where the box
# is [-half_size, half_size] exactly as SEMANTICS.md defines it, in integers (or Fractions for t)
# on the floats' exact values. A negative half size is an empty box.

_INF = float("inf")


@jitable
def _rotate(x: float, y: float, z: float, a00: float, a01: float, a02: float, a10: float,
            a11: float, a12: float, a20: float, a21: float, a22: float
            ) -> tuple[float, float, float, float]:
    """``(u0, u1, u2, p)``: ``axes @ (x, y, z)`` and ``p = |(x, y, z)|_1``. Each ``u_i`` rounds
    a dot product of three, within OBB_FRAME_BOUND * u * p of the exact one."""
    return (a00 * x + a01 * y + a02 * z, a10 * x + a11 * y + a12 * z,
            a20 * x + a21 * y + a22 * z, abs(x) + abs(y) + abs(z))


def _segment_filter(sx: float, sy: float, sz: float, ex: float, ey: float, ez: float, cx: float,
                    cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
                    a11: float, a12: float, a20: float, a21: float, a22: float, h0: float,
                    h1: float, h2: float) -> tuple[int, bool]:
    """``(code, doubt)``: the segment ``s, e`` against the OBB, code 0 NONE, 1 INTERSECT,
    2 INCLUDE, by separating axes in the box's frame about the start (module docstring): the
    box's normals and the three box-axis x segment axes, each margin against its bound. (About
    the origin instead, coordinates far from it, as in georeferenced data, leave bounds of their
    size: segments 100 long at 4e6 had 2 % of the boxes within a metre of them in doubt.) A
    value that is not finite is doubt."""
    total = sx + sy + sz + ex + ey + ez + cx + cy + cz + h0 + h1 + h2
    bad = (not total - total == 0.0) | axes_doubt(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    # the frame about the start: s' = 0 exactly, e' = axes @ (e - s), k = axes @ (center - s)
    s0, s1, s2 = 0.0, 0.0, 0.0
    e0, e1, e2, pe = _rotate(ex - sx, ey - sy, ez - sz, a00, a01, a02, a10, a11, a12, a20, a21,
                             a22)
    k0, k1, k2, pk = _rotate(cx - sx, cy - sy, cz - sz, a00, a01, a02, a10, a11, a12, a20, a21,
                             a22)
    l0, l1, l2 = k0 - h0, k1 - h1, k2 - h2
    u0, u1, u2 = k0 + h0, k1 + h1, k2 + h2
    reach = pe + pk
    big = _larger(_max_abs3(e0, e1, e2), _larger(_max_abs3(l0, l1, l2), _max_abs3(u0, u1, u2)))
    # e' errs by at most OBB_FRAME_BOUND u |e - s|_1 (the frame change, _tolerances), the box's
    # bounds by that of k plus the rounding of k +- half_size (u |bound| <= u big): moved onto
    # the ends, every coordinate the axes compare is within ``err``
    err = OBB_FRAME_BOUND * FILTER_UNIT * (reach + big)
    b2 = err + err
    # reach 0: a point segment at the box's centre, where every coordinate is 0 or +-half_size
    # exactly and no axis but the box's normals is tested
    in_range = ((FILTER_SCALE_MIN <= reach) | (reach == 0.0)) & (reach <= FILTER_SCALE_MAX)
    # the box's normals: the segment's extent on each axis against [l, u]; ``inner``: how far
    # both ends lie inside on that axis
    lo = s0 if s0 < e0 else e0
    hi = s0 if s0 > e0 else e0
    m = u0 - lo
    m2 = hi - l0
    margin = m if m < m2 else m2
    m = lo - l0
    m2 = u0 - hi
    inner0 = m if m < m2 else m2
    lo = s1 if s1 < e1 else e1
    hi = s1 if s1 > e1 else e1
    m = u1 - lo
    m2 = hi - l1
    m = m if m < m2 else m2
    margin = margin if margin < m else m
    m = lo - l1
    m2 = u1 - hi
    inner1 = m if m < m2 else m2
    lo = s2 if s2 < e2 else e2
    hi = s2 if s2 > e2 else e2
    m = u2 - lo
    m2 = hi - l2
    m = m if m < m2 else m2
    margin = margin if margin < m else m
    m = lo - l2
    m2 = u2 - hi
    inner2 = m if m < m2 else m2
    separated = in_range & (margin < -b2)
    unsure = not (in_range & (margin >= b2))
    inner = inner0 if inner0 < inner1 else inner1
    inner = inner if inner < inner2 else inner2
    # the box-axis x segment axes; a point segment (exactly) has none (``live``). An axis whose
    # two other coordinates lie inside the box at both ends cannot separate (the segment's
    # shadow along that box axis lies in the box's), which settles axes that are zero in exact
    # arithmetic.
    live = not ((sx == ex) & (sy == ey) & (sz == ez))
    w0, w1, w2 = e0 - s0, e1 - s1, e2 - s2
    edge = _max_abs3(w0, w1, w2)
    ok = in_range & (FILTER_SCALE_MIN <= edge) & (big <= FILTER_SCALE_MAX)
    bound = TRIANGLE_EDGE_BOUND * (FILTER_UNIT * edge + err) * big
    m = _edge_axis_margin(-w2, w1, s1, s2, e1, e2, k1, k2, h1, h2)
    separated = separated | (live & ok & (m < -bound))
    unsure = unsure | (live & (not (ok & ((m >= bound) | ((inner1 >= b2) & (inner2 >= b2))))))
    m = _edge_axis_margin(w2, -w0, s0, s2, e0, e2, k0, k2, h0, h2)
    separated = separated | (live & ok & (m < -bound))
    unsure = unsure | (live & (not (ok & ((m >= bound) | ((inner0 >= b2) & (inner2 >= b2))))))
    m = _edge_axis_margin(-w1, w0, s0, s1, e0, e1, k0, k1, h0, h1)
    separated = separated | (live & ok & (m < -bound))
    unsure = unsure | (live & (not (ok & ((m >= bound) | ((inner0 >= b2) & (inner1 >= b2))))))
    # separated: NONE; both ends in the open box: INCLUDE; else INTERSECT unless in doubt
    include = (not separated) & in_range & (inner > b2)
    meets = (not separated) & (not include) & (not unsure)
    code = 2 if include else (1 if meets else 0)
    doubt = (not separated) & (not include) & (unsure | (not inner <= -b2))
    code = 0 if (bad | empty) else code
    return code, bad | ((not empty) & doubt)


def _triangle_filter(v0x: float, v0y: float, v0z: float, v1x: float, v1y: float, v1z: float,
                     v2x: float, v2y: float, v2z: float, cx: float, cy: float, cz: float,
                     a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
                     a20: float, a21: float, a22: float, h0: float, h1: float, h2: float
                     ) -> tuple[bool, bool]:
    """``(overlap, doubt)``: the triangle against the OBB, by the thirteen separating axes in
    the box's frame about the first vertex, ``x' = axes @ (x - v0)``: there the OBB is the
    axis-aligned box ``[k - half_size, k + half_size]``, ``k = axes @ (center - v0)``, and the
    triangle is ``0, v1', v2'``, all known within the frame error. With one triangle and one
    frame for all boxes, the vertices, edges and every other triangle-only term are constants
    of the loop, and a box costs one rotation. (About the origin instead, coordinates far from
    it, as in georeferenced data, leave bounds of their size: triangles 100 wide at 4e6 had a
    box in a thousand in doubt. In the centred frame, ``axes @ (x - center)``, a box costs three
    rotations: one frame took 9.4 instead of 6.9 ms at 10^6 boxes, per-box axes 13.1 instead of
    12.8.) A value that is not finite is doubt."""
    total = v0x + v0y + v0z + v1x + v1y + v1z + v2x + v2y + v2z + cx + cy + cz + h0 + h1 + h2
    bad = (not total - total == 0.0) | axes_doubt(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    bx, by, bz, pb = _rotate(v1x - v0x, v1y - v0y, v1z - v0z, a00, a01, a02, a10, a11, a12, a20,
                             a21, a22)
    qx, qy, qz, pc = _rotate(v2x - v0x, v2y - v0y, v2z - v0z, a00, a01, a02, a10, a11, a12, a20,
                             a21, a22)
    kx, ky, kz, pk = _rotate(cx - v0x, cy - v0y, cz - v0z, a00, a01, a02, a10, a11, a12, a20,
                             a21, a22)
    lx, ly, lz = kx - h0, ky - h1, kz - h2
    hx, hy, hz = kx + h0, ky + h1, kz + h2
    reach = _larger(pb, pc) + pk
    far = not ((FILTER_SCALE_MIN <= reach) & (reach <= FILTER_SCALE_MAX))
    big = _larger(_larger(_max_abs3(bx, by, bz), _max_abs3(qx, qy, qz)),
                  _larger(_max_abs3(lx, ly, lz), _max_abs3(hx, hy, hz)))
    # a vertex errs by at most OBB_FRAME_BOUND u |v - v0|_1 (the frame change, _tolerances), the
    # box's bounds by that of k plus the rounding of k +- half_size (u |bound| <= u big): moved
    # onto the vertices, every coordinate the axes compare is within ``err``
    err = OBB_FRAME_BOUND * FILTER_UNIT * (reach + big)
    on_box, unsure = _box_normals(0.0, 0.0, 0.0, bx, by, bz, qx, qy, qz, lx, ly, lz, hx, hy, hz,
                                  err + err)
    overlap, unsure = _triangle_box_sat(0.0, 0.0, 0.0, bx, by, bz, qx, qy, qz, lx, ly, lz, hx, hy,
                                        hz, kx, ky, kz, h0, h1, h2, err, big, False, on_box,
                                        unsure)
    return (overlap & (not empty) & (not bad) & (not far),
            bad | ((not empty) & (far | unsure)))


# ray: slabs in the box's centred frame; each plane's t bounded from a float frame change, and
# for float64 answers the t that can be the entry or the exit computed again in double-double

@jitable
def _two_sum(a: float, b: float) -> tuple[float, float]:
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
    s, f = _two_sum(p0, p1)
    s, g = _two_sum(s, p2)
    return s, (f + g) + ((e0 + e1) + e2)


@jitable
def _direction_error(dx: float, dy: float, dz: float) -> tuple[float, float]:
    """``(size_d, err_w)``: a bound on ``|d|_1`` (and on every ``|a . d|`` for a unit axis
    ``a``), and on the error of the float dot product ``a . d`` (OBB_FRAME_BOUND)."""
    # the dot products with a row of the axes err by multiples of sum_j |a_j d_j|, and
    # |a_j| <= 1 + 2**-20 (axes_doubt): bounded by the 1-norm
    size_d = (abs(dx) + abs(dy) + abs(dz)) * (1.0 + 2.0**-19)
    return size_d, OBB_FRAME_BOUND * FILTER_UNIT * size_d + RAY_UNDERFLOW_SLACK


def _crosses_every_axis(dx: float, dy: float, dz: float, a00: float, a01: float, a02: float,
                        a10: float, a11: float, a12: float, a20: float, a21: float, a22: float
                        ) -> bool:
    """Whether W's sign and size are sure along every axis of the frame (which makes W not
    zero: the ray moves across each slab): the ``crossed`` of :func:`_ray_filter`, as the engine
    works it out once for a call with one direction and one frame. Read from
    :func:`_slab_bounds` itself, for a slab no parallel ray lies in (half size -1): its ``open``
    is then exactly "not sure"."""
    err_w = _direction_error(dx, dy, dz)[1]
    return not any(_slab_bounds(a0, a1, a2, -1.0, 0.0, 0.0, 0.0, dx, dy, dz, 0.0, err_w, False)[9]
                   for a0, a1, a2 in ((a00, a01, a02), (a10, a11, a12), (a20, a21, a22)))


def _ray_case(columns: Sequence[Any]) -> bool:
    """The engine's ``case`` for ray vs OBB: the direction and the frame are each one for the
    whole call (the loop's constants), and the ray surely crosses every axis of the frame."""
    direction, axes = columns[1], columns[3]
    return (isinstance(direction, tuple) and isinstance(axes, tuple)
            and _crosses_every_axis(*direction, *axes))


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
    W's sign and size sure along this axis, so that W is not zero (:func:`_ray_filter`)."""
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


@jitable
def _inverse_w(a0: float, a1: float, a2: float, dx: float, dy: float, dz: float, dd_w: float
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
    :func:`_inverse_w`; ``ok`` when ``t`` is within 1.5 ulp of the exact quotient: when the
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
    n_hi, e = _two_sum(bound, -u_hi)
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
def _picked_plane_t(first: bool, second: bool, side: float, a00: float, a01: float, a02: float,
                    a10: float, a11: float, a12: float, a20: float, a21: float, a22: float,
                    h0: float, h1: float, h2: float, tx: tuple[float, float],
                    ty: tuple[float, float], tz: tuple[float, float], i0: float, i1: float,
                    i2: float, r0: float, r1: float, r2: float, m0: float, m1: float, m2: float,
                    dd_u: float) -> tuple[float, bool]:
    """:func:`_plane_t` on the slab of the axis :func:`_pick` picks (``i, r, m``: each axis's
    :func:`_inverse_w`): its near plane for ``side = -1`` (``-h`` where W > 0: ``1 / W`` has W's
    sign), its far plane for ``side = 1``. ``t, e``: ``origin - center`` as ``t + e``."""
    h = _pick(first, second, h0, h1, h2)
    inv_w = _pick(first, second, i0, i1, i2)
    u_hi, u_lo, err_n = _frame_origin(_pick(first, second, a00, a10, a20),
                                      _pick(first, second, a01, a11, a21),
                                      _pick(first, second, a02, a12, a22), h, tx[0], ty[0], tz[0],
                                      tx[1], ty[1], tz[1], dd_u)
    t, ok = _plane_t(side * math.copysign(h, inv_w), u_hi, u_lo, inv_w,
                     _pick(first, second, r0, r1, r2), err_n, _pick(first, second, m0, m1, m2))
    return t, ok


@jitable
def _axis_ts(t_enter: float, t_exit: float, ok: bool, need_near: bool, need_far: bool,
             a0: float, a1: float, a2: float, h: float, tx: float, ty: float, tz: float,
             ex: float, ey: float, ez: float, dx: float, dy: float, dz: float, dd_u: float,
             dd_w: float) -> tuple[float, float, bool]:
    """``(t_enter, t_exit, ok)`` updated with the t of the slab of axis ``a`` (:func:`_plane_t`):
    its near plane's if ``need_near`` (a max into ``t_enter``), its far plane's if ``need_far``
    (a min into ``t_exit``); ``ok`` stays True while every t used is within 1.5 ulp. In
    branches: for one item, and for rays with two candidates for the entry or the exit in the
    compiled loop's second pass (the same floats as :func:`_picked_plane_t`)."""
    if need_near | need_far:
        inv_w, r_lo, room = _inverse_w(a0, a1, a2, dx, dy, dz, dd_w)
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


def _ray_filter(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, cx: float,
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
    tx, ty, tz = _two_sum(ox, -cx), _two_sum(oy, -cy), _two_sum(oz, -cz)
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
        first = _larger(_larger(n0, n1), n2)  # the largest near t, the smallest far t
        last = _smaller(_smaller(f0, f1), f2)
        # (base and per_t as _slab_bounds forms them, from the largest scale and w_rel: with one
        # frame those are constants of the loop, and taking the largest of the three axes'
        # base instead, which gives the same bits, ran 3-4 % longer at 10^6 boxes)
        base = err_u * _larger(_larger(s0, s1), s2) * (1.0 + 2.0**-17) + RAY_UNDERFLOW_SLACK
        per_t = (_larger(_larger(wr0, wr1), wr2) * (1.0 + 2.0**-17)
                 + RAY_QUOTIENT_BOUND * FILTER_UNIT)
        first_spread = (base + (abs(first) if first > -_INF else 0.0) * per_t) * (1.0 + 2.0**-20)
        last_spread = (base + (abs(last) if last < _INF else 0.0) * per_t) * (1.0 + 2.0**-20)
        low = _larger(first - first_spread, t_min)
        top = _larger(first + first_spread, t_min)
        high = _smaller(last + last_spread, t_max)
        floor = _smaller(last - last_spread, t_max)
        blocked = open0 | open1 | open2
    else:
        low = _larger(_larger(_larger(t_min, nl0), nl1), nl2)
        top = _larger(_larger(_larger(t_min, nh0), nh1), nh2)
        high = _smaller(_smaller(_smaller(t_max, fh0), fh1), fh2)
        floor = _smaller(_smaller(_smaller(t_max, fl0), fl1), fl2)
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
        entry = _larger(t_min, _larger(_larger(n0, n1), n2))
        leave = _smaller(t_max, _smaller(_smaller(f0, f1), f2))
        hit = (sure & (top - low <= 0.5 * RAY_T32_RELATIVE * abs(entry))
               & (high - floor <= 0.5 * RAY_T32_RELATIVE * abs(leave)))
        return hit, entry if hit else _INF, leave if hit else _INF, doubt | (sure & (not hit))
    if not sure:
        return False, _INF, _INF, doubt
    # float64 t: in double-double, from the planes that can be the largest near t / the smallest
    # far t (the others' exact t lie below low / above high); not certain: doubt
    dd_u = (RAY_DD_BOUND * FILTER_UNIT * FILTER_UNIT * size_t + RAY_UNDERFLOW_SLACK
            + 2.0 * RAY_T_MIN * FILTER_UNIT * _larger(1.0, size_d))  # size_d >= |W|
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
        t_enter, t_exit, ok = _axis_ts(t_enter, t_exit, ok, near0, far0, a00, a01, a02, h0,
                                       tx[0], ty[0], tz[0], tx[1], ty[1], tz[1], dx, dy, dz,
                                       dd_u, dd_w)
        t_enter, t_exit, ok = _axis_ts(t_enter, t_exit, ok, near1, far1, a10, a11, a12, h1,
                                       tx[0], ty[0], tz[0], tx[1], ty[1], tz[1], dx, dy, dz,
                                       dd_u, dd_w)
        t_enter, t_exit, ok = _axis_ts(t_enter, t_exit, ok, near2, far2, a20, a21, a22, h2,
                                       tx[0], ty[0], tz[0], tx[1], ty[1], tz[1], dx, dy, dz,
                                       dd_u, dd_w)
    else:
        # at most one plane each: the entry's and the exit's, picked (a straight line, which
        # vectorises: two planes' double-double instead of six; with one frame for all boxes,
        # each axis's 1 / W is a constant of the loop)
        i0, r0, m0 = _inverse_w(a00, a01, a02, dx, dy, dz, dd_w)
        i1, r1, m1 = _inverse_w(a10, a11, a12, dx, dy, dz, dd_w)
        i2, r2, m2 = _inverse_w(a20, a21, a22, dx, dy, dz, dd_w)
        tn, good_n = _picked_plane_t(near0, near1, -1.0, a00, a01, a02, a10, a11, a12, a20,
                                     a21, a22, h0, h1, h2, tx, ty, tz, i0, i1, i2, r0, r1, r2,
                                     m0, m1, m2, dd_u)
        tf, good_f = _picked_plane_t(far0, far1, 1.0, a00, a01, a02, a10, a11, a12, a20, a21,
                                     a22, h0, h1, h2, tx, ty, tz, i0, i1, i2, r0, r1, r2, m0,
                                     m1, m2, dd_u)
        t_enter = t_min if (t_min > tn) | (not need_near) else tn
        t_exit = t_max if (t_max < tf) | (not need_far) else tf
        ok = (good_n | (not need_near)) & (good_f | (not need_far)) & (not several)
    hit = ok & (t_enter <= t_exit)
    return hit, t_enter if hit else _INF, t_exit if hit else _INF, not hit


def _local_ints(points: Sequence[Sequence[float]], center: Sequence[float],
                axes: Sequence[float], half: Sequence[float]
                ) -> tuple[list[list[int]], list[int]]:
    """Box-frame coordinates of ``points`` and the half sizes, exactly, as integers on one
    scale: the axes and the coordinates each on their own integer scale (``_exact.scaled``), so
    ``u = axes @ (p - center)`` and ``half_size`` (times the axes' scale) compare exactly."""
    _, coords = scaled(*[x for p in points for x in p], *center, *half)
    unit, rows = scaled(*axes)
    n = len(points)
    c = coords[3 * n:3 * n + 3]
    h = [x * unit for x in coords[3 * n + 3:]]
    local = []
    for k in range(n):
        q = [coords[3 * k + j] - c[j] for j in range(3)]
        local.append([rows[3 * i] * q[0] + rows[3 * i + 1] * q[1] + rows[3 * i + 2] * q[2]
                      for i in range(3)])
    return local, h


def _segment_exact(sx: float, sy: float, sz: float, ex: float, ey: float, ez: float, cx: float,
                   cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
                   a11: float, a12: float, a20: float, a21: float, a22: float, h0: float,
                   h1: float, h2: float) -> int:
    """The exact class (0, 1, 2) of the segment against the OBB the floats describe: slabs in
    the box frame, in integers (:func:`_local_ints`); INCLUDE when both ends are in the open
    box (it is convex), INTERSECT when the segment meets the closed box otherwise."""
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0):
        return 0
    (s, e), h = _local_ints(((sx, sy, sz), (ex, ey, ez)), (cx, cy, cz),
                            (a00, a01, a02, a10, a11, a12, a20, a21, a22), (h0, h1, h2))
    enter, leave = (0, 1), (1, 1)  # the segment's t in [0, 1], as ratios
    for k in range(3):
        if e[k] == s[k]:  # parallel to the slab: inside it throughout, or never
            if abs(s[k]) > h[k]:
                return 0
            continue
        enter, leave = clip_to_slab(-h[k] - s[k], h[k] - s[k], e[k] - s[k], enter, leave)
    if enter[0] * leave[1] > leave[0] * enter[1]:
        return 0
    inside = all(-h[k] < s[k] < h[k] and -h[k] < e[k] < h[k] for k in range(3))
    return 2 if inside else 1


def _triangle_exact(v0x: float, v0y: float, v0z: float, v1x: float, v1y: float, v1z: float,
                    v2x: float, v2y: float, v2z: float, cx: float, cy: float, cz: float,
                    a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
                    a20: float, a21: float, a22: float, h0: float, h1: float, h2: float) -> bool:
    """The exact overlap of the triangle and the OBB the floats describe."""
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0):
        return False
    (a, b, c), h = _local_ints(((v0x, v0y, v0z), (v1x, v1y, v1z), (v2x, v2y, v2z)),
                               (cx, cy, cz), (a00, a01, a02, a10, a11, a12, a20, a21, a22),
                               (h0, h1, h2))
    return _triangle_box_exact(a, b, c, [-x for x in h], h)


def _ray_exact(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, cx: float,
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


# --- the queries ---------------------------------------------------------------------------

_BOX = [("center", POINT), ("axes", AXES), ("half_size", POINT)]
_SEGMENT = Query(_segment_filter, _segment_exact,
                 args=[("start", POINT), ("end", POINT), *_BOX], outputs=[CLASS], contract=True)
_RAY = Query(_ray_filter, _ray_exact,
             args=[("origin", POINT), ("direction", DIRECTION), *_BOX, ("t_min", T_MIN),
                   ("t_max", T_MAX)],
             outputs=[BOOL, T, T], t32=True, case=_ray_case, second_pass=True)
_TRIANGLE = Query(_triangle_filter, _triangle_exact,
                  args=[("v0", POINT), ("v1", POINT), ("v2", POINT), *_BOX], outputs=[BOOL],
                  contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_segment_obb(
    start: ArrayLike, end: ArrayLike, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike,
    *, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each oriented box against the segment: NONE, INTERSECT or INCLUDE.

    Semantics as :func:`classify_segment_aabb` (closed box; INCLUDE iff the segment lies in the
    open interior; a flat box is never INCLUDE), for the box ``{p : |axes[i] . (p - center)| <=
    half_size_i}`` of the floats given; a negative ``half_size`` makes the box empty (NONE).
    Exact at every magnitude: separating axes in the box frame (the box's normals and the box
    axes x the segment), each margin against a certified bound that includes the frame change's
    rounding, and integer arithmetic where it is in doubt.

    Parameters
    ----------
    start, end : (3,) or (N, 3) array_like
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        Rows are the box's axes, orthonormal within 1e-6, else ``ValueError``.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
    """
    codes = _SEGMENT(start, end, center, axes, half_size, out=out)
    return _CLASSES[codes] if type(codes) is int else codes


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
    hit, t_enter, t_exit = _RAY(origin, direction, center, axes, half_size, t_min, t_max,
                                out=out)
    return RayHit(hit, t_enter, t_exit)


@dask_aware
def triangle_overlaps_obb(
    v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, center: ArrayLike, axes: ArrayLike,
    half_size: ArrayLike, *, out: np.ndarray | None = None,
) -> bool | np.ndarray:
    """True for each oriented box that shares at least one point with the triangle.

    Semantics as :func:`triangle_overlaps_aabb` (closed triangle, closed box, touching counts,
    degenerate triangles are their segment or point), for the box ``{p : |axes[i] . (p -
    center)| <= half_size_i}``; a negative ``half_size`` makes the box empty (False). The
    triangle is mapped into the box's frame and tested there by the thirteen separating axes
    (Akenine-Möller 2001), exactly where the frame change's rounding leaves doubt.

    Parameters
    ----------
    v0, v1, v2 : (3,) or (N, 3) array_like
        The triangles' vertices.
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    out : (N,) bool ndarray, optional

    Returns
    -------
    bool or (N,) bool ndarray
        A Python bool when every argument is a single item.
    """
    overlap: bool | np.ndarray = _TRIANGLE(v0, v1, v2, center, axes, half_size, out=out)
    return overlap


# --- the value -----------------------------------------------------------------------------


def _obb_arguments(center: ArrayLike, axes: ArrayLike,
                   half_size: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    center = as_finite_points("center", center)
    axes = as_axes("axes", axes)
    check_finite("axes", axes)
    check_orthonormal("axes", axes)
    half_size = as_finite_points("half_size", half_size)
    return center, axes, half_size


def _frame_error(
    dtype: type[np.floating[Any]], axes: np.ndarray, *offsets: np.ndarray
) -> np.ndarray:
    """Per item and axis, a bound on |computed - exact| of ``axes @ offset`` for each of the
    ``offsets`` (computed ``p - center``, or directions): one rounding of the offset, three of
    the dot product (a first-order count of 4 units times ``|axes| @ |offset|``; 8 allowed)."""
    unit, slack = UNIT_ROUNDOFF[dtype], UNDERFLOW_SLACK[dtype]
    magnitude = np.abs(axes)
    err = np.zeros(())
    for offset in offsets:
        err = np.maximum(err, np.einsum("...ij,...j->...i", magnitude, np.abs(offset)))
    return 8 * unit * err + slack


def _bracket(half_size: np.ndarray, err: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(shrunk, grown)`` half sizes, rounded outwards so the bracket is never narrower."""
    with np.errstate(over="ignore"):
        half = np.asarray(half_size, dtype=np.float64)
        big = np.finfo(np.float64).max
        err = np.minimum(err, big)  # an unbounded error: the grown box is as large as floats go
        shrunk = np.maximum(np.nextafter(half - err, -np.inf), -big)
        return shrunk, np.minimum(np.nextafter(half + err, np.inf), big)


class OBB(Value):
    """An oriented box ``{p : |axes[i] . (p - center)| <= half_size_i for each i}`` (SEMANTICS.md),
    immutable; for exactly orthonormal axes, ``{center + axes.T @ u : |u_i| <= half_size_i}``.

    ``axes`` is a 3x3 array whose ROWS are the box's orthonormal unit axes (within 1e-6, else
    ``ValueError``); coordinates are float64. A negative half size is an empty box. ``contains``,
    ``corners`` and ``aabb`` hold for the box of the floats given, axes as they are.
    """

    __slots__ = ("_center", "_axes", "_half_size")
    _fields = ("center", "axes", "half_size")
    _center: np.ndarray
    _axes: np.ndarray
    _half_size: np.ndarray

    def __init__(self, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike) -> None:
        center, axes, half_size = _obb_arguments(center, axes, half_size)
        for name, arr, shape in (("center", center, (3,)), ("axes", axes, (3, 3)),
                                 ("half_size", half_size, (3,))):
            if arr.shape != shape:
                raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
        self._freeze(center=center.astype(np.float64), axes=axes.astype(np.float64),
                     half_size=half_size.astype(np.float64))

    @classmethod
    def from_aabb(cls, box: AABB, matrix: ArrayLike) -> OBB:
        """The image of ``box`` under a rigid 4x4 ``matrix`` (pyrr convention: ``[p, 1] @ M``).

        The rotation part's rows become the axes (``[1, 0, 0] @ R`` is R's row 0), the box's centre
        is transformed, the half sizes are kept. A matrix that scales, shears or projects is a
        ``ValueError``, and so is an empty box.
        """
        if not isinstance(box, AABB):
            raise ValueError(f"box must be an AABB, got {type(box).__name__}")
        if box.is_empty:
            raise ValueError("box is empty: an empty AABB has no oriented image")
        m = as_matrix44("matrix", matrix)
        try:
            check_orthonormal("matrix", m[:3, :3])
        except ValueError as exc:
            raise ValueError(
                f"matrix must be rigid (rotation and translation only): {exc}") from None
        with np.errstate(over="ignore", invalid="ignore"):
            center = box.center @ m[:3, :3] + m[3, :3]
        if not np.isfinite(center).all():
            raise ValueError(f"{box!r} moved by matrix has its centre beyond float64")
        return cls(center, m[:3, :3], box.half_size)

    @property
    def center(self) -> np.ndarray:
        """The centre, a read-only (3,) array."""
        return self._center

    @property
    def axes(self) -> np.ndarray:
        """The unit axes as the ROWS of a read-only (3, 3) array."""
        return self._axes

    @property
    def half_size(self) -> np.ndarray:
        """Half the extent along each axis, a read-only (3,) array."""
        return self._half_size

    def contains(self, point: ArrayLike) -> bool | np.ndarray:
        """True for each point in the closed box (exactly: ``|axes @ (p - center)| <=
        half_size``); ``point`` (3,) -> bool, (N, 3) -> (N,) bool."""
        point = as_finite_points("point", point)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            offset = point - self._center
            inside = self._holds(point, offset, offset @ self._axes.T)
        return bool(inside) if inside.ndim == 0 else inside

    def _holds(self, point: np.ndarray, offset: np.ndarray, local: np.ndarray) -> np.ndarray:
        """Per point, whether the box holds it, exactly: ``local = offset @ axes.T`` computed
        in floats (``offset = point - center``) decides where its error bound allows; near the
        boundary, or where the float frame change overflowed, the exact frame decides."""
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            local = np.abs(local)
            shrunk, grown = _bracket(self._half_size, _frame_error(np.float64, self._axes, offset))
        inside = np.array(np.all(local <= shrunk, axis=-1))
        unsure = ~inside & (np.all(local <= grown, axis=-1) | ~np.all(np.isfinite(local), axis=-1))
        for index in map(tuple, np.argwhere(unsure)):
            u = to_frame_rational(point[index], self._center, self._axes)
            inside[index] = all(abs(x) <= rational(h)
                                for x, h in zip(u, self._half_size, strict=True))
        return inside

    def closest_point(self, point: ArrayLike) -> np.ndarray:
        """The point of the closed box nearest to each ``point``: the point itself if the box
        holds it (:meth:`contains`), else (Ericson, RTCD 5.1.4)
        ``center + axes.T @ clip(axes @ (point - center), -half_size, half_size)``, in floats;
        where those overflow, evaluated exactly and rounded to nearest (a ``ValueError`` if the
        point is beyond float64). An empty box (a negative half size) is a ``ValueError``."""
        point = as_finite_points("point", point)
        if np.any(self._half_size < 0):
            raise ValueError("closest_point of an empty OBB (negative half_size) is undefined")
        with np.errstate(over="ignore", invalid="ignore"):
            offset = point - self._center
            local = offset @ self._axes.T
            clipped = np.clip(local, -self._half_size, self._half_size)
            nearest: np.ndarray = np.array(self._center + clipped @ self._axes)
        inside = self._holds(point, offset, local)
        nearest[inside] = point[inside]
        for index in map(tuple, np.argwhere(~np.all(np.isfinite(nearest), axis=-1))):
            u = to_frame_rational(point[index], self._center, self._axes)
            clipped = [max(-rational(h), min(rational(h), x))
                       for x, h in zip(u, self._half_size, strict=True)]
            nearest[index] = [to_float(rational(self._center[j])
                                       + sum(rational(self._axes[i, j]) * clipped[i]
                                             for i in range(3))) for j in range(3)]
            if not np.isfinite(nearest[index]).all():
                raise ValueError(f"closest_point of {self!r} to {point[index].tolist()} is "
                                 "beyond float64")
        return nearest

    def corners(self) -> np.ndarray:
        """The 8 corners, (8, 3): bit k of the row index picks ``-/+ half_size`` along axis k.

        Each corner is the box's exact corner (the point whose frame coordinates are
        ``+-half_size``, solved exactly for the axes given) rounded to nearest; a ``ValueError``
        for a corner beyond float64, and for an empty box (a negative half size)."""
        if np.any(self._half_size < 0):
            raise ValueError("corners of an empty OBB (negative half_size) are undefined")
        unit, center, edges, det, half = self._exact_edges()
        # corner = center + edges @ (+-half) / det, on the scale unit * det
        out = np.empty((8, 3))
        for bits in range(8):
            u = [half[i] if (bits >> i) & 1 else -half[i] for i in range(3)]
            for j in range(3):
                num = center[j] * det + unit * sum(edges[j][i] * u[i] for i in range(3))
                out[bits, j] = to_float(num, 0, unit * det)
        if not np.isfinite(out).all():
            raise ValueError(f"corners of {self!r} reach beyond float64")
        return out

    def aabb(self) -> AABB:
        """The smallest AABB that holds the box: per axis, the exact extent of the box (solved
        exactly for the axes given), its min rounded down and its max rounded up, so that no
        point of the box is outside it. ``AABB.empty()`` for an empty box (a negative half size);
        a ``ValueError`` where the box reaches beyond float64."""
        if np.any(self._half_size < 0):
            return AABB.empty()
        unit, center, edges, det, half = self._exact_edges()
        det = abs(det)
        lo, hi = [], []
        for j in range(3):
            extent = unit * sum(abs(edges[j][i]) * half[i] for i in range(3))
            lo.append(to_float(center[j] * det - extent, -1, unit * det))
            hi.append(to_float(center[j] * det + extent, 1, unit * det))
        if not np.isfinite(lo + hi).all():
            raise ValueError(f"aabb of {self!r} reaches beyond float64")
        return AABB(lo, hi)

    def _exact_edges(self) -> tuple[int, list[int], list[list[int]], int, list[int]]:
        """``(unit, center, edges, det, half)``: the box in integers on one scale (values are
        ``x / unit``, :func:`scaled`), with the exact inverse of the axes (as given, so
        orthonormal only within rounding) as ``edges * unit / det``: column i of ``edges`` is
        the box's i-th edge direction, ``p = center + edges @ u * unit / det`` for frame
        coordinates ``u``."""
        unit, ints = scaled(*self._center.tolist(), *self._axes.ravel().tolist(),
                            *self._half_size.tolist())
        a = [ints[3:6], ints[6:9], ints[9:12]]
        cof = [[a[(i + 1) % 3][(j + 1) % 3] * a[(i + 2) % 3][(j + 2) % 3]
                - a[(i + 1) % 3][(j + 2) % 3] * a[(i + 2) % 3][(j + 1) % 3] for j in range(3)]
               for i in range(3)]
        det = sum(a[0][j] * cof[0][j] for j in range(3))  # near +-unit**3: orthonormal rows
        return unit, ints[:3], [[cof[i][j] for i in range(3)] for j in range(3)], det, ints[12:]
