"""Broadcasting and chunked, optionally threaded, execution shared by every batched query.

A query's arguments are points of shape (..., 3) (or per-item scalars of shape (...)). They are
broadcast over their leading dimensions to one flat batch of M items. An argument whose leading
dimensions are all 1 is *single* (a :class:`Single`): the kernel sees it as a (3, 1) block
that broadcasts against the chunk, and can branch once per axis instead of per item (the common
case: one segment, many boxes). Other arguments become (M, 3) arrays, sliced into chunks so
every temporary stays in cache; kernels work on (3, C) blocks, one ufunc call for all three
axes. The chunks write disjoint slices of the preallocated outputs and may run on a small thread
pool (numpy ufuncs release the GIL).
"""

from __future__ import annotations

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from ._engine import get_num_threads

__all__ = [
    "Single",
    "broadcast_items",
    "broadcast_leading",
    "chunk_size",
    "constant",
    "out_dtype",
    "rows",
    "run_chunked",
    "sort_pair",
    "sum_is_finite",
]

#: Items per chunk: large enough that numpy's per-call overhead is small against the work, small
#: enough that a chunk's transposed inputs and its (C,) temporaries stay in a core's L2 cache.
CHUNK = 32768


def chunk_size(dtype) -> int:
    """Items per chunk for the segment and ray kernels: a fixed number of bytes per chunk, so
    float32 batches take twice :data:`CHUNK` items. Measured at 10^6 boxes (one segment): the
    best float64 chunks were 24k-32k items, the best float32 ones 48k-64k, where float32's
    per-call overhead weighs twice as much against its cheaper passes."""
    return CHUNK * 8 // np.dtype(dtype).itemsize


_pool: ThreadPoolExecutor | None = None


def broadcast_leading(shapes: dict[str, tuple], item_dims: dict[str, int]) -> tuple[int, ...]:
    """The broadcast of the arguments' leading shapes (each shape less its last ``item_dims``).

    Raises a ``ValueError`` that lists every argument's shape when they do not broadcast.
    """
    leads = [shape[: len(shape) - item_dims.get(name, 0)] for name, shape in shapes.items()]
    try:
        return np.broadcast_shapes(*leads)
    except ValueError:
        listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(f"argument shapes do not broadcast over leading dimensions: {listed}") from None


class Single(tuple):
    """The coordinates of an argument that is the same for every item, as numpy scalars."""


def broadcast_items(
    args: dict[str, np.ndarray], dtype: type, *, scalars: dict[str, np.ndarray] | None = None
) -> tuple[tuple[int, ...], list]:
    """Broadcast point arguments (..., 3) and scalar arguments (...) to one flat batch.

    Returns the broadcast leading shape and, in the order given (points first, then scalars),
    for each argument either a :class:`Single` or a flat (M, 3) / (M,) array.
    """
    scalars = scalars or {}
    shapes = {name: a.shape for name, a in args.items()}
    shapes.update({name: a.shape for name, a in scalars.items()})
    lead = broadcast_leading(shapes, {name: 1 for name in args})
    m = int(np.prod(lead, dtype=np.int64))
    items: list = []
    for name, a in list(args.items()) + list(scalars.items()):
        is_point = name in args
        if a.size == (3 if is_point else 1):
            flat = a.reshape(3 if is_point else ())
            items.append(Single(dtype(x) for x in flat) if is_point else Single((dtype(flat),)))
        else:
            tail = (3,) if is_point else ()
            items.append(np.broadcast_to(a, lead + tail).reshape((m,) + tail))
    return lead, items


def rows(x: Single | np.ndarray, dtype) -> np.ndarray:
    """A chunk argument as a contiguous (3, C) block, or (3, 1) for a :class:`Single`.

    Blocks let one ufunc call cover all three axes; (3, 1) broadcasts against (3, C).
    """
    if isinstance(x, Single):
        return np.array(x, dtype=dtype).reshape(3, 1)
    return np.ascontiguousarray(x.T)


