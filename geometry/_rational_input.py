"""Exact inputs for the explain functions: arguments read as rationals, checked as the queries
check them, and exact values rounded back to floats for drawing.

The explain modules (``explain.py``, ``explain_boxes.py``) compute in ``fractions.Fraction`` on
the exact values of the floats given, so their verdicts are the library's exact answers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ._validate import BOX_MAX, BOX_MIN, POINT, Kind, check_elements, check_orthonormal

__all__ = ["Exact", "Nums", "Vec3", "cross", "dot", "exact_box", "exact_frame", "exact_or_none",
           "exact_vec", "nearest_float", "nearest_floats", "to_frame"]

#: an exact value: a Fraction, or a float only for +-inf (an empty box's bounds, unbounded t)
Exact = Fraction | float
Nums = list[Exact]
Vec3 = tuple[Exact, Exact, Exact]


def _exact_number(name: str, x: object) -> Fraction | float:
    """``x`` exactly: a Fraction, or the float itself for NaN and the infinities (which the
    callers' checks refuse or accept)."""
    if isinstance(x, (bool, np.bool_)):
        raise ValueError(f"{name} must hold numbers, got a bool")
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, np.floating) and np.finfo(x.dtype).bits > 64:
        if np.float64(x) != x:
            raise ValueError(f"{name} holds {x!r}, which float64 cannot represent exactly")
    try:
        value = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold numbers, got {x!r}") from None
    return value if not math.isfinite(value) else Fraction(value)


def exact_vec(name: str, value: ArrayLike, kind: Kind = POINT) -> Nums:
    """A (3,) argument's exact values, checked as the queries check an argument of ``kind``."""
    arr = np.asarray(value)
    if arr.shape != (3,):
        raise ValueError(f"{name} must have shape (3,), got {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be an array of numbers, got dtype {arr.dtype}")
    # tolist() gives exact Python ints / floats up to float64; wider floats stay numpy scalars
    items = arr.tolist() if arr.dtype.itemsize <= 8 else list(arr)
    exact = [_exact_number(name, c) for c in items]
    # only the floats left as they are can be bad: NaN or an infinity
    check_elements(name, np.array([x if isinstance(x, float) else 0.0 for x in exact]), kind)
    return exact


def exact_box(box_min: ArrayLike, box_max: ArrayLike, min_name: str = "box_min",
              max_name: str = "box_max") -> tuple[Nums, Nums]:
    """Exact bounds; +inf in min / -inf in max only as the empty-box marker (ValueError else)."""
    return exact_vec(min_name, box_min, BOX_MIN), exact_vec(max_name, box_max, BOX_MAX)


def exact_frame(center: ArrayLike, axes: ArrayLike, half_size: ArrayLike,
                prefix: str = "") -> tuple[Nums, list[Nums], Nums]:
    """An OBB's exact centre, axis rows and half sizes; the names carry ``prefix``
    (``"box_"``) in the errors."""
    c = exact_vec(f"{prefix}center", center)
    rows = np.asarray(axes)
    if rows.shape != (3, 3):
        raise ValueError(f"{prefix}axes must have shape (3, 3), got {rows.shape}")
    a = [exact_vec(f"{prefix}axes[{i}]", rows[i]) for i in range(3)]
    check_orthonormal(f"{prefix}axes", np.array([nearest_floats(row) for row in a]))
    h = exact_vec(f"{prefix}half_size", half_size)
    return c, a, h


def to_frame(p: Nums, center: Nums, axes: list[Nums]) -> Nums:
    """``axes @ (p - center)`` exactly."""
    rel = [x - y for x, y in zip(p, center, strict=True)]
    return [sum((r * x for r, x in zip(row, rel, strict=True)), Fraction(0)) for row in axes]


def nearest_float(q: Fraction | float) -> float:
    """``q`` rounded to the nearest float (+-inf beyond the float range; infinities stay)."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def exact_or_none(q: Fraction | float) -> Fraction | None:
    """``q`` if it is a Fraction, None for an infinity."""
    return q if isinstance(q, Fraction) else None


def nearest_floats(v: Sequence[Fraction | float]) -> np.ndarray:
    """A (3,) float64 array of the values rounded to nearest."""
    return np.array([nearest_float(x) for x in v], dtype=np.float64)


def cross(a: Sequence[Exact], b: Sequence[Exact]) -> Vec3:
    """``a x b`` exactly."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a: Sequence[Exact], b: Sequence[Exact]) -> Exact:
    """``a . b`` exactly."""
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))
