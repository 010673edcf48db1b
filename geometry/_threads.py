"""The package's threads: how many a batch may use, and a pool that runs its shares.

A large compiled batch (:mod:`._engine`) and ``BoxTree``'s walks (:mod:`._bvh`) cut their items
into contiguous pieces and run them on the calling thread and the pool (:func:`in_shares`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

__all__ = ["PARALLEL_MIN", "PIECES", "call_threads", "get_num_threads", "in_shares",
           "set_num_threads"]

_Result = TypeVar("_Result")


def _usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


_threads = _usable_cpus()
#: The fewest items a thread's share holds: handing a share to a pool thread costs about as
#: long as the cheapest query takes over some 10^5 boxes.
PARALLEL_MIN = 1 << 17
#: Pieces a thread's share of a batch is cut into (:func:`in_shares`): more pieces balance
#: uneven threads better, but each costs a loop's call and its setup.
PIECES = 4
_pool: ThreadPoolExecutor | None = None
_pool_workers = 0  # the threads _pool may run


def _after_fork() -> None:
    """In a forked child (multiprocessing's fork, a preforking server) only the forking thread
    runs: the parent's pool threads do not exist there, and a piece left to that pool would
    wait for ever, so the child's next large batch makes a pool of its own."""
    global _pool, _pool_workers
    _pool, _pool_workers = None, 0


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_after_fork)


def set_num_threads(n: int) -> None:
    """Use up to ``n`` threads for large compiled batches (1 runs every batch serially).

    The default is the number of CPUs the process may use. A batch called from the main thread
    runs on up to ``n`` threads, at least 2**17 items each: the calling thread and a pool's. Its
    items are cut into four contiguous pieces a thread, which the threads take in turn, each
    running the same compiled loop (which releases the GIL) over its piece.
    A call from any other thread runs serially: a caller that already spreads batches over
    threads (dask, a thread pool) gets no second layer of them. The pool is kept when ``n``
    shrinks (its threads wait idle), so going back to more threads costs no new ones.
    ``BoxTree``'s walks share out their queries in the same pool. Results never change."""
    global _threads
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a whole number of threads, at least 1, got {n!r}")
    _threads = int(n)


def get_num_threads() -> int:
    """The thread count large batches may use (see :func:`set_num_threads`)."""
    return _threads


def call_threads() -> int:
    """The threads a batch called here may use (:func:`set_num_threads`): the thread count from
    the main thread, 1 from any other (its caller spreads work over threads already)."""
    return _threads if threading.current_thread() is threading.main_thread() else 1


def in_shares(run: Callable[[int, int], _Result], m: int, least: int) -> list[_Result]:
    """``run(lo, hi)`` over contiguous pieces of ``range(m)`` that together cover it, on as many
    threads as the call may use (:func:`call_threads`) but with no fewer than ``least`` items a
    thread: this one and, meanwhile, the package's pool. The results, one per piece, in order.
    The threads overlap only where ``run`` releases the GIL (a compiled ``nogil`` function).

    Each thread takes the next piece not taken yet until none is left, :data:`PIECES` pieces
    a thread: a thread that the rest of the machine slows (a vCPU shared with other guests, an
    efficiency core) then runs fewer of them, where equal shares would wait for its last."""
    threads = max(1, min(call_threads(), m // max(1, least)))
    if threads == 1:
        return [run(0, m)]
    global _pool, _pool_workers
    if _pool is None or _pool_workers < _threads - 1:  # none yet, or too small
        if _pool is not None:
            _pool.shutdown(wait=False)
        _pool = ThreadPoolExecutor(_threads - 1, thread_name_prefix="geometry")
        _pool_workers = _threads - 1
    pieces = threads * PIECES
    cuts = [m * k // pieces for k in range(pieces + 1)]
    results: list[Any] = [None] * pieces
    taken = [0]  # pieces taken so far
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                k = taken[0]
                taken[0] = k + 1
            if k >= pieces:
                return
            results[k] = run(cuts[k], cuts[k + 1])

    helpers = [_pool.submit(work) for _ in range(threads - 1)]
    try:
        work()
    finally:
        with lock:  # on an error here, the helpers stop after their piece
            taken[0] = pieces
        errors = [helper.exception() for helper in helpers]  # waits for each
    for error in errors:
        if error is not None:
            raise error
    return results
