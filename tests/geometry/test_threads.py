"""Threaded batches (``geometry.set_num_threads``) give the same answers as one thread: the
items and outputs are cut into contiguous pieces, which the threads take in turn, each running
the compiled loop over its piece."""

import itertools
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import geometry
from geometry import _bvh, _threads


@pytest.fixture
def two_threads(monkeypatch):
    before = geometry.get_num_threads()
    monkeypatch.setattr(_threads, "_pool", None)  # the test sees whether a pool is made
    monkeypatch.setattr(_threads, "_pool_workers", 0)
    geometry.set_num_threads(2)
    yield
    geometry.set_num_threads(before)
    if _threads._pool is not None:
        _threads._pool.shutdown()


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
    lo, hi = cases(2 * _threads.PARALLEL_MIN + 17, dtype)  # large enough to be shared out
    QUERIES[query](lo[:10], hi[:10])  # a loop's first call compiles it and runs whole
    threaded = QUERIES[query](lo, hi)
    assert _threads._pool is not None, "two threads and two shares' worth of items: a pool runs one"
    geometry.set_num_threads(1)
    single = QUERIES[query](lo, hi)
    pairs = zip(threaded, single, strict=True) if query == "ray" else [(threaded, single)]
    for got, want in pairs:
        np.testing.assert_array_equal(got, want)


def test_a_batch_called_from_another_thread_runs_serially(two_threads):
    """dask and thread pools call from threads of their own: no second layer of threads."""
    lo, hi = cases(2 * _threads.PARALLEL_MIN + 17, np.float64)
    QUERIES["triangle"](lo[:10], hi[:10])
    got = []
    worker = threading.Thread(target=lambda: got.append(QUERIES["triangle"](lo, hi)))
    worker.start()
    worker.join()
    assert _threads._pool is None, "a call from a worker thread must not start the pool"
    np.testing.assert_array_equal(got[0], QUERIES["triangle"](lo, hi))


def test_fewer_threads_keep_the_pool_and_more_than_it_holds_make_a_larger_one(two_threads):
    lo, hi = cases(2 * _threads.PARALLEL_MIN + 17, np.float64)
    QUERIES["segment"](lo[:10], hi[:10])
    QUERIES["segment"](lo, hi)
    pool = _threads._pool
    assert pool is not None and _threads._pool_workers == 1, "two threads: one pool worker"
    geometry.set_num_threads(1)
    QUERIES["segment"](lo, hi)
    geometry.set_num_threads(2)
    QUERIES["segment"](lo, hi)
    assert _threads._pool is pool, "back to two threads: the same pool, no new thread"
    geometry.set_num_threads(3)
    threaded = QUERIES["segment"](lo, hi)  # a pool for three threads: two workers
    assert _threads._pool is not pool and _threads._pool_workers == 2
    geometry.set_num_threads(1)
    np.testing.assert_array_equal(threaded, QUERIES["segment"](lo, hi))


def test_shares_cover_every_item_once_in_order(two_threads):
    for m in (0, 1, 99, 100, 200, 1001, 12345):
        pieces = _threads.in_shares(lambda lo, hi: (lo, hi), m, 100)
        assert pieces[0][0] == 0 and pieces[-1][1] == m, m
        assert all(a[1] == b[0] for a, b in itertools.pairwise(pieces)), m
        assert len(pieces) == (1 if m < 200 else 2 * _threads.PIECES), m


def test_a_slow_thread_leaves_its_pieces_to_the_others(two_threads):
    """A thread the machine slows (here: a pool thread stuck in its first piece) does not hold
    the batch up: the calling thread takes the pieces left, more than an equal share, and only
    then is the stuck one released (with equal shares it would wait for its 10 s timeout)."""
    m = 8000
    released = threading.Event()
    here = [0]  # items run by the calling thread
    waits = []

    def run(lo: int, hi: int) -> int:
        if threading.current_thread() is threading.main_thread():
            here[0] += hi - lo
            if here[0] > m // 2:
                released.set()
        else:
            waits.append(released.wait(timeout=10))
        return hi - lo

    assert sum(_threads.in_shares(run, m, 100)) == m
    assert all(waits) and here[0] > m // 2, (waits, here)


@pytest.mark.parametrize("where", ["here", "in the pool"])
def test_an_error_in_a_piece_reaches_the_caller(two_threads, where):
    def run(lo: int, hi: int) -> int:
        if (threading.current_thread() is threading.main_thread()) == (where == "here"):
            raise ZeroDivisionError(where)
        time.sleep(0.01)  # (so that neither thread takes every piece before the other starts)
        return hi - lo

    with pytest.raises(ZeroDivisionError, match=where):
        _threads.in_shares(run, 8000, 100)


