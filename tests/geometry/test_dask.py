"""dask arrays through the batched per-box functions, on a LocalCluster of two worker processes:
lazy results, one task per chunk, answers equal to the numpy call's."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="pip install 'slablab[dask]'")
distributed = pytest.importorskip("dask.distributed", reason="pip install 'slablab[dask]'")

from geometry import (  # noqa: E402
    classify_segment_aabb,
    classify_segment_obb,
    intersect_ray_aabb,
    intersect_ray_obb,
    triangle_overlaps_aabb,
    triangle_overlaps_obb,
)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.fixture(autouse=True)
def _raise_on_float_errors():
    """dask's own bookkeeping divides by zero in places; the library is checked elsewhere."""
    yield


def boxes(dtype, n=2500, seed=0):
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-1, 1, (n, 3))
    hi = lo + rng.uniform(0, 0.5, (n, 3))
    lo[::17] = np.inf  # empty boxes ride along
    hi[::17] = -np.inf
    return lo.astype(dtype), hi.astype(dtype)


def chunked(x, size=600):
    return da.from_array(x, chunks=(size,) + x.shape[1:])


def assert_same(lazy, eager):
    if isinstance(eager, tuple):
        assert type(lazy) is type(eager), f"expected a {type(eager).__name__} of dask arrays"
        for a, b in zip(lazy, eager, strict=True):
            assert_same(a, b)
        return
    assert isinstance(lazy, da.Array), f"expected a dask array, got {type(lazy).__name__}"
    assert lazy.numblocks == (5,), f"expected one block per chunk of boxes, got {lazy.numblocks}"
    got = lazy.compute()
    assert got.dtype == eager.dtype, f"dtype {got.dtype}, expected {eager.dtype}"
    np.testing.assert_array_equal(got, eager)
    assert np.array_equal(np.signbit(got), np.signbit(eager)) if got.dtype.kind == "f" else True


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_aabb_queries_on_dask_boxes_equal_numpy(client, dtype):
    lo, hi = boxes(dtype)
    s = np.array([-0.5, 0.25, 0.0], dtype)
    e = np.array([0.75, -0.25, 0.5], dtype)
    assert_same(classify_segment_aabb(s, e, chunked(lo), chunked(hi)),
                classify_segment_aabb(s, e, lo, hi))
    assert_same(intersect_ray_aabb(s, e, chunked(lo), chunked(hi), t_min=-1.0, t_max=2.0),
                intersect_ray_aabb(s, e, lo, hi, t_min=-1.0, t_max=2.0))
    assert_same(triangle_overlaps_aabb(s, e, s + 0.5, chunked(lo), hi),  # numpy box_max: split too
                triangle_overlaps_aabb(s, e, s + 0.5, lo, hi))


def test_per_item_queries_and_t_ranges_are_split_with_the_boxes(client):
    lo, hi = boxes(np.float64)
    rng = np.random.default_rng(1)
    origin = rng.uniform(-2, 2, lo.shape)
    direction = rng.normal(size=lo.shape)
    t_max = rng.uniform(0, 3, len(lo))
    assert_same(intersect_ray_aabb(chunked(origin), direction, chunked(lo, 600), hi,
                                   t_max=chunked(t_max)),
                intersect_ray_aabb(origin, direction, lo, hi, t_max=t_max))


def test_obb_queries_on_dask_boxes_equal_numpy(client):
    rng = np.random.default_rng(2)
    n = 2500
    center = rng.uniform(-1, 1, (n, 3))
    half = rng.uniform(0.05, 0.3, (n, 3))
    axes = np.linalg.qr(rng.normal(size=(n, 3, 3)))[0]  # rows orthonormal to ~1e-16
    s, e = np.array([-1.0, 0.1, 0.2]), np.array([1.0, -0.1, 0.3])
    lazy = (chunked(center), chunked(axes), chunked(half))
    assert_same(classify_segment_obb(s, e, *lazy), classify_segment_obb(s, e, center, axes, half))
    assert_same(intersect_ray_obb(s, e, *lazy), intersect_ray_obb(s, e, center, axes, half))
    assert_same(triangle_overlaps_obb(s, e, s + 0.3, *lazy),
                triangle_overlaps_obb(s, e, s + 0.3, center, axes, half))


def test_results_are_lazy_with_one_task_per_chunk():
    lo, hi = boxes(np.float64, n=1200)
    result = classify_segment_aabb([0, 0, 0], [1, 1, 1], chunked(lo, 400), chunked(hi, 400))
    graph = dict(result.__dask_graph__())
    runs = [k for k in graph if isinstance(k, tuple) and k[0].startswith("classify_segment_aabb")]
    assert len(runs) == 3, f"expected one task per chunk (3), got {len(runs)}"
    np.testing.assert_array_equal(result.compute(scheduler="sync"),
                                  classify_segment_aabb([0, 0, 0], [1, 1, 1], lo, hi))


def test_shape_errors_are_raised_at_the_call_and_value_errors_at_compute():
    lo, hi = boxes(np.float64, n=100)
    with pytest.raises(ValueError, match="box_max has 99 items"):
        classify_segment_aabb([0, 0, 0], [1, 1, 1], chunked(lo, 50), hi[:99])
    with pytest.raises(ValueError, match=r"start must have shape \(3,\) or \(N, 3\)"):
        classify_segment_aabb([0, 0], [1, 1, 1], chunked(lo, 50), chunked(hi, 50))
    with pytest.raises(ValueError, match="out= takes numpy arrays"):
        classify_segment_aabb([0, 0, 0], [1, 1, 1], chunked(lo, 50), chunked(hi, 50),
                              out=np.empty(100, np.int8))
    hi[70, 1] = np.nan
    lazy = classify_segment_aabb([0, 0, 0], [1, 1, 1], chunked(lo, 50), chunked(hi, 50))
    with pytest.raises(ValueError, match="box_max must be finite"):
        lazy.compute(scheduler="sync")
