"""Time the first call of each kind in a new process: with numba's cache empty, then warm.

Run ``.venv/bin/python -m benchmarks.bench_startup`` (or ``./benchmarks/run_queries.sh
--startup``, after the query tables). Each kind runs in fresh interpreters sharing one
``NUMBA_CACHE_DIR``, empty at first: the ``cold`` run compiles and writes the cache, the ``warm``
runs load it. A row is the kind's first batched call (1000 items, float64), ``BoxTree`` its
build (over the same 1000 boxes) and first ``nearest_ray_hits``, ``BoxTree.<method>`` the
build and that method (``from_obbs``: an OBB tree's build and ``nearest_ray_hits``); ``import
geometry`` and building the inputs are timed apart (not in the row). The ``numba floor`` row is
numba's own share of any first call: ``import numba`` and the first call of a trivial
``cache=True`` function (warm), in the same way.

- ``cold s`` / ``warm s``: wall time, the median over ``--repeat`` processes (cold: each with an
  empty cache of its own); the range beside it when ``--repeat`` > 1.
- ``cold CPU s`` / ``warm CPU s``: the process's CPU time over the same call (all its threads):
  on a shared machine wall time grows with the load, CPU time much less.
- ``cold, compiled s``: from the same start until the kind's loop (and its second pass, where it
  has one) is compiled. A first batch this small runs interpreted while they compile in a
  background thread (``geometry._background``), so ``cold s`` is the interpreter's time and
  this column the compilation's (a first batch of more than ``INTERPRETED_FIRST`` items waits
  for the loop). A tree's build and walks run interpreted in the same way while they compile
  (:class:`geometry._background.Tiered`); the floor compiles in the call itself.
- goals (issue 39): cold at most 1 s, warm at most 0.5 s, wall time on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SETUP = """
import numpy as np
rng = np.random.default_rng(1)
n = 1000
c = rng.random((n, 3))
h = rng.random((n, 3)) * 0.01
lo, hi = c - h, c + h
axes = np.broadcast_to(np.eye(3), (n, 3, 3)).copy()
from pyrr import matrix44
frustum = g.Frustum.from_matrix(
    matrix44.create_look_at(np.array([.5, .5, 3.]), np.array([.5, .5, 0.]), np.array([0., 1., 0.]))
    @ matrix44.create_perspective_projection(60.0, 1.0, 0.1, 10.0))
