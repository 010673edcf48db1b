"""Time BoxTree against Warp's CPU BVH, python-fcl and rtree on the same data, side by side.

Run ``.venv/bin/python -m benchmarks.bench_tree`` from the checkout (``--help`` for options).
Two tables. **Rays**: N float32 boxes with centres uniform in the unit cube and half-sizes
uniform in 0.0005-0.005 per axis; M rays from uniform points in the cube along uniform random
directions; build + ``nearest_ray_hits`` against Warp. **Boxes** (:func:`measure_boxes`): N
float32 boxes, centres uniform, half-sizes 0.0005-0.003 (the scene of the broad-phase issue);
``self_pairs`` against Warp and python-fcl, ``refit`` against a build (and Warp's), and
``box_pairs`` of M query boxes like them against rtree and Warp, and ``nearest_boxes`` (k = 8)
of M uniform points against rtree (:mod:`benchmarks.tree_peers`). The ``pairs`` column counts
the pairs each engine found; for nearest boxes it is the share of points whose k boxes are
BoxTree's (rtree breaks ties its own way).

The rays table has one Markdown row per (N, M, engine):

- ``build s`` / ``query s``: median wall time over ``--repeat`` runs (runs of the two engines
  alternate, so load from other processes hits both alike); compilation is excluded (each
  engine runs once on a small scene first);
- ``total s``: build + query, and ``x warp``: total / Warp's total in the same run (< 1 is
  faster than Warp);
- ``agree``: the share of rays where Warp's nearest box is ours (Warp's float32 slab test may
  differ on near-ties; BoxTree's answers are the per-box functions', exactly).

The boxes table's ``ratio`` is, on a peer's row, BoxTree's total / the peer's total (< 1:
BoxTree is faster); on a ``refit`` row, the refit's time / that engine's build time.

Warp (``pip install warp-lang``, CPU, no GPU needed), python-fcl and rtree are benchmark-only
dependencies (the ``bench`` extra): without one its rows are skipped and the script says so.
The Warp side of the rays table is its ``wp.Bvh`` build and a kernel that walks
``bvh_query_ray`` / ``bvh_query_next`` with a shrinking ``max_dist``, testing each reported box
with a float32 slab test: the nearest hit, the lowest index on ties.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.tree_peers import FclBoxes, RtreeBoxes, WarpBoxes, load
from geometry import BoxTree

SEED = 20261123
HALF_SIZE_RANGE = (0.0005, 0.005)
BOX_HALF_SIZE_RANGE = (0.0005, 0.003)
NEAREST_K = 8
BOX_HEADER = ("| N | M | query | engine | build s | query s | total s | ratio | pairs |\n"
              "|---|---|---|---|---|---|---|---|---|")
HEADER = ("| N | M | engine | build s | query s | total s | x warp | hits | agree |\n"
          "|---|---|---|---|---|---|---|---|---|")


def scene(n: int, m: int, seed: int = SEED) -> tuple[np.ndarray, ...]:
    """``(box_min, box_max, origin, direction)``, float32."""
    rng = np.random.default_rng(seed)
    centre = rng.random((n, 3), dtype=np.float32)
    half = rng.uniform(*HALF_SIZE_RANGE, size=(n, 3)).astype(np.float32)
    origin = rng.random((m, 3), dtype=np.float32)
    direction = rng.normal(size=(m, 3)).astype(np.float32)
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    return centre - half, centre + half, origin, direction


def run_tree(box_min: np.ndarray, box_max: np.ndarray, origin: np.ndarray,
             direction: np.ndarray) -> tuple[float, float, np.ndarray]:
    t0 = time.perf_counter()
    tree = BoxTree(box_min, box_max)
    t1 = time.perf_counter()
    index, _ = tree.nearest_ray_hits(origin, direction)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, np.asarray(index)


class WarpBvh:
    """Warp's CPU BVH build and a nearest-hit query kernel."""

    def __init__(self) -> None:
        import warp as wp

        wp.config.quiet = True
        wp.init()
        self.wp = wp

        @wp.kernel
        def nearest(bvh: wp.uint64, lowers: wp.array(dtype=wp.vec3),  # type: ignore[misc]
                    uppers: wp.array(dtype=wp.vec3), origins: wp.array(dtype=wp.vec3),
                    directions: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.int32)):
            r = wp.tid()
            o = origins[r]
            d = directions[r]
            inv = wp.vec3(1.0 / d[0], 1.0 / d[1], 1.0 / d[2])
            # warp needs float() / int() to declare variables a loop may change
            best_t = float(1.0e30)  # noqa: UP018
            best = int(-1)  # noqa: UP018
            index = int(0)  # noqa: UP018
            query = wp.bvh_query_ray(bvh, o, d)
            while wp.bvh_query_next(query, index, best_t):
                lo = lowers[index]
                hi = uppers[index]
                t_enter = float(0.0)  # noqa: UP018
                t_exit = float(1.0e30)  # noqa: UP018
                for a in range(3):
                    ta = (lo[a] - o[a]) * inv[a]
                    tb = (hi[a] - o[a]) * inv[a]
                    t_enter = wp.max(t_enter, wp.min(ta, tb))
                    t_exit = wp.min(t_exit, wp.max(ta, tb))
                if t_enter <= t_exit:
                    if t_enter < best_t or (t_enter == best_t and index < best):
                        best_t = t_enter
                        best = index
            out[r] = best

        self.kernel = nearest

    def run(self, box_min: np.ndarray, box_max: np.ndarray, origin: np.ndarray,
            direction: np.ndarray) -> tuple[float, float, np.ndarray]:
        wp = self.wp
        lowers = wp.array(box_min, dtype=wp.vec3, device="cpu")
        uppers = wp.array(box_max, dtype=wp.vec3, device="cpu")
        origins = wp.array(origin, dtype=wp.vec3, device="cpu")
        directions = wp.array(direction, dtype=wp.vec3, device="cpu")
        out = wp.empty(len(origin), dtype=wp.int32, device="cpu")
        t0 = time.perf_counter()
        bvh = wp.Bvh(lowers, uppers)
        wp.synchronize()
        t1 = time.perf_counter()
        wp.launch(self.kernel, dim=len(origin), inputs=[bvh.id, lowers, uppers, origins,
                                                         directions, out], device="cpu")
        wp.synchronize()
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, out.numpy().astype(np.int64)


