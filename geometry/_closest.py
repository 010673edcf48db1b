"""Closest points of boxes: what the distance and the sphere queries share.

For the filters (``@jitable``): :func:`excess`, a point's distance beyond a slab as an exact sum
of two floats; :func:`norm_dd`, the squares of three such sums summed in double-double, scaled
by a power of two away from overflow and underflow; :func:`sqrt_dd`, the square root of a
double-double rounded faithfully (one Newton step on the exact residual).

For the exact passes: :func:`aabb_distance2` and :func:`obb_distance2`, the squared distance of
a point to a box as a Fraction (``None`` for an empty box), and :func:`sqrt_rounded`, a
Fraction's square root rounded to nearest (``math.isqrt`` on scaled integers).

The oriented box is ``{x : |a_i . (x - c)| <= h_i}`` for the float rows ``a_i`` (SEMANTICS.md),
a parallelepiped where the rows are not exactly orthonormal. In frame coordinates
``u = M (x - c)`` (``M`` the rows) the distance of ``p`` to the point of frame coordinates ``u``
is ``w^T G^-1 w`` with ``w = u_p - u`` and ``G = M M^T``. Its minimum over the box lies in the
relative interior of one of the 27 faces, edges, vertices or the interior of the box in the
frame: with the axes ``A`` clamped to ``b_A = +-h_A`` and the others free, it is the distance to
the flat ``{a_i . (x - c) = b_i, i in A}``, ``w_A . z`` with ``G_AA z = w_A`` (the least-norm
step ``x = p - sum_A z_i a_i``), and that point is in the box iff the free axes' coordinates
``u_F = U_F - G_FA z`` are within ``+-h_F``. The least value over the feasible features is the
distance (the minimiser is feasible for its own feature; every feasible one is a point of the
box).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

from ._double_double import two_sum
from ._exact import to_float
from ._floats import jitable, two_product

__all__ = ["aabb_distance2", "excess", "norm_dd", "obb_distance2", "sqrt_dd", "sqrt_rounded"]

_BIG = 2.0**450  # norm_dd scales by 2**-600 above this largest component
_SMALL = 2.0**-450  # and by 2**600 below this one


@jitable
def excess(p: float, lo: float, hi: float) -> tuple[float, float]:
    """``(e, f)``: ``max(lo - p, p - hi, 0)`` as ``e + f`` exactly, ``e`` its rounding (Knuth's
    TwoSum of the two floats it is the difference of), for ``lo <= hi``. Each rounded difference
    has the sign of the exact one, so the side is picked exactly. An overflowing difference
    gives an infinity (or NaN), which the caller doubts."""
    below = lo - p > 0.0
    above = p - hi > 0.0
    x = lo if below else (p if above else 0.0)
    y = p if below else (hi if above else 0.0)
    return two_sum(x, -y)


@jitable
def norm_dd(e0: float, f0: float, e1: float, f1: float, e2: float, f2: float
            ) -> tuple[float, float, float]:
    """``(s_hi, s_lo, unscale)``: ``|E|**2 * scale**2`` as ``s_hi + s_lo`` for the vector of
    ``E_i = e_i + f_i`` (``|f_i| <= u |e_i|``, finite), with ``scale`` a power of two that puts
    the largest ``|e_i|`` within [2**-474, 2**450] (or 1), and ``unscale = 1 / scale``. Within
    32 u**2 of the exact value, relatively (DISTANCE_DD_RELATIVE); no square can overflow, and
    underflow errs by less than 2**-120 of it."""
    m = max(abs(e0), abs(e1), abs(e2))
    scale = 2.0**-600 if m > _BIG else (2.0**600 if m < _SMALL else 1.0)
    unscale = 2.0**600 if m > _BIG else (2.0**-600 if m < _SMALL else 1.0)
    e0, f0, e1, f1, e2, f2 = e0 * scale, f0 * scale, e1 * scale, f1 * scale, e2 * scale, f2 * scale
    p0, q0 = two_product(e0, e0)
    p1, q1 = two_product(e1, e1)
    p2, q2 = two_product(e2, e2)
    s, g1 = two_sum(p0, p1)
    s, g2 = two_sum(s, p2)
    # E_i**2 = e_i**2 + 2 e_i f_i + f_i**2, the last below u**2 e_i**2 and left out
    return s, (g1 + g2) + ((q0 + q1) + q2) + 2.0 * ((e0 * f0 + e1 * f1) + e2 * f2), unscale


@jitable
def sqrt_dd(s_hi: float, s_lo: float) -> float:
    """``sqrt(s_hi + s_lo)`` for ``s_hi >= 0`` a normal float or 0 and ``|s_lo| <= 8 u s_hi``:
    ``r = sqrt(s_hi)`` corrected by one Newton step on the residual ``s - r**2``, formed exactly
    (``s_hi - r*r`` is exact by Sterbenz' lemma, ``r*r``'s own error by TwoProduct). Before its
    last rounding it is within 2**-96 of the root, relatively (DISTANCE_DD_RELATIVE): rounded to
    nearest it is one of the two floats around the root (faithful)."""
    r = math.sqrt(s_hi)
    sq, sq_err = two_product(r, r)
    residual = ((s_hi - sq) - sq_err) + s_lo
    return r + residual / (2.0 * (r if r > 0.0 else 1.0))


# --- exact ----------------------------------------------------------------------------------
def sqrt_rounded(x: Fraction) -> float:
    """``sqrt(x)`` for a Fraction ``x >= 0``, rounded to nearest float64 (``inf`` beyond the
    largest float). ``r = isqrt(floor(x 4**k))`` with at least 62 bits, so that ``sqrt(x)``, in
    ``[r, r + 1)``, rounds as ``r`` does if it equals ``r`` and as ``r + 1/2`` (no tie, no
    rounding boundary in between) if not."""
    num, den = x.numerator, x.denominator
    if num == 0:
        return 0.0
    k = 64 - (num.bit_length() - den.bit_length()) // 2
    n, d = (num << 2 * k, den) if k >= 0 else (num, den << -2 * k)
    r = math.isqrt(n // d)
    if r * r * d == n:
        return to_float(Fraction(r), den=1 << k) if k >= 0 else to_float(Fraction(r << -k))
    return (to_float(Fraction(2 * r + 1), den=1 << (k + 1)) if k + 1 >= 0
            else to_float(Fraction((2 * r + 1) << -(k + 1))))


def aabb_distance2(point: Sequence[float], lo: Sequence[float], hi: Sequence[float]
                   ) -> Fraction | None:
    """The squared distance of ``point`` to the closed box ``[lo, hi]`` exactly; None for an
    empty box (the empty-box infinities allowed)."""
    if any(lo[i] > hi[i] for i in range(3)):
        return None
    total = Fraction(0)
    for i in range(3):
        p = Fraction(point[i])
        gap = Fraction(lo[i]) - p if p < lo[i] else (p - Fraction(hi[i]) if p > hi[i] else 0)
        total += gap * gap
    return total


def obb_frame(point: Sequence[float], center: Sequence[float], axes: Sequence[float]
              ) -> tuple[list[Fraction], list[list[Fraction]]]:
    """``(U, G)``: the point's frame coordinates ``a_i . (p - c)`` and the Gram matrix
    ``a_i . a_j`` of the rows (``axes`` row-major), exactly."""
    rows = [[Fraction(axes[3 * i + j]) for j in range(3)] for i in range(3)]
    t = [Fraction(point[j]) - Fraction(center[j]) for j in range(3)]
    u = [sum((rows[i][j] * t[j] for j in range(3)), Fraction(0)) for i in range(3)]
    gram = [[sum((rows[i][k] * rows[j][k] for k in range(3)), Fraction(0)) for j in range(3)]
            for i in range(3)]
    return u, gram


def _solve(g: list[list[Fraction]], b: list[Fraction]) -> list[Fraction]:
    """``g^-1 b`` for a symmetric positive definite ``g`` (1x1 to 3x3), by Gauss elimination."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(g)]
    for c in range(n):
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            m[r] = [m[r][k] - f * m[c][k] for k in range(n + 1)]
    z = [Fraction(0)] * n
    for c in reversed(range(n)):
        z[c] = (m[c][n] - sum((m[c][k] * z[k] for k in range(c + 1, n)), Fraction(0))) / m[c][c]
    return z


