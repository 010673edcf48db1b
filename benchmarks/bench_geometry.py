"""Time slablab's batched box tests against the read-once floor and pyrr's per-box loop.

Run ``./benchmarks/run.sh`` (all sizes, a few minutes) or ``./benchmarks/run.sh --quick``.
Prints a machine line, then one Markdown table row per (dtype, N, function):

- ``median ms``: median wall time of the call over ``repeat`` runs (runs of the floor and of
  the functions alternate, so that load from other processes hits them alike);
- ``boxes/s``: N / median;
- ``x floor``: median / the read-once floor (``np.add.reduce`` over ``box_min`` and
  ``box_max``, timed in the same run on the same arrays): 1.0 is the speed of reading the
  inputs once, lower is impossible for a streaming test;
- ``x pyrr``: how many times faster than a Python loop of pyrr calls over the boxes, timed at
  ``--pyrr-n`` boxes (10^4) and extrapolated linearly to N;
- ``peak MiB``: peak memory allocated during one call (tracemalloc, in a separate untimed call),
  outputs included, inputs excluded;
- ``out MiB``: the size of the call's outputs, part of ``peak MiB`` (peak - out bounds the
  scratch memory from below: scratch freed before the outputs exist is hidden by them);
- ``result``: what the call found, so a reader can see the mix of cases.

The rows labelled ``baseline`` are NOT the library: a straightforward whole-array numpy
classifier written here, for comparison.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TextIO

import numpy as np
import pyrr
from pyrr.geometric_tests import ray_intersect_aabb

import geometry
from benchmarks import one_item

SEED = 20240531
DEFAULT_SIZES = (10**4, 10**5, 10**6, 10**7)
QUICK_SIZES = (10**4, 10**5)
DTYPES = {"float64": np.float64, "float32": np.float32}
PYRR_N = 10**4
MIB = 2**20

# The scene, in the unit cube [0, 1]^3. Box centres are uniform in the cube; each box has one
# half-size, uniform in HALF_SIZE_RANGE, stretched per axis by ASPECT_RANGE. With a segment of
# length SEGMENT_LENGTH through the centre this gives about 70 % NONE, 20 % INTERSECT and 10 %
# INCLUDE (a segment from face to face would make INCLUDE vanishingly rare).
HALF_SIZE_RANGE = (0.03, 0.45)
ASPECT_RANGE = (0.7, 1.3)
SEGMENT_LENGTH = 0.25
SEGMENT_DIRECTION = (1.0, 0.8, 0.6)
# The ray starts outside every box (boxes reach down to x = -0.585) and crosses the cube.
RAY_ORIGIN = (-1.0, 0.45, 0.55)
RAY_DIRECTION = (1.0, 0.1, -0.05)
TRIANGLE = ((0.2, 0.25, 0.3), (0.8, 0.35, 0.5), (0.45, 0.8, 0.7))


class Scene(NamedTuple):
    """Boxes and the query primitives, all in one dtype."""

    box_min: np.ndarray
    box_max: np.ndarray
    start: np.ndarray
    end: np.ndarray
    origin: np.ndarray
    direction: np.ndarray
    v0: np.ndarray
    v1: np.ndarray
    v2: np.ndarray

    def head(self, n: int) -> Scene:
        """The first `n` boxes (contiguous views, no copy) with the same queries."""
        return self._replace(box_min=self.box_min[:n], box_max=self.box_max[:n])


def make_scene(n: int, dtype: type, seed: int = SEED) -> Scene:
    """Generate `n` boxes and the queries, deterministically.

    Parameters
    ----------
    n : int
        Number of boxes.
    dtype : numpy float type
        Type of every array; data are drawn in float64 and rounded, so both dtypes describe
        the same scene.
    seed : int
        Seed for ``np.random.default_rng``; the first n boxes do not depend on `n`.

    Returns
    -------
    Scene
        C-contiguous ``(n, 3)`` box arrays and ``(3,)`` query points.
    """
    # One generator per quantity, so the first n boxes are the same whatever the total.
    centres, sizes, aspects = (np.random.default_rng([seed, k]) for k in range(3))
    centre = centres.random((n, 3))
    half = sizes.uniform(*HALF_SIZE_RANGE, (n, 1)) * aspects.uniform(*ASPECT_RANGE, (n, 3))
    box_min = (centre - half).astype(dtype)
    box_max = (centre + half).astype(dtype)
    del centre, half
    axis = np.asarray(SEGMENT_DIRECTION) / np.linalg.norm(SEGMENT_DIRECTION)
    start = 0.5 - axis * SEGMENT_LENGTH / 2
    end = 0.5 + axis * SEGMENT_LENGTH / 2

    def point(p: Sequence[float] | np.ndarray) -> np.ndarray:
        return np.asarray(p, dtype=dtype)

    return Scene(box_min, box_max, point(start), point(end), point(RAY_ORIGIN),
                 point(RAY_DIRECTION), *(point(v) for v in TRIANGLE))


# --- the calls that are timed -------------------------------------------------------------

def read_once_floor(s: Scene) -> float:
    """Read every input coordinate once: the floor for any streaming box test."""
    return float(np.add.reduce(s.box_min, axis=None) + np.add.reduce(s.box_max, axis=None))


def classify_segment(s: Scene) -> np.ndarray:
    """slablab: classify every box against the segment."""
    return geometry.classify_segment_aabb(s.start, s.end, s.box_min, s.box_max)


def nearest_ray_hit(s: Scene) -> tuple[object, int]:
    """slablab: intersect the ray with every box and pick the nearest hit (-1 if none)."""
    result = geometry.intersect_ray_aabb(s.origin, s.direction, s.box_min, s.box_max)
    nearest = int(np.argmin(result.t_enter))
    return result, nearest if result.hit[nearest] else -1


def triangle_overlaps(s: Scene) -> np.ndarray:
    """slablab: test every box for overlap with the triangle."""
    return geometry.triangle_overlaps_aabb(s.v0, s.v1, s.v2, s.box_min, s.box_max)


def baseline_classify_segment(s: Scene) -> np.ndarray:
    """BASELINE, not the library: a straightforward whole-array numpy slab classifier.

    Kay-Kajiya slabs over all N boxes at once, with full-size temporaries; no care for exact
    boundary cases or zero direction components (the benchmark's segment has none).
    """
    d = s.end - s.start
    t0 = (s.box_min - s.start) / d
    t1 = (s.box_max - s.start) / d
    t_near = np.minimum(t0, t1).max(axis=1)
    t_far = np.maximum(t0, t1).min(axis=1)
    miss = (t_near > t_far) | (t_far < 0) | (t_near > 1)
    inside = (t_near < 0) & (t_far > 1)
    return np.where(miss, 0, np.where(inside, 2, 1)).astype(np.int8)


# --- pyrr's per-box loops (timed at PYRR_N boxes only) ------------------------------------

def pyrr_boxes(s: Scene) -> list[np.ndarray]:
    """The boxes as pyrr wants them: one ``(2, 3)`` [min, max] array per box."""
    return list(np.stack([s.box_min, s.box_max], axis=1))


def pyrr_classify_segment(s: Scene, boxes: list[np.ndarray]) -> np.ndarray:
    """Classify with pyrr: ``ray_intersect_aabb`` on the segment's ray, then an end test.

    pyrr has no segment test. Its ray test returns the first crossing at t >= 0 (or None):
    None -> NONE; t <= 1 -> INTERSECT; t > 1 -> INCLUDE if the start is strictly inside
    the box (the segment ends before the exit), else NONE (the entry is past the end).
    """
    d = s.end - s.start
    dd = float(d @ d)
    ray = np.array([s.start, d])
    out = np.zeros(len(boxes), dtype=np.int8)
    for i, box in enumerate(boxes):
        point = ray_intersect_aabb(ray, box)
        if point is None:
            continue
        if float((point - s.start) @ d) <= dd:
            out[i] = 1
        elif (box[0] < s.start).all() and (s.start < box[1]).all():
            out[i] = 2
    return out


def pyrr_nearest_ray_hit(s: Scene, boxes: list[np.ndarray]) -> int:
    """Nearest hit with pyrr: ``ray_intersect_aabb`` per box, keep the smallest t."""
    d = s.direction
    dd = float(d @ d)
    ray = np.array([s.origin, d])
    best_t, best = np.inf, -1
    for i, box in enumerate(boxes):
        point = ray_intersect_aabb(ray, box)
        if point is not None:
            t = float((point - s.origin) @ d) / dd
            if t < best_t:
                best_t, best = t, i
    return best


# --- measuring ------------------------------------------------------------------------------

def median_seconds(call: Callable[[], object], repeat: int) -> float:
    """Median wall time of `repeat` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def peak_extra_bytes(call: Callable[[], object]) -> tuple[int, object]:
    """Peak memory allocated during one call (tracemalloc), and the call's result."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak - before, result


def output_bytes(result: object) -> int:
    """Bytes of the arrays in a result (an array, or tuples of arrays and scalars)."""
    if isinstance(result, np.ndarray):
        return result.nbytes
    if isinstance(result, tuple):
        return sum(output_bytes(part) for part in result)
    return 0


def default_repeat(n: int) -> int:
    """Fewer runs for bigger N: 15 at 10^4, 11 at 10^5, 7 at 10^6, 3 beyond."""
    if n <= 10**4:
        return 15
    if n <= 10**5:
        return 11
    if n <= 10**6:
        return 7
    return 3


# --- describing results ---------------------------------------------------------------------

def describe_classes(classes: np.ndarray) -> str:
    """Class counts, e.g. ``NONE 7021 / INTERSECT 1988 / INCLUDE 991``."""
    counts = np.bincount(classes.astype(np.intp), minlength=3)
    return " / ".join(
        f"{name} {c}" for name, c in zip(("NONE", "INTERSECT", "INCLUDE"), counts, strict=True)
    )


def describe_ray(found: tuple[object, int]) -> str:
    """Hit count, the nearest box and the dtype of t."""
    result, nearest = found
    return f"{int(np.count_nonzero(result.hit))} hits, nearest #{nearest}, t {result.t_enter.dtype}"


def describe_overlaps(mask: np.ndarray) -> str:
    """Overlap count."""
    return f"{int(np.count_nonzero(mask))} overlap"


@dataclass(frozen=True)
class Case:
    """One row kind of the table."""

    name: str
    call: Callable[[Scene], object]
    describe: Callable[[object], str]
    pyrr_loop: Callable[[Scene, list[np.ndarray]], object] | None = None


FLOOR = Case("read-once floor", read_once_floor, lambda total: "np.add.reduce(box_min, box_max)")
CASES = (
    Case("classify_segment_aabb", classify_segment, describe_classes, pyrr_classify_segment),
    Case("baseline: whole-array numpy classify", baseline_classify_segment, describe_classes),
    Case("intersect_ray_aabb + nearest", nearest_ray_hit, describe_ray, pyrr_nearest_ray_hit),
    Case("triangle_overlaps_aabb", triangle_overlaps, describe_overlaps),
)


class Row(NamedTuple):
    """One measured line of the table."""

    name: str
    dtype: str
    n: int
    seconds: float
    floor_seconds: float
    pyrr_seconds_per_box: float | None
    peak_bytes: int
    output_bytes: int
    result: str


HEADER = ("| function | dtype | N | median ms | boxes/s | x floor | x pyrr | peak MiB | out MiB "
          "| result |\n|---|---|--:|--:|--:|--:|--:|--:|--:|---|")


def format_ms(seconds: float) -> str:
    """Milliseconds with about three significant digits."""
    ms = seconds * 1e3
    return (
        f"{ms:.0f}"
        if ms >= 100
        else f"{ms:.1f}"
        if ms >= 10
        else f"{ms:.2f}"
        if ms >= 1
        else f"{ms:.3f}"
    )


def format_row(row: Row) -> str:
    """One Markdown table line."""
    pyrr_ratio = ("n/a" if row.pyrr_seconds_per_box is None
                  else f"{row.pyrr_seconds_per_box * row.n / row.seconds:,.0f}")
    return (
        f"| {row.name} | {row.dtype} | {row.n:.0e} | {format_ms(row.seconds)} "
        f"| {row.n / row.seconds / 1e6:,.1f} M | {row.seconds / row.floor_seconds:.2f} "
        f"| {pyrr_ratio} | {row.peak_bytes / MIB:.1f} | {row.output_bytes / MIB:.1f} "
        f"| {row.result} |"
    ).replace("e+0", "e")


def cpu_model_and_cores() -> tuple[str, int]:
    """The CPU's model name and the number of cores this process may use."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(
                line.split(":", 1)[1].strip() for line in f if line.startswith("model name")
            )
    except (OSError, StopIteration):
        model = platform.processor() or model
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return model, usable


