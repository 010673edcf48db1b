"""One item per call: every query of the library beside pyrr's ``ray_intersect_aabb``.

Run ``.venv/bin/python -m benchmarks.one_item`` (``./benchmarks/run.sh`` prints the same table
before its batched rows). Each query gets one item as a caller holding one segment, ray,
triangle, box, ball, point, plane or frustum writes it: (3,) float64 arrays, a (3, 3) frame
(a general rotation, not the identity) and Python floats for radii and offsets. The calls take
turns, ``calls`` calls each a round, pyrr's first, so that load from other processes hits them
alike; printed are the median microseconds per call over the rounds and the median (and range)
over the rounds of the ratio to pyrr's call in the same round. Each query runs interpreted first
(``set_jit(False)``), then with its filter compiled for one item, as it runs once it has answered
``_engine._COMPILE_AFTER`` items one at a time (the compilation, in the background, is waited
for between the two and its time printed: seconds where numba's cache is empty).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np
from pyrr import matrix44
from pyrr.geometric_tests import ray_intersect_aabb

import geometry
from geometry import _background, _engine

PYRR = "pyrr ray_intersect_aabb"
HEADER = ("| one item | us, interpreted | x pyrr | range | us, compiled | x pyrr | range |\n"
          "|---|--:|--:|--:|--:|--:|--:|")


def _rotation() -> np.ndarray:
    """A general rotation's rows (about z, then x), orthonormal within rounding."""
    a, b = 0.5, 0.3
    rz = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0],
                   [0.0, 0.0, 1.0]])
    rx = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(b), -math.sin(b)],
                   [0.0, math.sin(b), math.cos(b)]])
    rows: np.ndarray = rz @ rx
    return rows


def _frustum() -> geometry.Frustum:
    """A camera at (5, 3, 4) looking at the origin (the unit box is in view)."""
    view = matrix44.create_look_at(np.array([5.0, 3.0, 4.0]), np.zeros(3),
                                   np.array([0.0, 0.0, 1.0]))
    return geometry.Frustum.from_matrix(
        view @ matrix44.create_perspective_projection(60.0, 1.5, 0.1, 100.0))


def cases() -> list[tuple[str, Callable[[], object]]]:
    """pyrr's call first, then every query of the library on one item."""
    g = geometry
    lo, hi = np.array([0.0, 0.0, 0.0]), np.array([1.0, 1.0, 1.0])
    start, end = np.array([0.25, 0.5, -1.0]), np.array([0.75, 0.5, 2.0])
    origin, direction = np.array([0.25, 0.5, -1.0]), np.array([0.1, 0.0, 1.0])
    v0, v1, v2 = np.array([0.2, 0.3, -0.5]), np.array([0.9, 0.4, 1.5]), np.array([0.4, 1.2, 0.5])
    center, axes, half = np.array([0.5, 0.5, 0.5]), _rotation(), np.array([0.5, 0.5, 0.5])
    q_min, q_max = np.array([0.5, 0.2, -0.5]), np.array([1.5, 0.8, 0.5])
    q_center, q_axes = np.array([1.2, 0.5, 0.3]), np.eye(3)
    point, normal = np.array([1.5, 0.2, 0.3]), np.array([0.3, 0.4, 1.0])
    ray, box = np.array([origin, direction]), np.array([lo, hi])
    frustum = _frustum()
    return [
        (PYRR, lambda: ray_intersect_aabb(ray, box)),
        ("classify_segment_aabb", lambda: g.classify_segment_aabb(start, end, lo, hi)),
        ("intersect_ray_aabb", lambda: g.intersect_ray_aabb(origin, direction, lo, hi)),
        ("triangle_overlaps_aabb", lambda: g.triangle_overlaps_aabb(v0, v1, v2, lo, hi)),
        ("classify_segment_obb",
         lambda: g.classify_segment_obb(start, end, center, axes, half)),
        ("intersect_ray_obb",
         lambda: g.intersect_ray_obb(origin, direction, center, axes, half)),
        ("triangle_overlaps_obb",
         lambda: g.triangle_overlaps_obb(v0, v1, v2, center, axes, half)),
        ("classify_aabb_aabb", lambda: g.classify_aabb_aabb(q_min, q_max, lo, hi)),
        ("classify_aabb_obb", lambda: g.classify_aabb_obb(q_min, q_max, center, axes, half)),
        ("classify_obb_aabb", lambda: g.classify_obb_aabb(q_center, axes, half, lo, hi)),
        ("classify_obb_obb",
         lambda: g.classify_obb_obb(q_center, q_axes, half, center, axes, half)),
        ("classify_sphere_aabb", lambda: g.classify_sphere_aabb(point, 0.6, lo, hi)),
        ("classify_sphere_obb",
         lambda: g.classify_sphere_obb(point, 0.6, center, axes, half)),
        ("distance_point_aabb", lambda: g.distance_point_aabb(point, lo, hi)),
        ("distance_point_obb", lambda: g.distance_point_obb(point, center, axes, half)),
        ("plane_side_aabb", lambda: g.plane_side_aabb(normal, 0.7, lo, hi)),
        ("plane_side_obb", lambda: g.plane_side_obb(normal, 0.7, center, axes, half)),
        ("classify_aabb_frustum", lambda: g.classify_aabb_frustum(lo, hi, frustum)),
        ("classify_obb_frustum",
         lambda: g.classify_obb_frustum(center, axes, half, frustum)),
    ]


