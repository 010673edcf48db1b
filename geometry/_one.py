"""One item per call: each query's ``__call__``, written out for its own arguments.

A caller with one item most often holds float64 numpy arrays of one item's shape ((3,) points,
a (3, 3) frame) and Python floats, and the library passes a frustum's constants as one tuple.
:func:`query_class` gives a query a class of its own (once its filter is inlined, for calls
that repeat) whose ``__call__`` takes its arguments by position and tests exactly that case
in one expression (an exact type, the dtype, the shape: no loop over the arguments, no list
built), counts the call (the query's ``_hot`` at its ``hot``-th: its filter compiles for
one item, and ``_python`` becomes that), then runs the filter on their floats; a call with a
float64 array computes in
float64, so none of the float32 rule applies there. Whatever else
comes (tuples, lists, numbers of other types, float32, a doubtful item) goes on as the general
one-item path (:func:`parse`, then the query's ``_one``) or the batched path (``_many``).
Generating the source once per query, as :func:`collections.namedtuple` does, is what writes
each argument's test in place; the answers are the filter's either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._validate import EXACT_INT

__all__ = ["AXES_SHAPE", "POINT_SHAPE", "SCALAR_SHAPE", "parse", "query_class"]

SCALAR_SHAPE, POINT_SHAPE, AXES_SHAPE = (), (3,), (3, 3)  # one item's shapes, compared by identity
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)


def query_class(base: type, shapes: Sequence[tuple[int, ...]], flags: tuple[bool, ...],
                single: bool, hot: int) -> type:
    """A subclass of ``base`` (the engine's ``Query``) whose ``__call__`` takes one argument per
    item shape in ``shapes`` (module docstring); ``flags`` are the filter's arguments after the
    items' for float64 outputs, ``single`` whether it has one output; the ``hot``-th one-item
    call calls the query's ``_hot``."""
    names = [f"a{k}" for k in range(len(shapes))]
    tests, unpack, floats = [], [], []
    for a, shape in zip(names, shapes, strict=True):
        if shape is SCALAR_SHAPE:
            tests.append(f"type({a}) is float")
            floats.append(a)
        elif shape is POINT_SHAPE or shape is AXES_SHAPE:
            tests.append(f"type({a}) is ndarray and {a}.dtype is F64 and {a}.shape == {shape}")
            # unpacked into names, so that the filter is called with its arguments written out
            # (no list built and made a tuple for the call)
            xs = [f"{a}_{j}" for j in range(9 if shape is AXES_SHAPE else 3)]
            unpack.append(f"{', '.join(xs)} = {a}{'.ravel()' if shape is AXES_SHAPE else ''}"
                          ".tolist()")
            floats += xs
        else:  # a frustum's constants, from the library only
            tests.append(f"type({a}) is tuple and len({a}) == {shape[0]}")
            floats.append(f"*{a}")
    args, values = ", ".join(names), "(" + "".join(f"{a}, " for a in names) + ")"
    # a call with a float64 array computes in float64 (without one it takes the general path)
    fast = any(s is POINT_SHAPE or s is AXES_SHAPE for s in shapes)
    source = f"""\
def __call__(self, {args}, *, out=None):
    if out is None:
        if {" and ".join(tests) if fast else "False"}:
            {"; ".join(unpack) or "pass"}
            self._ones += 1
            if self._ones == {hot}:
                self._hot()
            answer = self._python({", ".join(floats + [repr(f) for f in flags])})
            if not answer[-1]:
                return {"answer[0]" if single else "answer[:-1]"}
            return self._exact_one([{", ".join(floats)}], {values}, False)
        parsed = parse({values}, shapes)
        if parsed is not None:
            return self._one(parsed[0], {values}, parsed[1])
    return self._many({values}, out)
"""
    namespace: dict[str, Any] = {"ndarray": np.ndarray, "F64": _F64, "parse": parse,
                                 "shapes": tuple(shapes)}
    exec(compile(source, f"<{base.__module__}.{base.__name__}.__call__>", "exec"), namespace)
    call: Callable[..., Any] = namespace["__call__"]
    call.__qualname__ = f"{base.__name__}.__call__"
    return type(base.__name__, (base,), {"__call__": call, "__module__": base.__module__})


def parse(values: tuple[Any, ...], shapes: Sequence[tuple[int, ...]]
          ) -> tuple[list[float], bool] | None:
    """One item's scalars as Python floats, and whether its outputs are float32 (compute_dtype's
    rule: float32 when every array argument is, worked out here for the types this takes: a
    float32 (3,) / (3, 3) / (W,) array, 0-d array or numpy scalar counts as float32, a tuple or
    list as float64, and a Python number not at all); None for anything else (which takes the
    general path, which answers one item alike, after its checks)."""
    flat: list[float] = []
    all32 = True
    for value, shape in zip(values, shapes, strict=True):
        t = type(value)
        if t is np.ndarray:
            if value.shape != shape:
                return None
            dtype = value.dtype
            if dtype is _F64 or (dtype is not _F32 and dtype == _F64):
                all32 = False
            elif dtype is not _F32 and dtype != _F32:
                return None
            if shape is SCALAR_SHAPE:
                flat.append(value.item())
            else:
                flat += value.tolist() if shape is not AXES_SHAPE else value.ravel().tolist()
        elif t is float:
            if shape is not SCALAR_SHAPE:
                return None
            flat.append(value)
        elif t is tuple or t is list:
            if shape is POINT_SHAPE:
                row = _python_row(value)
            elif shape is AXES_SHAPE:
                row = _python_axes(value)
            elif t is tuple and len(value) == shape[0] > 3:
                flat += value  # a frustum's constants (module docstring)
                continue
            else:
                return None
            if row is None:
                return None
            flat += row
            all32 = False
        else:
            number = _python_number(value) if shape is SCALAR_SHAPE else None
            if number is None:
                return None
            flat.append(number)
            if t is np.float64:
                all32 = False
    return flat, all32


def _python_row(value: Any) -> list[float] | None:
    """A point written as a tuple or list of three Python floats, ints that float64 holds
    exactly, or numpy float64 scalars, as Python floats; None for anything else (which takes
    the general path)."""
    if not ((type(value) is tuple or type(value) is list) and len(value) == 3):
        return None
    x, y, z = value
    if type(x) is float and type(y) is float and type(z) is float:
        return [x, y, z]
    row = [_python_number(v, np.float32) for v in value]
    return None if None in row else row  # type: ignore[return-value]  # (no None left)


def _python_axes(value: Any) -> list[float] | None:
    """A frame written as three rows (tuples or lists, :func:`_python_row`) as its nine
    entries, row-major; None for anything else."""
    if len(value) != 3:
        return None
    a, b, c = (_python_row(r) for r in value)
    return None if a is None or b is None or c is None else a + b + c


def _python_number(value: Any, refused: type | None = None) -> float | None:
    """A Python float, an int that float64 holds exactly, or a numpy float64 or float32 scalar
    (but not one of type ``refused``), as a Python float; None for anything else."""
    t = type(value)
    if t is float:
        return value  # type: ignore[no-any-return]
    if t is int:
        return float(value) if -EXACT_INT <= value <= EXACT_INT else None
    if (t is np.float64 or t is np.float32) and t is not refused:
        return float(value)
    return None