def _in_fresh_interpreter(code: str) -> list[str]:
    """What ``code`` prints, split into words, run by a new Python (its errors on failure)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def test_the_default_is_every_cpu_the_process_may_use():
    code = ("import os, geometry; "
            "print(geometry.get_num_threads(), len(os.sched_getaffinity(0)))")
    out = _in_fresh_interpreter(code)
    assert out[0] == out[1], f"default threads {out[0]}, usable CPUs {out[1]}"


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, None])
def test_a_thread_count_that_is_not_a_whole_number_from_one_up_is_refused(bad):
    before = geometry.get_num_threads()
    with pytest.raises(ValueError, match="n must be a whole number of threads, at least 1"):
        geometry.set_num_threads(bad)
    assert geometry.get_num_threads() == before, "a refused count changes nothing"
    geometry.set_num_threads(np.int64(before))
    assert geometry.get_num_threads() == before and type(geometry.get_num_threads()) is int


@pytest.mark.parametrize("bad", ["no", 0, 1, None])
def test_set_jit_takes_true_or_false(bad):
    before = geometry.get_jit()
    with pytest.raises(ValueError, match="enabled must be True or False"):
        geometry.set_jit(bad)
    assert geometry.get_jit() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_large_batches_with_a_pool_of_its_own():
    """After the pool exists, a forked child (multiprocessing's fork, a preforking server) has
    none of its threads: its large batches make their own pool instead of handing a share to
    threads that are not there and waiting for ever; and a query's lock that another thread
    held at the fork (compiling a loop) is new in the child, which compiles a loop of its own
    (checked in a fresh interpreter)."""
    code = f"""
import os, signal, threading, time, numpy as np, geometry
from geometry import _threads, segment_aabb
geometry.set_num_threads(2)
lo = np.random.default_rng(0).random((2 * {_threads.PARALLEL_MIN} + 5, 3)); hi = lo + 0.01
for _ in range(2):  # the first call compiles and runs whole; the second shares it out
    want = geometry.classify_segment_aabb([0, 0, 0], [1, 1, 1], lo, hi)
assert _threads._pool is not None
held = threading.Event()
def compiling():  # another thread holds the query's lock across the fork
    with segment_aabb._QUERY._lock:
        held.set()
        time.sleep(5)
threading.Thread(target=compiling, daemon=True).start()
held.wait()
pid = os.fork()
if pid == 0:
    signal.alarm(60)  # a child that hangs ends (and fails the test) all the same
    got = geometry.classify_segment_aabb([0, 0, 0], [1, 1, 1], lo, hi)
    starts = np.zeros((len(lo), 3))  # a pattern not compiled yet: takes the query's lock
    again = geometry.classify_segment_aabb(starts, [1, 1, 1], lo, hi)
    ok = np.array_equal(got, want) and np.array_equal(again, want)
    os._exit(0 if ok and _threads._pool_workers == 1 else 3)
print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""
    assert _in_fresh_interpreter(code) == ["0"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_walks_a_box_tree_after_its_parent_did():
    """``BoxTree`` shares its walks out in the package's pool, not numba's threading layer
    (whose GNU OpenMP form terminates a child forked after the parent launched it): a child
    forked after the parent's walks ran in two shares walks in shares too, with the same
    answers (checked in a fresh interpreter, every walk: nearest hits, ray pairs, triangle
    pairs)."""
    code = f"""
import os, signal, numpy as np, geometry
from geometry import _bvh, _threads
from numba.np.ufunc import parallel
geometry.set_num_threads(2)
rng = np.random.default_rng(0)
lo = rng.random((5000, 3)); hi = lo + 0.02
tree = geometry.BoxTree(lo, hi)
m = 2 * {_bvh._WALK_SHARE_MIN} + 7  # two shares' worth of queries
o, d = rng.random((m, 3)), rng.normal(size=(m, 3))
v = rng.random((m, 3))
def answers():
    return [np.concatenate([np.ravel(x) for x in r]) for r in (
        tree.nearest_ray_hits(o, d), tree.ray_pairs(o, d), tree.triangle_pairs(o, v, v + 0.05))]
want = answers()
assert _threads._pool is not None and not parallel._is_initialized
pid = os.fork()
if pid == 0:
    signal.alarm(60)
    ok = all(np.array_equal(a, b) for a, b in zip(answers(), want))
    os._exit(0 if ok and _threads._pool_workers == 1 else 3)
print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""
    assert _in_fresh_interpreter(code) == ["0"]


def test_box_tree_walks_honour_the_thread_count():
    """``set_num_threads(1)``, or a call from a thread other than the main one, walks the tree
    in the calling thread (no pool is made); with two threads the queries are shared out, with
    the same answers, and the shares' offsets joined (fresh interpreter)."""
    code = f"""
import threading, numpy as np, geometry
from geometry import _bvh, _threads
rng = np.random.default_rng(1)
lo = rng.random((3000, 3)); hi = lo + 0.03
tree = geometry.BoxTree(lo, hi)
m = 3 * {_bvh._WALK_SHARE_MIN} + 5
o, d = rng.random((m, 3)), rng.normal(size=(m, 3))
def answers():
    return [np.concatenate([np.ravel(x) for x in r])
            for r in (tree.nearest_ray_hits(o, d), tree.ray_pairs(o, d),
                      tree.segment_pairs(o, o + d), tree.triangle_pairs(o, o + d, o - d))]
geometry.set_num_threads(3)
box = []
worker = threading.Thread(target=lambda: box.append(answers()))
worker.start(); worker.join()
geometry.set_num_threads(1)
one = answers()
pooled = _threads._pool is not None
geometry.set_num_threads(3)
three = answers()
same = all(np.array_equal(a, b) for a, b in zip(one + box[0], three + three))
print(pooled, _threads._pool_workers, same)
"""
    assert _in_fresh_interpreter(code) == ["False", "2", "True"]
