"""The loops that run a filter over many items: numba code generated per query, or CPython.

:func:`compile_loop` writes, for one query and one pattern of shared / per-item arguments, the
source of a loop that calls the filter once per item, and compiles it with numba (the filter and
the helpers it calls, :mod:`._floats`, inlined). :func:`run_interpreted` runs the very same
filter in CPython instead (``set_jit(False)``, ``SLABLAB_JIT=0``), bit for bit the same.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import os
from collections.abc import Callable, Sequence
from typing import Any, Union

import numpy as np

from . import _floats, _specialize
from ._floats import interpreted, two_product
from ._specialize import specialized
from ._validate import AXES, Kind

__all__ = ["Column", "compile_loop", "compile_one", "compiler", "get_jit", "loop_args",
           "njit_cached", "numba_jit_disabled", "on_set_jit", "register_jitables",
           "run_interpreted", "set_jit"]


#: A per-item argument as the loops take it: Python floats shared by every item, or a flat
#: read-only array of ``width`` values per item.
Column = Union[tuple[float, ...], np.ndarray]  # noqa: UP007 - a runtime alias


# --- switches ------------------------------------------------------------------------------
_jit = os.environ.get("SLABLAB_JIT", "1").strip().lower() not in ("0", "false", "no", "off")

#: Items per block where a loop deinterleaves per-item axes first (:func:`compile_loop`).
_BLOCK = 64

#: Called after each :func:`set_jit` (the engine's queries choose their one-item filter again).
_set_jit_hooks: list[Callable[[], None]] = []


def numba_jit_disabled() -> bool:
    """Whether numba is told not to compile (``NUMBA_DISABLE_JIT=1``, as when debugging numba
    code): its ``njit`` then gives Python functions, which cannot run the loops' intrinsics, so
    batches run in the interpreted loop, as with ``set_jit(False)``."""
    import numba

    return bool(getattr(numba.config, "DISABLE_JIT", False))  # (set from the environment)


def set_jit(enabled: bool) -> None:
    """Run batches in compiled loops (``True``, the default) or in the interpreter (``False``,
    also ``SLABLAB_JIT=0``; numba's ``NUMBA_DISABLE_JIT=1`` runs them interpreted as well), and
    ``BoxTree``'s build and walks likewise, and the one-item calls of a query hot enough to
    have its filter compiled for one item (``_engine``). Both run the same functions: answers
    never change, only speed."""
    global _jit
    if not isinstance(enabled, (bool, np.bool_)):
        raise ValueError(f"enabled must be True or False, got {enabled!r}")
    _jit = bool(enabled)
    for hook in _set_jit_hooks:
        hook()


def on_set_jit(hook: Callable[[], None]) -> None:
    """Call ``hook`` after every :func:`set_jit` from now on."""
    _set_jit_hooks.append(hook)


def get_jit() -> bool:
    """Whether batches run in compiled loops (see :func:`set_jit`)."""
    return _jit


def loop_args(columns: list[Column]) -> list[Any]:
    """The arguments a compiled loop takes for ``columns``: each per-item array as it is, each
    run of shared scalars as one float64 array (the loop reads them into locals on entry: one
    argument for numba to unbox where a frustum's were 141, while the caller holds the GIL)."""
    return [np.array(c, np.float64) if isinstance(c, tuple) else c for c in columns]


def run_interpreted(filter: Callable[..., tuple[Any, ...]], columns: list[Column],
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
    with np.errstate(over="ignore"):  # past float32's range rounds to inf, as numba stores it
        for k, o in enumerate(outs):
            o[...] = [r[k] for r in results]  # rounded into the output dtype as numba does
    flags = [r[-1] for r in results]
    doubt[...] = flags
    return sum(flags)


_registered = 0


def register_jitables() -> None:
    """Register with numba the helpers that filters call, those defined since the last call."""
    global _registered
    for fn in _floats.JITABLES[_registered:]:
        _floats.register_helper(fn, fn)
    if _registered == 0:
        _register_overloads()
    _registered = len(_floats.JITABLES)


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
    loop pays for the split. Where the frame lands depends on the caller's stack, so the same
    loop ran at two speeds from one process to the next, and always at the slower one in a pool
    thread. An over-aligned ``alloca`` (kept by an empty ``asm`` that takes its address) makes
    LLVM realign the frame in the prologue, and its spill slots are then aligned.
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


def _wide_vectors() -> Any:
    """An intrinsic that lets LLVM vectorise the function calling it with 512-bit vectors
    (its ``"prefer-vector-width"="512"`` attribute) where the CPU has AVX-512.

    LLVM's tuning for those CPUs prefers 256-bit vectors (early ones lowered their clock for
    512-bit work), which runs these loops four items a vector; their filters do enough
    arithmetic per item that eight a vector pays for any lower clock. Each lane computes what
    the scalar filter computes, so answers and doubts are the same at either width; a CPU
    without AVX-512 keeps its own widest vectors.
    """
    from numba import types
    from numba.extending import intrinsic

    def typing(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            # a string attribute, which llvmlite's checked ``add`` does not know: the set's own
            set.add(builder.function.attributes, '"prefer-vector-width"="512"')
            return context.get_dummy_value()

        return types.void(), codegen

    return intrinsic(typing)


def _digest(filter: Callable[..., Any]) -> str:
    """A hash of what a loop of ``filter`` is compiled from: the source files of the filter, of
    every helper it may call and of this module (how the loop is generated and compiled), and
    the numeric constants they read (numba freezes them into the machine code). numba's cache
    checks only the file a function is written in (here, this one), so without it a changed
    filter or helper would run stale code. Whole files are read, not the functions' own source:
    ``inspect.getsource`` tokenises each file, which costs a fresh process more than loading
    the cached loop."""
    h = hashlib.sha1()
    constants: dict[str, Any] = {"_BLOCK": _BLOCK}
    files = {__file__, _specialize.__file__}
    for fn in [filter, *_floats.JITABLES]:
        files.add(fn.__code__.co_filename)
        constants.update({n: fn.__globals__[n] for n in fn.__code__.co_names
                          if isinstance(fn.__globals__.get(n), (int, float))})
    for path in sorted(files):
        with open(path, "rb") as f:
            h.update(f.read())
    h.update(repr(sorted(constants.items())).encode())
    return h.hexdigest()[:12]


def compile_loop(filter: Callable[..., tuple[Any, ...]], kinds: Sequence[Kind],
                 singles: tuple[bool, ...], n_out: int, t32: bool | None, case: bool | None,
                 second_pass: bool, contract: bool
                 ) -> tuple[Callable[..., int], Callable[..., int] | None]:
    """A numba loop of ``filter`` over items, for one pattern of shared / per-item arguments
    (and for a filter that takes ``t32`` or ``case``, one value of each, constants LLVM folds),
    with the filter's second pass over the items it doubted if it has one, with products and
    sums fused where ``contract`` (:mod:`._engine`'s docstring).

    The source is generated (one parameter per shared scalar, one flat array per per-item
    argument, indexed with its constant width so that LLVM sees interleaved loads; per-item axes
    deinterleaved a block at a time, see below) and compiled with the filter inlined (the
    branches its flags decide left out first, :mod:`._specialize`), in a stack
    frame aligned for its vector spills (:func:`_aligned_frame`), with 512-bit vectors where
    the CPU has them (:func:`_wide_vectors`). Its name carries :func:`_digest`, so that
    numba's cache notices a changed filter or helper.
    """
    import numba

    register_jitables()
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
    # LLVM interleave it four ways, which spills them and slows the loop. There the count is a
    # second pass over the flags; a loop that holds fewer constants gains from the
    # interleaving, so it counts as it goes.
    count_apart = any(kind is AXES and single
                      for kind, single in zip(kinds, singles, strict=True))
    params, loads, setup, transpose, items, unpack = [], [], [], [], [], []
    for k, (kind, single) in enumerate(zip(kinds, singles, strict=True)):
        if single:
            names = [f"s{k}_{j}" for j in range(kind.width)]
            params.append(f"s{k}")
            unpack += [f"    {n} = s{k}[{j}]" for j, n in enumerate(names)]
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
    digest = _digest(filter)
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
              "    wide_vectors()",
              *unpack,
              "    count = 0",
              "    n = doubt.shape[0]",
              *head,
              *[indent + line for line in body],
              *(["    for i in range(n):", "        count += doubt[i]"] if count_apart else []),
              "    return count", ""]
    if second_pass:
        # its own function, called from Python: in the loop's function (even as a call, which
        # LLVM inlines), it slows the first pass (its code competes for registers). It runs over
        # the doubted items' indices: over every item with a branch on its doubt, LLVM would
        # vectorise the loop with the filter computed for every item, masked, however few doubt.
        # It finds them itself, eight flags a word (numpy's flatnonzero would hold the GIL, and
        # every thread's share waits for it), given their number from the first pass
        source += [f"def {name}_second({', '.join(params + outs)}, doubt, doubts):",
                   *unpack,
                   "    n = doubt.shape[0]",
                   "    n8 = n - n % 8",
                   "    words = doubt[:n8].view(np.uint64)",
                   "    doubted = np.empty(doubts, np.int64)",
                   "    k = 0",
                   "    for w in range(n8 // 8):",
                   "        if words[w] != 0:",
                   "            for i in range(8 * w, 8 * w + 8):",
                   "                if doubt[i]:",
                   "                    doubted[k] = i",
                   "                    k += 1",
                   "    for i in range(n8, n):",
                   "        if doubt[i]:",
                   "            doubted[k] = i",
                   "            k += 1",
                   "    count = 0",
                   "    for k in range(doubted.shape[0]):",
                   "        i = doubted[k]",
                   f"        r = kernel_second({', '.join(items)})",
                   *[f"        {o}[i] = r[{j}]" for j, o in enumerate(outs)],
                   f"        doubt[i] = r[{n_out}]",
                   f"        count += r[{n_out}]",
                   "    return count", ""]
    # the flags the loops pass their filter, by name, so that what they decide is left out
    # before numba types the filter (:mod:`._specialize`)
    names = list(inspect.signature(filter).parameters)
    values = [flag for flag in (t32, case) if flag is not None] + [True] * second_pass
    first = dict(zip(names[len(names) - len(values):], values, strict=True))
    # CPython passes a call of 30 arguments or more as one tuple (CALL_FUNCTION_EX), which
    # numba's own inliner refuses: such a filter (box vs frustum) is inlined by LLVM instead
    # (``forceinline``, LLVM's alwaysinline)
    inline: dict[str, Any] = ({"inline": "always"} if len(loads) < 30
                              else {"forceinline": True})
    namespace: dict[str, Any] = {
        "kernel": numba.njit(error_model="numpy", **inline)(specialized(filter, first)),
        "float64": np.float64, "uint64": np.uint64, "np": np, "__name__": __name__,
        "aligned_frame": _aligned_frame(), "wide_vectors": _wide_vectors()}
    if second_pass:  # the same flags, first_pass (the last) False
        namespace["kernel_second"] = numba.njit(error_model="numpy", **inline)(
            specialized(filter, {**first, names[-1]: False}))
    # compiled as if written in this file, so numba's cache can locate and stamp it
    exec(compile("\n".join(source), __file__, "exec"), namespace)

    options: dict[str, Any] = {"nogil": True, "boundscheck": False, "error_model": "numpy"}
    if contract:  # products and sums fused where the query's answers allow it (``_engine``)
        options["fastmath"] = {"contract"}

    return (njit_cached(namespace[name], **options),
            njit_cached(namespace[f"{name}_second"], **options) if second_pass else None)


def compile_one(filter: Callable[..., tuple[Any, ...]], n_items: int, n_flags: int) -> Any:
    """``filter`` compiled for one item called from CPython: a numba function of its
    ``n_items`` floats and ``n_flags`` flags (``t32``, ``case``, ``first_pass`` where it takes
    them, as the interpreter passes them: arguments, not constants), compiled for Python floats
    and bools and for nothing else (no second compilation behind a call of other types: those
    raise ``TypeError``). Its name carries :func:`_digest` as a loop's does, so that numba's
    cache notices a changed filter or helper. Compiled code takes the branches that
    :func:`._floats.interpreted` leaves to it, as the loops do, with the same bits."""
    import numba
    from numba import types

    register_jitables()
    params = ", ".join(f"x{j}" for j in range(n_items + n_flags))
    name = f"_one_{filter.__module__.rsplit('.', 1)[-1]}_{_digest(filter)}"
    namespace: dict[str, Any] = {"kernel": numba.njit(error_model="numpy")(filter),
                                 "__name__": __name__}
    # compiled as if written in this file, so numba's cache can locate and stamp it
    exec(compile(f"def {name}({params}):\n    return kernel({params})\n", __file__, "exec"),
         namespace)
    one = njit_cached(namespace[name], error_model="numpy")
    one.compile((types.float64,) * n_items + (types.boolean,) * n_flags)
    one.disable_compile()
    return one


def compiler(loop: Callable[..., int], second: Callable[..., int] | None, args: Sequence[Any]
             ) -> tuple[Callable[[], None], Callable[[], None] | None]:
    """Calls that compile ``loop`` and ``second`` (what :func:`compile_loop` gives; None where
    there is no second pass) for the types of ``args`` (numba's ``typeof`` of each, worked out
    here), as their first calls with them would (the second pass's with the number of doubts
    after them), without running them (:mod:`._background`)."""
    import numba

    types = tuple(numba.typeof(a) for a in args)  # type: ignore[no-untyped-call]
    count = numba.typeof(0)  # type: ignore[no-untyped-call]
    first: Any = loop
    then: Any = second
    return ((lambda: first.compile(types)),
            None if then is None else (lambda: then.compile((*types, count))))


def njit_cached(fn: Callable[..., Any], **options: Any) -> Any:
    """``numba.njit(fn)`` with ``options``, cached next to the package where numba can write
    there, else uncached (a read-only install)."""
    import numba

    try:
        return numba.njit(cache=True, **options)(fn)
    except RuntimeError:  # no writable cache location: no cache
        return numba.njit(**options)(fn)
