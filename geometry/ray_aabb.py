"""Ray vs axis-aligned box: hit, entry and exit parameters (the slab method).

The ray ``origin + t direction``, t in [t_min, t_max], meets the box on the intersection of that
range with the three slabs' parameter intervals (Kay & Kajiya 1986; Williams et al. 2004).
``_filter`` computes it in float64 with a certified error bound (``_tolerances.SLAB_RELATIVE``),
``_exact`` in integers for the rest; exact t values are rounded once by the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import BOOL, Query, T
from ._exact import clip_to_slab, scaled
from ._tolerances import RECIPROCAL_MAX, SLAB_ABSOLUTE, SLAB_RELATIVE
from ._validate import BOX_MAX, BOX_MIN, DIRECTION, POINT, T_MAX, T_MIN
from .results import RayHit

__all__ = ["intersect_ray_aabb"]

_INF = math.inf
_MISS = (False, _INF, _INF)


def _filter(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, lx: float,
            ly: float, lz: float, hx: float, hy: float, hz: float, t_min: float,
            t_max: float, crossing: bool) -> tuple[bool, float, float, bool]:
    """``(hit, t_enter, t_exit, doubt)`` of one ray against one box, in float64.

    Per axis, the ray's parameters on the slab's planes are ``(plane - o) * (1 / d)``, the near
    one first; a ray parallel to the slab is in it for every t (-inf, inf) or misses the box.
    ``t_enter = max(t_min, near)``, ``t_exit = min(t_max, far)``: a hit iff ``t_exit - t_enter
    >= 0``, sure unless within the certified band. On a miss both t are +inf. Doubt also for a
    non-finite value (bad input, the empty-box infinities, an overflowing difference), a NaN or
    forbidden infinite t bound, a zero direction and a subnormal reciprocal. ``crossing``: the
    caller knows that no component of the direction is zero (:func:`_crossing`, the engine's
    ``case`` for one direction, a constant of its loop, which then leaves out the parallel
    slabs' tests); the same bits as without it.
    """
    ax, bx, ay, by, az, bz = lx - ox, hx - ox, ly - oy, hy - oy, lz - oz, hz - oz
    rx = 1.0 / (dx if dx != 0.0 else 1.0)
    ry = 1.0 / (dy if dy != 0.0 else 1.0)
    rz = 1.0 / (dz if dz != 0.0 else 1.0)
    # a sum of the differences, directions and reciprocals is finite iff they all are (or it
    # overflowed: doubt either way); each input enters one of them. (The ray's terms summed
    # first: with one ray for all boxes, a constant of the loop.)
    total = (dx + dy + dz + rx + ry + rz) + (ax + bx + ay + by + az + bz)
    bad = (not total - total == 0.0) | (abs(dx) > RECIPROCAL_MAX) | (abs(dy) > RECIPROCAL_MAX) \
        | (abs(dz) > RECIPROCAL_MAX) | ((dx == 0.0) & (dy == 0.0) & (dz == 0.0)) \
        | (not t_min < _INF) | (not t_max > -_INF)

    qa, qb = ax * rx, bx * rx
    parallel_miss = (dx == 0.0) & ((ax > 0.0) | (bx < 0.0))
    near_x = qa if dx > 0.0 else (qb if crossing | (dx < 0.0) else -_INF)
    far_x = qb if dx > 0.0 else (qa if crossing | (dx < 0.0) else _INF)
    qa, qb = ay * ry, by * ry
    parallel_miss |= (dy == 0.0) & ((ay > 0.0) | (by < 0.0))
    near_y = qa if dy > 0.0 else (qb if crossing | (dy < 0.0) else -_INF)
    far_y = qb if dy > 0.0 else (qa if crossing | (dy < 0.0) else _INF)
    qa, qb = az * rz, bz * rz
    parallel_miss |= (dz == 0.0) & ((az > 0.0) | (bz < 0.0))
    near_z = qa if dz > 0.0 else (qb if crossing | (dz < 0.0) else -_INF)
    far_z = qb if dz > 0.0 else (qa if crossing | (dz < 0.0) else _INF)
    parallel_miss = parallel_miss & (not crossing)

    enter = near_x if near_x > t_min else t_min
    enter = near_y if near_y > enter else enter
    enter = near_z if near_z > enter else enter
    leave = far_x if far_x < t_max else t_max
    leave = far_y if far_y < leave else leave
    leave = far_z if far_z < leave else leave
    gap = leave - enter
    sure = abs(gap) > SLAB_RELATIVE * (abs(enter) + abs(leave)) + SLAB_ABSOLUTE
    hit = (gap >= 0.0) & (not parallel_miss)
    return (hit, enter if hit else _INF, leave if hit else _INF,
            bad | (not (parallel_miss | sure)))


def _exact(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, lx: float,
           ly: float, lz: float, hx: float, hy: float, hz: float, t_min: float,
           t_max: float) -> tuple[bool, Fraction | float, Fraction | float]:
    """``(hit, t_enter, t_exit)`` of one ray against one box, exactly: t values as Fractions,
    +inf on a miss (any finite floats; the empty-box infinities and infinite t bounds allowed).
    Per axis the slab's parameter interval is a ratio of exact integers (``_exact.scaled``)."""
    o, d, lo, hi = (ox, oy, oz), (dx, dy, dz), (lx, ly, lz), (hx, hy, hz)
    if lx > hx or ly > hy or lz > hz or t_min > t_max:
        return _MISS
    bounds = [t for t in (t_min, t_max) if abs(t) != _INF]
    unit, v = scaled(*o, *d, *lo, *hi, *bounds)  # x == v / unit
    enter = None if t_min == -_INF else (v[12], unit)
    leave = None if t_max == _INF else (v[-1], unit)
    for i in range(3):
        if d[i] == 0.0:
            if not lo[i] <= o[i] <= hi[i]:
                return _MISS
            continue
        o_i = v[i]
        enter, leave = clip_to_slab(v[6 + i] - o_i, v[9 + i] - o_i, v[3 + i], enter, leave)
    assert enter is not None and leave is not None  # the direction is not zero
    if enter[0] * leave[1] > leave[0] * enter[1]:
        return _MISS
    return True, Fraction(*enter), Fraction(*leave)


def _crossing(columns: Sequence[Any]) -> bool:
    """The engine's ``case`` for ray vs AABB: one direction for the whole call (a constant of
    the loop) with no zero component, so that the ray crosses every slab."""
    direction = columns[1]
    return isinstance(direction, tuple) and all(x != 0.0 for x in direction)


_QUERY = Query(_filter, _exact,
               args=[("origin", POINT), ("direction", DIRECTION), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX), ("t_min", T_MIN), ("t_max", T_MAX)],
               outputs=[BOOL, T, T], case=_crossing)


