"""Smoke test of the frustum benchmark: a tiny scene, every line printed. No timing asserted."""

import pytest

from benchmarks import bench_frustum


def test_prints_the_rows_ratios_and_the_kept_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_frustum.main(["--n", "2000", "--repeat", "1", "--one-item-rounds", "0"]) == 0
    out = capsys.readouterr().out
    for line in ("| classify_aabb_frustum, 2 threads |", "| conservative=True, 2 threads |",
                 "exact / conservative:", "kept outside:"):
        assert line in out, f"expected {line!r} in:\n{out}"