def load_warp() -> WarpBvh | None:
    try:
        return WarpBvh()
    except ImportError:
        return None


def measure(n: int, m: int, repeat: int, warp: WarpBvh | None) -> list[str]:
    data = scene(n, m)
    engines: dict[str, Callable[..., tuple[float, float, np.ndarray]]] = {"BoxTree": run_tree}
    if warp is not None:
        engines["warp"] = warp.run
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
    index: dict[str, Any] = {}
    for _ in range(repeat):
        for name, run in engines.items():
            build, query, index[name] = run(*data)
            times[name].append((build, query))
    medians = {name: (statistics.median(b for b, _ in t), statistics.median(q for _, q in t))
               for name, t in times.items()}
    rows = []
    for name, (build, query) in medians.items():
        total = build + query
        ratio = agree = "-"
        if warp is not None:
            warp_total = sum(medians["warp"])
            ratio = f"{total / warp_total:.2f}"
            agree = f"{np.mean(index[name] == index['warp']):.4f}"
        hits = int(np.count_nonzero(index[name] >= 0))
        rows.append(f"| {n:.0e} | {m:.0e} | {name} | {build:.3f} | {query:.3f} | {total:.3f} "
                    f"| {ratio} | {hits} | {agree} |".replace("e+0", "e"))
    return rows


def box_scene(n: int, m: int, seed: int = SEED) -> tuple[np.ndarray, ...]:
    """``(box_min, box_max, moved_min, moved_max, q_min, q_max)``, float32: N boxes, the same
    moved by up to 0.01 per axis, and M query boxes like them."""
    rng = np.random.default_rng(seed)

    def boxes(k: int) -> tuple[np.ndarray, np.ndarray]:
        centre = rng.random((k, 3), dtype=np.float32)
        half = rng.uniform(*BOX_HALF_SIZE_RANGE, size=(k, 3)).astype(np.float32)
        return centre - half, centre + half

    lo, hi = boxes(n)
    shift = rng.uniform(-0.01, 0.01, (n, 3)).astype(np.float32)
    return (lo, hi, lo + shift, hi + shift) + boxes(m)


def _timed(build: Callable[[], Any], query: Callable[[Any], Any]) -> tuple[float, float, Any]:
    t0 = time.perf_counter()
    built = build()
    t1 = time.perf_counter()
    result = query(built)
    return t1 - t0, time.perf_counter() - t1, result