def lex_less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per item, whether point block ``a`` precedes ``b`` in (x, y, z) lexicographic order."""
    return (a[0] < b[0]) | ((a[0] == b[0]) & ((a[1] < b[1]) | ((a[1] == b[1]) & (a[2] < b[2]))))


def sort_pair(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(a, b)`` reordered per item so the lexicographically smaller point comes first.

    Queries run on a canonical order of their points, so the same point set (a reversed
    segment, a triangle's vertices in any order) takes the same rounding and gets the same
    answer, also in near-degenerate cases. (3, 1) or (3, C) blocks in and out.
    """
    swap = lex_less(b, a)
    if swap.shape == (1,):
        return (b, a) if swap[0] else (a, b)
    return np.where(swap, b, a), np.where(swap, a, b)


def out_dtype(*chunk_args) -> type:
    """The compute dtype of a chunk's arguments: float32 only when all of them are float32."""
    for x in chunk_args:
        dtype = type(x[0]) if isinstance(x, Single) else x.dtype.type
        if dtype is not np.float32:
            return np.float64
    return np.float32


_scratch = threading.local()


def scratch(name: str, shape: tuple[int, ...], dtype) -> np.ndarray:
    """An uninitialised buffer for a chunk's temporaries, kept per thread and reused by every
    later chunk and call (about 2 MB per thread and compute dtype: the slab pass's two (3, C)
    blocks of :func:`chunk_size` items, 768 KiB each, and a few (C,) rows).

    Chunk-sized temporaries are above glibc's mmap threshold, so a fresh one can come as fresh
    pages: measured at 10^6 boxes, page faults and zeroing then cost more than the arithmetic
    (3.5x -> 11x the read-once floor with every large allocation mmapped). A kernel must not
    keep a scratch array, or a view of it, beyond the chunk that asked for it.
    """
    buffers = _scratch.__dict__.setdefault("buffers", {})
    key = (name, dtype)
    size = math.prod(shape)  # np.prod costs ~3 us per call, twice a chunk's smallest pass
    buf = buffers.get(key)
    if buf is None or buf.size < size:
        buf = buffers[key] = np.empty(size, dtype)
    return buf[:size].reshape(shape)


_constants: dict = {}


def constant(value: float, size: int, dtype) -> np.ndarray:
    """A read-only (size,) array of ``value``, cached per value and dtype (grown as needed).

    For the kernels' clamps: numpy's ``maximum`` / ``minimum`` against an array run ~4x faster
    than against a scalar, which takes a slower broadcasting loop.
    """
    key = (float(value), np.dtype(dtype).str)
    buf = _constants.get(key)
    if buf is None or buf.size < size:
        if len(_constants) >= 16:  # values such as a caller's t_min: keep the cache small
            _constants.clear()  # (views already handed out keep their buffers alive)
        buf = np.full(max(size, CHUNK), value, dtype=dtype)
        buf.flags.writeable = False
        _constants[key] = buf  # a dict store is atomic: a racing thread at worst builds a twin
    return buf[:size]


