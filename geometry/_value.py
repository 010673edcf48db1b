"""The one immutable-value scheme of ``AABB``, ``OBB``, ``Segment``, ``Ray`` and ``Triangle``.

A value holds validated float arrays, each a private read-only copy, under ``_<field>``
slots; it cannot be changed after construction (methods return new values), compares and hashes
by its fields' values, prints as its constructor call, pickles as that call (for processes and
dask workers), and is its own copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Value"]


class Value:
    """Base of the value types: ``_fields`` names the constructor's arguments, in order."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _freeze(self, **fields: Any) -> None:
        """Store each field as a private read-only copy (the caller's array is not touched)."""
        for name, value in fields.items():
            arr = np.array(value)
            arr.flags.writeable = False
            object.__setattr__(self, "_" + name, arr)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; its methods return new values")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type, tuple[np.ndarray, ...]]:
        return type(self), self._values()  # rebuilt (and checked) by the constructor

    def __copy__(self) -> Value:
        return self  # immutable: a copy is the value itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Value:
        return self

    def _values(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, "_" + f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            np.array_equal(a, b) for a, b in zip(self._values(), other._values(), strict=True)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + tuple(v.tobytes() for v in self._values()))

    def __repr__(self) -> str:
        args = ", ".join(
            f"{f}={v.tolist()}" for f, v in zip(self._fields, self._values(), strict=True)
        )
        return f"{type(self).__name__}({args})"
