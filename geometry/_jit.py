"""Optional compiled slab passes (numba) for one segment or ray shared by a chunk of boxes.

The numpy kernels pay for reading each (C, 3) chunk column by column: numpy moves a strided
element per cycle, which alone costs about 1.5x the read-once floor in float32. A compiled loop
reads each box's six coordinates where they lie: at 10^6 boxes the calls measured 0.7-1.5x the
floor for the segment test and 1.3-2.2x for the ray (README, "Performance"), against 2.9-5.0x
with the numpy kernels.

These loops are a second copy of the *rounded* slab pass only, for the one case that dominates
(a shared line with no zero direction component, C-contiguous boxes in the compute dtype). They
do the numpy kernels' arithmetic in the same dtype and the same order -- ``(b - o) / d`` with the
near plane picked by the sign of ``d``, the same reductions, bands and flags -- so they give the
same classes, hits, t values and doubt flags, and the exact pass after them is shared. Tests run
both on the same data (``tests/geometry/test_jit_parity.py``). Anything else (zero components,
halved segments, per-item rays or t ranges, non-finite coordinates, which the numpy kernel
validates or reports) goes to the numpy kernels.

numba is not a dependency: ``pip install slablab[jit]`` (the test extras include it). Without it,
or with ``SLABLAB_JIT=0`` in the environment, or after ``set_jit(False)``, every call runs the
numpy kernels, with the same answers.
"""

from __future__ import annotations

import os
import threading

import numpy as np

__all__ = ["get_jit", "numba_installed", "ray_pass", "segment_pass", "set_jit", "usable"]

_enabled = os.environ.get("SLABLAB_JIT", "1").strip() not in ("0", "false", "no", "off")
_kernels: tuple | bool | None = None  # None: not built yet; False: numba is not installed
_lock = threading.Lock()


