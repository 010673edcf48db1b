"""Smoke test of the tree and dask benchmarks: they run on tiny sizes and print their tables.

No timing is asserted; the real runs are ``python -m benchmarks.bench_tree`` / ``bench_dask``.
"""

import glob
import tempfile

import pytest

from benchmarks import bench_dask, bench_tree  # the checkout's (pytest's pythonpath)


def test_bench_tree_prints_a_boxtree_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_tree.main(["--n", "2000", "--m", "50", "--repeat", "1", "--boxes", "3000",
                            "--queries", "60"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| 2e3 | 5e1 | BoxTree |")]
    assert len(rows) == 1, f"expected one BoxTree row in:\n{out}"
    for query in ("| 3e3 | 3e3 | self_pairs |", "| 3e3 | 0e0 | refit |",
                  "| 3e3 | 6e1 | box_pairs |", "| 3e3 | 6e1 | nearest_boxes k=8 |"):
        assert f"{query} BoxTree |" in out, f"expected a BoxTree {query} row in:\n{out}"


def test_bench_dask_agrees_with_numpy_and_removes_its_files(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dask.array", reason="pip install 'slablab[dask]'")
    before = set(glob.glob(f"{tempfile.gettempdir()}/slablab-bench-dask-*"))
    assert bench_dask.main(["--n", "20000", "--chunk", "7000", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for query in ("intersect_ray_aabb", "classify_segment_aabb"):
        for engine in ("numpy", "dask (mmap .npy)"):
            assert f"| {query} | {engine} |" in out, f"expected a {query} {engine} row:\n{out}"
    assert set(glob.glob(f"{tempfile.gettempdir()}/slablab-bench-dask-*")) == before, \
        "the benchmark left its temporary folder behind"
