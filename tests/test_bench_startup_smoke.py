"""Smoke test of the start-up benchmark: the numba floor row, measured in fresh interpreters.

No timing is asserted; the real run is ``python -m benchmarks.bench_startup`` (its docstring).
"""

import re

import pytest

from benchmarks import bench_startup  # from the checkout (pytest's pythonpath), not installed


def test_floor_row_has_five_times(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numba", reason="the floor row times numba (pip install numba)")
    status = bench_startup.main(["--kinds", ""])  # the floor alone: no loop compiled
    out = capsys.readouterr().out
    assert status == 0, f"expected exit status 0, got {status}"
    rows = [line for line in out.splitlines() if line.startswith("| numba floor |")]
    assert len(rows) == 1, f"expected one numba floor row in:\n{out}"
    cells = [c.strip() for c in rows[0].strip("|").split("|")][1:]
    assert all(re.fullmatch(r"\d+\.\d\d", c) for c in cells), (
        f"expected five times in seconds, got {cells}")
