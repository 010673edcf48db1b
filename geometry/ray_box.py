"""Ray vs axis-aligned box: hit, entry and exit parameters (the slab method).

References: Kay & Kajiya, SIGGRAPH 1986; Williams, Barrus, Morley & Shirley, JGT 2004.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from . import _jit
from ._batch import (Flagged, Single, broadcast_items, chunk_size, constant, rows, run_chunked,
                     scalar, scratch, take)
from ._exact import exact_meets
from ._output_pool import empty_bytes
from ._slab import SharedLine, shared_line, slab_interval
from ._tolerances import RAY_NEAR_TIE, UNDERFLOW_SLACK
from ._validate import as_boxes, as_finite_points, as_scalars, check_nonzero_direction, compute_dtype
from .results import RayHit

__all__ = ["intersect_ray_aabb", "intersect_checked", "ray_arguments"]


def ray_arguments(origin: ArrayLike, direction: ArrayLike, t_min: ArrayLike, t_max: ArrayLike):
    """Validate a ray's arguments (shared with the OBB query); return them as float arrays."""
    origin = as_finite_points("origin", origin)
    direction = as_finite_points("direction", direction)
    check_nonzero_direction("direction", direction)
    t_min = as_scalars("t_min", t_min, allow="-")
    t_max = as_scalars("t_max", t_max, allow="+")
    return origin, direction, t_min, t_max


