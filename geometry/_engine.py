"""The engine under every query: arguments in, one scalar filter run per item, exact on doubt.

A query module writes its algorithm twice, as two plain functions of flat float scalars (a point
is three scalars ``x, y, z``, an OBB's axes nine, row-major):

- ``_filter(*scalars) -> (*answer, doubt)``: float64 arithmetic only (no numpy, no allocation,
  no exceptions), run by CPython for one item and compiled by numba for many. ``doubt`` is True
  wherever rounding could have changed the answer, and wherever an argument is not a valid
  value (NaN, a forbidden infinity, a zero direction): the filter's doubt is the library's only
  value check, so it must be certain.
- ``_exact(*scalars) -> answer``: the exact answer in arbitrary precision, for doubtful items.

and wires them to the engine once::

    _QUERY = Query(_filter, _exact,
                   args=[("start", POINT), ("end", POINT), ("box_min", BOX_MIN),
                         ("box_max", BOX_MAX)],
                   outputs=[CLASS])

    def classify_segment_aabb(start, end, box_min, box_max, *, out=None):
        codes = _QUERY(start, end, box_min, box_max, out=out)
        ...

``_QUERY(*values, out=None)`` does the rest:

- **validation at the boundary** of shapes and dtypes: every point-like argument is (..., 3)
  (``AXES`` (..., 3, 3), scalars any shape), all broadcast over their leading dimensions; ints
  and extended floats are accepted only where float64 holds them exactly. Values are checked by
  the filter's doubt: a doubtful item is checked here, and a bad one raises a ``ValueError``
  naming the argument and its index. ``AXES`` must be finite and orthonormal: the filter doubts
  axes that are not (:func:`axes_doubt`), so the check costs no pass of its own.
- **one item** (every argument a single item: tuples, lists, (3,) arrays, Python numbers): the
  filter runs on Python floats, ``_exact`` if it doubts; returns a Python scalar (one output) or
  a tuple of them. Nothing is allocated, numba is not imported.
- **many items**: one compiled loop (numba ``njit``, ``cache=True``, ``nogil``; over contiguous
  pieces of the items in up to :func:`get_num_threads` threads when the batch is large, see
  :func:`set_num_threads`) runs the same filter, writing answers and doubt flags; then
  ``_exact`` runs on the doubtful items only. Arguments shared by every item (the leading ones,
  a frame of axes, scalars) are constants of the loop (one compiled loop per pattern of them),
  so what depends on them alone is computed once, not per item. Filters compute with selects
  and ``&`` / ``|`` rather than branches, and their helpers are inlined (``forceinline``), so
  that LLVM vectorises the loop (one item in Python may still skip work whose result a select
  discards: :func:`interpreted` is a constant False compiled). ``set_jit(False)`` or
  ``SLABLAB_JIT=0`` runs the very same filter in an interpreted loop instead (bit-identical).
  Returns one (lead,) array per output, or the caller's ``out`` arrays filled in (arrays of
  their own: overlapping ones are a ``ValueError``; an input in an output's memory, such as a
  ``t_min`` that receives ``t_enter``, is copied first, as numpy's ``out=`` does).

Outputs are float32 (``T``) only when every array argument is float32; data are widened to
float64 before the filter sees them. Exact t values are rounded to nearest float64, and from
there to float32 for a float32 output (within one float32 ulp of the exact value). A query made
with ``Query(..., t32=True)`` passes its filter one more argument after the items', ``t32``:
True when its t outputs are float32, so that a t within ``RAY_T32_RELATIVE`` of the exact value
is close enough (the compiled loop takes it as a constant, so the code it skips is not there).
A query made with ``Query(..., case=fn)`` passes one more after those, ``case``: in the compiled
loop ``fn(columns)`` (the call's argument columns, shared ones as tuples of floats), worked out
once per call, so that the loop is compiled for either value as a constant; one item and the
interpreted loop pass False. ``fn`` says that something the filter would work out from the
loop's constants holds for every item (ray vs OBB: the ray crosses every axis of its one
frame), and the filter gives the same bits with True as with False where it does: True only
lets LLVM drop the code for the other case.
A query made with ``Query(..., second_pass=True)`` passes one more after those, ``first_pass``:
True in the compiled loop's pass over every item, where the filter may doubt an item that it
can settle, only not in a straight line (ray vs OBB: two planes that can both be the entry);
the loop then runs the filter again, with ``first_pass`` False, on the items it doubted (a loop
over their indices), before the exact pass. One item, and the interpreted loop, run with
``first_pass`` False.

A query made with ``Query(..., contract=True)`` has its loops compiled with LLVM free to fuse a
product and a sum into one fused multiply-add (numba's ``fastmath={"contract"}``, no other
liberty): for filters whose outputs are exact answers (classes, booleans), not floats. A fused
operation rounds once where the two rounded twice, which the error bounds (counted per rounding,
each within u) already allow, so a certified answer stays the exact one; only which items are
doubted may differ from the interpreted filter's, and the exact pass decides those.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import math
import numbers
import os
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar, Union

import numpy as np

from ._tolerances import ORTHONORMAL_ATOL

__all__ = [
    "AXES", "BOOL", "BOX_MAX", "BOX_MIN", "CLASS", "DIRECTION", "POINT", "T", "T_MAX", "T_MIN",
    "Kind", "Query", "as_float_array", "axes_doubt", "get_jit", "get_num_threads", "in_shares",
    "jitable", "njit_cached", "set_jit", "set_num_threads", "interpreted", "two_product",
]


#: A per-item argument as the loops take it: Python floats shared by every item, or a flat
#: read-only array of ``width`` values per item.
Column = Union[tuple[float, ...], np.ndarray]  # noqa: UP007 - a runtime alias


class Kind(NamedTuple):
    """What an argument holds: ``width`` scalars per item, ``item_dims`` trailing dimensions."""

    name: str
    width: int
    item_dims: int


POINT = Kind("point", 3, 1)  #: finite
BOX_MIN = Kind("box_min", 3, 1)  #: finite, or +inf (an empty box)
BOX_MAX = Kind("box_max", 3, 1)  #: finite, or -inf (an empty box)
DIRECTION = Kind("direction", 3, 1)  #: finite and not the zero vector
AXES = Kind("axes", 9, 2)  #: finite, rows orthonormal within ORTHONORMAL_ATOL
T_MIN = Kind("t_min", 1, 0)  #: not NaN, not +inf
T_MAX = Kind("t_max", 1, 0)  #: not NaN, not -inf

CLASS = "class"  #: output: int8 class codes
BOOL = "bool"  #: output: bool
T = "t"  #: output: a float parameter, float32 when every array argument is float32

_OUT_DTYPES = {CLASS: np.int8, BOOL: np.bool_}
_EXACT_INT = 2.0**53
_INF = math.inf
_Result = TypeVar("_Result")

# --- switches ------------------------------------------------------------------------------
_jit = os.environ.get("SLABLAB_JIT", "1").strip().lower() not in ("0", "false", "no", "off")

def _usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


_threads = _usable_cpus()
#: The fewest items a thread's share holds. Handing a share to a pool thread costs about 0.1 ms
#: on the project's 2-core VM (segment vs AABB, 10^5 boxes: 0.17 ms in one thread, 0.28 ms in
#: two), as long as the cheapest query takes over some 10^5 boxes.
_PARALLEL_MIN = 1 << 17
#: Pieces a thread's share of a batch is cut into (:func:`in_shares`). 8 instead ran batches of
#: 3 * 10^5 float32 boxes about 5 % longer (a loop's call and its setup, per piece).
_PIECES = 4
#: Items per block where a loop deinterleaves per-item axes first (:func:`_compile`).
_BLOCK = 64
_pool: ThreadPoolExecutor | None = None
_pool_workers = 0  # the threads _pool may run
_queries: weakref.WeakSet[Query] = weakref.WeakSet()  # every Query, for _after_fork


def _numba_jit_disabled() -> bool:
    """Whether numba is told not to compile (``NUMBA_DISABLE_JIT=1``, as when debugging numba
    code): its ``njit`` then gives Python functions, which cannot run the loops' intrinsics, so
    batches run in the interpreted loop, as with ``set_jit(False)``."""
    import numba

    return bool(getattr(numba.config, "DISABLE_JIT", False))  # (set from the environment)


def _after_fork() -> None:
    """In a forked child (multiprocessing's fork, a preforking server) only the forking thread
    runs: the parent's pool threads do not exist there, and a piece left to that pool would
    wait for ever, so the child's next large batch makes a pool of its own; and a query's
    lock that another thread held (compiling a loop) would never be released, so each is new."""
    global _pool, _pool_workers
    _pool, _pool_workers = None, 0
    for query in _queries:
        query._lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_after_fork)


def set_jit(enabled: bool) -> None:
    """Run batches in compiled loops (``True``, the default) or in the interpreter (``False``,
    also ``SLABLAB_JIT=0``; numba's ``NUMBA_DISABLE_JIT=1`` runs them interpreted as well). Both
    run the same filter: answers never change, only speed."""
    global _jit
    if not isinstance(enabled, (bool, np.bool_)):
        raise ValueError(f"enabled must be True or False, got {enabled!r}")
    _jit = bool(enabled)


def get_jit() -> bool:
    """Whether batches run in compiled loops (see :func:`set_jit`)."""
    return _jit


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

    Each thread takes the next piece not taken yet until none is left, :data:`_PIECES` pieces
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
    pieces = threads * _PIECES
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


class Query:
    """One query: its filter and exact pass, its arguments and outputs (module docstring)."""

    def __init__(self, filter: Callable[..., tuple[Any, ...]], exact: Callable[..., Any],
                 args: Sequence[tuple[str, Kind]], outputs: Sequence[str], *,
                 t32: bool = False, case: Callable[[Sequence[Column]], bool] | None = None,
                 second_pass: bool = False, contract: bool = False) -> None:
        self.filter = filter
        self.exact = exact
        self.names = tuple(name for name, _ in args)
        self.kinds = tuple(kind for _, kind in args)
        self.outputs = tuple(outputs)
        #: whether the filter takes one more argument, ``t32`` (module docstring)
        self.t32 = t32
        #: if not None, the filter takes ``case`` after that (module docstring)
        self.case = case
        #: whether it takes ``first_pass`` after that (module docstring)
        self.second_pass = second_pass
        #: whether its loops may fuse products and sums (module docstring)
        self.contract = contract
        if contract and T in self.outputs:
            raise ValueError("contract=True is for exact answers: a fused t would differ from "
                             "the interpreted filter's")
        self._loops: dict[tuple[tuple[bool, ...], bool | None, bool | None],
                          tuple[Callable[..., int], Callable[..., int] | None]] = {}
        # loops compiled, per dtype
        self._ran: set[tuple[tuple[bool, ...], type, bool | None]] = set()
        self._lock = threading.Lock()
        _queries.add(self)

    # -- the call -------------------------------------------------------------------------------
    def __call__(self, *values: Any, out: Any = None) -> Any:
        if out is None:
            flat: list[float] = []
            all32 = True
            for value, kind in zip(values, self.kinds, strict=True):
                t = type(value)
                if kind.width == 1:
                    if t is float:
                        flat.append(value)
                        continue
                    if t is int and -_EXACT_INT <= value <= _EXACT_INT:
                        flat.append(float(value))
                        continue
                    if t is np.ndarray and value.ndim == 0 and value.dtype.kind == "f" \
                            and value.dtype.itemsize <= 8:
                        all32 = all32 and value.dtype == np.float32
                        flat.append(float(value))
                        continue
                    break
                if t is np.ndarray:
                    if value.shape != ((3,) if kind.item_dims == 1 else (3, 3)):
                        break
                    if value.dtype == np.float64:
                        all32 = False
                    elif value.dtype != np.float32:
                        break
                    flat += value.tolist() if kind.item_dims == 1 else value.ravel().tolist()
                    continue
                if t is tuple or t is list:
                    if kind.item_dims == 1:
                        row = _python_point(value)
                    else:  # axes as three rows of three numbers
                        points = ([p for p in map(_python_point, value) if p is not None]
                                  if len(value) == 3 else [])
                        row = [x for p in points for x in p] if len(points) == 3 else None
                    if row is not None:
                        flat += row
                        all32 = False
                        continue
                break
            else:
                return self._one(flat, values, all32)
        return self._many(values, out)

    def _one(self, flat: list[float], values: tuple[Any, ...], all32: bool) -> Any:
        """One item: the filter on Python floats, the exact pass if it doubts."""
        answer = self.filter(*flat, *self._python_flags(all32))
        if answer[-1]:
            if not self._valid(flat):
                self._raise_invalid(values)
            answer = self.exact(*flat)
            if len(self.outputs) == 1:
                answer = (answer,)
            answer = tuple(_rounded(a, kind, np.float64)
                           for a, kind in zip(answer, self.outputs, strict=True))
        else:
            answer = answer[:-1]
        if all32 and T in self.outputs:
            answer = tuple(float(np.float32(a)) if kind == T else a
                           for a, kind in zip(answer, self.outputs, strict=True))
        return answer[0] if len(self.outputs) == 1 else answer

    def _many(self, values: tuple[Any, ...], out: Any) -> Any:
        arrays = [_as_array(name, value, kind) for name, value, kind
                  in zip(self.names, values, self.kinds, strict=True)]
        lead = _broadcast(self.names, arrays, self.kinds)
        dtype = _compute_dtype(values, arrays, self.kinds)
        if out is None and lead == ():
            flat = [x for a in arrays for x in a.reshape(-1).tolist()]  # Python floats
            return self._one(flat, tuple(arrays), dtype == np.float32)
        m = math.prod(lead)
        outs = self._outputs(lead, dtype, out)
        # an input in an output's memory (t_min given as the t_enter to fill, say) is read
        # after the loop writes there (by the second and the exact pass): such an input is
        # copied first, so that the answer is the one for the values given, as with numpy's
        # own out=
        arrays = [a.copy() if out is not None and any(np.may_share_memory(a, o) for o in outs)
                  else a for a in arrays]
        flat_outs = [o.reshape(-1) for o in outs]
        doubt = np.empty(m, dtype=np.bool_)
        columns: list[Column] = []
        leading = True  # shared arguments before the first per-item one
        for a, kind in zip(arrays, self.kinds, strict=True):
            shared = a.size == kind.width
            leading = leading and shared
            # Shared values are constants of the loop (what depends on them alone is computed
            # once). Each pattern of them is a loop compiled of its own, so only the common ones
            # are: the leading run (one segment, ray or triangle against many boxes), one frame
            # for all oriented boxes, and scalars; other shared points are repeated per item.
            if shared and (leading or kind.width == 1 or kind is AXES):
                columns.append(tuple(float(x) for x in a.reshape(-1)))
            else:
                a = np.broadcast_to(a, lead + a.shape[a.ndim - kind.item_dims:])
                # float32 data stay float32 (the loop widens each value as it reads it)
                a = np.ascontiguousarray(a.reshape(-1)).view()
                a.flags.writeable = False  # one array type for numba, whatever came in
                columns.append(a)
        if m:
            if _jit and not _numba_jit_disabled():
                count = self._run_loop(columns, flat_outs, doubt, dtype)
            else:
                count = _interpreted(self.filter, columns, self.kinds, m, flat_outs, doubt,
                                     self._python_flags(dtype == np.float32))
            if count:
                self._settle(np.flatnonzero(doubt), columns, arrays, flat_outs)
        if out is not None:
            return out
        shaped = [o.reshape(lead) for o in flat_outs]
        return shaped[0] if len(shaped) == 1 else tuple(shaped)

    def _settle(self, idx: np.ndarray, columns: list[Column], arrays: list[np.ndarray],
                outs: list[np.ndarray]) -> None:
        """The doubtful items ``idx``: checked (a bad value raises), then decided exactly."""
        parts = []
        for c, kind in zip(columns, self.kinds, strict=True):
            part = (np.broadcast_to(np.array(c), (len(idx), kind.width)) if isinstance(c, tuple)
                    else c.reshape(-1, kind.width)[idx].astype(np.float64))
            if not _values_ok(part, kind).all():
                self._raise_invalid(tuple(arrays))
            parts.append(part)
        items = np.concatenate(parts, axis=1).tolist()
        answers = [self.exact(*item) for item in items]
        if len(outs) == 1:
            outs[0][idx] = answers
            return
        for k, (o, output) in enumerate(zip(outs, self.outputs, strict=True)):
            column = [a[k] for a in answers]
            if output == T:
                column = [_rounded(x, output, np.float64) for x in column]
            o[idx] = column  # a float64 t is rounded once more into float32 here

    def _outputs(self, lead: tuple[int, ...], dtype: type, out: Any) -> list[np.ndarray]:
        want = [_OUT_DTYPES.get(kind, dtype) for kind in self.outputs]
        if out is None:
            return [np.empty(lead, dtype=d) for d in want]
        outs = [out] if len(self.outputs) == 1 else list(out)
        if len(outs) != len(want):
            raise ValueError(f"out must hold {len(want)} arrays, got {len(outs)}")
        for k, (o, d) in enumerate(zip(outs, want, strict=True)):
            label = "out" if len(want) == 1 else f"out[{k}]"
            if not isinstance(o, np.ndarray) or o.shape != lead or o.dtype != d:
                got = (f"{o.dtype} {o.shape}" if isinstance(o, np.ndarray)
                       else type(o).__name__)
                raise ValueError(f"{label} must be a {np.dtype(d)} array of shape {lead}, "
                                 f"got {got}")
            if not o.flags.c_contiguous or not o.flags.writeable:
                raise ValueError(f"{label} must be C-contiguous and writeable")
        for j, k in itertools.combinations(range(len(outs)), 2):
            if np.may_share_memory(outs[j], outs[k]):
                raise ValueError(f"out[{j}] and out[{k}] overlap: each output needs an array "
                                 "of its own")
        return outs

    def _python_flags(self, t32: bool) -> tuple[bool, ...]:
        """The arguments the filter takes after the items' as Python runs it: ``t32`` if it
        takes that, ``case`` False and ``first_pass`` False if it takes those (module
        docstring)."""
        return (((t32,) if self.t32 else ()) + ((False,) if self.case is not None else ())
                + ((False,) if self.second_pass else ()))

    # -- values ---------------------------------------------------------------------------------
    def _valid(self, flat: list[float]) -> bool:
        """Whether one item's scalars are valid values (run on doubtful items only)."""
        k = 0
        for kind in self.kinds:
            part = flat[k:k + kind.width]
            k += kind.width
            if not all(_value_ok(x, kind) for x in part):
                return False
            if kind is DIRECTION and not any(part):
                return False
            if kind is AXES and axes_doubt(*part):
                return False
        return True

    def _raise_invalid(self, values: tuple[Any, ...]) -> None:
        """Raise the ``ValueError`` for the first bad value, in argument order."""
        for name, value, kind in zip(self.names, values, self.kinds, strict=True):
            a = np.asarray(value, dtype=np.float64)
            ok = _elements_ok(a, kind)
            if not ok.all():
                index = tuple(int(i) for i in np.argwhere(~ok)[0])
                raise ValueError(f"{name} must {_expected(kind)}, got {a[index]} at index {index}")
            if kind is AXES:
                _check_orthonormal(name, a)
            if kind is DIRECTION:
                zero = np.all(a == 0, axis=-1)
                if zero.any():
                    where = "" if zero.ndim == 0 else \
                        f" at index {tuple(int(i) for i in np.argwhere(zero)[0])}"
                    raise ValueError(f"{name} must not be the zero vector{where}: "
                                     "a ray needs a direction")
        raise AssertionError("a doubtful item was invalid, yet every argument is valid")

    # -- compiled loops -------------------------------------------------------------------------
    def _run_loop(self, columns: list[Column], outs: list[np.ndarray], doubt: np.ndarray,
                  dtype: type) -> int:
        """The compiled loop over every item, and its second pass if the filter has one and the
        first doubted any items; returns the number of doubtful items."""
        singles = tuple(isinstance(c, tuple) for c in columns)
        case = None if self.case is None else self.case(columns)
        loop, second = self._loop(singles, dtype == np.float32 if self.t32 else None, case)
        count = self._first_pass(loop, (singles, dtype, case), columns, outs, doubt)
        if count and second is not None:
            count = int(second(*_loop_args(columns), *outs, doubt, np.flatnonzero(doubt)))
        return count

    def _first_pass(self, loop: Callable[..., int],
                    key: tuple[tuple[bool, ...], type, bool | None], columns: list[Column],
                    outs: list[np.ndarray], doubt: np.ndarray) -> int:
        """The loop over every item, in shares on threads where it pays (``key``: the loop's
        pattern, dtype and case, to know its first call)."""
        m = doubt.shape[0]
        if key not in self._ran:  # the first call compiles: run it whole, here
            count = int(loop(*_loop_args(columns), *outs, doubt))
            self._ran.add(key)
            return count

        def run(lo: int, hi: int) -> int:
            return int(loop(*_loop_args(_share(columns, self.kinds, lo, hi)),
                            *[o[lo:hi] for o in outs], doubt[lo:hi]))

        return sum(in_shares(run, m, _PARALLEL_MIN))

    def _loop(self, singles: tuple[bool, ...], t32: bool | None, case: bool | None
              ) -> tuple[Callable[..., int], Callable[..., int] | None]:
        key = (singles, t32, case)
        loop = self._loops.get(key)
        if loop is None:
            with self._lock:
                loop = self._loops.get(key)
                if loop is None:
                    loop = self._loops[key] = _compile(self.filter, self.kinds, singles,
                                                       len(self.outputs), t32, case,
                                                       self.second_pass, self.contract)
        return loop


# --- helpers -------------------------------------------------------------------------------
def _elements_ok(a: np.ndarray, kind: Kind) -> np.ndarray:
    """Per element of ``a``, whether it is a valid value for ``kind`` (:func:`_value_ok`)."""
    ok: np.ndarray
    with np.errstate(invalid="ignore"):
        if kind is BOX_MIN:
            ok = np.isfinite(a) | (a == _INF)
        elif kind is BOX_MAX:
            ok = np.isfinite(a) | (a == -_INF)
        elif kind is T_MIN:
            ok = ~np.isnan(a) & (a != _INF)
        elif kind is T_MAX:
            ok = ~np.isnan(a) & (a != -_INF)
        else:
            ok = np.isfinite(a)
    return ok


def _values_ok(part: np.ndarray, kind: Kind) -> np.ndarray:
    """Per row of ``part`` (k, width), whether its values are valid for ``kind``."""
    rows = np.asarray(_elements_ok(part, kind).all(axis=1))
    if kind is DIRECTION:
        rows &= (part != 0).any(axis=1)
    if kind is AXES:
        with np.errstate(invalid="ignore", over="ignore"):
            rows &= _orthonormal_error(part.reshape(-1, 3, 3)) <= ORTHONORMAL_ATOL
    return rows


def _compute_dtype(values: tuple[Any, ...], arrays: list[np.ndarray],
                   kinds: Sequence[Kind]) -> type:
    """float32 when every array argument is float32 (a Python number t bound does not count)."""
    for value, a, kind in zip(values, arrays, kinds, strict=True):
        if kind.width == 1 and not isinstance(value, (np.ndarray, np.generic)):
            continue
        if a.dtype != np.float32:
            return np.float64
    return np.float32


def _value_ok(x: float, kind: Kind) -> bool:
    if kind is BOX_MIN:
        return math.isfinite(x) or x == _INF
    if kind is BOX_MAX:
        return math.isfinite(x) or x == -_INF
    if kind is T_MIN:
        return x == x and x != _INF
    if kind is T_MAX:
        return x == x and x != -_INF
    return math.isfinite(x)


def _expected(kind: Kind) -> str:
    return {BOX_MIN: "be finite (or +inf, which only makes a box empty)",
            BOX_MAX: "be finite (or -inf, which only makes a box empty)",
            T_MIN: "not be NaN or +inf", T_MAX: "not be NaN or -inf"}.get(kind, "be finite")


def _rounded(value: Any, kind: str, dtype: type) -> Any:
    """An exact answer as the output wants it: t values rounded once (to nearest)."""
    if kind != T:
        return value
    try:
        x = float(value)  # correctly rounded for Fraction and int
    except OverflowError:
        x = _INF if value > 0 else -_INF
    return float(np.float32(x)) if dtype == np.float32 else x


def _python_point(value: Any) -> list[float] | None:
    """A point written as a tuple or list of three Python floats or ints (ints that float64
    holds exactly) as floats; None for anything else (which takes the general path)."""
    if not ((type(value) is tuple or type(value) is list) and len(value) == 3):
        return None
    out = []
    for x in value:
        t = type(x)
        if t is float:
            out.append(x)
        elif t is int and -_EXACT_INT <= x <= _EXACT_INT:
            out.append(float(x))
        else:
            return None
    return out


def as_float_array(name: str, value: Any) -> np.ndarray:
    """``value`` as a float32 or float64 array in the machine's byte order (native float input
    uncopied), refusing integers and extended floats that float64 would round: a ``ValueError``
    naming the argument."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an array of numbers, got {type(value).__name__}: "
                         f"{exc}") from None
    if a.dtype.kind == "f" and a.dtype.itemsize > 8:
        wide = a
        a = a.astype(np.float64)
        if not ((a == wide) | np.isnan(wide) | np.isinf(wide)).all():
            raise ValueError(f"{name} holds values float64 cannot represent exactly "
                             f"({wide.dtype} input); round them to float64 first")
    elif a.dtype.kind in "iuO":
        a = _exact_floats(name, a)
    elif a.dtype.kind == "b" or (a.dtype.kind == "f" and a.dtype.itemsize < 4):
        a = a.astype(np.float64)
    elif a.dtype.kind != "f":
        raise ValueError(f"{name} must be an array of numbers, got dtype {a.dtype}")
    if not a.dtype.isnative:  # big-endian data (from a file, say): the same values, swapped
        a = a.astype(a.dtype.newbyteorder("="))
    return a


def _as_array(name: str, value: Any, kind: Kind) -> np.ndarray:
    """``value`` as a float array of ``kind``'s item shape (:func:`as_float_array`)."""
    a = as_float_array(name, value)
    if kind.item_dims == 1 and (a.ndim == 0 or a.shape[-1] != 3):
        raise ValueError(f"{name} must have shape (3,) or (N, 3), got {a.shape}")
    if kind.item_dims == 2 and (a.ndim < 2 or a.shape[-2:] != (3, 3)):
        raise ValueError(f"{name} must have shape (3, 3) or (N, 3, 3), got {a.shape}")
    return a


def _exact_floats(name: str, a: np.ndarray) -> np.ndarray:
    """Integers (or Python objects: ints, floats, Fractions, Decimals, numpy scalars) as
    float64, refusing any value float64 would round, and anything that is not a number."""
    if a.dtype.kind in "iu" and a.size and np.abs(a.astype(np.float64)).max() < _EXACT_INT:
        return a.astype(np.float64)
    out = np.empty(a.shape, dtype=np.float64)
    for index, v in np.ndenumerate(a):
        if isinstance(v, (str, bytes)) or not isinstance(v, numbers.Number):
            raise ValueError(f"{name} must hold numbers, got {v!r} at index {index}")
        try:
            x = float(v)  # type: ignore[arg-type]  # a complex: TypeError
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"{name} must hold numbers float64 can represent, got {v!r} at "
                             f"index {index}: {exc}") from None
        if not math.isfinite(x) and isinstance(v, Decimal) and v.is_finite():
            raise ValueError(f"{name} holds {v!r} at index {index}, beyond float64")
        if math.isfinite(x) and not _same_value(v, x):
            shown = int(v) if isinstance(v, (int, np.integer)) else repr(v)
            raise ValueError(f"{name} holds {shown} at index {index}, which float64 cannot "
                             "represent exactly; pass it as a float if rounding is intended")
        out[index] = x
    return out


def _same_value(v: Any, x: float) -> bool:
    """Whether the number ``v`` is exactly the float ``x`` (for Fractions and Decimals, by
    their exact values; an infinity or NaN is left to the value checks)."""
    try:
        return Fraction(v) == Fraction(x)
    except (TypeError, ValueError, OverflowError):
        return bool(v == x)  # numbers Fraction does not take compare exactly with a float


def _broadcast(names: Sequence[str], arrays: list[np.ndarray],
               kinds: Sequence[Kind]) -> tuple[int, ...]:
    leads = [a.shape[:a.ndim - k.item_dims] for a, k in zip(arrays, kinds, strict=True)]
    try:
        return tuple(np.broadcast_shapes(*leads))
    except ValueError:
        listed = ", ".join(f"{n} {a.shape}" for n, a in zip(names, arrays, strict=True))
        raise ValueError(f"argument shapes do not broadcast over leading dimensions: "
                         f"{listed}") from None


def _orthonormal_error(axes: np.ndarray) -> np.ndarray:
    """Per 3x3 block, the largest ``|row_i . row_j - delta_ij|`` (NaN for non-finite rows),
    computed as :func:`axes_doubt` computes it (elementwise, no BLAS)."""
    rows = np.moveaxis(axes, (-2, -1), (0, 1))
    error = np.zeros(axes.shape[:-2])
    for i in range(3):
        for j in range(i, 3):
            a, b = rows[i], rows[j]
            dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] - (1.0 if i == j else 0.0)
            error = np.maximum(error, np.abs(dot))
    return error


