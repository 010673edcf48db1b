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

from ._batch import Single, rows, scratch

__all__ = ["can_prove_finite", "slab_interval"]

_INF = np.inf


def can_prove_finite(o: np.ndarray, d: np.ndarray, box_min, box_max) -> bool:
    """Whether :func:`slab_interval` can prove the boxes finite from its quotients (one line
    shared by the chunk, boxes as arrays)."""
    return (o.shape[1] == 1 and d.shape[1] == 1 and not isinstance(box_min, Single)
            and not isinstance(box_max, Single))


def slab_interval(o: np.ndarray, d: np.ndarray, box_min, box_max, dtype,
                  prove_finite: bool = False):
    """Return ``(entry, exit, on_plane, finite)``: the line ``o + t d``'s parameter interval in
    each box, and (with ``prove_finite``, where :func:`can_prove_finite`) whether every box
    coordinate is proven finite: the quotients ``(b - o_i) / d_i`` keep a NaN or infinity in
    ``b``, so a finite sum of them (and of the columns of axes with ``d_i == 0``) proves it. An
    overflowing quotient or sum only fails the proof; ``finite`` is False when not asked.

    ``o``, ``d`` are (3, C) blocks (rows x, y, z) or (3, 1) for one line shared by the chunk;
    ``box_min``/``box_max`` are chunk arguments ((C, 3) arrays or ``Single``). Results are (C,).
    ``entry``/``exit`` may be views of per-thread scratch buffers, valid until the next chunk.
    ``on_plane`` is None, or True where an axis with ``d_i == 0`` puts the line exactly in one
    of the box's planes (the axis admits every t, yet the line is not in the open box).

    An empty interval has ``entry > exit``; an empty box (some ``min > max``) gives
    ``entry >= exit`` -- equal when rounding meets -- so callers check emptiness where
    ``entry == exit``. Must run under ``np.errstate(over="ignore", under="ignore")``:
    quotients that overflow to +-inf or underflow to 0 keep their order, which is all the test
    uses.
    """
    finite = False
    if can_prove_finite(o, d, box_min, box_max):
        t_near, t_far, on_plane = _one_line(o[:, 0], d[:, 0], box_min, box_max, dtype)
        if prove_finite:
            finite = _all_finite(d[:, 0], t_near, t_far, box_min, box_max)
    else:
        t_near, t_far, on_plane = _many_lines(o, d, rows(box_min, dtype), rows(box_max, dtype))
    # Reduce over the axes in place (row 0 keeps the running max / min).
    entry = np.maximum(t_near[0], t_near[1], out=t_near[0])
    np.maximum(entry, t_near[2], out=entry)
    exit_ = np.minimum(t_far[0], t_far[1], out=t_far[0])
    np.minimum(exit_, t_far[2], out=exit_)
    return entry, exit_, on_plane, finite


def _all_finite(d, t_near: np.ndarray, t_far: np.ndarray, box_min, box_max) -> bool:
    """True if the quotient rows of the axes with ``d_i != 0`` and the box columns of the
    others all sum to finite values (so none of them holds a NaN or an infinity)."""
    with np.errstate(invalid="ignore", over="ignore"):  # inf + -inf: not finite, as it should
        if (d != 0).all():
            total = np.add.reduce(t_near, axis=None) + np.add.reduce(t_far, axis=None)
        else:
            total = 0.0
            for i in range(3):
                if d[i] != 0:
                    total += np.add.reduce(t_near[i]) + np.add.reduce(t_far[i])
                else:
                    total += np.add.reduce(box_min[:, i]) + np.add.reduce(box_max[:, i])
    return bool(np.isfinite(total))


def _one_line(o, d, box_min: np.ndarray, box_max: np.ndarray, dtype):
    """Per-axis quotients for one line and a chunk of boxes; branches once per axis.

    The near plane is ``min_i`` when ``d_i > 0`` and ``max_i`` when ``d_i < 0``; the strided
    box column is read straight into the contiguous row of the result (subtract, then divide in
    place): one pass per plane, no transposed copy.
    """
    c = len(box_min)
    t_near = scratch("t_near", (3, c), dtype)
    t_far = scratch("t_far", (3, c), dtype)
    on_plane = None
    for i in range(3):
        oi, di = o[i], d[i]
        if di == 0:
            # The line never crosses this axis's planes: the axis admits every t or none.
            lo, hi = box_min[:, i], box_max[:, i]
            inside = (lo <= oi) & (oi <= hi)
            t_near[i] = np.where(inside, -_INF, _INF)
            t_far[i] = np.where(inside, _INF, -_INF)
            flush = (lo == oi) | (hi == oi)
            on_plane = flush if on_plane is None else on_plane | flush
            continue
        near, far = (box_min, box_max) if di > 0 else (box_max, box_min)
        np.divide(np.subtract(near[:, i], oi, out=t_near[i]), di, out=t_near[i])
        np.divide(np.subtract(far[:, i], oi, out=t_far[i]), di, out=t_far[i])
    return t_near, t_far, on_plane


def _many_lines(o: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """Per-axis quotients when the line varies per item (or the box is shared): whole blocks."""
    forward = d >= 0
    near, far = np.where(forward, lo, hi), np.where(forward, hi, lo)
    zero = d == 0
    on_plane = None
    if zero.any():
        inside = (near <= o) & (o <= far)  # near <= far on rows with d == 0
        flush = zero & ((near == o) | (far == o))
        on_plane = flush[0] | flush[1] | flush[2]
        d = np.where(zero, 1, d)  # the zero rows' quotients are replaced below
        t_near = np.where(zero, np.where(inside, -_INF, _INF), (near - o) / d)
        t_far = np.where(zero, np.where(inside, _INF, -_INF), (far - o) / d)
    else:
        t_near, t_far = (near - o) / d, (far - o) / d
    return t_near, t_far, on_plane  # fresh (3, C) or (3, 1) arrays: the caller reduces in place
