"""Exact decision of "does a line meet a box for some t in [t_lo, t_hi]", for the few boxes where
the kernels' rounded slab quotients cannot be trusted (near-ties between slabs of different
axes, or with the ends of the t range).

The decision uses no quotient. By Helly's theorem in one dimension, the three slab intervals and
[t_lo, t_hi] share a point iff every two of them do, and each two-interval test is a comparison
of products: for axes i != j, with ``A_i = (near_i - o_i) sign(d_i)`` and
``B_j = (far_j - o_j) sign(d_j)``, the slabs meet iff ``A_i |d_j| <= B_j |d_i|`` (and the other
way round); a slab meets [t_lo, t_hi] iff ``A_i <= t_hi |d_i|`` and ``B_i >= t_lo |d_i|``.

Those comparisons run in float64 wherever a certificate shows that every subtraction and
product involved is exact (error-free transforms: Knuth's TwoSum, Dekker's product; the common
case for integer and dyadic inputs), and in ``fractions.Fraction`` for the rest.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["scaled", "classify_segment_rational", "dyadic_grid_exact", "exact_meets", "rational",
           "ray_hit_rational", "to_frame_rational", "triangle_overlaps_rational", "two_sum"]

_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitter for float64
_SPLIT_SAFE = 2.0**995  # |x| below this: splitting cannot overflow
_NO_UNDERFLOW = 2.0**-969  # |x * y| at least this: the product's error is a normal float
#: Up to this many columns, :func:`exact_meets` decides each in rationals directly: measured,
#: its vectorised float64 certificate costs ~270 us for one column (some 100 numpy calls on tiny
#: arrays) and a column in ``Fraction`` ~40 us, so below ~7 columns the rationals are cheaper
#: whatever the data (the certificate pays off for many near-ties, as on integer grids).
FEW = 6


def scaled(*xs: float) -> tuple[int, list[int]]:
    """``(unit, values)``: finite floats as integers on one scale, ``x == value / unit`` exactly.

    ``unit`` is the largest denominator among the floats' exact ratios (a power of two), so
    integer data stay small integers; sums, differences and products of the values are exact,
    and the common scale cancels in every ratio compared.
    """
    ratios = [x.as_integer_ratio() for x in xs]
    top = max(d for _, d in ratios).bit_length()
    return 1 << (top - 1), [n << (top - d.bit_length()) for n, d in ratios]


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, err)`` with ``s = fl(a + b)`` and ``s + err == a + b`` exactly (float64, no
    overflow); Knuth's TwoSum, valid in any order of magnitude."""
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    return s, err