def _check_orthonormal(name: str, axes: np.ndarray) -> None:
    """Raise unless every 3x3 block of ``axes`` is finite with rows orthonormal within
    ORTHONORMAL_ATOL (the message names the argument and the first bad index)."""
    finite = np.isfinite(axes)
    if not finite.all():
        index = tuple(int(i) for i in np.argwhere(~finite)[0])
        raise ValueError(f"{name} must be finite, got {axes[index]} at index {index}")
    error = _orthonormal_error(axes)
    if np.any(error > ORTHONORMAL_ATOL):
        where = "" if error.ndim == 0 else f" at index {int(np.argmax(error))}"
        raise ValueError(f"{name} must have orthonormal rows (unit box axes) within "
                         f"{ORTHONORMAL_ATOL:g}, got rows off by {float(np.max(error)):.3g}{where}")


def _share(columns: list[Column], kinds: Sequence[Kind], lo: int, hi: int) -> list[Column]:
    """The columns of items ``lo:hi`` (views; shared values as they are)."""
    return [c if isinstance(c, tuple) else c[kind.width * lo:kind.width * hi]
            for c, kind in zip(columns, kinds, strict=True)]


def _loop_args(columns: list[Column]) -> list[Any]:
    args: list[Any] = []
    for c in columns:
        if isinstance(c, tuple):
            args += c
        else:
            args.append(c)
    return args


