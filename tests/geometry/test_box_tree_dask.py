"""BoxTree over dask arrays (a tree per chunk on a 2-process LocalCluster) equals the
in-memory tree, query for query."""

from __future__ import annotations

import glob
import tempfile

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="pip install 'slablab[dask]'")

from geometry import BoxTree  # noqa: E402
from tests.geometry.test_aabb_frustum import FRUSTA  # noqa: E402
from tests.geometry.test_dask import boxes, chunked, client  # noqa: E402, F401


@pytest.fixture(autouse=True)
def _raise_on_float_errors():
    """dask's own bookkeeping divides by zero in places; the library is checked elsewhere."""
    yield


def test_dask_tree_answers_as_the_in_memory_tree(client):  # noqa: F811
    lo, hi = boxes(np.float64, n=700)
    lo[[0, 300]], hi[[0, 300]] = lo[600], hi[600]  # equal boxes in three chunks: ties
    tree, spread = BoxTree(lo, hi), BoxTree(chunked(lo, 250), chunked(hi, 250))
    assert len(spread) == 700 and "3 chunks" in repr(spread), f"expected 3 chunks: {spread!r}"
    rng = np.random.default_rng(3)
    p = np.concatenate([rng.uniform(-1, 1, (20, 3)), (lo[600] + hi[600])[None] / 2])
    d = rng.normal(size=(21, 3))
    calls = [("nearest_ray_hits", (p, d)), ("nearest_ray_hits", (p[0], d[0])),
             ("ray_pairs", (p, d)), ("segment_pairs", (p, p[::-1])),
             ("triangle_pairs", (p, p[::-1], p[0])), ("box_pairs", (p, p + 0.1)),
             ("sphere_pairs", (p, 0.1)), ("nearest_boxes", (p, 3)),
             ("frustum", (FRUSTA["orthographic"],)), ("self_pairs", ())]
    for name, args in calls:
        got, want = getattr(spread, name)(*args), getattr(tree, name)(*args)
        assert type(got) is type(want), f"{name}: expected a {type(want).__name__}"
        for field, g, w in zip(want._fields, got, want, strict=True):
            np.testing.assert_array_equal(g, w, err_msg=f"{name}.{field} differs from numpy's")


def test_bench_dask_tree_checks_itself_and_removes_its_files(client, capsys):  # noqa: F811
    from benchmarks import bench_dask_tree

    before = set(glob.glob(f"{tempfile.gettempdir()}/slablab-bench-dask-tree-*"))
    assert bench_dask_tree.main(["--boxes", "3000", "--pair-boxes", "2000", "--rays", "20",
                                 "--chunk", "1000"]) == 0
    out = capsys.readouterr().out
    for row in ("| 3e+03 | | build (3 trees) |", "| 3e+03 | 2e+01 | nearest_ray_hits |",
                "| 2e+03 | | build + self_pairs (2 trees) |", "answers equal the in-memory"):
        assert row in out, f"expected {row!r} in:\n{out}"
    assert set(glob.glob(f"{tempfile.gettempdir()}/slablab-bench-dask-tree-*")) == before, \
        "the benchmark left its temporary folder behind"