def _product_is_exact(x: np.ndarray, y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Whether ``p = fl(x * y)`` equals ``x * y`` exactly (Dekker's error term is zero); False
    where the test itself could over- or underflow."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        cx, cy = _SPLIT * x, _SPLIT * y
        xh, yh = cx - (cx - x), cy - (cy - y)
        xl, yl = x - xh, y - yh
        err = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
        safe = (np.abs(x) < _SPLIT_SAFE) & (np.abs(y) < _SPLIT_SAFE)
        safe &= (np.abs(p) >= _NO_UNDERFLOW) | (x == 0) | (y == 0)
        return safe & (err == 0)


def exact_meets(o: np.ndarray, d_hi: np.ndarray, d_lo: np.ndarray, lo: np.ndarray,
                hi: np.ndarray, t_lo: np.ndarray, t_hi: np.ndarray) -> np.ndarray:
    """(k,) bool: the line ``o + t (d_hi + d_lo)`` meets the closed box ``[lo, hi]`` for some
    ``t`` in ``[t_lo, t_hi]``, decided exactly.

    ``o``, ``d_hi``, ``d_lo``, ``lo``, ``hi`` are (3, k) float64 blocks (``d_lo`` is the exact
    rounding error of a direction computed as a difference, else zero); ``t_lo``, ``t_hi``
    (k,) float64, possibly infinite. An empty box (some ``lo > hi``) never meets anything.
    """
    k = o.shape[1]
    if k <= FEW:  # cheaper in rationals (see FEW); an empty box meets nothing
        return np.array([(lo[:, c] <= hi[:, c]).all() and _meets_rational(
            o[:, c], d_hi[:, c], d_lo[:, c], lo[:, c], hi[:, c], t_lo[c], t_hi[c])
            for c in range(k)], dtype=bool)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        sign = np.sign(d_hi)  # d_lo is below half an ulp of d_hi: it never flips the sign
        zero = sign == 0
        near = np.where(sign >= 0, lo, hi)
        far = np.where(sign >= 0, hi, lo)
        a, a_err = two_sum(near, -o)
        b, b_err = two_sum(far, -o)
        a, b, mag = a * sign, b * sign, np.abs(d_hi)

        # only the axes the line is not parallel to use a and b
        certain = ((d_lo == 0) & (zero | ((a_err == 0) & (b_err == 0) & np.isfinite(a)
                                          & np.isfinite(b)))).all(axis=0)
        ok = (lo <= hi).all(axis=0) & (t_lo <= t_hi)
        # an axis the line runs parallel to: the slab is every t, or none
        ok &= (~zero | ((lo <= o) & (o <= hi))).all(axis=0)
        # each slab against [t_lo, t_hi]: A_i <= t_hi |d_i| and B_i >= t_lo |d_i|
        for t, side, upper in ((t_hi, a, True), (t_lo, b, False)):
            bound = np.where(np.isinf(t), 0.0, t) * mag
            certain &= (np.isinf(t) | _product_is_exact(np.broadcast_to(t, mag.shape), mag, bound)
                        | zero).all(axis=0)
            holds = (side <= bound) if upper else (side >= bound)
            ok &= (zero | np.isinf(t) | holds).all(axis=0)
        # each two slabs: A_i |d_j| <= B_j |d_i| for i != j (both axes not parallel)
        for i in range(3):
            for j in range(3):
                if i == j:
                    continue
                left, right = a[i] * mag[j], b[j] * mag[i]
                certain &= (zero[i] | zero[j] | (_product_is_exact(a[i], mag[j], left)
                                                 & _product_is_exact(b[j], mag[i], right)))
                ok &= zero[i] | zero[j] | (left <= right)

        # an empty box (the empty-box infinities included) is decided: it meets nothing
        certain |= ~(lo <= hi).all(axis=0)

    for col in np.flatnonzero(~certain):
        ok[col] = _meets_rational(o[:, col], d_hi[:, col], d_lo[:, col], lo[:, col], hi[:, col],
                                  t_lo[col], t_hi[col])
    return ok


def _meets_rational(o, d_hi, d_lo, lo, hi, t_lo, t_hi) -> bool:
    """:func:`exact_meets` for one column (a non-empty finite box), in rational arithmetic."""
    if t_lo > t_hi:
        return False
    direction = [rational(a) + rational(b) for a, b in zip(d_hi, d_lo)]
    span = _line_interval([rational(x) for x in o], direction, [rational(x) for x in lo],
                          [rational(x) for x in hi])
    if span is False:
        return False
    entry, exit_ = span  # with entry <= exit and t_lo <= t_hi, the two intervals meet iff:
    return ((entry is None or np.isinf(t_hi) or entry <= rational(t_hi))
            and (exit_ is None or np.isinf(t_lo) or exit_ >= rational(t_lo)))


def dyadic_grid_exact(*blocks: np.ndarray) -> np.ndarray:
    """(k,) bool: the columns of the (3, k) float64 ``blocks`` all lie on one dyadic grid
    ``2**g * integer`` with magnitudes below ``2**(g + 14)`` (and ``g``, the top exponent in a
    range where nothing can over- or underflow).

    Then every quantity of the triangle-box separating-axis test -- differences, cross
    products, and dot products of those with differences -- is an integer multiple of
    ``2**g``, ``2**2g`` or ``2**3g`` below ``2**48`` units: float64 computes it exactly.
    """
    values = np.stack(blocks)  # (n, 3, k)
    mantissa, exponent = np.frexp(values)  # |x| < 2**exponent
    digits = (mantissa * 2.0**53).astype(np.int64)  # the 53-bit significand, exactly
    lowest = (digits & -digits).astype(np.float64)  # its lowest set bit, a power of two
    with np.errstate(divide="ignore"):
        low_exponent = np.where(digits != 0, exponent - 53 + np.log2(lowest), np.inf)
    grid = low_exponent.min(axis=(0, 1))
    top = np.where(digits != 0, exponent, -np.inf).max(axis=(0, 1))
    return ((top - grid <= 14) & (grid >= -300) & (top <= 300)) | np.isinf(grid)


def rational(x) -> Fraction:
    """The exact value of a float (or a Fraction, unchanged)."""
    return x if isinstance(x, Fraction) else Fraction(float(x))


def to_frame_rational(point, center, axes) -> list[Fraction]:
    """``axes @ (point - center)`` exactly (``center=None``: a direction)."""
    rel = [rational(point[k]) - (0 if center is None else rational(center[k])) for k in range(3)]
    return [sum(rational(axes[i][k]) * rel[k] for k in range(3)) for i in range(3)]


def _line_interval(o, d, lo, hi):
    """``(entry, exit)`` of the line ``o + t d`` in the box, in rationals (None: unbounded on
    that side), or False when it misses; ``lo > hi`` on an axis misses."""
    entry = exit_ = None
    for i in range(3):
        if lo[i] > hi[i]:
            return False
        if d[i] == 0:
            if not lo[i] <= o[i] <= hi[i]:
                return False
            continue
        t0, t1 = sorted(((lo[i] - o[i]) / d[i], (hi[i] - o[i]) / d[i]))
        entry = t0 if entry is None else max(entry, t0)
        exit_ = t1 if exit_ is None else min(exit_, t1)
    if entry is not None and entry > exit_:
        return False
    return entry, exit_


def classify_segment_rational(start, end, lo, hi) -> int:
    """Segment vs box class (0, 1, 2), exactly; any mix of floats and Fractions."""
    s, e = [rational(x) for x in start], [rational(x) for x in end]
    lo, hi = [rational(x) for x in lo], [rational(x) for x in hi]
    span = _line_interval(s, [b - a for a, b in zip(s, e)], lo, hi)
    if span is False:
        return 0
    entry, exit_ = span
    if (entry is not None and entry > 1) or (exit_ is not None and exit_ < 0):
        return 0
    inside = all(lo[i] < min(s[i], e[i]) and max(s[i], e[i]) < hi[i] for i in range(3))
    return 2 if inside else 1


def ray_hit_rational(origin, direction, lo, hi, t_min, t_max) -> tuple[bool, float, float]:
    """``(hit, t_enter, t_exit)`` of a ray against a box, decided exactly; the t values are the
    exact ones rounded once (``+inf`` on a miss)."""
    o, d = [rational(x) for x in origin], [rational(x) for x in direction]
    lo, hi = [rational(x) for x in lo], [rational(x) for x in hi]
    span = _line_interval(o, d, lo, hi)
    miss = (False, np.inf, np.inf)
    if span is False or t_min > t_max:
        return miss
    entry, exit_ = span  # a ray's direction is not zero: both bounded
    enter = entry if np.isinf(t_min) else max(entry, rational(t_min))
    leave = exit_ if np.isinf(t_max) else min(exit_, rational(t_max))
    if enter > leave:
        return miss
    return True, float(enter), float(leave)


def triangle_overlaps_rational(v0, v1, v2, lo, hi) -> bool:
    """Exact separating-axis test of one closed triangle against one closed box, in rationals:
    the box normals, the triangle's normal and the nine box-axis x edge products, zero axes
    skipped (they separate nothing). Any mix of floats and Fractions."""
    tri = [[rational(c) for c in v] for v in (v0, v1, v2)]
    lo_, hi_ = [rational(c) for c in lo], [rational(c) for c in hi]
    for i in range(3):
        if lo_[i] > hi_[i] or max(v[i] for v in tri) < lo_[i] or min(v[i] for v in tri) > hi_[i]:
            return False

    def sub(a, b):
        return [x - y for x, y in zip(a, b)]

    def cross(a, b):
        return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

    edges = [sub(tri[1], tri[0]), sub(tri[2], tri[1]), sub(tri[0], tri[2])]
    units = [[1 if i == k else 0 for i in range(3)] for k in range(3)]
    axes = [cross(edges[0], edges[1])] + [cross(u, e) for u in units for e in edges]
    for axis in axes:
        if not any(axis):
            continue
        projections = [sum(a * c for a, c in zip(axis, v)) for v in tri]
        box_low = sum(min(a * x, a * y) for a, x, y in zip(axis, lo_, hi_))
        box_high = sum(max(a * x, a * y) for a, x, y in zip(axis, lo_, hi_))
        if max(projections) < box_low or min(projections) > box_high:
            return False
    return True
