"""Smoke test of the query benchmark: tiny sizes, every row printed, textbook ports agree.

No timing is asserted; the real run is ``./benchmarks/run_queries.sh`` (see its docstring).
"""

from typing import Any

import pytest

from benchmarks import bench_queries  # the checkout's (pytest's pythonpath)

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
    # float64 and one frame for all OBBs only: each dtype and box kind compiles every loop and
    # port again; the float32 plumbing is the next test's, per-box axes the new rows' test's
    status = bench_queries.main(["--sizes", "300", "--repeat", "1", "--dtypes", "float64",
                                 "--queries", "segment,ray,triangle", "--boxes", "aabb,obb-frame"])
    out = capsys.readouterr().out

    disagreements = [line for line in out.splitlines() if line.startswith("LIBRARY")]
    assert not disagreements, (
        "expected the library to agree with the textbook ports (or with exact arithmetic where a "
        "port rounds differently) and its 2-thread runs with 1 thread:\n"
        + "\n".join(disagreements))
    assert status == 0, f"expected exit status 0, got {status}"
    assert out.startswith("machine: "), f"expected the machine line first, got:\n{out[:200]}"
    assert bench_queries.HEADER in out, f"expected the table header and separator in:\n{out}"
    rows = table_rows(out)
    threads = bench_queries.thread_setting() is not None
    library = ["slablab, 1 thread", "slablab, 2 threads"] if threads else ["slablab"]
    floors = ["np.add.reduce, 1 thread"] + (["np.add.reduce, 2 threads"] if threads else [])
    expected = [(name, by) for kind, names in QUERIES.items() if kind != "obb" for name in names
                for by in [*library, "textbook numba"]] + [("read-once floor", by) for by in floors]
    for dtype in ("float64",):
        for name, by in expected:
            matching = [r for r in rows if r[:4] == [name, by, dtype, "3e2"]]
            count = 2 if name == "read-once floor" else 1  # one floor per box kind
            assert len(matching) == count, (
                f"expected {count} row(s) for {name!r} run by {by!r}, {dtype}, N = 3e2 in:\n{out}")
            for cells in matching:
                assert len(cells) == 11, f"expected 11 cells, got {len(cells)}: {cells}"
                assert float(cells[4]) >= 0 and float(cells[5]) > 0, f"expected times: {cells}"
    assert len(rows) == len(expected) + len(floors), (
        f"expected no rows beyond those checked, got {len(rows)}:\n{out}")