def machine_line() -> str:
    """CPU model, cores, memory, numpy, pyrr and Python versions, OS, date."""
    model, usable = cpu_model_and_cores()
    memory = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} GiB RAM"
    except (ValueError, OSError, AttributeError):
        pass
    return (f"machine: {model}, {os.cpu_count()} cores ({usable} usable){memory}; "
            f"numpy {np.__version__}, pyrr {pyrr.__version__}, Python {platform.python_version()}; "
            f"{platform.system()} {platform.release()}; {datetime.date.today().isoformat()}")


# --- the run --------------------------------------------------------------------------------

def time_pyrr(scene: Scene, n: int, repeat: int) -> tuple[dict[str, float], list[str]]:
    """Seconds per box of each pyrr loop at `n` boxes, and a check of their answers."""
    head = scene.head(n)
    boxes = pyrr_boxes(head)
    per_box, checks = {}, []
    for case in CASES:
        if case.pyrr_loop is None:
            continue
        seconds = median_seconds(lambda case=case: case.pyrr_loop(head, boxes), repeat)
        per_box[case.name] = seconds / n
        checks.append(f"{case.name}: pyrr loop {seconds / n * 1e6:.1f} us per box "
                      f"({n / seconds:,.0f} boxes/s)")
        ours, theirs = case.call(head), case.pyrr_loop(head, boxes)
        if isinstance(ours, tuple):
            checks.append(f"{case.name}: nearest box pyrr #{theirs}, slablab #{ours[1]}")
        else:
            checks.append(f"{case.name}: pyrr differs on {int(np.count_nonzero(ours != theirs))}"
                          f" of {n} boxes")
    return per_box, checks


