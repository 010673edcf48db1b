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

import numpy as np

from ._batch import Single, rows

__all__ = ["near_far", "slab_interval", "nonempty"]

_INF = np.inf


def near_far(box_min, box_max, d: np.ndarray, dtype) -> tuple[np.ndarray, np.ndarray]:
    """Each box's near and far slab planes along ``d``, as (3, C) blocks (or (3, 1)).

    Row i holds ``min_i`` where ``d_i >= 0`` and ``max_i`` where ``d_i < 0`` (near), and the other
    corner (far). ``box_min``/``box_max`` are chunk arguments ((C, 3) arrays or ``Single``);
    ``d`` is a (3, 1) or (3, C) block. For one direction shared by the chunk, the selection is
    fused with the transposition into contiguous rows: one copy, no per-item work.
    """
    if isinstance(box_min, Single) or isinstance(box_max, Single) or d.shape[1] != 1:
        lo, hi = rows(box_min, dtype), rows(box_max, dtype)
        forward = d >= 0
        return np.where(forward, lo, hi), np.where(forward, hi, lo)
    c = len(box_min)
    near = np.empty((3, c), dtype=dtype)
    far = np.empty((3, c), dtype=dtype)
    for i in range(3):
        a, b = (box_min, box_max) if d[i, 0] >= 0 else (box_max, box_min)
        near[i] = a[:, i]
        far[i] = b[:, i]
    return near, far


def slab_interval(o: np.ndarray, d: np.ndarray, near: np.ndarray, far: np.ndarray):
    """Return ``(entry, exit, on_plane)``: the line ``o + t d``'s parameter interval in each box.

    ``on_plane`` is None, or (C,) True where an axis with ``d_i == 0`` puts the line exactly in
    one of the box's planes (the axis admits every t, yet the line is not in the open box).

    ``o``, ``d`` are (3, C) blocks (rows x, y, z) or (3, 1) for one line shared by the chunk;
    ``near``/``far`` come from :func:`near_far` (and may be overwritten). Results are (C,).
    An empty interval has ``entry > exit``; an empty box (some ``min > max``) gives
    ``entry >= exit`` -- equal when rounding meets -- so callers check emptiness where
    ``entry == exit``. Must run under ``np.errstate(over="ignore", under="ignore")``:
    quotients that overflow to +-inf or underflow to 0 keep their order, which is all the test
    uses.
    """
    zero = d == 0
    has_zero = bool(zero.any())
    on_plane = None
    if has_zero:
        # The line never crosses this axis's planes: the axis admits every t or none.
        # (near <= far on those rows, as d >= 0 there; an empty box admits none.)
        inside = (near <= o) & (o <= far)
        flush = zero & ((near == o) | (far == o))
        on_plane = flush[0] | flush[1] | flush[2]
    divisor = np.where(zero, 1, d) if has_zero else d  # zero rows are replaced below
    t_near = _quotient(near, o, divisor)
    t_far = _quotient(far, o, divisor)
    if has_zero:
        t_near = np.where(zero, np.where(inside, -_INF, _INF), t_near)
        t_far = np.where(zero, np.where(inside, _INF, -_INF), t_far)
    entry = np.maximum(np.maximum(t_near[0], t_near[1]), t_near[2])
    exit_ = np.minimum(np.minimum(t_far[0], t_far[1]), t_far[2])
    return entry, exit_, on_plane


def _quotient(plane: np.ndarray, o: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``(plane - o) / d``, in place in ``plane``'s buffer when the shapes allow."""
    if plane.shape == np.broadcast_shapes(plane.shape, o.shape, d.shape):
        np.subtract(plane, o, out=plane)
        return np.divide(plane, d, out=plane)
    return (plane - o) / d


def nonempty(box_min: np.ndarray, box_max: np.ndarray) -> np.ndarray:
    """True for each box with ``min <= max`` on every axis ((3, C) or (3, 1) blocks in)."""
    ok = box_min <= box_max
    return ok[0] & ok[1] & ok[2]
