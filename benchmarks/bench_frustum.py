"""Time frustum culling of N random boxes against the read-once floor, and count what the
plane-only test keeps that lies outside.

Run ``.venv/bin/python -m benchmarks.bench_frustum`` (N = 10^6, float64, about a minute).
The scene: N boxes, corners uniform in [-100, 100]^3, sizes uniform in [0, 3]; the camera: pyrr's
``create_look_at`` from (5, 3, 4) towards the origin, z up, times a 60 degree, 1.5 aspect,
0.1 .. 100 perspective projection.

- ``median ms`` over ``--repeat`` rounds, round-robin over every row so load from other
  processes hits them alike; ``x floor``: that over the one-core read-once floor
  (``np.add.reduce`` over ``box_min`` and ``box_max``), as in ``bench_queries``.
- ``exact / conservative``: classify_aabb_frustum over its ``conservative=True`` twin, both on
  two threads (the issue's goal: at most 1.2).
- ``one item``: one box per call, against pyrr's ``geometric_tests.ray_intersect_aabb`` per call
  (the issue's yardstick: at most 2x).
- ``kept outside``: boxes the plane-only test calls INTERSECT that share no point with the
  frustum (exact NONE).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np


def camera() -> np.ndarray:
    from pyrr import matrix44

    view = matrix44.create_look_at(np.array([5.0, 3.0, 4.0]), np.zeros(3),
                                   np.array([0.0, 0.0, 1.0]))
    return view @ matrix44.create_perspective_projection(60.0, 1.5, 0.1, 100.0)


def scene(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-100.0, 100.0, (n, 3))
    return lo, lo + rng.uniform(0.0, 3.0, (n, 3))


def _median_ms(calls: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: 1e3 * statistics.median(t) for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    import geometry
    from geometry import Frustum, classify_aabb_frustum

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--one-item-rounds", type=int, default=2000)
    args = parser.parse_args(argv)
    n = int(args.n)
    lo, hi = scene(n)
    frustum = Frustum.from_matrix(camera())
    exact = classify_aabb_frustum(lo, hi, frustum)  # compiles, and the counts
    planes = classify_aabb_frustum(lo, hi, frustum, conservative=True)
    kept = int(np.sum((planes != 0) & (exact == 0)))

    pool = ThreadPoolExecutor(2)

    def floor() -> float:
        return float(np.add.reduce(lo, axis=None) + np.add.reduce(hi, axis=None))

    def floor2() -> float:
        halves = [(lo[: n // 2], hi[: n // 2]), (lo[n // 2:], hi[n // 2:])]
        return sum(pool.map(lambda p: float(np.add.reduce(p[0], axis=None)
                                            + np.add.reduce(p[1], axis=None)), halves))

    out = np.empty(n, np.int8)
    geometry.set_num_threads(2)
    ms = _median_ms({
        "floor, 1 thread": floor,
        "floor, 2 threads": floor2,
        "classify_aabb_frustum, 2 threads": lambda: classify_aabb_frustum(lo, hi, frustum,
                                                                          out=out),
        "conservative=True, 2 threads": lambda: classify_aabb_frustum(
            lo, hi, frustum, conservative=True, out=out),
    }, args.repeat)
    print(f"machine: {sys.platform}, numpy {np.__version__}, N = {n:.0e}, float64")
    print("| row | median ms | x floor |\n|---|---|---|")
    for name, t in ms.items():
        print(f"| {name} | {t:.2f} | {t / ms['floor, 1 thread']:.2f} |")
    ratio = ms["classify_aabb_frustum, 2 threads"] / ms["conservative=True, 2 threads"]
    print(f"exact / conservative: {ratio:.2f}")

    if args.one_item_rounds:
        from pyrr import geometric_tests, ray

        box = (lo[0].tolist(), hi[0].tolist())
        r = ray.create(np.zeros(3), np.ones(3) / np.sqrt(3.0))
        aabb = np.array([lo[0], hi[0]])
        one = _median_ms({
            "one item": lambda: [classify_aabb_frustum(box[0], box[1], frustum)
                                 for _ in range(100)],
            "pyrr": lambda: [geometric_tests.ray_intersect_aabb(r, aabb) for _ in range(100)],
        }, max(1, args.one_item_rounds // 100))
        print(f"one item: {10 * one['one item']:.2f} us a call, pyrr ray_intersect_aabb "
              f"{10 * one['pyrr']:.2f} us: {one['one item'] / one['pyrr']:.2f}x")
    counts = np.bincount(exact, minlength=3).tolist()
    print(f"classes (NONE, INTERSECT, INCLUDE): exact {counts}, plane-only "
          f"{np.bincount(planes, minlength=3).tolist()}")
    print(f"kept outside: {kept} boxes the plane-only test keeps lie outside the frustum")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
