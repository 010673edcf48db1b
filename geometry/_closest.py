"""Closest points of boxes: what the distance and the sphere queries share.

For the filters (``@jitable``): :func:`excess`, a point's distance beyond a slab as an exact sum
of two floats; :func:`square_sum_dd`, the squares of three such sums summed in double-double;
:func:`sqrt_dd`, the square root of a double-double rounded faithfully (its sum's root: see
``_tolerances.DISTANCE_FAITHFUL``).

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
``u_F = U_F - G_FA z`` are within ``+-h_F``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

from ._double_double import two_sum
from ._exact import scaled, to_float
from ._floats import jitable, two_product

__all__ = ["aabb_distance2", "excess", "frame_excess", "gram_residual", "obb_distance2",
           "sqrt_dd", "sqrt_rounded", "square_sum_dd", "surely_free"]


@jitable
def excess(p: float, lo: float, hi: float) -> tuple[float, float]:
    """``(e, f)``: the signed excess ``clamp(p, lo, hi) - p`` (``lo - p`` below the slab,
    ``hi - p`` above it, else 0; for ``lo <= hi``) as ``e + f`` exactly, ``e`` its rounding
    (Knuth's TwoSum of the clamp and ``-p``, the negation written into it). An overflowing
    difference gives an infinity (or NaN), which the caller doubts."""
    x = hi if p > hi else (lo if p < lo else p)
    e = x - p
    b = e - x
    return e, (x - (e - b)) - (p + b)


@jitable
def square_sum_dd(e0: float, f0: float, e1: float, f1: float, e2: float, f2: float
                  ) -> tuple[float, float]:
    """``(s_hi, s_lo)``: ``sum_i (e_i + f_i)**2`` in double-double, for ``|f_i| <= u |e_i|``
    and ``|e_i| <= 2**500``: within 27.01 u**2 of it, relatively, plus 2**-1070 where products
    underflow (DISTANCE_DD_RELATIVE). ``(e_i + f_i)**2 = e_i**2 + 2 e_i f_i + f_i**2``, the
    last below u**2 e_i**2 and left out."""
    p0, q0 = two_product(e0, e0)
    p1, q1 = two_product(e1, e1)
    p2, q2 = two_product(e2, e2)
    s, g1 = two_sum(p0, p1)
    s, g2 = two_sum(s, p2)
    return s, (g1 + g2) + ((q0 + q1) + q2) + 2.0 * ((e0 * f0 + e1 * f1) + e2 * f2)


@jitable
def gram_residual(a0: float, a1: float, a2: float, b0: float, b1: float, b2: float,
                  delta: float) -> float:
    """``a . b - delta`` (``delta`` 1 for a row with itself, else 0), summed in double-double
    and rounded once: within ``u |result| + 30 u**2`` of the exact value for rows of norm
    within 1e-6 of 1 (the entries of ``R = M M^T - I`` that :func:`._floats.axes_residuals`
    gives only within 3 u). Subtracting ``delta`` from the float sum is exact: 0, or 1 from a
    sum within [1/2, 2] (Sterbenz)."""
    p0, e0 = two_product(a0, b0)
    p1, e1 = two_product(a1, b1)
    p2, e2 = two_product(a2, b2)
    s, g1 = two_sum(p0, p1)
    s, g2 = two_sum(s, p2)
    return (s - delta) + ((g1 + g2) + ((e0 + e1) + e2))


@jitable
def frame_excess(a0: float, a1: float, a2: float, t0: float, t1: float, t2: float, l0: float,
                 l1: float, l2: float, h: float, err: float) -> tuple[float, float, float]:
    """``(w_hi, w_lo, spread)`` for one axis ``a`` of a box: the frame coordinate
    ``U = a . (t + l)`` of a point (``t + l`` its offset from the centre, exactly) in
    double-double, and its signed excess beyond ``[-h, h]``, ``w = sign(U) max(|U| - h, 0)``,
    as ``w_hi + w_lo`` (``|w_lo| <= u |w_hi|``). ``spread`` bounds ``|w - w_exact|``, the
    excess of the exact ``U``: it is ``err`` (OBB_DISTANCE_FRAME, from the offset's size), or 0
    where the exact excess is surely 0 (``|U| <= h - 2 err``)."""
    p0, e0 = two_product(a0, t0)
    p1, e1 = two_product(a1, t1)
    p2, e2 = two_product(a2, t2)
    s, g1 = two_sum(p0, p1)
    s, g2 = two_sum(s, p2)
    # U = s + lo, not renormalised: fl(s + lo) has U's sign (or is 0 with it), and the excess
    # takes lo into its own low part
    lo = (g1 + g2) + ((e0 + e1) + e2) + ((a0 * l0 + a1 * l1) + a2 * l2)
    sign = 1.0 if s + lo >= 0.0 else -1.0
    x_hi, x_lo = two_sum(sign * s, -h)
    w_hi, w_lo = two_sum(x_hi, x_lo + sign * lo)
    out = w_hi > 0.0
    return (sign * w_hi if out else 0.0, sign * w_lo if out else 0.0,
            0.0 if w_hi + 2.0 * err <= 0.0 else err)


@jitable
def surely_free(a0: float, a1: float, a2: float, t0: float, t1: float, t2: float, h: float,
                slack: float) -> bool:
    """Whether :func:`frame_excess` for the axis ``a``, the offset ``t`` (and its low parts)
    and the half size ``h`` surely gives ``(0, 0, 0)``: the float frame coordinate
    ``a . t`` lies inside the slab by ``slack`` = OBB_DISTANCE_FREE u |t|_1 + 2.01 err, and
    by 4 u h for the roundings (the proof is at OBB_DISTANCE_FREE)."""
    return abs(a0 * t0 + a1 * t1 + a2 * t2) + slack <= h * (1.0 - 2.0**-51)


@jitable
def sqrt_dd(s_hi: float, s_lo: float) -> float:
    """``sqrt(s_hi + s_lo)``, the sum and the root each rounded once: a faithful rounding of
    the root of ``S = s_hi + s_lo`` and of every ``D`` within DISTANCE_FAITHFUL of it,
    relatively (the caller's error budget). For ``s_hi >= 0`` (a value below 0, as a doubtful
    item's may be, gives 0)."""
    s = s_hi + s_lo
    return math.sqrt(s if s > 0.0 else 0.0)


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


def _adjugate(g: list[list[int]]) -> tuple[list[list[int]], int]:
    """``(adj, det)`` of a 1x1 to 3x3 integer matrix: ``g adj = det I``."""
    n = len(g)
    if n == 1:
        return [[1]], g[0][0]
    if n == 2:
        return [[g[1][1], -g[0][1]], [-g[1][0], g[0][0]]], g[0][0] * g[1][1] - g[0][1] * g[1][0]
    adj = [[g[(j + 1) % 3][(i + 1) % 3] * g[(j + 2) % 3][(i + 2) % 3]
            - g[(j + 1) % 3][(i + 2) % 3] * g[(j + 2) % 3][(i + 1) % 3] for j in range(3)]
           for i in range(3)]
    return adj, sum(g[0][k] * adj[k][0] for k in range(3))


def obb_distance2(point: Sequence[float], center: Sequence[float], axes: Sequence[float],
                  half: Sequence[float]) -> Fraction | None:
    """The squared distance of ``point`` to the box ``{x : |a_i . (x - c)| <= h_i}`` exactly;
    None for an empty box (a negative half size). In integers: the coordinates on one scale
    and the rows on another (``_exact.scaled``), so that ``U``, ``G`` and ``h`` are integers
    (times ``su = unit_x unit_a`` and ``unit_a**2``). The features of the module docstring are
    tried, the clamp's own first, until one meets the KKT conditions of the least-distance
    problem: its point is in the box (the free axes within ``+-h``) and each multiplier ``z_i``
    has the sign of its side (or is 0); ``z = adj w / det`` (``det > 0``). A convex problem's
    KKT point is its minimiser, and the feature of the minimiser's tight constraints is one
    (the rows are independent)."""
    if any(x < 0.0 for x in half):
        return None
    unit_x, xs = scaled(*point, *center, *half)
    unit_a, a = scaled(*axes)
    t = [xs[j] - xs[3 + j] for j in range(3)]
    u = [a[3 * i] * t[0] + a[3 * i + 1] * t[1] + a[3 * i + 2] * t[2] for i in range(3)]
    h = [x * unit_a for x in xs[6:]]
    gram = [[sum(a[3 * i + k] * a[3 * j + k] for k in range(3)) for j in range(3)]
            for i in range(3)]
    guess = tuple((u[i] > h[i]) - (u[i] < -h[i]) for i in range(3))
    if guess == (0, 0, 0):
        return Fraction(0)
    for sides in (guess, *itertools.product((-1, 0, 1), repeat=3)):
        clamped = [i for i in range(3) if sides[i]]
        if not clamped:
            continue
        w = [u[i] - sides[i] * h[i] for i in clamped]
        adj, det = _adjugate([[gram[i][j] for j in clamped] for i in clamped])
        y = [sum(adj[k][m] * w[m] for m in range(len(w))) for k in range(len(w))]  # det z
        if all(sides[i] * y[k] >= 0 for k, i in enumerate(clamped)) and all(
                abs(u[f] * det - sum(gram[f][i] * y[k] for k, i in enumerate(clamped)))
                <= h[f] * det for f in range(3) if not sides[f]):
            value = sum(p * q for p, q in zip(w, y, strict=True))
            return Fraction(value * unit_a * unit_a, det * (unit_x * unit_a) ** 2)
    raise AssertionError("no feature of the box meets the KKT conditions")
