"""Exact arithmetic on the floats' exact values, for the items a float filter doubts.

``scaled`` turns floats into integers on one power-of-two scale (sums, differences and
products of them are exact); the rational helpers decide the OBB and triangle queries in
``fractions.Fraction``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["scaled", "classify_segment_rational", "dyadic_grid_exact", "rational",
           "ray_hit_rational", "to_frame_rational", "triangle_overlaps_rational"]


def scaled(*xs: float) -> tuple[int, list[int]]:
    """``(unit, values)``: finite floats as integers on one scale, ``x == value / unit`` exactly.

    ``unit`` is the largest denominator among the floats' exact ratios (a power of two), so
    integer data stay small integers; sums, differences and products of the values are exact,
    and the common scale cancels in every ratio compared.
    """
    ratios = [x.as_integer_ratio() for x in xs]
    top = max(d for _, d in ratios).bit_length()
    return 1 << (top - 1), [n << (top - d.bit_length()) for n, d in ratios]


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