@dask_aware
def intersect_ray_aabb(
    origin: ArrayLike,
    direction: ArrayLike,
    box_min: ArrayLike,
    box_max: ArrayLike,
    t_min: ArrayLike = 0.0,
    t_max: ArrayLike = np.inf,
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
    (``min > max`` on an axis, e.g. ``AABB.empty()``) is always a miss, and so is ``t_min > t_max``.
    ``hit`` is exact for every finite input: where rounded quotients of two axes, or a quotient
    and ``t_min`` / ``t_max``, are within a few ulps (a ray through or grazing an edge or a
    corner), it is decided by exact comparisons of products instead. ``t_enter`` and ``t_exit``
    are the rounded quotients ``(plane - origin) / direction``.

    Parameters
    ----------
    origin, direction : (3,) or (N, 3) array_like
        The rays. A zero direction is a ``ValueError``.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners (``+inf`` / ``-inf`` as in ``AABB.empty()`` mean an empty box).
    t_min, t_max : float or (N,) array_like
        The parameter range of the ray; ``t_min`` may be ``-inf`` (a line), ``t_max`` ``+inf``.

    Returns
    -------
    RayHit
        Python ``bool`` / ``float`` for one ray and one box, else (N,) arrays: ``bool`` hits and
        ``float64`` parameters (``float32`` when every array argument is float32). The three
        arrays are views of one buffer (fewer page faults), so any one keeps all three alive.

    Raises
    ------
    ValueError
        For a non-finite coordinate, NaN in ``t_min`` / ``t_max``, a zero direction, a shape that
        is not (..., 3), or shapes that do not broadcast; the message names the argument.
    """
    origin, direction, t_min, t_max = ray_arguments(origin, direction, t_min, t_max)
    box_min, box_max = as_boxes("box_min", box_min, "box_max", box_max)
    return intersect_checked(origin, direction, box_min, box_max, t_min, t_max)


def intersect_checked(origin, direction, box_min, box_max, t_min, t_max) -> RayHit:
    """:func:`intersect_ray_aabb` on arguments already validated (float arrays)."""
    dtype = compute_dtype(origin, direction, box_min, box_max)
    lead, items = broadcast_items(
        {"origin": origin, "direction": direction, "box_min": box_min, "box_max": box_max},
        dtype,
        scalars={"t_min": t_min, "t_max": t_max},
    )
    m = int(np.prod(lead, dtype=np.int64))
    hit, t_enter, t_exit = _outputs(m, dtype)
    doubt = Flagged()
    kernel = _intersect_chunk
    if isinstance(items[0], Single) and isinstance(items[1], Single):
        kernel = partial(_intersect_chunk, line=shared_line(rows(items[0], dtype),
                                                            rows(items[1], dtype)))
    run_chunked(kernel, m, items, [hit, t_enter, t_exit, doubt],
                boxes=(2, "box_min", 3, "box_max"), kernel_checks_boxes=True,
                chunk=chunk_size(dtype))
    # The items the kernel could not decide by its rounded quotients, all at once (one exact
    # pass per call, not per chunk); their t values are the kernel's, +inf on an exact miss.
    idx = doubt.indices()
    if idx.size:
        o, d, lo, hi = (np.ascontiguousarray(take(x, idx).T) for x in items[:4])
        t_lo, t_hi = (take(x, idx, point=False) for x in items[4:])
        exact = exact_meets(o, d, np.zeros_like(d), lo, hi, t_lo, t_hi)
        hit[idx] = exact
        t_enter[idx[~exact]] = np.inf
        t_exit[idx[~exact]] = np.inf
    if lead == ():
        return RayHit(bool(hit[0]), float(t_enter[0]), float(t_exit[0]))
    return RayHit(hit.reshape(lead), t_enter.reshape(lead), t_exit.reshape(lead))


def _outputs(m: int, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(hit, t_enter, t_exit)``, uninitialised, as views of one buffer.

    A fresh large array comes as fresh pages, and on a virtual machine a page fault costs
    microseconds: numpy advises huge pages only for buffers of 4 MiB and more, so three separate
    outputs of 10^6 float32 items (1 + 4 + 4 MB) took ~3 ms of faults, more than the whole
    computation. One buffer of their total size gets the advice, and comes from the output
    pool (:mod:`._output_pool`), which reuses it once no array refers to it. The price: the
    three arrays keep each other's memory alive."""
    size = np.dtype(dtype).itemsize * m
    block = empty_bytes(2 * size + m)  # the float parts first: aligned
    return block[2 * size:].view(bool), block[:size].view(dtype), block[size:2 * size].view(dtype)


def _intersect_chunk(origin, direction, box_min, box_max, t_min, t_max, hit, t_enter, t_exit,
                     doubt_out, check=None, line: SharedLine | None = None) -> None:
    """Kernel: write one chunk's hits and clamped parameter intervals (``check``: see
    ``run_chunked(kernel_checks_boxes=True)``; ``line``: the ray, when every item shares it)."""
    dtype = t_enter.dtype.type
    if (isinstance(t_min, Single) and isinstance(t_max, Single)
            and _jit.usable(line, dtype, box_min, box_max)):
        sure = scratch("sure", hit.shape, bool)
        unsure = _jit.ray_pass(line, box_min, box_max, t_min[0], t_max[0], 3 * RAY_NEAR_TIE[dtype],
                               UNDERFLOW_SLACK[dtype], hit, t_enter, t_exit, sure)
        if unsure >= 0:
            if unsure:
                doubt_out.add_unless(sure)
            return
        # a coordinate is not finite: the numpy kernel below validates the chunk
    if line is None:
        o, d = rows(origin, dtype), rows(direction, dtype)
    else:
        o, d = line.o, line.d
    with np.errstate(over="ignore", under="ignore"):  # see slab_interval
        # written straight into this chunk's output slices, then clamped there
        slab_interval(o, d, box_min, box_max, dtype, check, line=line, out=(t_enter, t_exit))
    _clamp(np.maximum, t_enter, scalar(t_min))
    _clamp(np.minimum, t_exit, scalar(t_max))
    # t_enter and t_exit are rounded quotients of different axes (or a quotient and t_min /
    # t_max): where they are within a few ulps of each other the rounded comparison may differ
    # from the exact one, and an empty box can pass only with entry == exit. Those boxes are
    # decided exactly. |gap| <= eps (|t_enter| + |t_exit|) implies |gap| <= 3 eps |t_exit|
    # (as |t_enter| <= |t_exit| + |gap|), so the cheaper test flags a superset. NaN (inf - inf:
    # both overflowed) counts as near.
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        gap = np.subtract(t_exit, t_enter, out=scratch("gap", hit.shape, dtype))
        np.greater_equal(gap, 0, out=hit)
        size = np.abs(t_exit, out=scratch("size", hit.shape, dtype))
        size *= 3 * RAY_NEAR_TIE[dtype]
        size += UNDERFLOW_SLACK[dtype]  # subnormal quotients err by an absolute amount
        # gap + size < 0 iff gap < -size, a sure miss: a rounded sum has the exact sum's sign
        fill = np.add(gap, size, out=scratch("fill", hit.shape, dtype))
        sure = np.greater(np.abs(gap, out=gap), size, out=scratch("sure", hit.shape, bool))
        doubt_out.add_unless(sure)  # decided exactly by intersect_checked, after all chunks
        # Sure misses get +inf; the rest keep their t (doubtful items until decided). numpy's
        # masked writes (copyto(where=), putmask, where) cost several times more than
        # arithmetic, so: fmax with a fill that is +inf on sure misses and -inf or NaN (from
        # 0 * inf, or NaN gaps) elsewhere -- fmax ignores NaN.
        fill *= -np.inf
        np.fmax(t_enter, fill, out=t_enter)
        np.fmax(t_exit, fill, out=t_exit)


def _clamp(op, t: np.ndarray, bound) -> None:
    """``t = op(t, bound)`` in place, for ``np.maximum`` / ``np.minimum``. A scalar bound becomes
    an array first: numpy's max/min against a scalar runs ~4x slower than against an array."""
    if np.ndim(bound) == 0:
        if bound == (-np.inf if op is np.maximum else np.inf):
            return  # clamping to the infinity on that side changes nothing
        bound = constant(bound, t.size, t.dtype)
    op(t, bound, out=t)