"""

#: kind -> the first call (after ``import geometry as g`` and the setup above)
KINDS = {
    "classify_segment_aabb": "g.classify_segment_aabb((0, 0, 0), (1, 1, 1), lo, hi)",
    "intersect_ray_aabb": "g.intersect_ray_aabb((0, 0, 0), (1, 1, 1), lo, hi)",
    "triangle_overlaps_aabb": "g.triangle_overlaps_aabb((0, 0, 0), (1, 1, 0), (0, 1, 1), lo, hi)",
    "classify_segment_obb": "g.classify_segment_obb((0, 0, 0), (1, 1, 1), c, axes, h)",
    "intersect_ray_obb": "g.intersect_ray_obb((0, 0, 0), (1, 1, 1), c, axes, h)",
    "triangle_overlaps_obb": "g.triangle_overlaps_obb((0, 0, 0), (1, 1, 0), (0, 1, 1), c, axes, h)",
    "classify_aabb_aabb": "g.classify_aabb_aabb((.4, .4, .4), (.6, .6, .6), lo, hi)",
    "classify_sphere_aabb": "g.classify_sphere_aabb((.5, .5, .5), .2, lo, hi)",
    "distance_point_aabb": "g.distance_point_aabb((.5, .5, .5), lo, hi)",
    "plane_side_aabb": "g.plane_side_aabb((.3, -.5, .8), .2, lo, hi)",
    "classify_aabb_obb": "g.classify_aabb_obb((.4, .4, .4), (.6, .6, .6), c, axes, h)",
    "classify_obb_aabb": "g.classify_obb_aabb((.5, .5, .5), np.eye(3), (.1, .1, .1), lo, hi)",
    "classify_obb_obb": "g.classify_obb_obb((.5, .5, .5), np.eye(3), (.1, .1, .1), c, axes, h)",
    "classify_sphere_obb": "g.classify_sphere_obb((.5, .5, .5), .2, c, axes, h)",
    "distance_point_obb": "g.distance_point_obb((.5, .5, .5), c, axes, h)",
    "plane_side_obb": "g.plane_side_obb((.3, -.5, .8), .2, c, axes, h)",
    "classify_aabb_frustum": "g.classify_aabb_frustum(lo, hi, frustum)",
    "classify_obb_frustum": "g.classify_obb_frustum(c, axes, h, frustum)",
    "BoxTree": ("g.BoxTree(lo, hi).nearest_ray_hits(np.zeros((10, 3)), "
                "np.ones((10, 3)))"),
    "BoxTree.self_pairs": "g.BoxTree(lo, hi).self_pairs()",
    "BoxTree.nearest_boxes": "g.BoxTree(lo, hi).nearest_boxes(c[:10], 4)",
    "BoxTree.frustum": "g.BoxTree(lo, hi).frustum(frustum)",
    "BoxTree.from_obbs": ("g.BoxTree.from_obbs(c, axes, h).nearest_ray_hits(np.zeros((10, 3)), "
                          "np.ones((10, 3)))"),
}

_FLOOR = """
import numba
@numba.njit(cache=True)
def trivial(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s
trivial(np.ones(10))
"""

_CHILD = """
import json, time
w0, c0 = time.perf_counter(), time.process_time()
{imports}
w1, c1 = time.perf_counter(), time.process_time()
{setup}
w2, c2 = time.perf_counter(), time.process_time()
{call}
w3, c3 = time.perf_counter(), time.process_time()
{wait}
w4 = time.perf_counter()
print(json.dumps({{"import": w1 - w0, "wall": w3 - w2, "cpu": c3 - c2, "ready": w4 - w2}}))
"""
#: after a kind's first call: wait for the loop it compiles in the background, if it does
_WAIT = "from geometry import _background; _background.wait()"


def measure(call: str, cache: Path, *, floor: bool = False) -> dict[str, float]:
    """One fresh interpreter: ``call``'s wall and CPU time, with numba's cache in ``cache``."""
    if floor:  # numba alone, its function written to a file (numba caches only those)
        script = cache / "floor.py"
        script.write_text(_CHILD.format(imports="import numpy as np", setup="",
                                        call=_FLOOR, wait=""))
        args = [sys.executable, str(script)]
    else:
        code = _CHILD.format(imports="import geometry as g", setup=_SETUP, call=call,
                             wait=_WAIT)
        args = [sys.executable, "-c", code]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    run = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def _cell(values: list[float]) -> str:
    mid = statistics.median(values)
    return f"{mid:.2f}" if len(values) == 1 else f"{mid:.2f} ({min(values):.2f}–{max(values):.2f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="processes per cell (default 1)")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="comma-separated kinds (default: all; '' for the floor alone)")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kinds {unknown}; choose from {list(KINDS)}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print()
    print("| first call in a new process | cold s | cold CPU s | cold, compiled s | warm s "
          "| warm CPU s |")
    print("|---|--:|--:|--:|--:|--:|")
    imports: list[float] = []
    for kind in ["numba floor", *kinds]:
        cold: list[dict[str, float]] = []
        warm: list[dict[str, float]] = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="slablab-startup-") as tmp:
                cache = Path(tmp)
                floor = kind == "numba floor"
                call = "" if floor else KINDS[kind]
                cold.append(measure(call, cache, floor=floor))
                warm.append(measure(call, cache, floor=floor))
        if kind != "numba floor":
            imports += [r["import"] for r in cold + warm]
        print(f"| {'`' + kind + '`' if kind in KINDS else kind} "
              f"| {_cell([r['wall'] for r in cold])} | {_cell([r['cpu'] for r in cold])} "
              f"| {_cell([r['ready'] for r in cold])} "
              f"| {_cell([r['wall'] for r in warm])} | {_cell([r['cpu'] for r in warm])} |",
              flush=True)
    if imports:
        print()
        print(f"`import geometry` (not in the rows): {_cell(imports)} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
