"""Sphere vs axis-aligned box: NONE, INTERSECT or INCLUDE (Arvo's test, and its inside twin).

The closed ball ``|p - s| <= r`` meets the closed box iff the squared distance from its centre to
the box, the sum of the squared excesses ``max(lo_i - s_i, s_i - hi_i, 0)``, is at most ``r**2``
(Arvo 1990); it lies in the open box iff ``lo_i + r < s_i < hi_i - r`` on every axis. ``_filter``
decides both in float64 with certified bounds (``_tolerances.SPHERE_RELATIVE``), ``_exact`` in
rationals for the rest (``_closest.aabb_distance2``, shared with ``distance_point_aabb``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ._closest import aabb_distance2
from ._dask import dask_aware
from ._engine import CLASS, Query
from ._tolerances import SPHERE_ABSOLUTE, SPHERE_MARGIN, SPHERE_RELATIVE, SPHERE_SCALE_MAX
from ._validate import BOX_MAX, BOX_MIN, POINT, RADIUS
from .results import IntersectionType

__all__ = ["classify_sphere_aabb"]


def _filter(sx: float, sy: float, sz: float, r: float, lx: float, ly: float, lz: float,
            hx: float, hy: float, hz: float) -> tuple[int, bool]:
    """``(class, doubt)`` of one ball against one box, in float64.

    Each excess ``e_i`` rounds the exact one (a rounded difference keeps its sign, so the side
    is exact), and ``e_i = 0`` exactly where the centre is within the slab: a centre in the box
    is surely a hit. Else ``sum e_i**2 - r**2`` decides, sure outside the certified band. INCLUDE
    needs ``(s_i - lo_i) - r > 0`` and ``(hi_i - s_i) - r > 0`` on every axis: the least of the
    six, sure outside its band (``SPHERE_MARGIN``). Doubt also for a non-finite value, a
    negative radius, and excesses or a radius beyond SPHERE_SCALE_MAX (their squares could
    overflow)."""
    dl0, dl1, dl2 = sx - lx, sy - ly, sz - lz
    dh0, dh1, dh2 = hx - sx, hy - sy, hz - sz
    # minus the excesses: min(s - lo, hi - s, 0) on each axis (for lo <= hi at most one of the
    # differences is negative, and a rounded difference keeps the exact one's sign)
    e0, e1, e2 = min(min(dl0, dh0), 0.0), min(min(dl1, dh1), 0.0), min(min(dl2, dh2), 0.0)
    # INCLUDE's six margins (s - lo) - r and (hi - s) - r: the least decides
    least = min(min(min(dl0, dh0), min(dl1, dh1)), min(dl2, dh2)) - r
    # a sum of the differences is finite iff they all are (or it overflowed: doubt either
    # way); every input enters one of them
    total = (dl0 + dh0) + (dl1 + dh1) + (dl2 + dh2)
    bad = (not total - total == 0.0) | (not r >= 0.0) | (r > SPHERE_SCALE_MAX) \
        | (min(min(e0, e1), e2) < -SPHERE_SCALE_MAX)
    empty = (lx > hx) | (ly > hy) | (lz > hz)
    squares = e0 * e0 + e1 * e1 + e2 * e2
    rr = r * r
    gap = squares - rr
    band = SPHERE_RELATIVE * (squares + rr) + SPHERE_ABSOLUTE
    miss = gap > band
    hit = (gap < -band) | ((e0 == 0.0) & (e1 == 0.0) & (e2 == 0.0))
    margin = SPHERE_MARGIN * r + SPHERE_ABSOLUTE  # (one ball: a constant of the loop)
    inside = least > margin
    touching = least < -margin
    code = 0 if empty | miss else (2 if inside else 1)
    unsure = (not (miss | hit)) | (hit & (not (inside | touching)))
    return code, bad | ((not empty) & unsure)


def _exact(sx: float, sy: float, sz: float, r: float, lx: float, ly: float, lz: float,
           hx: float, hy: float, hz: float) -> int:
    """The class of one ball against one box, exactly (the empty-box infinities allowed)."""
    d2 = aabb_distance2((sx, sy, sz), (lx, ly, lz), (hx, hy, hz))
    radius = Fraction(r)
    if d2 is None or d2 > radius * radius:
        return 0
    s, lo, hi = (sx, sy, sz), (lx, ly, lz), (hx, hy, hz)
    inside = all(Fraction(lo[i]) + radius < Fraction(s[i]) < Fraction(hi[i]) - radius
                 for i in range(3))
    return 2 if inside else 1


_QUERY = Query(_filter, _exact,
               args=[("center", POINT), ("radius", RADIUS), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX)],
               outputs=[CLASS], contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_sphere_aabb(
    center: ArrayLike, radius: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,
    out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each box against the ball: NONE, INTERSECT or INCLUDE.

    The ball is the closed set ``{p : |p - center| <= radius}`` and the box ``{box_min <= p <=
    box_max}``. ``NONE``: they share no point (the centre is farther than ``radius`` from the
    box, Arvo 1990). ``INCLUDE``: the ball lies in the box's open interior
    (``box_min + radius < center < box_max - radius`` on every axis). ``INTERSECT``: otherwise.

    Boundary cases: a ball tangent to a face, an edge or a corner from outside is INTERSECT, and
    so is one tangent from inside; ``radius = 0`` is a point (INCLUDE strictly inside); a flat
    box is never INCLUDE; an empty box is always NONE. Exact for the floats given, at every
    magnitude.

    Parameters
    ----------
    center : (3,) or (N, 3) array_like
    radius : float or (N,) array_like
        Finite and not negative, else ``ValueError``.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a negative or non-finite radius, a bad shape, shapes that do
        not broadcast, or an integer float64 cannot hold exactly; the message names the argument.
    """
    codes = _QUERY(center, radius, box_min, box_max, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