def _side_by_side(runs: dict[str, Callable[[], tuple[float, float, Any]]], repeat: int
                  ) -> dict[str, tuple[float, float, Any]]:
    """Each run ``repeat`` times, alternating: ``{name: (median build s, median query s, the
    last result)}``."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    result: dict[str, Any] = {}
    for _ in range(repeat):
        for name, run in runs.items():
            build, query, result[name] = run()
            times[name].append((build, query))
    return {name: (statistics.median(b for b, _ in t), statistics.median(q for _, q in t),
                   result[name]) for name, t in times.items()}


def _box_rows(n: int, m: int, query: str, medians: dict[str, tuple[float, float, Any]],
              ratio: Callable[[str, float, float], float]) -> list[str]:
    return [f"| {n:.0e} | {m:.0e} | {query} | {name} | {build:.3f} | {took:.3f} "
            f"| {build + took:.3f} | {ratio(name, build, took):.2f} | {pairs} |"
            .replace("e+0", "e") for name, (build, took, pairs) in medians.items()]


def measure_boxes(n: int, m: int, repeat: int, peers: dict[str, Any]) -> list[str]:
    """The boxes table's rows for N boxes and M query boxes (``peers``: the loaded ones)."""
    lo, hi, moved_lo, moved_hi, q_lo, q_hi = box_scene(n, m)
    warp, fcl, rtree = peers.get("warp"), peers.get("fcl"), peers.get("rtree")

    def versus_tree(medians: dict[str, tuple[float, float, Any]]
                    ) -> Callable[[str, float, float], float]:
        return lambda name, build, took: sum(medians["BoxTree"][:2]) / (build + took)

    runs: dict[str, Callable[[], tuple[float, float, Any]]] = {
        "BoxTree": lambda: _timed(lambda: BoxTree(lo, hi), lambda t: len(t.self_pairs().i))}
    if warp is not None:
        runs["warp"] = lambda: warp.pairs(lo, hi)
    if fcl is not None:
        runs["fcl"] = lambda: fcl.self_pairs(lo, hi)
    medians = _side_by_side(runs, repeat)
    rows = _box_rows(n, n, "self_pairs", medians, versus_tree(medians))

    def tree_refit() -> tuple[float, float, Any]:
        return _timed(lambda: BoxTree(lo, hi), lambda t: t.refit(moved_lo, moved_hi))

    refits: dict[str, Callable[[], tuple[float, float, Any]]] = {"BoxTree": tree_refit}
    if warp is not None:
        refits["warp"] = lambda: warp.refit(lo, hi, moved_lo, moved_hi) + ("-",)
    medians = _side_by_side(refits, repeat)
    rows += _box_rows(n, 0, "refit", {k: (b, q, "-") for k, (b, q, _) in medians.items()},
                      lambda name, build, took: took / build)

    runs = {"BoxTree": lambda: _timed(lambda: BoxTree(lo, hi),
                                      lambda t: len(t.box_pairs(q_lo, q_hi).box_index))}
    if rtree is not None:
        runs["rtree"] = lambda: rtree.box_pairs(lo, hi, q_lo, q_hi)
    if warp is not None:
        runs["warp"] = lambda: warp.pairs(lo, hi, q_lo, q_hi)
    medians = _side_by_side(runs, repeat)
    rows += _box_rows(n, m, "box_pairs", medians, versus_tree(medians))

    points = q_lo  # the query boxes' corners: points uniform in the cube
    nearest: dict[str, Callable[[], tuple[float, float, Any]]] = {
        "BoxTree": lambda: _timed(lambda: BoxTree(lo, hi),
                                  lambda t: t.nearest_boxes(points, NEAREST_K).box_index)}
    if rtree is not None:
        nearest["rtree"] = lambda: rtree.nearest(lo, hi, points, NEAREST_K)
    medians = _side_by_side(nearest, repeat)
    ours = medians["BoxTree"][2]
    agree = {name: f"agree {np.mean(np.all(index == ours, axis=1)):.4f}"
             for name, (_, _, index) in medians.items()}
    rows += _box_rows(n, m, f"nearest_boxes k={NEAREST_K}",
                      {name: (b, q, agree[name]) for name, (b, q, _) in medians.items()},
                      versus_tree(medians))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, nargs="+", default=[1e6], help="box counts")
    parser.add_argument("--m", type=float, nargs="+", default=[1e4], help="ray counts")
    parser.add_argument("--scaling", action="store_true",
                        help="N in 1e4..1e7 at M = 1e4, then M in 1e3..1e5 at N = 1e6")
    parser.add_argument("--boxes", type=float, nargs="*", default=[1e6],
                        help="box counts of the boxes table (none: no boxes table)")
    parser.add_argument("--queries", type=float, default=1e5,
                        help="query boxes (box_pairs) and points (nearest_boxes)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    cases = [(int(n), int(m)) for n in args.n for m in args.m]
    if args.scaling:
        cases = ([(10**k, 10**4) for k in range(4, 8)]
                 + [(10**6, 10**k) for k in (3, 5)])
    warp = load_warp()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          + ("warp " + warp.wp.__version__ if warp else "warp not installed"))
    if warp is None:
        print("warp-lang is not installed (pip install warp-lang): the Warp rows are skipped",
              file=sys.stderr)
    # compile both engines outside the timings
    small = scene(1000, 10)
    run_tree(*small)
    if warp is not None:
        warp.run(*small)
    print(HEADER)
    for n, m in cases:
        for row in measure(n, m, args.repeat, warp):
            print(row, flush=True)
    if args.boxes:
        peers = {name: peer for name, peer in (("warp", load(WarpBoxes)), ("fcl", load(FclBoxes)),
                                               ("rtree", load(RtreeBoxes))) if peer is not None}
        print(f"\npeers: {', '.join(peers) or 'none installed'}")
        for name, peer in peers.items():  # compile / warm up outside the timings
            measure_boxes(500, 50, 1, {name: peer})
        print(BOX_HEADER)
        for n in args.boxes:
            for row in measure_boxes(int(n), int(args.queries), args.repeat, peers):
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