def numba_installed() -> bool:
    """Whether numba can be imported (the first call imports it: ~0.3 s)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def set_jit(enabled: bool) -> None:
    """Use the compiled slab passes (``True``, needs numba) or the numpy kernels only. Answers
    never change; only speed does."""
    global _enabled
    if enabled and not numba_installed():
        raise ImportError("set_jit(True) needs numba: pip install 'slablab[jit]'")
    _enabled = bool(enabled)


def get_jit() -> bool:
    """Whether the compiled slab passes are used (numba installed and not switched off)."""
    return _enabled and numba_installed()


def usable(line, dtype, *boxes) -> bool:
    """Whether a compiled pass can take this chunk: a shared moving line (``SharedLine``) and
    C-contiguous (C, 3) box arrays of the compute dtype."""
    return (_enabled and line is not None and line.moving
            and all(isinstance(b, np.ndarray) and b.dtype == dtype and b.flags.c_contiguous
                    for b in boxes)
            and bool(_compiled()))


def segment_pass(line, box_min, box_max, tie, out, doubt) -> int:
    """Classify a chunk as ``segment_box._classify_chunk`` does; return the number of doubtful
    boxes flagged in ``doubt``, or -1 if a coordinate is not finite (``out`` and ``doubt`` are
    then garbage: the caller runs the numpy kernel, which validates)."""
    dtype = box_min.dtype.type
    o, d, fwd = _line_args(line, dtype)
    return _compiled()[0](box_min.reshape(-1), box_max.reshape(-1), *o, *d, *fwd, dtype(tie),
                          dtype(0), dtype(1), dtype(np.finfo(dtype).max), out, doubt)


def ray_pass(line, box_min, box_max, t_min, t_max, band, slack, hit, t_enter, t_exit,
             sure) -> int:
    """Intersect a chunk as ``ray_box._intersect_chunk`` does; return the number of boxes not
    ``sure`` (left for the exact pass), or -1 if a coordinate is not finite (outputs garbage)."""
    dtype = box_min.dtype.type
    o, d, fwd = _line_args(line, dtype)
    return _compiled()[1](box_min.reshape(-1), box_max.reshape(-1), *o, *d, *fwd, dtype(t_min),
                          dtype(t_max), dtype(band), dtype(slack), dtype(0),
                          dtype(np.finfo(dtype).max), dtype(np.inf), hit, t_enter, t_exit, sure)


def _line_args(line, dtype):
    o = tuple(dtype(x) for x in line.o[:, 0])
    d = tuple(dtype(x) for x in line.d[:, 0])
    return o, d, tuple(bool(f) for f in line.forward)


def _compiled():
    """The two compiled loops, built on first use (numba imported lazily: it takes ~0.3 s),
    or False without numba. numba compiles each dtype on its first call and caches the machine
    code next to this file (``cache=True``), so later processes load it."""
    global _kernels, _box_interval
    if _kernels is None:
        with _lock:
            if _kernels is None:
                try:
                    import numba
                except ImportError:
                    _kernels = False
                    return _kernels
                options = dict(nogil=True, boundscheck=False, error_model="numpy")
                # the loops call the box's slab interval through this global, compiled first
                _box_interval = numba.njit(inline="always", **options)(_box_interval_py)
                try:
                    jit = numba.njit(cache=True, **options)
                    _kernels = (jit(_segment_loop), jit(_ray_loop))
                except RuntimeError:  # decorating found no writable cache location: no cache
                    jit = numba.njit(**options)
                    _kernels = (jit(_segment_loop), jit(_ray_loop))
    return _kernels


# Maxima and minima are written as numpy computes np.maximum(a, b) / np.minimum(a, b): ``a if
# a > b else b`` (``<`` for the minimum), so that even the sign of a zero t is the same.
#
# The loops index flat (3C,) arrays with the constant stride 3, which LLVM vectorises as
# interleaved loads; indexing a 2-D array (runtime strides) gives gathers, ~5x slower. Every
# constant comes in as an argument of the compute dtype: a literal 0.0 would promote float32
# arithmetic to float64 and round differently from the numpy kernel.

def _box_interval_py(lo, hi, i, ox, oy, oz, dx, dy, dz, fx, fy, fz, big):
    """``(entry, exit, finite)`` for box ``i``: its slab interval as the numpy kernel reduces
    it (near plane by the sign of d), and whether its six coordinates are finite."""
    a0, a1, a2 = lo[3 * i], lo[3 * i + 1], lo[3 * i + 2]
    b0, b1, b2 = hi[3 * i], hi[3 * i + 1], hi[3 * i + 2]
    finite = ((abs(a0) <= big) & (abs(a1) <= big) & (abs(a2) <= big)
              & (abs(b0) <= big) & (abs(b1) <= big) & (abs(b2) <= big))
    qa0, qb0 = (a0 - ox) / dx, (b0 - ox) / dx
    qa1, qb1 = (a1 - oy) / dy, (b1 - oy) / dy
    qa2, qb2 = (a2 - oz) / dz, (b2 - oz) / dz
    n0, n1, n2 = qa0 if fx else qb0, qa1 if fy else qb1, qa2 if fz else qb2
    f0, f1, f2 = qb0 if fx else qa0, qb1 if fy else qa1, qb2 if fz else qa2
    entry = n0 if n0 > n1 else n1
    entry = entry if entry > n2 else n2
    exit_ = f0 if f0 < f1 else f1
    exit_ = exit_ if exit_ < f2 else f2
    return entry, exit_, finite


_box_interval = _box_interval_py  # replaced by its compiled form in _compiled()


def _segment_loop(lo, hi, ox, oy, oz, dx, dy, dz, fx, fy, fz, tie, zero, one, big, out, doubt):
    bad = 0
    flagged = 0
    for i in range(out.shape[0]):
        entry, exit_, finite = _box_interval(lo, hi, i, ox, oy, oz, dx, dy, dz, fx, fy, fz, big)
        bad += not finite
        inside = (entry < zero) & (exit_ > one)
        g = (exit_ if exit_ < one else one) - (entry if entry > zero else zero)
        out[i] = (g >= zero) + inside
        flag = ((g >= one) != inside) | (abs(g) <= tie)
        doubt[i] = flag
        flagged += flag
    return -1 if bad else flagged


def _ray_loop(lo, hi, ox, oy, oz, dx, dy, dz, fx, fy, fz, t_min, t_max, band, slack, zero, big,
              inf, hit, t_enter, t_exit, sure):
    bad = 0
    unsure = 0
    for i in range(hit.shape[0]):
        enter, exit_, finite = _box_interval(lo, hi, i, ox, oy, oz, dx, dy, dz, fx, fy, fz, big)
        bad += not finite
        enter = enter if enter > t_min else t_min
        exit_ = exit_ if exit_ < t_max else t_max
        gap = exit_ - enter
        size = abs(exit_) * band + slack
        hit[i] = gap >= zero
        ok = abs(gap) > size
        sure[i] = ok
        unsure += not ok
        if gap + size < zero:  # a sure miss (see ray_box._intersect_chunk)
            enter = exit_ = inf
        t_enter[i] = enter
        t_exit[i] = exit_
    return -1 if bad else unsure
