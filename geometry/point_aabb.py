"""Point vs axis-aligned box: the Euclidean distance, faithfully rounded.

The distance of ``p`` to the closed box ``[lo, hi]`` is the length of the vector of its
excesses ``max(lo_i - p_i, p_i - hi_i, 0)`` (Arvo 1990; Ericson 2005, 5.1.3). ``_filter`` forms
each excess exactly as a sum of two floats (TwoSum) and their squares' sum in double-double,
within 2**-96 of the squared distance, relatively (``DISTANCE_DD_RELATIVE``), far within the
budget (``DISTANCE_FAITHFUL``) for which the root of its rounded sum (``_closest.sqrt_dd``) is one
of the two floats around the exact distance. A non-finite value is doubt, and so is a squared
distance too large or too small for that (outside [2**-900, 2**900], not 0); ``_exact``
computes the squared distance as a Fraction and rounds its root correctly. Float32 data take
:func:`_filter32`: in float64 their excesses and squares are exact or nearly so, and one root
is far inside float32's budget.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._closest import aabb_distance2, excess, sqrt_dd, sqrt_rounded, square_sum_dd
from ._dask import dask_aware
from ._engine import Query, T
from ._floats import jitable
from ._validate import BOX_MAX, BOX_MIN, POINT

__all__ = ["distance_point_aabb"]

_INF = math.inf
_SQUARE_MIN = 2.0**-900  # the squared distances the filter certifies, besides 0
_SQUARE_MAX = 2.0**900


@jitable
def _filter32(px: float, py: float, pz: float, lx: float, ly: float, lz: float, hx: float,
              hy: float, hz: float) -> tuple[float, bool]:
    """:func:`_filter` for float32 data (every value a float32, the answer rounded to float32),
    in plain float64: an excess of two float32 values is within u |e| of the exact one (exact
    unless their exponents are 29 apart), its square within 3.01 u of the exact square (nothing
    overflows or underflows: float32 values keep squares within 2**-300 .. 2**260), the sum of
    three within 5.02 u and the root within 3.52 u of the distance, relatively: far inside
    float32's half ulp (2**-25), so that rounded to float32 it is faithful, with no test. Doubt
    only for a non-finite value."""
    e0, _ = excess(px, lx, hx)  # (the exact remainder is not needed here)
    e1, _ = excess(py, ly, hy)
    e2, _ = excess(pz, lz, hz)
    total = (px + py + pz) + ((lx + hx) + (ly + hy) + (lz + hz))
    empty = (lx > hx) | (ly > hy) | (lz > hz)
    bad = not total - total == 0.0
    distance = math.sqrt(e0 * e0 + e1 * e1 + e2 * e2)
    return (_INF if empty | bad else distance), bad


def _filter(px: float, py: float, pz: float, lx: float, ly: float, lz: float, hx: float,
            hy: float, hz: float, t32: bool) -> tuple[float, bool]:
    """``(distance, doubt)`` of one point to one box: faithful wherever the inputs are finite
    and the squared distance is 0 or within [2**-900, 2**900] (there no square overflows and
    what underflows is far below the bound ``DISTANCE_DD_RELATIVE``, which then holds for every
    item, so it is not tested per item); ``inf`` for an empty box. Doubt for a non-finite
    value (bad input, the empty-box infinities) and, for a box that is not empty, a squared
    distance outside that range (or an excess that overflows). Float32 data (``t32``) take
    :func:`_filter32`."""
    if t32:
        return _filter32(px, py, pz, lx, ly, lz, hx, hy, hz)
    e0, f0 = excess(px, lx, hx)
    e1, f1 = excess(py, ly, hy)
    e2, f2 = excess(pz, lz, hz)
    # a sum of the inputs is finite iff they all are (or it overflowed: doubt either way); the
    # point's terms first (one point for all boxes: a constant of the loop)
    total = (px + py + pz) + ((lx + hx) + (ly + hy) + (lz + hz))
    empty = (lx > hx) | (ly > hy) | (lz > hz)
    s_hi, s_lo = square_sum_dd(e0, f0, e1, f1, e2, f2)
    scaled = (s_hi <= _SQUARE_MAX) & ((s_hi >= _SQUARE_MIN)
                                      | ((e0 == 0.0) & (e1 == 0.0) & (e2 == 0.0)))
    bad = (not total - total == 0.0) | ((not empty) & (not scaled))
    distance = sqrt_dd(s_hi, s_lo)
    return (_INF if empty | bad else distance), bad


def _exact(px: float, py: float, pz: float, lx: float, ly: float, lz: float, hx: float,
           hy: float, hz: float) -> float:
    """The distance rounded to nearest from the exact squared distance (``inf`` for an empty
    box; the empty-box infinities allowed)."""
    d2 = aabb_distance2((px, py, pz), (lx, ly, lz), (hx, hy, hz))
    return _INF if d2 is None else sqrt_rounded(d2)


_QUERY = Query(_filter, _exact,
               args=[("point", POINT), ("box_min", BOX_MIN), ("box_max", BOX_MAX)],
               outputs=[T], t32=True)


@dask_aware
def distance_point_aabb(
    point: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,
    out: np.ndarray | None = None,
) -> float | np.ndarray:
    """The Euclidean distance from each point to each closed box; 0 inside or on it.

    The box is ``{box_min <= p <= box_max}``; the distance is that to its nearest point
    (Arvo 1990). An empty box (``min > max`` on an axis, e.g. ``AABB.empty()``) is at distance
    ``inf``. Faithfully rounded at every magnitude: the result is one of the two floats around
    the exact distance (the exact distance itself where it is a float: 5 for a point 3 and 4
    beyond two faces), never an overflow or an underflow where the distance is a finite normal
    float; a float32 result (every array argument float32) is faithful in float32.

    Parameters
    ----------
    point : (3,) or (N, 3) array_like
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.
    out : (N,) float ndarray, optional
        Written with the distances and returned (float64, or float32 for float32 data).

    Returns
    -------
    float or (N,) ndarray
        A Python float when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), shapes that do not broadcast,
        or an integer float64 cannot hold exactly; the message names the argument.
    """
    distance: float | np.ndarray = _QUERY(point, box_min, box_max, out=out)
    return distance