def sum_is_finite(x: np.ndarray) -> bool:
    """True if the sum of ``x`` is finite, which proves every element finite (a NaN or an
    infinity survives any summation order); an overflowing sum only fails the proof.

    One-thread ``np.add.reduce``: a BLAS dot product would be faster alone, but spawns
    threads that stall under load.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(np.add.reduce(x, axis=None)))


class Flagged:
    """An output for :func:`run_chunked` that collects the flat indices of flagged items:
    slicing it gives the chunk's collector, whose ``add(mask)`` records the chunk's True items.
    Memory grows with the flagged items only, not with N."""

    def __init__(self) -> None:
        self._parts: list[np.ndarray] = []  # list.append is atomic: safe from pool threads

    def __getitem__(self, chunk: slice) -> "_ChunkFlags":
        return _ChunkFlags(self._parts, chunk.start or 0)

    def indices(self) -> np.ndarray:
        return np.concatenate(self._parts) if self._parts else np.zeros(0, dtype=np.intp)


class _ChunkFlags:
    def __init__(self, parts: list, offset: int) -> None:
        self._parts, self._offset = parts, offset

    def add(self, mask: np.ndarray) -> None:
        """Record the items where ``mask`` is True."""
        if mask.any():  # the usual case is none; flatnonzero alone costs ~10x any()
            self._parts.append(np.flatnonzero(mask) + self._offset)

    def add_unless(self, sure: np.ndarray) -> None:
        """Record the items where ``sure`` is False (spares the kernel a pass inverting it)."""
        if not sure.all():
            self._parts.append(np.flatnonzero(~sure) + self._offset)


def take(x: Single | np.ndarray, idx: np.ndarray, *, point: bool = True) -> np.ndarray:
    """Items ``idx`` of a flat argument: (k, 3) for points, (k,) for scalars, float64."""
    if isinstance(x, Single):
        value = np.array(x, dtype=np.float64)
        return np.broadcast_to(value if point else value[0], (len(idx),) + ((3,) if point else ()))
    return x[idx].astype(np.float64)


def scalar(x: Single | np.ndarray):
    """The value of a per-item scalar argument: a numpy scalar or the chunk's (C,) array."""
    return x[0] if isinstance(x, Single) else x


def run_chunked(
    kernel: Callable[..., None],
    m: int,
    items: list,
    outs: list[np.ndarray],
    *,
    boxes: tuple[int, str, int, str] | None = None,
    kernel_checks_boxes: bool = False,
    chunk: int = CHUNK,
) -> None:
    """Call ``kernel(*chunk_items, *chunk_outs)`` over chunks of ``chunk`` of the M items.

    ``outs`` are flat preallocated (M,) arrays; each call writes its own slice of them.
    ``boxes = (i_min, min_name, i_max, max_name)`` names the items holding box corners: each
    chunk of them is validated (finite, or the empty-box infinities) before the kernel sees it.
    With ``kernel_checks_boxes`` the kernel gets the chunk unvalidated and a keyword
    ``check(box_min, box_max) -> (box_min, box_max)`` that validates it (raising, or replacing
    the empty-box infinities) -- or ``check=None`` when there is nothing left to validate. Such
    a kernel must call ``check`` unless it has proven from its own arithmetic that every box
    coordinate it read is finite, and must recompute the chunk from what ``check`` returns.
    That spares a pass over the boxes: the validation pass is a full read from memory.
    """
    from ._validate import checked_box_chunk  # lazily: _validate imports sum_is_finite from here

    def one(lo: int) -> None:
        hi = min(lo + chunk, m)
        chunk_items = [x if isinstance(x, Single) else x[lo:hi] for x in items]
        check = None
        if boxes is not None:
            i_min, min_name, i_max, max_name = boxes
            a, b = chunk_items[i_min], chunk_items[i_max]
            if not isinstance(a, Single) or not isinstance(b, Single):
                a, b = (np.broadcast_to(np.asarray(x), (hi - lo, 3)) if isinstance(x, Single) else x for x in (a, b))
                if kernel_checks_boxes:
                    chunk_items[i_min], chunk_items[i_max] = a, b

                    def check(box_min, box_max):
                        return checked_box_chunk(min_name, box_min, max_name, box_max, lo)
                else:
                    chunk_items[i_min], chunk_items[i_max] = checked_box_chunk(min_name, a, max_name, b, lo)
        if kernel_checks_boxes:
            kernel(*chunk_items, *(o[lo:hi] for o in outs), check=check)
        else:
            kernel(*chunk_items, *(o[lo:hi] for o in outs))

    starts = range(0, m, chunk)
    threads = get_num_threads()
    if threads > 1 and len(starts) >= 4:
        global _pool
        if _pool is None or _pool._max_workers != threads:
            _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="slablab")
        # list() re-raises a worker's exception here, in the caller's thread.
        list(_pool.map(one, starts))
    else:
        for lo in starts:
            one(lo)
