"""Float building blocks for filters: what a filter calls besides plain arithmetic.

Each runs as plain Python when a filter runs in the interpreter (one item, ``set_jit(False)``)
and is compiled into the filter's loop by numba (:mod:`._loops`), with the same bits either way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ._tolerances import ORTHONORMAL_ATOL

__all__ = ["JITABLES", "axes_doubt", "interpreted", "jitable", "two_product"]

#: Helpers that filters call (``@jitable``), in order of definition.
JITABLES: list[Callable[..., Any]] = []


def jitable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a helper that filters call: plain Python when called from Python, compiled with the
    filter by numba. It is registered with numba (``register_jitable``) only when the engine
    first compiles a loop (:func:`._loops.register_jitables`), so ``import geometry`` and
    one-item calls never import numba."""
    JITABLES.append(fn)
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
