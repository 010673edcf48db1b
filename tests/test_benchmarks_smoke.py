"""Smoke test of the benchmark harness: it runs on tiny sizes and prints its table.

No timing is asserted; the real run is ``./benchmarks/run.sh`` (see the README).
"""

import pytest

from benchmarks import (  # from the checkout (pytest's pythonpath), not installed
    bench_geometry,
    one_item,
)

FUNCTIONS = ("classify_segment_aabb", "intersect_ray_aabb + nearest", "triangle_overlaps_aabb",
             "read-once floor", "baseline: whole-array numpy classify")


def test_main_prints_machine_line_a_row_per_function_and_dtype_and_the_classes(
        capsys: pytest.CaptureFixture[str]) -> None:
    status = bench_geometry.main(["--sizes", "1000", "--repeat", "1", "--pyrr-n", "50",
                                  "--one-item-rounds", "0"])
    out = capsys.readouterr().out
    lines = out.splitlines()

    assert status == 0, f"expected exit status 0, got {status}"
    assert lines[0].startswith("machine: "), f"expected the machine line first, got {lines[0]!r}"
    assert bench_geometry.HEADER.splitlines()[0] in lines, f"expected the table header in:\n{out}"
    rows = [line for line in lines if line.startswith("| ") and "---" not in line][1:]
    for name in FUNCTIONS:
        for dtype in ("float64", "float32"):
            matching = [r for r in rows if r.startswith(f"| {name} | {dtype} | 1e3 |")]
            assert len(matching) == 1, f"expected one row for {name} {dtype} N=1e3 in:\n{out}"
            cells = [c.strip() for c in matching[0].strip("|").split("|")]
            assert len(cells) == 10, f"expected 10 cells, got {len(cells)}: {matching[0]!r}"
    # the classify row reports the scene's count of each class
    row = next(r for r in rows if r.startswith("| classify_segment_aabb | float64 |"))
    for name in ("NONE", "INTERSECT", "INCLUDE"):
        count = int(row.split(f"{name} ")[1].split()[0])
        assert count > 0, f"expected the benchmark scene to contain {name} boxes, row: {row!r}"


def test_one_item_table_has_pyrr_and_every_query(capsys: pytest.CaptureFixture[str]) -> None:
    import geometry

    us = one_item.table(rounds=1, calls=2, compiled=False)
    out = capsys.readouterr().out
    queries = sorted(name for name in geometry.__all__ if name.startswith(
        ("classify_", "intersect_", "distance_", "plane_side_")) or "_overlaps_" in name)
    assert sorted(us) == sorted([one_item.PYRR, *queries]), (
        f"expected pyrr's row and one per query, got {sorted(us)}")
    for name in us:
        row = next((line for line in out.splitlines() if line.startswith(f"| {name} |")), None)
        assert row is not None, f"expected a row for {name} in:\n{out}"
        assert float(row.split("|")[3]) > 0, f"expected a positive ratio to pyrr: {row!r}"


def test_no_jit_measures_the_interpreted_loops(capsys: pytest.CaptureFixture[str]) -> None:
    import geometry

    before = geometry.get_jit()
    try:
        status = bench_geometry.main(["--sizes", "1000", "--repeat", "1", "--pyrr-n", "50",
                                      "--dtypes", "float32", "--no-baseline", "--no-jit",
                                      "--one-item-rounds", "0"])
        assert not geometry.get_jit(), "expected --no-jit to switch the compiled loops off"
    finally:
        geometry.set_jit(before)
    out = capsys.readouterr().out
    assert status == 0, f"expected exit status 0, got {status}"
    assert "compiled loops off" in out, f"expected the setting on the second line:\n{out}"


def test_app_window_benchmark_prints_a_row_per_setting(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """``bench_app --window`` on 60 boxes, 3 frames: a real window per setting (Xvfb)."""
    import os
    import shutil

    if not os.environ.get("DISPLAY") and not shutil.which("xvfb-run"):
        pytest.skip("no display and no xvfb-run (apt-get install xvfb xauth)")
    from benchmarks import bench_app

    assert bench_app.main(["--window", "--sizes", "60", "--frames", "3", "--rounds", "1",
                           "--size", "160x120"]) == 0
    out = capsys.readouterr().out
    assert "real window 160x120" in out and "random_scene(60, seed 0)" in out, out
    for setting in ("| default |", "| --samples 0 | 0 |", "| --samples 4 | 4 |"):
        assert setting in out, f"missing row {setting!r}:\n{out}"