def test_float32_rows_are_float32_and_agree_with_their_port(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numba", reason="the textbook rows need numba (pip install numba)")
    status = bench_queries.main(["--sizes", "300", "--repeat", "1", "--dtypes", "float32",
                                 "--queries", "ray", "--boxes", "obb-frame", "--no-threads"])
    out = capsys.readouterr().out
    disagreements = [line for line in out.splitlines() if line.startswith("LIBRARY")]
    assert status == 0 and not disagreements, (
        "expected the float32 library rows to agree with the port (or exact arithmetic):\n"
        + "\n".join(disagreements))
    rows = table_rows(out)
    name = QUERIES["obb-frame"][1]
    for by in ("slablab", "slablab, 1 thread", "textbook numba"):
        if by == "slablab" and bench_queries.thread_setting() is not None:
            continue
        if by == "slablab, 1 thread" and bench_queries.thread_setting() is None:
            continue
        assert [r for r in rows if r[:4] == [name, by, "float32", "3e2"]], (
            f"expected a float32 row for {name!r} run by {by!r} in:\n{out}")
    assert all(r[2] == "float32" for r in rows), f"expected float32 rows only:\n{out}"


def test_box_sphere_and_distance_rows_agree_with_their_ports(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numba", reason="the textbook rows need numba (pip install numba)")
    from benchmarks import solid_queries

    status = bench_queries.main(["--sizes", "300", "--repeat", "1", "--dtypes", "float64",
                                 "--queries", ",".join(solid_queries.QUERIES), "--no-threads",
                                 "--boxes", "aabb,obb"])  # obb-frame: more compiling, no news
    out = capsys.readouterr().out
    disagreements = [line for line in out.splitlines() if line.startswith("LIBRARY")]
    assert status == 0 and not disagreements, (
        "expected the library to agree with the ports (or exact arithmetic):\n"
        + "\n".join(disagreements))
    labels = [bench_queries.Runner(q, k, "", lambda s: None).label
              for q, k in sorted(solid_queries.ROWS) if k != "obb-frame"]
    rows = table_rows(out)
    for name in labels:
        for by in ("slablab, 1 thread", "textbook numba"):
            assert [r for r in rows if r[:4] == [name, by, "float64", "3e2"]], (
                f"expected a row for {name!r} run by {by!r} in:\n{out}")


def test_goal_table_marks_cells_within_the_goal() -> None:
    import io

    def row(query: str, kind: str, by: str, ratio: float, threads: int | None = 1
            ) -> bench_queries.Row:
        runner = bench_queries.Runner(query, kind, by, lambda s: None, threads)
        return bench_queries.Row(runner, "float64", bench_queries.GOAL_N, ratio, 1.0, 0, 0, "")

    rows = [row("segment", "aabb", "slablab, 1 thread", 0.9),
            row("segment", "aabb", "textbook numba", 9.0, None),
            row("segment", "aabb", "slablab, 2 threads", 1.1, 2),
            row("triangle", "obb", "slablab, 1 thread", 2.1),
            row("triangle", "obb", "textbook numba", 2.0, None),
            row("triangle", "obb", "slablab, 2 threads", 1.6, 2),
            row("ray", "obb-frame", "slablab, 1 thread", 1.9)]
    out = io.StringIO()
    bench_queries.print_goals(rows, out)
    lines = {line.split(" | ")[0].strip("| "): line for line in out.getvalue().splitlines()}

    assert "| goal | met, 1 thread | met, 2 threads | <= port |" in out.getvalue(), out.getvalue()
    assert lines["classify_segment_aabb"].endswith("| <= 1x | yes | no | yes |"), (
        f"expected 0.9x to meet the 1x goal (the textbook's 9x is no goal) and beat the port, "
        f"1.1x to miss it: {out.getvalue()}")
    assert lines["triangle_overlaps_obb, axes (N,3,3)"].endswith("| <= 2x | no | yes | no |"), (
        f"expected 2.1x to miss the 2x goal and the port's 2.0x, 1.6x to meet it: "
        f"{out.getvalue()}")
    assert lines["intersect_ray_obb + argmin, one (3,3) frame"].endswith(
        "| <= 2x | yes | - | - |"), (
        f"expected 1.9x to meet the 2x goal, and no 2-thread or port row: {out.getvalue()}")


def test_unknown_dtype_is_refused_with_the_option_named(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_queries.main(["--dtypes", "float16"])
    assert exit_info.value.code == 2, f"expected exit status 2, got {exit_info.value.code}"
    err = capsys.readouterr().err
    assert "--dtypes" in err and "float16" in err, f"expected --dtypes and float16 in: {err}"


@pytest.mark.parametrize("query", ["segment", "ray", "triangle", "box", "sphere", "distance"])
@pytest.mark.parametrize("kind", ["aabb", "obb", "obb-frame"])
def test_settle_sides_with_exact_arithmetic(query: str, kind: str) -> None:
    import math

    import numpy as np

    n = 40 if query in ("segment", "ray", "triangle") else 12  # the arbiter is slower there
    scene = bench_queries.make_scene(n, np.float64)
    right: Any
    wrong: Any
    truth = [bench_queries.exact_answer(query, scene, kind, i) for i in range(n)]
    if query == "distance":  # exact squared distances: their square roots, within 1 ulp
        right = np.array([math.sqrt(float(d2)) for d2 in truth])
        wrong = right.copy()
        wrong[7] += 1e-9
    elif query == "ray":
        hit = np.array([t is not None for t in truth])
        t_enter = np.array([float(t[0]) if t else np.inf for t in truth])
        right = (hit, t_enter, t_enter, bench_queries.nearest(hit, t_enter))
        flipped = hit.copy()
        flipped[7] = not flipped[7]
        wrong = (flipped, t_enter, t_enter, right[3])
    else:
        right = np.array(truth, dtype=bool if query == "triangle" else np.int8)
        wrong = right.copy()
        wrong[7] = not wrong[7] if query == "triangle" else (wrong[7] + 1) % 3

    note, problem = bench_queries.settle(query, scene, kind, right, wrong)
    assert problem is None and note and "#[7]" in note, (
        f"expected box 7 put down to the port when the library is exact: {note!r}, {problem!r}")
    note, problem = bench_queries.settle(query, scene, kind, wrong, right)
    assert note is None and problem and "[7]" in problem, (
        f"expected box 7 reported as the library's error: {note!r}, {problem!r}")
    assert bench_queries.settle(query, scene, kind, right, right) == (None, None), (
        "expected nothing to say when the results agree")


def test_exact_arbiter_on_boxes_with_known_answers() -> None:
    from benchmarks import exact_arbiter as arbiter

    box = ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    assert arbiter.segment_class(box, [0.5, 0.5, 0.5], [0.7, 0.6, 0.55]) == 2, "inside: INCLUDE"
    assert arbiter.segment_class(box, [-1, 0.5, 0.5], [0.0, 0.6, 0.55]) == 1, "ends on a face"
    assert arbiter.segment_class(box, [-1, 0.5, 0.5], [-0.1, 0.6, 0.55]) == 0, "short of it"
    assert arbiter.ray_interval(box, [-1, 0.5, 0.5], [2, 0.1, 0.1]) == (0.5, 1), "t in units of d"
    assert arbiter.ray_interval(box, [2, 0.5, 0.5], [1, 0.1, 0.1]) is None, "behind the origin"
    touching = ([1, 1, 1], [2, 1, 3], [2, 3, 1])  # touches the box at its corner (1, 1, 1)
    assert arbiter.triangle_overlaps(box, *touching), "touching at a corner counts"
    assert not arbiter.triangle_overlaps(box, *([c + 1e-9 for c in v] for v in touching)), (
        "moved off the corner: separated")
    # found by search: only edge v2-v0 x the y axis separates this triangle from the box
    only_edge_axis = ([0.0, 0.25, 1.5], [0.25, 0.75, 2.0], [2.0, 1.25, 0.75])
    assert not arbiter.triangle_overlaps(box, *only_edge_axis), (
        "separated by an edge x axis product only")



def test_peers_answer_the_listed_cases_wrongly_and_slablab_right(
        capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import peer_mistakes

    for case, peer, _, ours in peer_mistakes.rows():
        assert case.right(ours), f"expected slablab's {ours} to be the exact answer: {case.what}"
        assert not case.right(peer), f"expected {case.peer}'s {peer} to be wrong: {case.what}"
    assert peer_mistakes.main() == 0, "expected exit status 0"
    out = capsys.readouterr().out
    assert out.count("\n") == len(peer_mistakes.CASES) + 2, f"expected one row a case:\n{out}"


@pytest.mark.parametrize("cache", ["round-robin", "warm", "cold"])
def test_cache_modes_prepare_each_timed_run(cache: str, monkeypatch: pytest.MonkeyPatch) -> None:
    flushed: list[int] = []
    if cache == "cold":  # a small stand-in for the last-level cache, and a record of its reads
        monkeypatch.setattr(bench_queries, "last_level_cache_bytes", lambda: 2**20)
        reduce = bench_queries.np.add.reduce
        monkeypatch.setattr(bench_queries.np.add, "reduce",
                            lambda a, *args, **kw: flushed.append(a.nbytes) or reduce(a))
    calls: list[str] = []
    cells = [(bench_queries.Runner(q, "aabb", "fake", lambda s, q=q: calls.append(q)), "scene")
             for q in ("segment", "ray")]
    seconds = bench_queries.median_seconds(cells, 3, cache)  # type: ignore[arg-type]

    assert len(seconds) == 2 and min(seconds) >= 0, f"expected two medians, got {seconds}"
    expected = ["segment"] * 4 + ["ray"] * 4 if cache == "warm" else ["segment", "ray"] * 3
    assert calls == expected, (
        f"expected the runs round-robin, or (warm) each row's untimed and timed runs together: "
        f"{calls}")
    assert flushed == ([2 * 2**20] * 6 if cache == "cold" else []), (
        f"expected a read of twice the cache before each of the 6 timed runs: {flushed}")


def test_last_level_cache_is_a_size(capsys: pytest.CaptureFixture[str]) -> None:
    size = bench_queries.last_level_cache_bytes()
    assert size >= 2**20, f"expected a cache size of at least 1 MiB (or the default), got {size}"
    with pytest.raises(SystemExit) as exit_info:
        bench_queries.main(["--cache", "lukewarm"])
    assert exit_info.value.code == 2, f"expected exit status 2, got {exit_info.value.code}"
    err = capsys.readouterr().err
    assert "--cache" in err and "lukewarm" in err, f"expected --cache and lukewarm in: {err}"