def _interpreted(filter: Callable[..., tuple[Any, ...]], columns: list[Column],
                 kinds: Sequence[Kind], m: int, outs: list[np.ndarray], doubt: np.ndarray,
                 extra: tuple[bool, ...]) -> int:
    """The filter over every item in CPython, on Python floats (set_jit(False)), with the
    arguments ``extra`` after the items'; returns the number of doubtful items."""
    streams = [itertools.repeat(c, m) if isinstance(c, tuple)
               else c.reshape(-1, k.width).astype(np.float64).tolist()
               for c, k in zip(columns, kinds, strict=True)]
    streams.append(itertools.repeat(extra, m))
    chain = itertools.chain.from_iterable
    results = [filter(*chain(parts)) for parts in zip(*streams, strict=True)]
    for k, o in enumerate(outs):
        o[...] = [r[k] for r in results]  # rounded into the output dtype as numba does
    flags = [r[-1] for r in results]
    doubt[...] = flags
    return sum(flags)


#: Helpers that filters call (``@jitable``), in order of definition, and how many of them numba
#: has been told about so far.
_JITABLES: list[Callable[..., Any]] = []
_registered = 0


def jitable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a helper that filters call: plain Python when called from Python, compiled with the
    filter by numba. It is registered with numba (``register_jitable``) only when the engine
    first compiles a loop, so ``import geometry`` and one-item calls never import numba."""
    _JITABLES.append(fn)
    return fn


@jitable
def axes_doubt(a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
               a20: float, a21: float, a22: float) -> bool:
    """For a filter: True unless the rows ``a0*, a1*, a2*`` are orthonormal within
    ORTHONORMAL_ATOL (so also for any NaN or infinity). The engine's check of a doubtful item
    (:func:`_orthonormal_error`) computes the same dot products in the same order."""
    ok = ((abs(a00 * a00 + a01 * a01 + a02 * a02 - 1.0) <= ORTHONORMAL_ATOL)
          & (abs(a00 * a10 + a01 * a11 + a02 * a12) <= ORTHONORMAL_ATOL)
          & (abs(a00 * a20 + a01 * a21 + a02 * a22) <= ORTHONORMAL_ATOL)
          & (abs(a10 * a10 + a11 * a11 + a12 * a12 - 1.0) <= ORTHONORMAL_ATOL)
          & (abs(a10 * a20 + a11 * a21 + a12 * a22) <= ORTHONORMAL_ATOL)
          & (abs(a20 * a20 + a21 * a21 + a22 * a22 - 1.0) <= ORTHONORMAL_ATOL))
    return not ok


def interpreted() -> bool:
    """For filters: True when run by CPython, a constant False when compiled. A filter may skip,
    for one item, work whose result its selects discard (compiled, that work is straight-line
    code, which vectorises), so both give the same bits."""
    return True


def two_product(a: float, b: float) -> tuple[float, float]:
    """``(p, e)``: ``p = fl(a * b)`` and ``e = fl(a * b - p)``, rounded once, which is exactly
    ``a * b - p`` barring underflow. For filters: compiled, one fused multiply-add; in Python,
    Dekker's product where it is exact (no overflow in its splits, no underflow in its partial
    products) and rational arithmetic elsewhere, so that both give the same bits."""
    p = a * b
    if 2.0**-900 <= abs(p) <= 2.0**990 and abs(a) <= 2.0**990 and abs(b) <= 2.0**990:
        c = 134217729.0 * a  # 2**27 + 1: Veltkamp's split of a and b into 26-bit halves
        ah = c - (c - a)
        al = a - ah
        c = 134217729.0 * b
        bh = c - (c - b)
        bl = b - bh
        return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl
    if p == 0.0 and (a == 0.0 or b == 0.0):
        return p, 0.0
    if math.isfinite(a) and math.isfinite(b):
        if math.isfinite(p):
            return p, float(Fraction(a) * Fraction(b) - Fraction(p))  # rounded as an FMA does
        return p, -p  # a * b overflowed: the exact product minus an infinity
    return p, a * b - p  # a NaN or an infinity in: NaN or infinity out, as an FMA gives


def _register_jitables() -> None:
    global _registered
    from numba.extending import register_jitable

    for fn in _JITABLES[_registered:]:
        register_jitable(forceinline=True, error_model="numpy")(fn)
    if _registered == 0:
        _register_overloads()
    _registered = len(_JITABLES)


def _register_overloads() -> None:
    """The compiled forms of :func:`two_product` (one ``llvm.fma``, a vfmadd where the CPU has
    one) and of :func:`interpreted` (a constant False)."""
    from numba import types
    from numba.extending import intrinsic, overload

    def fma_typing(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.fma(*args)

        return types.float64(types.float64, types.float64, types.float64), codegen

    fma: Any = intrinsic(fma_typing)

    def fused(a: float, b: float) -> tuple[float, float]:
        p = a * b
        return p, fma(a, b, -p)

    def typed(a: float, b: float) -> Callable[[float, float], tuple[float, float]]:
        return fused  # (numba wants the parameters, annotations included, of ``fused``)

    overload(two_product, jit_options={"forceinline": True, "error_model": "numpy"})(typed)

    def constant_false() -> bool:
        return False

    def compiled() -> Callable[[], bool]:
        return constant_false

    overload(interpreted, jit_options={"forceinline": True})(compiled)


def _aligned_frame() -> Any:
    """An intrinsic that gives the function calling it a stack frame aligned to 64 bytes.

    The compiled loops keep more vectors live than there are registers, so LLVM spills some
    (512-bit ones under AVX-512) to the stack; in a frame aligned only to 16 bytes, three in four
    possible frame addresses put a spill slot across two cache lines, and every reload in the
    loop pays for the split. Where the frame landed depended on the caller's stack: segment vs
    AABB over float32 boxes took 2.4 or 4.0 ns a box from one process to the next, and always
    4.0 in a pool thread. An over-aligned ``alloca`` (kept by an empty ``asm`` that takes its
    address) makes LLVM realign the frame in the prologue, and its spill slots are then aligned.
    """
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    def typing(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            with builder.goto_entry_block():
                slot = builder.alloca(ir.IntType(8), size=ir.Constant(ir.IntType(64), 64))
            slot.align = 64
            keep = ir.InlineAsm(ir.FunctionType(ir.VoidType(), [slot.type]), "", "r",
                                side_effect=True)
            builder.call(keep, [slot])
            return context.get_dummy_value()

        return types.void(), codegen

    return intrinsic(typing)


def _compile(filter: Callable[..., tuple[Any, ...]], kinds: Sequence[Kind],
             singles: tuple[bool, ...], n_out: int, t32: bool | None, case: bool | None,
             second_pass: bool, contract: bool
             ) -> tuple[Callable[..., int], Callable[..., int] | None]:
    """A numba loop of ``filter`` over items, for one pattern of shared / per-item arguments
    (and for a filter that takes ``t32`` or ``case``, one value of each, constants LLVM folds),
    with the filter's second pass over the items it doubted if it has one, with products and
    sums fused where ``contract`` (module docstring).

    The source is generated (one parameter per shared scalar, one flat array per per-item
    argument, indexed with its constant width so that LLVM sees interleaved loads; per-item axes
    deinterleaved a block at a time, see below) and compiled with the filter inlined, in a stack
    frame aligned for its vector spills (:func:`_aligned_frame`). Its name
    carries a hash of the filter's source and of the constants it reads: numba's cache would not
    notice a changed callee otherwise.
    """
    import numba

    _register_jitables()
    # Per-item axes are nine values per item: an interleaved group LLVM will not deinterleave
    # (its limit is eight), so it would gather them, eight loads an instruction, at several
    # times the cost of reading them. A loop with per-item axes therefore runs in blocks of
    # items: each block's axes are first deinterleaved by threes, into three rows (in L1) that
    # the filter reads as it reads points. Its indices are unsigned: numba wraps a negative
    # signed index, and LLVM cannot always prove one non-negative; a wrapped index is a select
    # that stops the loop from vectorising.
    blocked = any(kind is AXES and not single
                  for kind, single in zip(kinds, singles, strict=True))
    # With one frame for all boxes, the rotated query, the frame and the error terms built from
    # them are some sixty constants of the loop. A sum in the loop (the count of doubts) makes
    # LLVM interleave it four ways, which spills them: the triangle loop took 18 % longer, the
    # ray loop 8 % (10^6 boxes, one thread). There the count is a second pass over the flags; a
    # loop that holds fewer constants gains from the interleaving (float32 segment vs AABB: 1.9
    # instead of 2.4-2.8 ms at 10^6 boxes).
    count_apart = any(kind is AXES and single
                      for kind, single in zip(kinds, singles, strict=True))
    params, loads, setup, transpose, items = [], [], [], [], []
    for k, (kind, single) in enumerate(zip(kinds, singles, strict=True)):
        if single:
            names = [f"s{k}_{j}" for j in range(kind.width)]
            params += names
            loads += names
            items += names
            continue
        params.append(f"a{k}")
        items += [f"float64(a{k}[{kind.width} * i + {j}])" for j in range(kind.width)]
        if kind is not AXES:
            loads += [f"float64(a{k}[uint64({kind.width}) * i + uint64({j})])" if blocked
                      else f"float64(a{k}[{kind.width} * i + {j}])" for j in range(kind.width)]
            continue
        setup += [f"    t{k}_{c} = np.empty(3 * {_BLOCK})" for c in range(3)]
        transpose.append("        for q in range(uint64(3) * m):")
        transpose += [f"            t{k}_{c}[q] = float64(a{k}[uint64(9) * start + uint64(3) * q "
                      f"+ uint64({c})])" for c in range(3)]
        loads += [f"t{k}_{c}[uint64(3) * j + uint64({row})]" for row in range(3) for c in range(3)]
    for flag in (t32, case):
        if flag is not None:
            loads.append(repr(flag))
            items.append(repr(flag))
    if second_pass:
        loads.append("True")
        items.append("False")
    outs = [f"o{j}" for j in range(n_out)]
    # the sources of the filter and of every helper it may call, and the constants they read
    # (numba freezes them into the machine code)
    # (and of this function and the registration: how the loop is generated and compiled)
    sources = [inspect.getsource(f) for f in (_compile, _register_jitables, _register_overloads,
                                              _aligned_frame)]
    constants: dict[str, Any] = {"_BLOCK": _BLOCK}
    for fn in [filter, *_JITABLES]:
        sources.append(inspect.getsource(fn))
        constants.update({n: fn.__globals__[n] for n in fn.__code__.co_names
                          if isinstance(fn.__globals__.get(n), (int, float))})
    digest = hashlib.sha1(("".join(sources) + repr(sorted(constants.items())))
                          .encode()).hexdigest()[:12]
    pattern = ("".join("s" if s else "a" for s in singles)
               + {None: "", False: "_t64", True: "_t32"}[t32]
               + {None: "", False: "_any", True: "_case"}[case] + ("_fma" if contract else ""))
    module = filter.__module__.rsplit(".", 1)[-1]
    name = f"_loop_{module}_{pattern}_{digest}"
    if blocked:
        head = [*setup,
                f"    for start in range(uint64(0), uint64(n), uint64({_BLOCK})):",
                f"        m = min(uint64({_BLOCK}), uint64(n) - start)",
                *transpose,
                "        for j in range(m):",
                "            i = start + j"]
        indent = "            "
    else:
        head = ["    for i in range(n):"]
        indent = "        "
    body = [f"r = kernel({', '.join(loads)})",
            *[f"{o}[i] = r[{j}]" for j, o in enumerate(outs)],
            f"doubt[i] = r[{n_out}]",
            *([] if count_apart else [f"count += r[{n_out}]"])]
    source = [f"def {name}({', '.join(params + outs)}, doubt):",
              "    aligned_frame()",
              "    count = 0",
              "    n = doubt.shape[0]",
              *head,
              *[indent + line for line in body],
              *(["    for i in range(n):", "        count += doubt[i]"] if count_apart else []),
              "    return count", ""]
    if second_pass:
        # its own function, called from Python: in the loop's function (even as a call, which
        # LLVM inlines), it made the first pass 2-3x slower. It runs over the doubted items'
        # indices: over every item with a branch on its doubt, LLVM vectorised the loop with the
        # filter computed for every item, masked (16 ms for two doubted rays in 10^6 boxes)
        source += [f"def {name}_second({', '.join(params + outs)}, doubt, doubted):",
                   "    count = 0",
                   "    for k in range(doubted.shape[0]):",
                   "        i = doubted[k]",
                   f"        r = kernel({', '.join(items)})",
                   *[f"        {o}[i] = r[{j}]" for j, o in enumerate(outs)],
                   f"        doubt[i] = r[{n_out}]",
                   f"        count += r[{n_out}]",
                   "    return count", ""]
    namespace: dict[str, Any] = {
        "kernel": numba.njit(inline="always", error_model="numpy")(filter),
        "float64": np.float64, "uint64": np.uint64, "np": np, "__name__": __name__,
        "aligned_frame": _aligned_frame()}
    # compiled as if written in this file, so numba's cache can locate and stamp it
    exec(compile("\n".join(source), __file__, "exec"), namespace)

    options: dict[str, Any] = {"nogil": True, "boundscheck": False, "error_model": "numpy"}
    if contract:  # products and sums fused where the query's answers allow it (module docstring)
        options["fastmath"] = {"contract"}

    return (njit_cached(namespace[name], **options),
            njit_cached(namespace[f"{name}_second"], **options) if second_pass else None)


def njit_cached(fn: Callable[..., Any], **options: Any) -> Any:
    """``numba.njit(fn)`` with ``options``, cached next to the package where numba can write
    there, else uncached (a read-only install)."""
    import numba

    try:
        return numba.njit(cache=True, **options)(fn)
    except RuntimeError:  # no writable cache location: no cache
        return numba.njit(**options)(fn)