def measure_interleaved(cases: Sequence[Case], scene: Scene, dtype: str, repeat: int,
                        pyrr_per_box: dict[str, float]) -> list[Row]:
    """Measure the cases on one scene; the first case is the floor the others are divided by.

    Each case gets its memory call (untimed) and a warm-up; then the timed runs go round-robin
    (floor, case 1, case 2, ..., floor, ...) so that a noisy neighbour on a shared machine slows
    the floor and the cases alike and the ratios stay meaningful.
    """
    memory = []
    for case in cases:
        peak, result = peak_extra_bytes(lambda case=case: case.call(scene))
        memory.append((peak, output_bytes(result), case.describe(result)))
        del result
        case.call(scene)
    times: list[list[float]] = [[] for _ in cases]
    for _ in range(repeat):
        for case, runs in zip(cases, times, strict=True):
            t0 = time.perf_counter()
            case.call(scene)
            runs.append(time.perf_counter() - t0)
    medians = [statistics.median(runs) for runs in times]
    n = len(scene.box_min)
    return [Row(case.name, dtype, n, seconds, medians[0], pyrr_per_box.get(case.name), *mem)
            for case, seconds, mem in zip(cases, medians, memory, strict=True)]


def run(sizes: Sequence[int], dtypes: Sequence[str], repeat: int | None, pyrr_n: int,
        seed: int, baseline: bool, out: TextIO | None = None) -> list[Row]:
    """Measure every case at every size and dtype, printing rows as they come."""
    out = out or sys.stdout
    rows: list[Row] = []
    notes: list[str] = []
    print(HEADER, file=out, flush=True)
    for dtype in dtypes:
        scene = make_scene(max(max(sizes), pyrr_n), DTYPES[dtype], seed)
        per_box, checks = time_pyrr(scene, pyrr_n, repeat or 3)
        notes += [f"{dtype}, N = {pyrr_n}: {c}" for c in checks]
        cases = [FLOOR] + [c for c in CASES if baseline or not c.name.startswith("baseline")]
        for n in sorted(sizes):
            for row in measure_interleaved(cases, scene.head(n), dtype,
                                           repeat or default_repeat(n), per_box):
                rows.append(row)
                print(format_row(row), file=out, flush=True)
        del scene
        gc.collect()
    print(file=out)
    for note in notes:
        print(f"pyrr check, {note}", file=out)
    return rows


