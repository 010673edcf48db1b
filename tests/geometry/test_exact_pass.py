"""The exact pass (``geometry._exact.exact_meets``) that decides the kernels' doubtful boxes: its
two routes, the vectorised float64 certificate (more than ``FEW`` columns) and per-column
rationals (up to ``FEW``), both give the Fraction reference's answer on the same columns."""

import numpy as np
import pytest
from exact_reference import intersect_ray_aabb as reference_ray

from geometry._exact import FEW, exact_meets

K = 160  # columns per batch: the vectorised route


def columns(kind: str, k: int = K, seed: int = 0):
    """(3, k) o, d, lo, hi and (k,) t_lo, t_hi of one kind, many of them touching cases."""
    rng = np.random.default_rng(seed)
    if kind == "integer":  # the certificate proves these in float64
        o, d = rng.integers(-4, 5, (2, 3, k)).astype(float)
        a, b = rng.integers(-3, 4, (2, 3, k)).astype(float)
    elif kind == "dyadic":
        o, d, a, b = rng.integers(-64, 65, (4, 3, k)) / 16.0
    else:  # rounded values: the certificate fails, columns go to rationals
        o, d, a, b = rng.uniform(-2, 2, (4, 3, k))
    d[rng.integers(0, 3, k), np.arange(k)] *= rng.random(k) < 0.8  # some parallel axes
    d[:, ~d.any(axis=0)] = 1.0  # no zero direction
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    empty = rng.random(k) < 0.05
    lo[0, empty], hi[0, empty] = hi[0, empty] + 1, lo[0, empty]
    t_lo = rng.choice([-np.inf, -1.0, 0.0, 0.5], k)
    t_hi = rng.choice([np.inf, 1.0, 2.0, 0.5], k)
    return o, d, lo, hi, t_lo, t_hi


def reference(o, d, lo, hi, t_lo, t_hi) -> np.ndarray:
    return np.array([reference_ray(o[:, c], d[:, c], lo[:, c], hi[:, c], t_lo[c], t_hi[c]).hit
                     for c in range(o.shape[1])])


@pytest.mark.parametrize("kind", ["integer", "dyadic", "rounded"])
def test_both_routes_give_the_exact_answer(kind):
    o, d, lo, hi, t_lo, t_hi = columns(kind)
    want = reference(o, d, lo, hi, t_lo, t_hi)
    assert 0 < want.sum() < K  # hits and misses
    zero = np.zeros_like(d)
    np.testing.assert_array_equal(exact_meets(o, d, zero, lo, hi, t_lo, t_hi), want)
    for start in range(0, K, FEW):  # the same columns, a few at a time: the rational route
        part = slice(start, start + FEW)
        got = exact_meets(o[:, part], d[:, part], zero[:, part], lo[:, part], hi[:, part],
                          t_lo[part], t_hi[part])
        np.testing.assert_array_equal(got, want[part])


def test_a_direction_with_its_rounding_error_is_used_exactly():
    # From o = 0 along d = (1, 1 + 2^-60, 0), t in [0, 1]: x reaches the box's x = 1 only at
    # t = 1, where y = 1 + 2^-60 is above the box. Without d_lo the line touches its corner.
    o = np.zeros((3, 1))
    d_hi = np.array([[1.0], [1.0], [0.0]])
    d_lo = np.array([[0.0], [2.0**-60], [0.0]])
    lo, hi = np.array([[1.0], [0.0], [-1.0]]), np.array([[2.0], [1.0], [1.0]])
    t = (np.zeros(1), np.ones(1))
    for k in (1, K):  # both routes
        rep = lambda x: np.repeat(x, k, axis=-1)  # noqa: E731
        assert not exact_meets(*(rep(x) for x in (o, d_hi, d_lo, lo, hi, *t))).any()
        assert exact_meets(*(rep(x) for x in (o, d_hi, np.zeros((3, 1)), lo, hi, *t))).all()


def test_no_columns():
    empty = np.zeros((3, 0))
    assert exact_meets(empty, empty, empty, empty, empty, np.zeros(0), np.zeros(0)).shape == (0,)
