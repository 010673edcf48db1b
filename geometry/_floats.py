"""Float building blocks for filters: what a filter calls besides plain arithmetic.

Each runs as plain Python when a filter runs in the interpreter (one item, ``set_jit(False)``)
and is compiled into the filter's loop by numba (:mod:`._loops`), with the same bits either way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from ._tolerances import ORTHONORMAL_ATOL

__all__ = ["JITABLES", "UNFUSED", "axes_doubt", "axes_orthonormal", "axes_residuals",
           "interpreted", "jitable", "register_helper", "residuals_small", "two_product",
           "unfused"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: Helpers that filters call (``@jitable``), in order of definition.
JITABLES: list[Callable[..., Any]] = []
#: Those of them compiled without fusing products and sums (``@unfused``).
UNFUSED: set[Callable[..., Any]] = set()


def jitable(fn: _F) -> _F:
    """Mark a helper that filters call: plain Python when called from Python, compiled with the
    filter by numba. It is registered with numba (``register_jitable``) only when the engine
    first compiles a loop (:func:`._loops.register_jitables`), so ``import geometry`` and
    one-item calls never import numba."""
    JITABLES.append(fn)
    return fn


def unfused(fn: _F) -> _F:
    """Mark a ``@jitable`` helper to be compiled without fusing a product and a sum into one
    rounding, even in a loop that may (``Query(..., contract=True)``): it rounds as CPython does,
    for a helper whose result code outside the filters computes again (the value check)."""
    UNFUSED.add(fn)
    return fn


def register_helper(fn: Callable[..., Any], like: Callable[..., Any]) -> None:
    """Register ``fn`` with numba as a helper of the compiled filters (:mod:`._loops`), compiled
    as ``like`` is (``fn`` itself, or the helper that ``fn`` is a specialized copy of,
    :mod:`._specialize`): inlined, with numpy's error model, and without fused products where
    ``like`` is :func:`unfused` (numba lets a helper inherit its caller's options, contract,
    unless it sets them)."""
    from numba.extending import register_jitable

    options = {"fastmath": False} if like in UNFUSED else {}
    register_jitable(forceinline=True, error_model="numpy", **options)(fn)


@unfused
@jitable
def axes_residuals(a00: Any, a01: Any, a02: Any, a10: Any, a11: Any, a12: Any, a20: Any,
                   a21: Any, a22: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    """``row_i . row_j - delta_ij`` of the rows ``a0*, a1*, a2*`` for the six pairs ``i <= j``
    (00, 01, 02, 11, 12, 22), each summed left to right. Floats or numpy arrays alike (the
    value check runs it on arrays, elementwise, with the same roundings), and compiled without
    fused products (:func:`unfused`), so that a filter's doubt and the check never disagree."""
    return (a00 * a00 + a01 * a01 + a02 * a02 - 1.0,
            a00 * a10 + a01 * a11 + a02 * a12,
            a00 * a20 + a01 * a21 + a02 * a22,
            a10 * a10 + a11 * a11 + a12 * a12 - 1.0,
            a10 * a20 + a11 * a21 + a12 * a22,
            a20 * a20 + a21 * a21 + a22 * a22 - 1.0)


@jitable
def residuals_small(r0: Any, r1: Any, r2: Any, r3: Any, r4: Any, r5: Any) -> Any:
    """Whether the six :func:`axes_residuals` are each at most ORTHONORMAL_ATOL in magnitude
    (so False for any NaN): the one implementation of the rule. Floats or numpy arrays alike
    (elementwise)."""
    return ((abs(r0) <= ORTHONORMAL_ATOL) & (abs(r1) <= ORTHONORMAL_ATOL)
            & (abs(r2) <= ORTHONORMAL_ATOL) & (abs(r3) <= ORTHONORMAL_ATOL)
            & (abs(r4) <= ORTHONORMAL_ATOL) & (abs(r5) <= ORTHONORMAL_ATOL))


@jitable
def axes_orthonormal(a00: Any, a01: Any, a02: Any, a10: Any, a11: Any, a12: Any, a20: Any,
                     a21: Any, a22: Any) -> Any:
    """Whether the rows ``a0*, a1*, a2*`` are orthonormal within ORTHONORMAL_ATOL: every
    :func:`axes_residuals` small (:func:`residuals_small`). Floats or numpy arrays alike
    (elementwise)."""
    r0, r1, r2, r3, r4, r5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    return residuals_small(r0, r1, r2, r3, r4, r5)


@jitable
def axes_doubt(a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
               a20: float, a21: float, a22: float) -> bool:
    """For a filter: True unless the rows ``a0*, a1*, a2*`` are orthonormal within
    ORTHONORMAL_ATOL (:func:`axes_orthonormal`, which the engine's check of a doubtful item
    runs too), so also for any NaN or infinity."""
    return not axes_orthonormal(a00, a01, a02, a10, a11, a12, a20, a21, a22)


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
    # (|p| in [2**-900, 2**990], |a| and |b| at most 2**990, False for a NaN; written without
    # abs, whose calls cost CPython more than the comparisons)
    if (2.0**-900 <= p <= 2.0**990 or -2.0**990 <= p <= -2.0**-900) \
            and -2.0**990 <= a <= 2.0**990 and -2.0**990 <= b <= 2.0**990:
        c = 134217729.0 * a  # 2**27 + 1: Veltkamp's split of a and b into 26-bit halves
        ah = c - (c - a)
        al = a - ah
        c = 134217729.0 * b
        bh = c - (c - b)
        bl = b - bh
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    elif p == 0.0 and (a == 0.0 or b == 0.0):
        e = 0.0  # a zero factor (a frame's zero entry, say): exact
    else:
        e = _product_error(a, b, p)
    return p, e  # one return: the interpreter writes this into the filters (:mod:`._inline`)


def _product_error(a: float, b: float, p: float) -> float:
    """:func:`two_product`'s ``e`` where Dekker's product is not exact (and no factor is zero)."""
    if math.isfinite(a) and math.isfinite(b):
        if math.isfinite(p):
            return float(Fraction(a) * Fraction(b) - Fraction(p))  # rounded as an FMA does
        return -p  # a * b overflowed: the exact product minus an infinity
    return a * b - p  # a NaN or an infinity in: NaN or infinity out, as an FMA gives
