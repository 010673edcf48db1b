"""Threaded batches (``geometry.set_num_threads``) give the same answers as one thread: each
thread runs the compiled loop over its own contiguous share of the items and outputs."""

import numpy as np
import pytest

import geometry


@pytest.fixture
def two_threads():
    before = geometry.get_num_threads()
    geometry.set_num_threads(2)
    yield
    geometry.set_num_threads(before)


def cases(n: int, dtype):
    """Small-integer boxes (many touch the query exactly) over several chunks."""
    rng = np.random.default_rng(11)
    a, b = rng.integers(-3, 4, (2, n, 3)).astype(dtype)
    return np.minimum(a, b), np.maximum(a, b)


QUERIES = {
    "segment": lambda lo, hi: geometry.classify_segment_aabb([-2, 0, 1], [2, 1, 1], lo, hi),
    "ray": lambda lo, hi: geometry.intersect_ray_aabb([-2, 0, 1], [4, 1, 0], lo, hi,
                                                      t_min=0.25, t_max=0.75),
    "triangle": lambda lo, hi: geometry.triangle_overlaps_aabb([-2, 0, 1], [2, 1, 1], [0, 3, -1],
                                                               lo, hi),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("query", sorted(QUERIES))
def test_two_threads_equal_one(two_threads, query, dtype):
    lo, hi = cases(4 * 32768 + 17, dtype)  # large enough to be shared out
    threaded = QUERIES[query](lo, hi)
    geometry.set_num_threads(1)
    single = QUERIES[query](lo, hi)
    pairs = zip(threaded, single, strict=True) if query == "ray" else [(threaded, single)]
    for got, want in pairs:
        np.testing.assert_array_equal(got, want)
