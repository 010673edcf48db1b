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
  (``AXES`` (..., 3, 3), scalars any shape; a kind of ``width`` W and one item dimension, such
  as ``FRUSTUM_PLANES``, (..., W): a frustum's constants, which only the library passes, as one
  tuple of W Python floats, taken as they are on the one-item path), all broadcast over their
  leading dimensions; ints and extended floats are accepted only where
  float64 holds them exactly. Values are checked by the filter's doubt: a doubtful item is
  checked here, and a bad one raises a ``ValueError`` naming the argument and its index.
  ``AXES`` must be finite and orthonormal: the filter doubts axes that are not
  (:func:`._floats.axes_doubt`), so the check costs no pass of its own.
- **one item** (every argument a single item: tuples, lists, (3,) arrays, Python numbers): each
  query's ``__call__`` is written out for its arguments (:mod:`._one`), the filter runs on
  Python floats (from the 17th call on with its helpers written in,
  :mod:`._inline`: CPython pays for calls that numba inlines), ``_exact`` if it doubts;
  returns a Python scalar (one output) or a tuple of them. Nothing is allocated, numba is not
  imported. A query that has answered ``_COMPILE_AFTER`` items one at a time is hot: its filter
  compiles for one item in a thread (:func:`._loops.compile_one`, through
  :mod:`._background`; from numba's cache in a tenth of a second, else in one to two) while the
  interpreter goes on, and from then on one item runs compiled, a call a few times cheaper, with
  the same bits (the compiled code is the loops', whose parity with the interpreter's is
  tested); ``set_jit(False)`` keeps or puts one item back in the interpreter.
- **many items**: one compiled loop (numba ``njit``, ``cache=True``, ``nogil``; over contiguous
  pieces of the items in up to :func:`._threads.get_num_threads` threads when the batch is large,
  see :func:`._threads.set_num_threads`) runs the same filter (:mod:`._loops`), writing answers and
  doubt flags; then ``_exact`` runs on the doubtful items only. A pattern's first batch of at
  most ``_background.INTERPRETED_FIRST`` items runs interpreted instead while its loop compiles in
  a thread (:mod:`._background`), and so do its small batches until the loop is ready; a larger
  first batch compiles the loop and waits for it. Arguments shared by every item (the
  leading ones, a frame of axes, scalars, a frustum's constants) are constants of the loop (one
  compiled loop per pattern of them), so what depends on them alone is computed once, not per
  item. Filters compute with
  selects and ``&`` / ``|`` rather than branches, and their helpers are inlined (``forceinline``),
  so that LLVM vectorises the loop (one item in Python may still skip work whose result a select
  discards: :func:`._floats.interpreted` is a constant False compiled). ``set_jit(False)`` or
  ``SLABLAB_JIT=0`` runs the very same filter in an interpreted loop instead (bit-identical).
  Returns one (lead,) array per output, or the caller's ``out`` arrays filled in (arrays of their
  own: overlapping ones are a ``ValueError``; an input in an output's memory, such as a ``t_min``
  that receives ``t_enter``, is copied first, as numpy's ``out=`` does).

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
over their indices, each thread's share right after its first pass: in parallel, and on items
still in cache), before the exact pass. One item, and the interpreted loop, run with
``first_pass`` False.