def obb_distance2(point: Sequence[float], center: Sequence[float], axes: Sequence[float],
                  half: Sequence[float]) -> Fraction | None:
    """The squared distance of ``point`` to the box ``{x : |a_i . (x - c)| <= h_i}`` exactly,
    by the 27 features of the module docstring; None for an empty box (a negative half size)."""
    if any(h < 0.0 for h in half):
        return None
    u, gram = obb_frame(point, center, axes)
    h = [Fraction(x) for x in half]
    if all(abs(u[i]) <= h[i] for i in range(3)):
        return Fraction(0)
    best: Fraction | None = None
    for sides in itertools.product((-1, 0, 1), repeat=3):
        clamped = [i for i in range(3) if sides[i]]
        if not clamped:
            continue
        w = [u[i] - sides[i] * h[i] for i in clamped]
        z = _solve([[gram[i][j] for j in clamped] for i in clamped], w)
        free_ok = all(abs(u[f] - sum((gram[f][i] * z[k] for k, i in enumerate(clamped)),
                                     Fraction(0))) <= h[f]
                      for f in range(3) if not sides[f])
        if free_ok:
            value = sum((a * b for a, b in zip(w, z, strict=True)), Fraction(0))
            best = value if best is None or value < best else best
    assert best is not None  # the minimiser's own feature is feasible
    return best
