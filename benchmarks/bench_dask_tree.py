"""BoxTree over dask arrays read from memory-mapped ``.npy`` files, on a 2-process LocalCluster.

Run ``.venv/bin/python -m benchmarks.bench_dask_tree`` from the checkout (the full run: 10^8
float32 boxes, 2.4 GB of files, and 10^7 for the pairs; many minutes) or with ``--boxes 1e6
--pair-boxes 1e5`` for a small one. The files go to a temporary folder (``--dir``), removed
at the end whatever happens.

The boxes' centres are uniform in the unit cube, their half sizes uniform in 0.0005-0.003
times ``(1e6 / N) ** (1/3)`` (small: a box touches about 0.17 others on average, at every
N). Each chunk is read from the files by the worker that builds its tree,
so no process holds all the boxes. It prints, each time once:

- ``build``: ``BoxTree(box_min, box_max)`` over the dask arrays, the trees kept on the workers;
- ``nearest_ray_hits``: ``--rays`` rays (origins in the cube, random directions), every
  chunk's tree asked, the answers merged;
- ``build + self_pairs``: a tree over ``--pair-boxes`` boxes (their own files) and all its
  touching pairs;

and, with ``--check`` (the default up to 10^6 boxes), that every answer equals the in-memory
tree's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import sys
import tempfile
import time
from typing import Any

import numpy as np

from geometry import BoxTree

SEED = 20261126
WRITE_BLOCK = 10**7


def write_boxes(folder: str, name: str, n: int) -> tuple[str, str]:
    """Two (n, 3) float32 ``.npy`` files of small boxes in the unit cube, block by block."""
    rng = np.random.default_rng(SEED + n)
    scale = (1e6 / n) ** (1 / 3)
    paths = os.path.join(folder, f"{name}_min.npy"), os.path.join(folder, f"{name}_max.npy")
    lo = np.lib.format.open_memmap(paths[0], mode="w+", dtype=np.float32, shape=(n, 3))
    hi = np.lib.format.open_memmap(paths[1], mode="w+", dtype=np.float32, shape=(n, 3))
    for start in range(0, n, WRITE_BLOCK):
        stop = min(n, start + WRITE_BLOCK)
        centre = rng.random((stop - start, 3), dtype=np.float32)
        half = (rng.uniform(0.0005, 0.003, (stop - start, 3)) * scale).astype(np.float32)
        lo[start:stop] = centre - half
        hi[start:stop] = centre + half
    lo.flush()
    hi.flush()
    del lo, hi
    return paths


def _read(path: str, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop`` of a ``.npy`` file, read on the worker that runs it."""
    return np.array(np.load(path, mmap_mode="r")[start:stop])


def from_files(path: str, n: int, chunk: int) -> Any:
    """The (n, 3) float32 file as a dask array whose chunks the workers read themselves."""
    import dask
    import dask.array as da

    read = dask.delayed(_read, pure=True)
    return da.concatenate([da.from_delayed(read(path, s, min(n, s + chunk)),
                                           (min(n, s + chunk) - s, 3), np.float32)
                           for s in range(0, n, chunk)])


def _warm() -> None:
    """Compile the build and the walks on a worker (numba), before the clock starts."""
    rng = np.random.default_rng(0)
    lo = rng.random((64, 3), dtype=np.float32)
    tree = BoxTree(lo, lo + np.float32(0.1))
    tree.nearest_ray_hits(rng.random((4, 3)), rng.normal(size=(4, 3)))
    tree.self_pairs()
    tree.box_pairs(lo, lo + np.float32(0.1))


def _timed(f: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = f(*args)
    return out, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=float, default=1e8, help="boxes of the ray run")
    parser.add_argument("--pair-boxes", type=float, default=1e7, help="boxes of self_pairs")
    parser.add_argument("--rays", type=float, default=1e4, help="nearest-ray queries")
    parser.add_argument("--chunk", type=float, default=5e6, help="boxes per dask chunk")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster processes")
    parser.add_argument("--memory", default="9GB",
                        help="per worker: the nanny ends a worker past 95%% of it")
    parser.add_argument("--dir", default=None, help="where the temporary files go")
    parser.add_argument("--check", action=argparse.BooleanOptionalAction, default=None,
                        help="compare with the in-memory tree (default: up to 1e6 boxes)")
    args = parser.parse_args(argv)
    try:
        import dask
        from dask.distributed import Client, LocalCluster, default_client
    except ImportError:
        print("dask is not installed: pip install 'slablab[dask]'", file=sys.stderr)
        return 1
    n, n_pairs, m, chunk = (int(x) for x in (args.boxes, args.pair_boxes, args.rays, args.chunk))
    # the trees stay in the workers' memory: no spilling, pausing or early ends
    dask.config.set({"distributed.worker.memory.target": False,
                     "distributed.worker.memory.spill": False,
                     "distributed.worker.memory.pause": False})
    check = max(n, n_pairs) <= 10**6 if args.check is None else args.check
    rng = np.random.default_rng(SEED)
    origin = rng.random((m, 3))
    direction = rng.normal(size=(m, 3))
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(
            prefix="slablab-bench-dask-tree-", dir=args.dir))
        try:
            client = default_client()  # a caller's client (the smoke test's cluster)
        except ValueError:
            cluster = stack.enter_context(LocalCluster(
                n_workers=args.workers, threads_per_worker=1, processes=True,
                memory_limit=args.memory, dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        client.run(_warm)
        print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} "
              f"cores, numpy {np.__version__}, dask {dask.__version__}; "
              f"{len(client.scheduler_info()['workers'])} dask worker processes, chunks of "
              f"{chunk:.0e} float32 boxes read from .npy memmaps by the workers")
        print("| boxes | queries | step | s | answer |\n|---|---|---|---|---|")
        paths = write_boxes(folder, "rays", n)
        lo, hi = (from_files(p, n, chunk) for p in paths)
        tree, t_build = _timed(BoxTree, lo, hi)
        print(f"| {n:.0e} | | build ({len(tree._trees)} trees) | {t_build:.2f} | |", flush=True)
        hits, t_rays = _timed(tree.nearest_ray_hits, origin, direction)
        print(f"| {n:.0e} | {m:.0e} | nearest_ray_hits | {t_rays:.2f} | "
              f"{int((hits.box_index >= 0).sum())} rays hit |", flush=True)
        if check:
            local = BoxTree(*(np.load(p) for p in paths))
            want = local.nearest_ray_hits(origin, direction)
            assert all(np.array_equal(g, w) for g, w in zip(hits, want, strict=True)), \
                "the dask tree's nearest hits differ from the in-memory tree's"
        del tree
        for p in paths:
            os.remove(p)
        paths = write_boxes(folder, "pairs", n_pairs)
        lo, hi = (from_files(p, n_pairs, chunk) for p in paths)
        tree, t_build = _timed(BoxTree, lo, hi)
        pairs, t_pairs = _timed(tree.self_pairs)
        print(f"| {n_pairs:.0e} | | build + self_pairs ({len(tree._trees)} trees) | "
              f"{t_build:.2f} + {t_pairs:.2f} | {len(pairs.i)} pairs |", flush=True)
        if check:
            want_pairs = BoxTree(*(np.load(p) for p in paths)).self_pairs()
            assert all(np.array_equal(g, w) for g, w in zip(pairs, want_pairs, strict=True)), \
                "the dask tree's self pairs differ from the in-memory tree's"
            print("answers equal the in-memory tree's")
        del tree
    return 0


if __name__ == "__main__":
    sys.exit(main())