def _rounds(timed: list[tuple[str, Callable[[], object]]], rounds: int, calls: int
            ) -> dict[str, list[float]]:
    """Microseconds per call, each round ``calls`` calls of each case in turn."""
    runs: dict[str, list[float]] = {name: [] for name, _ in timed}
    for _ in range(rounds):
        for name, call in timed:
            t0 = time.perf_counter()
            for _ in range(calls):
                call()
            runs[name].append((time.perf_counter() - t0) / calls * 1e6)
    return runs


def table(rounds: int = 7, calls: int = 2000, out: TextIO | None = None, compiled: bool = True
          ) -> dict[str, tuple[float, float]]:
    """Print the table (module docstring) and return {name: (median us per call interpreted,
    compiled)}: first every call interpreted (``set_jit(False)``), then, once each query has
    made the one-item calls after which its filter compiles and the compilations are done
    (:mod:`geometry._background`), with the compiled filter (not with ``compiled=False``: its
    columns then say ``-``, and the result NaN)."""
    out = out or sys.stdout
    timed = cases()
    geometry.set_jit(False)
    try:
        for _, call in timed:  # warm up (imports, the work of the first calls)
            for _ in range(100):
                call()
        plain = _rounds(timed, rounds, calls)
        if compiled:  # the calls that make each filter compile once jit is on again
            for _, call in timed:
                for _ in range(_engine._COMPILE_AFTER):
                    call()
    finally:
        geometry.set_jit(True)
    t0 = time.perf_counter()
    _background.wait()
    wait = time.perf_counter() - t0
    fast = _rounds(timed, rounds, calls) if compiled else {}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"one item: {rounds} rounds of {calls} calls, load average {load:.2f}; pyrr's call "
          f"{statistics.median(plain[PYRR]):.2f} us"
          + (f"; the filters compiled for one item after the interpreted rounds in {wait:.2f} s"
             if compiled else ""), file=out)
    print(HEADER, file=out)
    us = {}
    for name in plain:
        row = []
        for runs in (plain, fast):
            if not runs:
                row.append("- | - | -")
                continue
            ratios = [t / p for t, p in zip(runs[name], runs[PYRR], strict=True)]
            row.append(f"{statistics.median(runs[name]):.2f} | {statistics.median(ratios):.2f} "
                       f"| {min(ratios):.2f}–{max(ratios):.2f}")
        print(f"| {name} | {' | '.join(row)} |", file=out)
        us[name] = (statistics.median(plain[name]),
                    statistics.median(fast[name]) if fast else math.nan)
    print(file=out, flush=True)
    return us


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.one_item",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--calls", type=int, default=2000, help="calls a round (default 2000)")
    parser.add_argument("--interpreted-only", action="store_true",
                        help="leave out the rounds with the filters compiled for one item")
    args = parser.parse_args(argv)
    table(args.rounds, args.calls, compiled=not args.interpreted_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