@dask_aware
def intersect_ray_aabb(
    origin: ArrayLike,
    direction: ArrayLike,
    box_min: ArrayLike,
    box_max: ArrayLike,
    t_min: ArrayLike = 0.0,
    t_max: ArrayLike = _INF,
    *,
    out: Sequence[np.ndarray] | None = None,
) -> RayHit:
    """Intersect each ray with each closed box: ``(hit, t_enter, t_exit)``.

    The ray is ``{origin + t direction : t_min <= t <= t_max}``; ``direction`` need not be unit
    length and t is measured in its units. ``hit`` is true iff the ray shares a point with the
    closed box ``{box_min <= p <= box_max}`` (touching counts). Then ``t_enter = max(t_min,
    entry)`` and ``t_exit = min(t_max, exit)``, with [entry, exit] the parameter interval of the
    ray's line inside the box, so a ray starting inside has ``t_enter == t_min``; on a miss
    ``t_enter = t_exit = +inf``. For the nearest box along a ray, take ``argmin(t_enter)``.

    Boundary cases: direction components may be +0.0 or -0.0 and the origin may lie exactly on a
    slab plane; the answer follows the closed-box definition and is never NaN. An empty box
    (``min > max`` on an axis, e.g. ``AABB.empty()``) is always a miss, and so is ``t_min >
    t_max``. ``hit`` is exact for the floats given, at every magnitude (a float filter with a
    certified error bound, exact integer arithmetic where it is in doubt); ``t_enter`` and
    ``t_exit`` are within 2 ulps of the exact parameters (Williams et al. 2004).

    Parameters
    ----------
    origin, direction : (3,) or (N, 3) array_like
        The rays. A zero direction is a ``ValueError``.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners (``+inf`` / ``-inf`` as in ``AABB.empty()`` mean an empty box).
    t_min, t_max : float or (N,) array_like
        The parameter range of the ray; ``t_min`` may be ``-inf`` (a line), ``t_max`` ``+inf``.
        A Python float bound is used as given, also against float32 data.
    out : (hit, t_enter, t_exit) ndarrays, optional
        Written with the results and returned as the RayHit (bool, then the float dtype);
        three arrays that do not overlap. One may be the ``t_min`` / ``t_max`` array itself
        (stepping from hit to hit): the bounds are read as given.

    Returns
    -------
    RayHit
        Python ``bool`` / ``float`` for one ray and one box, else arrays over the broadcast
        leading shape: ``bool`` hits and ``float64`` parameters (``float32`` when every array
        argument is float32).

    Raises
    ------
    ValueError
        For a non-finite coordinate, NaN in ``t_min`` / ``t_max``, a zero direction, a shape that
        is not (..., 3), shapes that do not broadcast, or an integer float64 cannot hold
        exactly; the message names the argument.
    """
    return RayHit._make(_QUERY(origin, direction, box_min, box_max, t_min, t_max, out=out))
