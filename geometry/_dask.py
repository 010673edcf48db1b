"""dask arrays through the batched per-box functions: lazily, one task per chunk of boxes.

Each public batched function carries the :func:`dask_aware` decorator. A call without a dask
array argument goes straight to the function (a dictionary look-up when dask was never
imported). A call with one returns dask arrays at once, computing nothing: the boxes (and
every per-item argument) are split along their first axis at the chunks of the first dask
argument, and each chunk is one task that runs the function on numpy blocks, so 10^9 boxes
on disk or on a cluster take the same call as 10^6 in memory. Arguments that describe one item
(a (3,) point, a scalar ``t_min``) go to every task whole.

Shapes and dtypes are checked when the call is made (the function runs once on zero-length
blocks, so its messages are the usual ones); values are checked chunk by chunk when the result
is computed, where a bad coordinate raises the function's ``ValueError`` (its index counted
within the chunk).
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

__all__ = ["dask_aware"]

F = TypeVar("F", bound=Callable[..., Any])

#: Dimensions of one item of an argument, where it is not a point (1).
_ITEM_NDIM = {"axes": 2, "box_axes": 2, "t_min": 0, "t_max": 0, "offset": 0, "radius": 0}


def dask_aware(func: F) -> F:
    """Let ``func`` take dask arrays (chunked along their first axis) and return dask arrays.

    The wrapper is written with ``func``'s own parameters (positional-or-keyword, then
    keyword-only, defaults the same objects), so that a call without dask passes its arguments
    on as they came, with no tuple or dict packed and unpacked on the way."""
    params = list(inspect.signature(func).parameters.values())
    if any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        raise TypeError(f"{func.__name__}: dask_aware takes named parameters only")
    names = [p.name for p in params]
    written = [p.name if p.default is p.empty else f"{p.name}=_default_{p.name}" for p in params]
    keyword = [p.kind is p.KEYWORD_ONLY for p in params]
    if any(keyword):  # (a signature lists the keyword-only parameters last)
        written.insert(keyword.index(True), "*")
    passed = [p.name if p.kind is p.POSITIONAL_OR_KEYWORD else f"{p.name}={p.name}"
              for p in params]
    # a dask array can exist only once dask was imported; the tasks call the wrapper (the
    # public function, picklable by reference for workers)
    source = (f"def call({', '.join(written)}):\n"
              f"    if 'dask' in sys.modules and _any_dask(({''.join(n + ', ' for n in names)})):\n"
              f"        return _lazy(call, {{{', '.join(f'{n!r}: {n}' for n in names)}}})\n"
              f"    return func({', '.join(passed)})\n")
    namespace: dict[str, Any] = {"sys": sys, "func": func, "_any_dask": _any_dask,
                                 "_lazy": _lazy}
    namespace.update({f"_default_{p.name}": p.default for p in params
                      if p.default is not p.empty})
    exec(compile(source, f"<dask_aware {func.__module__}.{func.__name__}>", "exec"), namespace)
    call: F = namespace["call"]
    functools.update_wrapper(call, func)
    return call


def _any_dask(values: tuple[Any, ...]) -> bool:
    import dask.array as da

    return any(isinstance(a, da.Array) for a in values)


def _lazy(func: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    import dask.array as da
    from dask.base import tokenize

    if arguments.get("out") is not None:
        raise ValueError(f"{func.__name__}: out= takes numpy arrays, and with a dask argument "
                         "the result is a dask array: leave out out= and write the result where "
                         "it should go with dask.array.store")
    lead = next(a for a in arguments.values() if isinstance(a, da.Array))
    if lead.ndim == 0:
        raise ValueError(f"{func.__name__}: a dask argument must be split along the items "
                         f"(first axis), got a 0-d array")
    chunks = lead.chunks[0]
    n = lead.shape[0]
    split: dict[str, Any] = {}  # name -> dask array chunked like `lead` along axis 0
    whole: dict[str, Any] = {}
    for name, value in arguments.items():
        item_ndim = _ITEM_NDIM.get(name, 1)
        is_dask = isinstance(value, da.Array)
        ndim = value.ndim if is_dask else np.ndim(value)
        if ndim <= item_ndim and not is_dask:
            whole[name] = value
            continue
        if ndim != item_ndim + 1:
            raise ValueError(f"{name} must have one item per row (shape (N, ...) with "
                             f"{item_ndim + 1} dimensions) when dask arrays are given, got "
                             f"shape {np.shape(value)}")
        if value.shape[0] != n:
            raise ValueError(f"{name} has {value.shape[0]} items but the dask argument has "
                             f"{n}: shapes do not broadcast")
        # (dask is typed only where it is installed: the ignore is unused without it)
        array = value if is_dask else da.from_array(  # type: ignore[no-untyped-call, unused-ignore]
            np.asarray(value), chunks=-1)
        split[name] = array.rechunk((chunks,) + tuple(-1 for _ in range(array.ndim - 1)))
    # The function on zero-length blocks: its shape / dtype checks and the result's type.
    meta = func(**whole, **{name: _empty(a) for name, a in split.items()})
    fields = getattr(meta, "_fields", None)  # a NamedTuple of arrays (RayHit)
    if fields is None:
        out_dtype = np.asarray(meta).dtype
    else:
        out_dtype = np.dtype([(f, np.asarray(v).dtype) for f, v in zip(fields, meta, strict=True)])
    names = list(split)
    pairs: list[Any] = []
    for name in names:
        array = split[name]
        pairs += [array, "i" + "jkl"[:array.ndim - 1]]
    task = functools.partial(_run_chunk, func, names, whole, fields, out_dtype)
    packed = da.blockwise(  # type: ignore[no-untyped-call, unused-ignore]
        task, "i", *pairs, dtype=out_dtype, concatenate=True, meta=np.empty((0,), out_dtype),
        name=f"{func.__name__}-" + tokenize(func, *pairs, whole))
    if fields is None:
        return packed
    return type(meta)(*(packed.map_blocks(_field, f, dtype=out_dtype[f]) for f in fields))


def _empty(array: Any) -> np.ndarray:
    return np.empty((0,) + tuple(array.shape[1:]), array.dtype)


def _run_chunk(func: Callable[..., Any], names: list[str], whole: dict[str, Any],
               fields: tuple[str, ...] | None, out_dtype: np.dtype, *blocks: np.ndarray
               ) -> np.ndarray:
    """One task: ``func`` on one chunk; a NamedTuple of arrays is packed into one record array
    (one output per task; the fields are taken apart by cheap tasks after it)."""
    result = func(**whole, **dict(zip(names, blocks, strict=True)))
    if fields is None:
        return np.asarray(result)
    packed = np.empty(len(result[0]), out_dtype)
    for f, v in zip(fields, result, strict=True):
        packed[f] = v
    return packed


def _field(block: np.ndarray, name: str) -> np.ndarray:
    return block[name]
