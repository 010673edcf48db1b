"""Smoke test of the six-query benchmark: tiny sizes, every row printed, textbook ports agree.

No timing is asserted; the real run is ``./benchmarks/run_queries.sh`` (see its docstring).
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `benchmarks` lives in the checkout, it is not installed
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_queries  # noqa: E402

QUERIES = {
    "aabb": ("classify_segment_aabb", "intersect_ray_aabb + argmin", "triangle_overlaps_aabb"),
    "obb": ("classify_segment_obb, axes (N,3,3)", "intersect_ray_obb + argmin, axes (N,3,3)",
            "triangle_overlaps_obb, axes (N,3,3)"),
    "obb-frame": ("classify_segment_obb, one (3,3) frame",
                  "intersect_ray_obb + argmin, one (3,3) frame",
                  "triangle_overlaps_obb, one (3,3) frame"),
}


def table_rows(out: str) -> list[list[str]]:
    """The cells of every Markdown row of the main table (header and separator left out)."""
    lines = out.splitlines()
    start = lines.index(bench_queries.HEADER.splitlines()[0]) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("| "):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_tiny_run_prints_every_row_and_the_ports_agree(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numba", reason="the textbook rows need numba (pip install numba)")
    status = bench_queries.main(["--sizes", "300", "--repeat", "1"])
    out = capsys.readouterr().out

    disagreements = [line for line in out.splitlines() if line.startswith("DISAGREE")]
    assert not disagreements, (
        "expected the textbook ports and 2-thread runs to give the library's answers; a port "
        "bug or a library bug (decide with the exact reference):\n" + "\n".join(disagreements))
    assert status == 0, f"expected exit status 0, got {status}"
    assert out.startswith("machine: "), f"expected the machine line first, got:\n{out[:200]}"
    assert bench_queries.HEADER in out, f"expected the table header and separator in:\n{out}"
    rows = table_rows(out)
    threads = bench_queries.thread_setting() is not None
    library = ["slablab, 1 thread", "slablab, 2 threads"] if threads else ["slablab"]
    floors = ["np.add.reduce, 1 thread"] + (["np.add.reduce, 2 threads"] if threads else [])
    expected = [(name, by) for names in QUERIES.values() for name in names
                for by in [*library, "textbook numba"]] + [("read-once floor", by) for by in floors]
    for dtype in ("float64", "float32"):
        for name, by in expected:
            matching = [r for r in rows if r[:4] == [name, by, dtype, "3e2"]]
            count = 3 if name == "read-once floor" else 1  # one floor per box kind
            assert len(matching) == count, (
                f"expected {count} row(s) for {name!r} run by {by!r}, {dtype}, N = 3e2 in:\n{out}")
            for cells in matching:
                assert len(cells) == 11, f"expected 11 cells, got {len(cells)}: {cells}"
                assert float(cells[4]) >= 0 and float(cells[5]) > 0, f"expected times: {cells}"
    assert len(rows) == 2 * (len(expected) + 2 * len(floors)), (
        f"expected no rows beyond those checked, got {len(rows)}:\n{out}")


def test_goal_table_marks_cells_within_the_goal() -> None:
    import io

    def row(query: str, kind: str, by: str, ratio: float, threads: int | None = 1
            ) -> bench_queries.Row:
        runner = bench_queries.Runner(query, kind, by, lambda s: None, threads)
        return bench_queries.Row(runner, "float64", bench_queries.GOAL_N, ratio, 1.0, 0, 0, "")

    rows = [row("segment", "aabb", "slablab, 1 thread", 1.9),
            row("segment", "aabb", "textbook numba", 9.0, None),
            row("triangle", "obb", "slablab, 1 thread", 3.1),
            row("ray", "obb-frame", "slablab, 1 thread", 2.9)]
    out = io.StringIO()
    bench_queries.print_goals(rows, out)
    lines = {line.split(" | ")[0].strip("| "): line for line in out.getvalue().splitlines()}

    assert lines["classify_segment_aabb"].endswith("| <= 2x | yes |"), (
        f"expected 1.9x to meet the 2x goal (the textbook's 9x is no goal): {out.getvalue()}")
    assert lines["triangle_overlaps_obb, axes (N,3,3)"].endswith("| <= 3x | no |"), (
        f"expected 3.1x to miss the 3x goal: {out.getvalue()}")
    assert lines["intersect_ray_obb + argmin, one (3,3) frame"].endswith("| <= 3x | yes |"), (
        f"expected 2.9x to meet the 3x goal: {out.getvalue()}")


def test_unknown_dtype_is_refused_with_the_option_named(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_queries.main(["--dtypes", "float16"])
    assert exit_info.value.code == 2, f"expected exit status 2, got {exit_info.value.code}"
    err = capsys.readouterr().err
    assert "--dtypes" in err and "float16" in err, f"expected --dtypes and float16 in: {err}"
