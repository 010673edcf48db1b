"""Loops compiled in the background, behind a first batch small enough for the interpreter.

A query's first batch of a pattern (:mod:`._engine`) needs its loop compiled: one to two
seconds of numba where nothing is cached yet. A batch of at most :data:`INTERPRETED_FIRST`
items costs the interpreter far less (a few microseconds an item), and gives the same bits
(:func:`._loops.run_interpreted` runs the very filter the loop compiles). Such a batch therefore
starts the loop's compilation in a thread of its own (:func:`compiling`) and runs interpreted;
so do the pattern's small batches after it until the loop is ready, and from then on the loop
runs them. The loop's second pass, if its query has one, compiles in the same thread after it,
so that no later batch with doubtful items stops to compile it. A larger first batch compiles
the loop in the caller's thread and waits, as it always did: there the interpreter would cost
more than the compilation.

A query hot on one item (``_engine``) compiles its filter for one item in the same way, while
the interpreter answers its calls.

``BoxTree``'s build and walks are compiled functions of their own, called from Python
(:class:`Tiered`): a call whose arrays are small enough for the interpreter runs the function as
written while numba compiles it in a thread, in the same way.

The thread is not a daemon: a process that ends while a loop compiles waits for it, so that
numba's cache holds the loop for the next process. A fork waits for it too (``os.fork`` in
multiprocessing, a preforking server): numba compiles under one process-wide lock, and a
child forked while another thread held it could never take it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from ._loops import get_jit, numba_jit_disabled

__all__ = ["INTERPRETED_FIRST", "Tiered", "compiling", "wait"]

#: The most items of a first batch that runs interpreted while its loop compiles behind it (at
#: most some 13 us an item in CPython, so about 50 ms for the costliest filter).
INTERPRETED_FIRST = 4096

_jobs: dict[Hashable, tuple[threading.Thread, threading.Event]] = {}
_lock = threading.Lock()


def compiling(key: Hashable, start: Callable[[], tuple[Callable[[], object],
                                                       Callable[[], object] | None]]) -> bool:
    """Whether the loop ``key`` names is still compiling in the background, its compilation
    started in a thread first if it was not yet: the caller then runs its batch interpreted.
    ``start`` gives the calls that compile the loop and then its second pass (None where there
    is none); it runs here, only where the compilation starts. False once the loop has
    compiled, or failed to (the caller's own call of the loop then compiles it, and raises what
    compiling raises); the second pass compiles in the same thread after it, so that no later
    batch waits for it."""
    with _lock:
        job = _jobs.get(key)
        if job is None:
            compile, then = start()
            ready = threading.Event()
            thread = threading.Thread(target=_run, args=(compile, then, ready),
                                      name="slablab loop compiler")
            _jobs[key] = thread, ready
            thread.start()
            return True
    return not job[1].is_set()


def _run(compile: Callable[[], object], then: Callable[[], object] | None,
         ready: threading.Event) -> None:
    try:
        compile()
    except Exception:  # noqa: BLE001 - raised again where the loop is called (compiling)
        return
    finally:
        ready.set()
    if then is not None:
        try:
            then()
        except Exception:  # noqa: BLE001 - raised again where it is called
            pass


class Tiered:
    """A function compiled with numba (``compiled``, :func:`._loops.njit_cached`) and called
    from Python, that runs as written (``py_func``) while it compiles: the first call with
    argument types not compiled yet whose arrays have at most ``2 * INTERPRETED_FIRST`` rows
    (a tree of that many boxes has one node fewer; arrays in a tuple argument, such as a
    ``Tree``, count) starts compiling it for those types in a thread (:func:`compiling`) and
    runs interpreted; so do such calls until it is compiled, then every call runs compiled. A
    larger call compiles and waits, as a plain numba function does. With ``set_jit(False)``
    every call runs interpreted. The functions it calls must run in Python as they do compiled
    (plain functions that numba compiles into their callers, ``register_jitable``), so that
    both give the same results."""

    def __init__(self, func: Callable[..., Any], compiled: Any) -> None:
        self.py_func = func
        self.compiled = compiled
        self.__doc__ = func.__doc__
        self._ready = False  #: a compilation behind a call has finished: no more checks

    def __call__(self, *args: Any) -> Any:
        if not get_jit():
            return self.interpreted(*args)
        if self._ready:
            return self.compiled(*args)
        if numba_jit_disabled():
            return self.interpreted(*args)
        if 0 < INTERPRETED_FIRST and _rows(args) <= 2 * INTERPRETED_FIRST:
            import numba

            types = tuple(numba.typeof(a) for a in args)  # type: ignore[no-untyped-call]
            if compiling((self, types), lambda: ((lambda: self.compiled.compile(types)), None)):
                return self.interpreted(*args)
            self._ready = True
        return self.compiled(*args)

    def interpreted(self, *args: Any) -> Any:
        """The function as written, with numpy's floating-point errors ignored as compiled code
        ignores them (numpy scalars would raise under ``np.seterr(all="raise")``)."""
        with np.errstate(all="ignore"):
            return self.py_func(*args)


def _rows(args: tuple[Any, ...]) -> int:
    """The most rows of an array among ``args`` and the items of tuples among them."""
    rows = 0
    for a in args:
        for x in a if isinstance(a, tuple) else (a,):
            if isinstance(x, np.ndarray) and x.ndim:
                rows = max(rows, x.shape[0])
    return rows


def wait() -> None:
    """Wait for every loop compiling in the background (the benchmarks time it; a fork waits)."""
    with _lock:
        threads = [thread for thread, _ in _jobs.values()]
    for thread in threads:
        if thread is not threading.current_thread():
            thread.join()


def _after_fork() -> None:
    """In a forked child only the forking thread runs: a lock another thread held at the fork
    (starting a compilation) would never be released, so the child's is new."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(before=wait, after_in_child=_after_fork)
