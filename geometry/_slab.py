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

from typing import NamedTuple

import numpy as np

from ._batch import Single, rows, scratch, sum_is_finite

__all__ = ["SharedLine", "shared_line", "slab_interval"]

_INF = np.inf


class SharedLine(NamedTuple):
    """One line ``o + t d`` for a whole batch of boxes, with what every chunk's slab pass needs
    worked out once per call instead of once per chunk."""

    o: np.ndarray  #: (3, 1) block of the compute dtype
    d: np.ndarray  #: (3, 1) block of the compute dtype
    forward: tuple  #: per axis, ``d_i >= 0``: the near plane is ``min_i`` (``max_i`` if not)
    moving: bool  #: no zero component: the quotients are taken on whole (3, C) blocks


def shared_line(o: np.ndarray, d: np.ndarray) -> SharedLine:
    """The :class:`SharedLine` of (3, 1) blocks ``o``, ``d``."""
    return SharedLine(o, d, tuple(bool(x >= 0) for x in d[:, 0]), bool((d != 0).all()))


def slab_interval(o: np.ndarray, d: np.ndarray, box_min, box_max, dtype, check=None, *,
                  line: SharedLine | None = None, out: tuple | None = None):
    """Return ``(entry, exit, on_plane)``: the line ``o + t d``'s parameter interval in each box.

    ``o``, ``d`` are (3, C) blocks (rows x, y, z) or (3, 1) for one line shared by the chunk;
    ``line`` is optionally that (3, 1) line as :func:`shared_line` prepared it once per call;
    ``box_min``/``box_max`` are chunk arguments ((C, 3) arrays or ``Single``). Results are (C,).
    ``entry``/``exit`` are written into ``out`` (two (C,) arrays) when given, else they may be
    views of per-thread scratch buffers, valid until the next chunk.
    ``on_plane`` is None, or True where an axis with ``d_i == 0`` puts the line exactly in one
    of the box's planes (the axis admits every t, yet the line is not in the open box).

    ``check`` is ``run_chunked``'s box validator (``kernel_checks_boxes=True``), or None when
    the boxes are valid already. It is called unless a finite sum of the chunk's coordinates
    proves every one of them finite (a NaN or an infinity survives any sum; an overflowing sum
    only fails the proof). The sum reads the chunk from memory once, as BLAS does best; every
    later pass finds it in cache.

    An empty interval has ``entry > exit``; an empty box (some ``min > max``) gives
    ``entry >= exit`` -- equal when rounding meets -- so callers check emptiness where
    ``entry == exit``. Must run under ``np.errstate(over="ignore", under="ignore")``:
    quotients that overflow to +-inf or underflow to 0 keep their order, which is all the test
    uses.
    """
    if check is not None and not (sum_is_finite(box_min) and sum_is_finite(box_max)):
        box_min, box_max = check(box_min, box_max)  # raises, or replaces empty-box infinities
    boxes_vary = not isinstance(box_min, Single) and not isinstance(box_max, Single)
    if line is None and boxes_vary and o.shape[1] == 1 and d.shape[1] == 1:
        line = shared_line(o, d)
    if line is not None and boxes_vary:
        t_near, t_far, on_plane = _one_line(line, box_min, box_max, dtype)
    else:
        t_near, t_far, on_plane = _many_lines(o, d, rows(box_min, dtype), rows(box_max, dtype))
    # Reduce over the axes (in place in row 0 unless out is given).
    entry = np.maximum(t_near[0], t_near[1], out=t_near[0] if out is None else out[0])
    np.maximum(entry, t_near[2], out=entry)
    exit_ = np.minimum(t_far[0], t_far[1], out=t_far[0] if out is None else out[1])
    np.minimum(exit_, t_far[2], out=exit_)
    return entry, exit_, on_plane


def _one_line(line: SharedLine, box_min: np.ndarray, box_max: np.ndarray, dtype):
    """Per-axis quotients for one line and a chunk of boxes: ``(t_near, t_far, on_plane)``, the
    first two as lists of three (C,) rows.

    The (C, 3) box chunks are read transposed into (3, C) scratch blocks: one pass per array
    (measured at memory speed in float64), after which every operation runs on contiguous
    rows -- numpy's strided loops are not vectorised and cost ~4x a contiguous one.
    The near plane of axis i is ``min_i`` when ``d_i > 0`` and ``max_i`` when ``d_i < 0``.
    """
    c = len(box_min)
    lo = scratch("slab_lo", (3, c), dtype)
    hi = scratch("slab_hi", (3, c), dtype)
    on_plane = None
    if line.moving:
        # (b - o) / d on whole blocks, one call per operation for all three axes; the
        # subtraction reads the chunk transposed (one pass, as a copy would)
        for block, box in ((lo, box_min), (hi, box_max)):
            np.divide(np.subtract(box.T, line.o, out=block), line.d, out=block)
    else:
        np.copyto(lo, box_min.T)
        np.copyto(hi, box_max.T)
        for i in range(3):
            oi, di = line.o[i, 0], line.d[i, 0]
            if di == 0:
                # The line never crosses this axis's planes: the axis admits every t or none.
                inside = (lo[i] <= oi) & (oi <= hi[i])
                flush = (lo[i] == oi) | (hi[i] == oi)
                on_plane = flush if on_plane is None else on_plane | flush
                lo[i] = np.where(inside, -_INF, _INF)  # near (d_i >= 0 takes lo as near)
                hi[i] = np.where(inside, _INF, -_INF)
                continue
            for row in (lo[i], hi[i]):
                np.divide(np.subtract(row, oi, out=row), di, out=row)
    t_near = [lo[i] if forward else hi[i] for i, forward in enumerate(line.forward)]
    t_far = [hi[i] if forward else lo[i] for i, forward in enumerate(line.forward)]
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
