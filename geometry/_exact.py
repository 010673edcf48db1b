"""Exact arithmetic on the floats' exact values, for the items a float filter doubts.

``scaled`` turns floats into integers on one power-of-two scale (sums, differences and
products of them are exact); ``rational`` and ``to_frame_rational`` give exact
``fractions.Fraction`` values (``OBB.contains``), and ``to_float`` rounds an exact value back
(the value methods that compute a point or a bound exactly, where floats would overflow or round
a bound inwards).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["clip_to_slab", "rational", "scaled", "to_float", "to_frame_rational"]

#: A parameter t as an exact ratio ``(numerator, denominator)``, the denominator positive.
Ratio = tuple[int, int]


def scaled(*xs: float) -> tuple[int, list[int]]:
    """``(unit, values)``: finite floats as integers on one scale, ``x == value / unit`` exactly.

    ``unit`` is the largest denominator among the floats' exact ratios (a power of two), so
    integer data stay small integers; sums, differences and products of the values are exact,
    and the common scale cancels in every ratio compared.
    """
    ratios = [x.as_integer_ratio() for x in xs]
    top = max(d for _, d in ratios).bit_length()
    return 1 << (top - 1), [n << (top - d.bit_length()) for n, d in ratios]


def rational(x: float | Fraction | np.floating[Any]) -> Fraction:
    """The exact value of a float (or a Fraction, unchanged)."""
    return x if isinstance(x, Fraction) else Fraction(float(x))


def to_frame_rational(point: np.ndarray, center: np.ndarray | None,
                      axes: np.ndarray) -> list[Fraction]:
    """``axes @ (point - center)`` exactly (``center=None``: a direction)."""
    rel = [rational(point[k]) - (Fraction(0) if center is None else rational(center[k]))
           for k in range(3)]
    return [sum((rational(axes[i][k]) * rel[k] for k in range(3)), Fraction(0))
            for i in range(3)]


def to_float(x: Fraction | int, toward: int = 0, den: int = 1) -> float:
    """``x / den`` (a Fraction or an int, over a non-zero int) as a float64: rounded to
    nearest (``toward=0``), down (``-1``) or up (``1``); ``-inf`` / ``inf`` where that rounding
    leaves the finite floats."""
    num, den = x.numerator * (1 if den > 0 else -1), x.denominator * abs(den)
    try:
        f = num / den  # correctly rounded (an integer division)
    except OverflowError:
        return math.inf if num > 0 else -math.inf
    if toward:
        p, q = f.as_integer_ratio()
        above = p * den - num * q  # the sign of f - x
        if toward < 0 and above > 0:
            return math.nextafter(f, -math.inf)
        if toward > 0 and above < 0:
            return math.nextafter(f, math.inf)
    return f


def clip_to_slab(near: int, far: int, d: int, enter: Ratio | None,
                 leave: Ratio | None) -> tuple[Ratio, Ratio]:
    """``[enter, leave]`` (None: unbounded) cut to a slab a line crosses, ``t`` in
    ``[near / d, far / d]`` (``d != 0``; integers on one scale; for ``d < 0`` the ends swap):
    the slab method's step in exact arithmetic, ratios compared by cross-multiplying."""
    if d < 0:
        near, far, d = -far, -near, -d
    if enter is None or near * enter[1] > enter[0] * d:
        enter = (near, d)
    if leave is None or far * leave[1] < leave[0] * d:
        leave = (far, d)
    return enter, leave