def thread_module() -> object | None:
    """Where the library's ``set_num_threads`` / ``get_num_threads`` live, or None."""
    module = sys.modules.get("geometry") or __import__("geometry")
    return module if callable(getattr(module, "set_num_threads", None)) else None


def set_threads(threads: int) -> None:
    """Apply --threads through the library's thread setting."""
    module = thread_module()
    if module is None:
        raise SystemExit("--threads: geometry exposes no set_num_threads")
    module.set_num_threads(threads)


def threads_in_use() -> str:
    """The library's thread count, as text."""
    module = thread_module()
    get = getattr(module, "get_num_threads", None)
    return str(get()) if callable(get) else "n/a (no thread setting)"


def jit_in_use() -> str:
    """Whether geometry runs batches in compiled loops, and numba's version."""
    if not geometry.get_jit():
        return "off (interpreted)"
    import numba

    return f"on (numba {numba.__version__})"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(
        prog="benchmarks/run.sh", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=lambda v: [int(float(x)) for x in v.split(",")],
                        default=list(DEFAULT_SIZES),
                        help="comma-separated box counts (default 1e4,1e5,1e6,1e7)")
    parser.add_argument("--dtypes", type=lambda v: v.split(","), default=list(DTYPES),
                        help="comma-separated, from float64,float32 (default both)")
    parser.add_argument("--quick", action="store_true", help="N = 1e4 and 1e5 only (smoke run)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed runs per cell (default 15 / 11 / 7 / 3 by N)")
    parser.add_argument("--pyrr-n", type=int, default=PYRR_N,
                        help="boxes in pyrr's timed loop, extrapolated to N (default 10000)")
    parser.add_argument("--seed", type=int, default=SEED, help="data seed")
    parser.add_argument("--threads", type=int, default=None,
                        help="worker threads, if the library exposes a thread setting")
    parser.add_argument("--no-baseline", dest="baseline", action="store_false",
                        help="skip the whole-array numpy baseline rows")
    parser.add_argument("--no-jit", dest="jit", action="store_false",
                        help="batches in the interpreter, not compiled (geometry.set_jit)")
    parser.add_argument("--one-item-rounds", type=int, default=7,
                        help="rounds of the one-item table (0 skips it; default 7)")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes = list(QUICK_SIZES)
    unknown = set(args.dtypes) - set(DTYPES)
    if unknown:
        parser.error(
            f"--dtypes: expected some of {', '.join(DTYPES)}, got {', '.join(sorted(unknown))}"
        )
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Print the machine line and the table; return the exit status."""
    args = parse_args(argv)
    if args.threads is not None:
        set_threads(args.threads)
    if not args.jit:
        geometry.set_jit(False)
    print(machine_line(), flush=True)
    print(f"seed {args.seed}; repeat {args.repeat or 'by N'}; pyrr timed at N = {args.pyrr_n}; "
          f"geometry threads {threads_in_use()}; compiled loops {jit_in_use()}", flush=True)
    if args.one_item_rounds:
        one_item.table(args.one_item_rounds)
    run(args.sizes, args.dtypes, args.repeat, args.pyrr_n, args.seed, args.baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
