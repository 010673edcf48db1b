"""Stream boxes from memory-mapped ``.npy`` files through dask; compare boxes/s with numpy.

Run ``.venv/bin/python -m benchmarks.bench_dask`` from the checkout (10^7 boxes, about a
minute) or with ``--n 1e8`` (two 1.2 GB files in float32; a few minutes). The boxes are
written to a temporary folder, which is removed at the end whatever happens.

For each query (one ray, one segment against every box) it prints:

- ``numpy``: the public function on in-memory arrays (loaded before the clock starts);
- ``dask``: the same call on ``da.from_array(np.load(path, mmap_mode="r"), chunks=...)``,
  reduced to the number of hits / non-NONE boxes and the smallest ``t_enter`` (one graph),
  run on dask's threaded scheduler: the boxes are read from the files (the page cache,
  having just been written) chunk by chunk, never all in memory at once;
- ``boxes/s`` and ``x numpy`` (dask's time over numpy's), and the two answers, which must agree.

Each figure is the best of ``--repeat`` runs after an untimed one.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from geometry import classify_segment_aabb, intersect_ray_aabb

SEED = 20261124
WRITE_BLOCK = 10**7


def write_boxes(folder: str, n: int) -> tuple[str, str]:
    """Two (n, 3) float32 ``.npy`` files of boxes in the unit cube, written block by block."""
    rng = np.random.default_rng(SEED)
    paths = os.path.join(folder, "box_min.npy"), os.path.join(folder, "box_max.npy")
    lo = np.lib.format.open_memmap(paths[0], mode="w+", dtype=np.float32, shape=(n, 3))
    hi = np.lib.format.open_memmap(paths[1], mode="w+", dtype=np.float32, shape=(n, 3))
    for start in range(0, n, WRITE_BLOCK):
        stop = min(n, start + WRITE_BLOCK)
        centre = rng.random((stop - start, 3), dtype=np.float32)
        half = rng.uniform(0.0005, 0.005, (stop - start, 3)).astype(np.float32)
        lo[start:stop] = centre - half
        hi[start:stop] = centre + half
    lo.flush()
    hi.flush()
    del lo, hi
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="boxes (1e8 for the full run)")
    parser.add_argument("--chunk", type=float, default=2e6, help="boxes per dask chunk")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs (the best is shown)")
    parser.add_argument("--no-numpy", action="store_true",
                        help="skip the in-memory numpy rows (they hold all boxes in memory)")
    args = parser.parse_args(argv)
    try:
        import dask
        import dask.array as da
    except ImportError:
        print("dask is not installed: pip install 'slablab[dask]'", file=sys.stderr)
        return 1
    n, chunk = int(args.n), int(args.chunk)
    origin = np.array([-0.1, 0.45, 0.55], np.float32)
    direction = np.array([1.0, 0.13, -0.07], np.float32)
    end = origin + direction
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numpy {np.__version__}, dask {dask.__version__}; N = {n:.0e} float32 boxes, "
          f"dask chunks of {chunk:.0e}, threaded scheduler")
    print("| query | engine | s | boxes/s | x numpy | answer |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="slablab-bench-dask-") as folder:
        paths = write_boxes(folder, n)
        queries = {
            "intersect_ray_aabb": lambda lo, hi: intersect_ray_aabb(origin, direction, lo, hi),
            "classify_segment_aabb": lambda lo, hi: classify_segment_aabb(origin, end, lo, hi),
        }
        memory = None if args.no_numpy else [np.load(p) for p in paths]
        lazy_boxes = [da.from_array(np.load(p, mmap_mode="r"), chunks=(chunk, 3)) for p in paths]
        for name, query in queries.items():
            rows = {}
            if memory is not None:
                rows["numpy"] = _best(args.repeat, _summary, query, memory)
            rows["dask (mmap .npy)"] = _best(args.repeat, _lazy_summary, query, lazy_boxes)
            answer = rows["dask (mmap .npy)"][1]
            base = rows.get("numpy", (None,))[0]
            for engine, (seconds, ans) in rows.items():
                ratio = f"{seconds / base:.2f}" if base else "-"
                print(f"| {name} | {engine} | {seconds:.2f} | {n / seconds:.3g} | {ratio} "
                      f"| {ans} |", flush=True)
            if memory is not None and rows["numpy"][1] != answer:
                print(f"{name}: dask and numpy disagree", file=sys.stderr)
                return 1
    return 0


def _best(repeat: int, summary: Callable[..., tuple[float, ...]], query: Callable[..., Any],
          boxes: list[Any]) -> tuple[float, tuple[float, ...]]:
    """The fastest of ``repeat`` timed runs of ``summary(query(*boxes))`` (after an untimed
    one: compilation, thread pools, first page faults), and its answer."""
    answer = summary(query(*boxes))
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        answer = summary(query(*boxes))
        times.append(time.perf_counter() - t0)
    return min(times), answer


def _lazy_summary(lazy: Any) -> tuple[float, ...]:
    """The hits (or non-NONE boxes) and smallest ``t_enter`` of a lazy result, one graph."""
    import dask

    parts = ((lazy.hit.sum(), lazy.t_enter.min()) if isinstance(lazy, tuple)
             else ((lazy != 0).sum(),))
    return tuple(float(x) for x in dask.compute(*parts, scheduler="threads"))


def _summary(result: object) -> tuple[float, ...]:
    if isinstance(result, tuple):
        hit, t_enter = np.asarray(result[0]), np.asarray(result[1])
        return float(np.count_nonzero(hit)), float(t_enter.min())
    return (float(np.count_nonzero(result)),)


if __name__ == "__main__":
    sys.exit(main())
