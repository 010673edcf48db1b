"""Output buffers for the batched queries, reused once every array made from them is gone.

A batched query returns fresh arrays, and a fresh large array comes as fresh pages: the operating
system zeroes and maps each one on first write. On the virtual machines this project runs on that
costs about 1.5 us per 4 KiB page, and whether malloc hands back pages it already mapped or new
ones depends on everything else the process allocated. Measured in the full benchmark at 10^6
float32 boxes: the ray test's 9 MB of outputs took about 410 page faults (1.4 ms, as much as
reading the inputs once) on most calls, and none when called alone.

So the memory of a large output goes back to a small pool when the last array using it dies,
and the next call of the same size takes it from there: the same reuse malloc may or may not
do, made certain. The returned arrays are ordinary writable arrays; their ``.base`` chain ends
at a :class:`_Lease`, whose death (through numpy's references from every view, reshape or
memoryview) is what returns the memory. Nothing is ever reused while an array can still reach
it; a raw address kept without its array (``ctypes``, ``__array_interface__``) is as invalid
as it would be after numpy freed the memory.

Bounds: only outputs from :data:`MIN_POOLED` to :data:`MAX_IDLE` bytes are pooled (smaller ones
are cheap and served well by malloc; the bound keeps the pool's cost off single-item calls), and
at most :data:`MAX_IDLE` bytes wait in the pool, idle, between calls.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

__all__ = ["MAX_IDLE", "MIN_POOLED", "clear", "empty_bytes", "idle_bytes"]

#: Smallest output (bytes) worth pooling: below it a call has under 64 fresh pages to fault.
MIN_POOLED = 256 * 1024
#: Most bytes kept idle in the pool (and so the largest pooled output): one 10^6-box float64
#: ray output (17 MB) and a float32 one, or two of the latter, as when the caller keeps one
#: frame's result while it computes the next.
MAX_IDLE = 32 * 1024 * 1024

# Reentrant: a garbage collection inside a locked region may kill a lease, whose finalizer
# then gives its buffer back from the same thread.
_lock = threading.RLock()
_idle: list[np.ndarray] = []  # raw uint8 buffers no array refers to any more, newest last


class _Lease:
    """Lends one pooled buffer's memory to numpy (``__array_interface__``) and returns the
    buffer to the pool when it dies, that is, when no array made from it is left."""

    __slots__ = ("__array_interface__", "__weakref__")

    def __init__(self, raw: np.ndarray) -> None:
        self.__array_interface__ = raw.__array_interface__
        # The finalizer, not the lease, keeps `raw` alive: it must outlive the lease.
        weakref.finalize(self, _give_back, raw).atexit = False


def _give_back(raw: np.ndarray) -> None:
    """Keep a released buffer for reuse, dropping the oldest idle ones beyond MAX_IDLE."""
    with _lock:
        _idle.append(raw)
        total = sum(b.nbytes for b in _idle)
        while total > MAX_IDLE:
            total -= _idle.pop(0).nbytes


def _take(nbytes: int) -> np.ndarray | None:
    """An idle buffer of exactly ``nbytes``, removed from the pool, or None."""
    with _lock:
        for i in range(len(_idle) - 1, -1, -1):
            if _idle[i].nbytes == nbytes:
                return _idle.pop(i)
    return None


def empty_bytes(nbytes: int) -> np.ndarray:
    """An uninitialised, writable uint8 array of ``nbytes``, aligned as ``np.empty`` aligns.

    From :data:`MIN_POOLED` to :data:`MAX_IDLE` bytes its memory comes from, and returns to,
    the pool; otherwise it is a plain ``np.empty``."""
    if not MIN_POOLED <= nbytes <= MAX_IDLE:
        return np.empty(nbytes, dtype=np.uint8)
    raw = _take(nbytes)
    if raw is None:
        raw = np.empty(nbytes, dtype=np.uint8)
    return np.asarray(_Lease(raw))


def idle_bytes() -> int:
    """Bytes waiting in the pool (for tests and memory accounting)."""
    with _lock:
        return sum(b.nbytes for b in _idle)


def clear() -> None:
    """Drop every idle buffer (the benchmark does, so that peak memory counts fresh outputs)."""
    with _lock:
        _idle.clear()
