"""The slab kernel shared by segment and ray queries (Kay & Kajiya 1986; Williams et al. 2004).

For the line ``o + t d`` and an axis-aligned box, each axis i bounds t to the interval between
``(min_i - o_i) / d_i`` and ``(max_i - o_i) / d_i``; the line is inside the box on the
intersection of the three intervals, ``[entry, exit]``.

Division is kept (not multiplication by a precomputed ``1/d``): a correctly rounded quotient is
monotonic in its numerator, so a box face that the line reaches exactly at the segment's end gives
exactly ``t == 1`` and equal exact parameters give equal floats. ``(e - s) * (1 / (e - s))`` is
not always 1.

A zero direction component (+0.0 or -0.0) never divides: the axis then either contains the line
(interval (-inf, inf)) or excludes it (interval empty, encoded as entry = +inf, exit = -inf).
That is where the blog's C++ computes ``0 * inf`` and gets NaN.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["slab_interval", "nonempty"]

_INF = np.inf


def _axis_interval(oi, di, lo, hi):
    """The t interval of one axis; ``di`` is a numpy scalar or an array of the chunk's items."""
    if np.ndim(di) == 0:
        # The direction is the same for every item: branch once, not per item.
        if di == 0:
            inside = (lo <= oi) & (oi <= hi)
            return np.where(inside, -_INF, _INF), np.where(inside, _INF, -_INF)
        near, far = (lo, hi) if di > 0 else (hi, lo)
        return (near - oi) / di, (far - oi) / di
    zero = di == 0
    positive = di > 0
    near = np.where(positive, lo, hi)
    far = np.where(positive, hi, lo)
    if not zero.any():
        return (near - oi) / di, (far - oi) / di
    safe = np.where(zero, 1, di)  # the zero axes' quotients are replaced below
    inside = (lo <= oi) & (oi <= hi)
    t_near = np.where(zero, np.where(inside, -_INF, _INF), (near - oi) / safe)
    t_far = np.where(zero, np.where(inside, _INF, -_INF), (far - oi) / safe)
    return t_near, t_far


def slab_interval(o: Sequence, d: Sequence, box_min: Sequence, box_max: Sequence):
    """Return ``(entry, exit)``: the parameter interval of the line ``o + t d`` in each box.

    All arguments are per-axis sequences of numpy scalars or (C,) arrays. An empty interval has
    ``entry > exit`` -- except for empty boxes (some ``min > max``), whose interval can round to a
    point: callers combine the result with :func:`nonempty`. Must run under
    ``np.errstate(over="ignore", under="ignore")``: quotients that overflow to +-inf or underflow
    to 0 keep their order, which is all the test uses.
    """
    entry = exit_ = None
    for i in range(3):
        t_near, t_far = _axis_interval(o[i], d[i], box_min[i], box_max[i])
        entry = t_near if entry is None else np.maximum(entry, t_near)
        exit_ = t_far if exit_ is None else np.minimum(exit_, t_far)
    return entry, exit_


def nonempty(box_min: Sequence, box_max: Sequence):
    """True for each box with ``min <= max`` on every axis."""
    return (box_min[0] <= box_max[0]) & (box_min[1] <= box_max[1]) & (box_min[2] <= box_max[2])