A query made with ``Query(..., contract=True)`` has its loops compiled with LLVM free to fuse a
product and a sum into one fused multiply-add (numba's ``fastmath={"contract"}``, no other
liberty): for filters whose outputs are exact answers (classes, booleans), not floats. A fused
operation rounds once where the two rounded twice, which the error bounds (counted per rounding,
each within u) already allow, so a certified answer stays the exact one; only which items are
doubted may differ from the interpreted filter's, and the exact pass decides those.
"""

from __future__ import annotations

import itertools
import math
import os
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _background
from ._inline import inlined
from ._loops import (
    Column,
    compile_loop,
    compile_one,
    compiler,
    get_jit,
    loop_args,
    numba_jit_disabled,
    on_set_jit,
    run_interpreted,
)
from ._one import AXES_SHAPE, POINT_SHAPE, SCALAR_SHAPE, parse, query_class
from ._threads import PARALLEL_MIN, in_shares
from ._validate import (
    Kind,
    as_float_array,
    broadcast_lead,
    check_argument,
    compute_dtype,
    items_ok,
)

__all__ = ["BOOL", "CLASS", "T", "Query"]


CLASS = "class"  #: output: int8 class codes
BOOL = "bool"  #: output: bool
T = "t"  #: output: a float parameter, float32 when every array argument is float32

_OUT_DTYPES = {CLASS: np.int8, BOOL: np.bool_}
_INF = math.inf
#: One-item calls of a query that run its filter as written, before the one with its helpers
#: written in is made (tens of ms for the largest filters): a process that answers a few items
#: does not pay for it.
_INLINE_AFTER = 16
#: One-item calls of a query after which its filter is compiled for one item, in a thread, and
#: runs compiled from then on (module docstring): a tenth of a second of numba where its cache
#: holds the filter (one to two seconds where it does not), a few microseconds saved a call.
_COMPILE_AFTER = 2000
_queries: weakref.WeakSet[Query] = weakref.WeakSet()  # every Query, for _after_fork


def _after_fork() -> None:
    """In a forked child (multiprocessing's fork, a preforking server) only the forking thread
    runs: a query's lock that another thread held (compiling a loop) would never be released,
    so each is new (the thread pool is made anew too, :mod:`._threads`)."""
    for query in _queries:
        query._lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_after_fork)


def _choose_one_filters() -> None:
    """After ``set_jit``: each query's one item runs its compiled filter, if it has one, only
    while ``get_jit()``."""
    for query in list(_queries):
        query._choose_one()


on_set_jit(_choose_one_filters)


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
        #: the arguments the filter takes after the items' as Python runs it, for float64 and
        #: float32 outputs: ``t32`` if it takes that, ``case`` False and ``first_pass`` False
        #: if it takes those (module docstring)
        self._flags = tuple(((t32_out,) if t32 else ()) + ((False,) if case is not None else ())
                            + ((False,) if second_pass else ()) for t32_out in (False, True))
        self._single = len(self.outputs) == 1
        self._t = T in self.outputs
        #: the filter one item runs once :meth:`python_filter` is made: that, or the filter
        #: compiled for one item (:meth:`_hot`)
        self._python: Callable[..., tuple[Any, ...]] | None = None
        self._inlined: Callable[..., tuple[Any, ...]] | None = None  # :meth:`python_filter`
        self._scalar: Any = None  # :meth:`_compile_one`
        self._ones = 0  # one-item calls so far
        self._loops: dict[tuple[tuple[bool, ...], bool | None, bool | None],
                          tuple[Callable[..., int], Callable[..., int] | None]] = {}
        # loops compiled, per dtype
        self._ran: set[tuple[tuple[bool, ...], type, bool | None]] = set()
        self._lock = threading.Lock()
        _queries.add(self)
        #: per argument, the shape of one item as a numpy array (the one-item path's test)
        self._shapes = [SCALAR_SHAPE if kind.width == 1 else AXES_SHAPE if kind.item_dims == 2
                        else POINT_SHAPE if kind.width == 3 else (kind.width,)
                        for kind in self.kinds]

    # -- the call -------------------------------------------------------------------------------
    def __call__(self, *values: Any, out: Any = None) -> Any:
        """One item (:func:`._one.parse`) or many; once the filter is inlined
        (:meth:`python_filter`), the query's own call takes over (:func:`._one.query_class`)."""
        if out is None:
            parsed = parse(values, self._shapes)
            if parsed is not None:
                return self._one(parsed[0], values, parsed[1])
        return self._many(values, out)

    def _warm(self) -> Callable[..., tuple[Any, ...]]:
        """The filter that one item runs before :meth:`python_filter` is made: the first few
        calls run it as written (module docstring)."""
        return self.filter if self._ones <= _INLINE_AFTER else self.python_filter()

    def _one(self, flat: list[float], values: tuple[Any, ...], all32: bool) -> Any:
        """One item: the filter on Python floats, the exact pass if it doubts."""
        self._ones += 1
        if self._ones == _COMPILE_AFTER:
            self._hot()
        answer = (self._python or self._warm())(*flat, *self._flags[all32])
        if answer[-1]:
            return self._exact_one(flat, values, all32)
        if all32 and self._t:
            answer = tuple(_float32(a) if kind == T else a
                           for a, kind in zip(answer, self.outputs, strict=False))
        return answer[0] if self._single else answer[:len(self.outputs)]

    def _exact_one(self, flat: list[float], values: tuple[Any, ...], all32: bool) -> Any:
        """One item that the filter doubts: checked (a bad value raises), then decided exactly."""
        self._check(values)
        answer = self.exact(*flat)
        if self._single:
            answer = (answer,)
        answer = tuple(_rounded(a, kind, np.float32 if all32 else np.float64)
                       for a, kind in zip(answer, self.outputs, strict=True))
        return answer[0] if self._single else answer

    def python_filter(self) -> Callable[..., tuple[Any, ...]]:
        """The filter as CPython runs it: with its helpers inlined (:func:`._inline.inlined`),
        the same arithmetic, so the same bits; made on first use."""
        if self._inlined is None:
            self._inlined = inlined(self.filter)
            self._choose_one()
            # one item: from now on a class of its own, whose call tests this query's arguments
            # written out and calls the inlined filter (made here, not at import: a process that
            # answers a few items does not pay for it)
            self.__class__ = query_class(Query, self._shapes, self._flags[False], self._single,
                                         _COMPILE_AFTER)
        return self._inlined

    def _hot(self) -> None:
        """One item has run ``_COMPILE_AFTER`` times: its filter compiles for one item in a
        thread (:mod:`._background`; not with ``set_jit(False)`` or numba's JIT disabled), and
        one item runs it from then on."""
        if get_jit() and not numba_jit_disabled():
            _background.compiling(("one", self), lambda: (self._compile_one, None))

    def _compile_one(self) -> None:
        """:meth:`_hot`'s thread: compiles the filter (:func:`._loops.compile_one`) for the
        items' floats and the flags one item passes."""
        self._scalar = compile_one(self.filter, sum(kind.width for kind in self.kinds),
                                   len(self._flags[False]))
        self._choose_one()

    def _choose_one(self) -> None:
        """The filter one item runs, once :meth:`python_filter` is made: the compiled one where
        there is one and ``get_jit()``, else the inlined one (the same bits either way: the
        compiled loops' parity with the interpreter's). A query whose hot calls came while
        ``set_jit(False)`` starts compiling when ``set_jit(True)`` comes (:meth:`_hot`)."""
        if self._scalar is None and self._ones >= _COMPILE_AFTER:
            self._hot()
        if self._inlined is not None:
            self._python = (self._scalar if self._scalar is not None and get_jit()
                            else self._inlined)

    def _many(self, values: tuple[Any, ...], out: Any) -> Any:
        arrays = [_as_array(name, value, kind) for name, value, kind
                  in zip(self.names, values, self.kinds, strict=True)]
        lead = broadcast_lead(*((name, a, kind.item_dims) for name, a, kind
                                in zip(self.names, arrays, self.kinds, strict=True)))
        dtype = compute_dtype(  # the outputs' float dtype, from the arguments as given
            *(a for a, k in zip(arrays, self.kinds, strict=True) if k.width > 1),
            bounds=[(v, a) for v, a, k in zip(values, arrays, self.kinds, strict=True)
                    if k.width == 1])
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
            # for all oriented boxes, scalars and wider constants (a frustum's); other shared
            # points are repeated per item.
            if shared and (leading or kind.width != 3):
                columns.append(tuple(float(x) for x in a.reshape(-1)))
            else:
                a = np.broadcast_to(a, lead + a.shape[a.ndim - kind.item_dims:])
                # float32 data stay float32 (the loop widens each value as it reads it)
                a = np.ascontiguousarray(a.reshape(-1)).view()
                a.flags.writeable = False  # one array type for numba, whatever came in
                columns.append(a)
        if m:
            if get_jit() and not numba_jit_disabled():
                count = self._run_loop(columns, flat_outs, doubt, dtype)
            else:
                count = run_interpreted(self.python_filter(), columns, self.kinds, m,
                                        flat_outs, doubt,
                                        self._flags[dtype == np.float32])
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
            if not items_ok(part, kind).all():
                self._check(tuple(arrays))
                raise AssertionError("a doubtful item was invalid, yet every argument is valid")
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

    # -- values ---------------------------------------------------------------------------------
    def _check(self, values: tuple[Any, ...]) -> None:
        """Raise the ``ValueError`` for the first bad value, in argument order (run when an item
        doubts: the filter doubts every bad value)."""
        for name, value, kind in zip(self.names, values, self.kinds, strict=True):
            check_argument(name, np.asarray(value, dtype=np.float64), kind)

    # -- compiled loops -------------------------------------------------------------------------
    def _run_loop(self, columns: list[Column], outs: list[np.ndarray], doubt: np.ndarray,
                  dtype: type) -> int:
        """The compiled loop over every item, and its second pass if the filter has one and the
        first doubted any items; returns the number of doubtful items. A small batch whose loop
        is not compiled yet runs interpreted while it compiles behind (:mod:`._background`)."""
        singles = tuple(isinstance(c, tuple) for c in columns)
        case = None if self.case is None else self.case(columns)
        loop, second = self._loop(singles, dtype == np.float32 if self.t32 else None, case)
        key = (singles, dtype, case)
        m = doubt.shape[0]
        if key not in self._ran and m <= _background.INTERPRETED_FIRST and _background.compiling(
                (self, key), lambda: compiler(loop, second, [*loop_args(columns), *outs, doubt])):
            # (the filter as written, unless inlined already: inlining it costs the largest
            # filters more than such a batch)
            return run_interpreted(self._inlined or self.filter, columns, self.kinds, m, outs,
                                   doubt, self._flags[dtype == np.float32])
        return self._first_pass(loop, second, key, columns, outs, doubt)

    def _first_pass(self, loop: Callable[..., int], second: Callable[..., int] | None,
                    key: tuple[tuple[bool, ...], type, bool | None], columns: list[Column],
                    outs: list[np.ndarray], doubt: np.ndarray) -> int:
        """The loop over every item, each share's second pass right after it, in shares on
        threads where it pays (``key``: the loop's pattern, dtype and case, to know its first
        call)."""
        whole = loop_args(columns)  # shared values made an array once, for every share

        def run(lo: int, hi: int) -> int:
            args = _share(columns, whole, self.kinds, lo, hi)
            share, flags = [o[lo:hi] for o in outs], doubt[lo:hi]
            count = int(loop(*args, *share, flags))
            if count and second is not None:
                count = int(second(*args, *share, flags, count))
            return count

        m = doubt.shape[0]
        if key not in self._ran:  # the first call compiles: run it whole, here
            count = run(0, m)
            self._ran.add(key)
            return count
        return sum(in_shares(run, m, PARALLEL_MIN))

    def _loop(self, singles: tuple[bool, ...], t32: bool | None, case: bool | None
              ) -> tuple[Callable[..., int], Callable[..., int] | None]:
        key = (singles, t32, case)
        loop = self._loops.get(key)
        if loop is None:
            with self._lock:
                loop = self._loops.get(key)
                if loop is None:
                    loop = self._loops[key] = compile_loop(self.filter, self.kinds, singles,
                                                           len(self.outputs), t32, case,
                                                           self.second_pass, self.contract)
        return loop


# --- helpers -------------------------------------------------------------------------------
def _rounded(value: Any, kind: str, dtype: type) -> Any:
    """An exact answer as the output wants it: t values rounded once (to nearest)."""
    if kind != T:
        return value
    try:
        x = float(value)  # correctly rounded for Fraction and int
    except OverflowError:
        x = _INF if value > 0 else -_INF
    return _float32(x) if dtype == np.float32 else x


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _float32(x: float) -> float:
    """``x`` rounded to float32 as a compiled loop stores it: past float32's range that is
    ``inf``, an answer (the value rounded to nearest), not an overflow to warn of. (numpy's
    error state is entered only there: it costs a one-item call more than the rounding.)"""
    if -_FLOAT32_MAX <= x <= _FLOAT32_MAX:
        return float(np.float32(x))
    with np.errstate(over="ignore"):
        return float(np.float32(x))


def _as_array(name: str, value: Any, kind: Kind) -> np.ndarray:
    """``value`` as a float array of ``kind``'s item shape (:func:`as_float_array`)."""
    a = as_float_array(name, value)
    if kind.item_dims == 1 and (a.ndim == 0 or a.shape[-1] != kind.width):
        raise ValueError(f"{name} must have shape ({kind.width},) or (N, {kind.width}), "
                         f"got {a.shape}")
    if kind.item_dims == 2 and (a.ndim < 2 or a.shape[-2:] != (3, 3)):
        raise ValueError(f"{name} must have shape (3, 3) or (N, 3, 3), got {a.shape}")
    return a


def _share(columns: list[Column], args: list[Any], kinds: Sequence[Kind], lo: int, hi: int
           ) -> list[Any]:
    """The loop's arguments ``args`` (:func:`loop_args` of ``columns``) for items ``lo:hi``:
    views of the per-item arrays, shared values as they are."""
    return [a if isinstance(c, tuple) else a[kind.width * lo:kind.width * hi]
            for c, a, kind in zip(columns, args, kinds, strict=True)]


