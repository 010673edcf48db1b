"""Pooled output buffers (``geometry._output_pool``): memory is reused only once no array can reach
it, results never change, and the idle pool stays bounded."""

import copy
import gc
import pickle
import threading

import numpy as np
import pytest

import geometry
from geometry import _output_pool as pool

N = 40_000  # ray outputs of 360 kB (float32) / 680 kB (float64): pooled
RAY = dict(origin=[-0.5, 0.2, 0.3], direction=[1.0, 0.1, -0.05])
SEGMENT = dict(start=[-0.5, 0.2, 0.3], end=[1.5, 0.4, 0.2])


def boxes(n: int = N, dtype=np.float64, seed: int = 3):
    rng = np.random.default_rng(seed)
    centre = rng.random((n, 3))
    half = rng.uniform(0.01, 0.3, (n, 3))
    return (centre - half).astype(dtype), (centre + half).astype(dtype)


def ray(lo, hi):
    return geometry.intersect_ray_aabb(RAY["origin"], RAY["direction"], lo, hi)


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


@pytest.fixture(autouse=True)
def empty_pool():
    gc.collect()
    pool.clear()
    yield
    pool.clear()


def test_a_dropped_result_lends_its_memory_to_the_next_call():
    lo, hi = boxes()
    first = ray(lo, hi)
    where, want = address(first.t_enter), first.t_enter.copy()
    del first
    assert pool.idle_bytes() > 0
    again = ray(lo, hi)
    assert address(again.t_enter) == where
    np.testing.assert_array_equal(again.t_enter, want)
    assert pool.idle_bytes() == 0


@pytest.mark.parametrize("keep", [
    pytest.param(lambda r: r, id="the result"),
    pytest.param(lambda r: r.t_exit, id="one array"),
    pytest.param(lambda r: r.hit[::7], id="a strided view"),
    pytest.param(lambda r: r.t_enter.reshape(-1, 8)[3:], id="a reshaped slice"),
    pytest.param(lambda r: memoryview(r.t_enter), id="a memoryview"),
    pytest.param(lambda r: np.frombuffer(memoryview(r.t_exit), dtype=np.uint8), id="frombuffer"),
])
def test_memory_an_array_can_reach_is_never_reused(keep):
    lo, hi = boxes()
    result = ray(lo, hi)
    kept = keep(result)
    kept = [np.asarray(a) for a in kept] if isinstance(kept, tuple) else [np.asarray(kept)]
    snapshot = [a.copy() for a in kept]
    del result
    gc.collect()
    # other data of the same size: a reuse would overwrite what `kept` shows
    other_lo, other_hi = boxes(seed=4)
    others = [ray(other_lo, other_hi) for _ in range(3)]
    for a, was in zip(kept, snapshot):
        np.testing.assert_array_equal(a, was)
        for other in others:
            for name in ("hit", "t_enter", "t_exit"):
                assert not np.shares_memory(getattr(other, name), a)


def test_the_segment_classes_are_pooled_too():
    lo, hi = boxes(400_000)
    codes = geometry.classify_segment_aabb(SEGMENT["start"], SEGMENT["end"], lo, hi)
    where, want = address(codes), codes.copy()
    kept = codes[::3]
    del codes
    kept_copy = kept.copy()
    other_lo, other_hi = boxes(400_000, seed=5)
    other = geometry.classify_segment_aabb(SEGMENT["start"], SEGMENT["end"], other_lo, other_hi)
    assert address(other) != where  # `kept` still holds the first buffer
    np.testing.assert_array_equal(kept, kept_copy)
    del kept, other
    again = geometry.classify_segment_aabb(SEGMENT["start"], SEGMENT["end"], lo, hi)
    np.testing.assert_array_equal(again, want)


def test_pooled_results_are_plain_writable_arrays():
    lo, hi = boxes()
    result = ray(lo, hi)
    want = result.t_enter.copy()
    for name in ("hit", "t_enter", "t_exit"):
        a = getattr(result, name)
        assert a.flags.writeable and a.flags.aligned
        np.testing.assert_array_equal(pickle.loads(pickle.dumps(a)), a)
        np.testing.assert_array_equal(copy.deepcopy(a), a)
    result.t_enter[:] = -1.0  # the caller owns it: a later call neither sees nor undoes this
    np.testing.assert_array_equal(ray(lo, hi).t_enter, want)
    np.testing.assert_array_equal(result.t_enter, -1.0)


def test_small_outputs_are_not_pooled():
    assert pool.empty_bytes(pool.MIN_POOLED - 1).base is None
    assert pool.empty_bytes(pool.MAX_IDLE + 1).base is None
    geometry.intersect_ray_aabb(RAY["origin"], RAY["direction"], *boxes(1000))
    assert pool.idle_bytes() == 0
    assert pool.empty_bytes(pool.MIN_POOLED).base is not None


def test_the_idle_pool_is_bounded_and_keeps_the_newest():
    half, third, fifth = (pool.MAX_IDLE // k for k in (2, 3, 5))
    for n in (half, third, fifth):  # released in this order: 1.03 x MAX_IDLE in all
        pool.empty_bytes(n)
    assert pool.idle_bytes() == third + fifth  # the oldest went
    fresh = pool.empty_bytes(half)
    assert pool.idle_bytes() == third + fifth  # nothing of that size was idle
    reused = pool.empty_bytes(fifth)
    assert pool.idle_bytes() == third
    del fresh, reused


def test_threads_calling_at_once_get_their_own_memory():
    data = [boxes(seed=s) for s in range(4)]
    want = [ray(lo, hi) for lo, hi in data]
    errors = []

    def worker(k):
        lo, hi = data[k]
        held = []
        for i in range(12):
            got = ray(lo, hi)
            if i % 3 == 0:
                held.append(got)  # some results stay alive while others are recycled
            for name in ("hit", "t_enter", "t_exit"):
                if not np.array_equal(getattr(got, name), getattr(want[k], name)):
                    errors.append((k, i, name))
        for got in held:
            if not np.array_equal(got.t_exit, want[k].t_exit):
                errors.append((k, "held", "t_exit"))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
