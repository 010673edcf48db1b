"""Time the queries, one query against N boxes, against the read-once floor.

Run ``./benchmarks/run_queries.sh`` (N = 10^4, 10^5, 10^6, float64 and float32: a few minutes)
or add ``--sizes 1e4,1e5,1e6,1e7`` (10^7 needs some 6 GiB more and takes longer). Prints a
machine line, one Markdown table with a row per (N, dtype, query, runner), then the issue's goals
at 10^6 as a second table and whether the textbook ports agree with the library.

- ``median ms``: median wall time over ``repeat`` timed runs. The runs go round-robin over
  every row of one N (the floors, every runner, dtype and box kind), so load from other
  processes hits them alike and the ratios stay meaningful on a shared machine.
- ``--cache``: what a timed run finds in the CPU's caches. ``round-robin`` (the default) takes
  them as the rounds leave them. Where the boxes nearly fit in the last-level cache (10^6 boxes,
  48 MB, and a 300 MiB cache shared with the machine's other guests), that differs from row to
  row: a box kind's first row in a round, its floor, may read them from memory (4.4 ms for
  ``box_min`` and ``box_max`` in float64) while the rows after it, and the one-frame floor
  after the per-box rows, read them from the cache (1.4–1.9 ms). ``cold`` reads a buffer twice
  the last-level cache's size before each timed run, so that every floor and row reads the
  boxes from memory alike; ``warm`` times each row's runs one after another, after an untimed
  one, so that every floor and row reads them from the cache wherever they fit (not
  round-robin: load from other processes then falls on some rows more than others).
- ``x floor``: median / the read-once floor, timed in the same rounds: ``np.add.reduce`` over
  exactly the arrays the query must read (``box_min`` and ``box_max``; or ``center``, ``axes``
  and ``half_size``, where a shared (3, 3) frame is 9 numbers). 1.0 is the speed of reading the
  boxes once on one core, so no one-thread test can be much below it. The ``np.add.reduce,
  2 threads`` row (two halves reduced in two threads) shows what two cores reach on the machine
  (about 0.5 on an idle two-core one); the 2-thread rows are divided by the one-core floor too.
- ``goal`` / ``meets``: the goals for the library's rows at 10^6 boxes (issue 39): segment and
  ray vs AABB at most 1x the floor, every other query at most 2x. The goal table after the main
  one adds ``<= port``: whether the library on one thread takes at most its textbook port's time
  (one thread too), for every dtype measured.
- ``peak MiB``: peak memory allocated during one call (tracemalloc, untimed), outputs included,
  inputs excluded. All calls of one N are measured before any of them is timed, and their
  results are kept until the last is measured, so no call can reuse an earlier call's output
  memory. Memory that compiled code allocates itself, or that a library takes from its own
  cache of buffers an earlier call released, is invisible to tracemalloc: a peak below
  ``out MiB`` (the result's size) shows it.
- ``result``: what the call found, so a reader sees the mix of cases.

Runners: ``slablab, 1 thread`` and ``slablab, 2 threads`` (``geometry.set_num_threads``; a plain
``slablab`` row where the library has no thread setting), and ``textbook numba``: a plain numba
port of the published algorithm (``benchmarks/textbook_ports.py``), benchmark code, not the
library, one thread. The ray rows include ``np.argmin`` of ``t_enter`` (the nearest hit). The
box, sphere and distance rows are defined in ``benchmarks/solid_queries.py``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import numpy as np

import geometry
from benchmarks import exact_arbiter, solid_queries

try:
    from benchmarks import textbook_ports
except ImportError:  # numba is not installed: no textbook rows
    textbook_ports = None  # type: ignore[assignment]

SEED = 20251123
DEFAULT_SIZES = (10**4, 10**5, 10**6)
DTYPES = {"float64": np.float64, "float32": np.float32}
QUERIES = ("segment", "ray", "triangle", *solid_queries.QUERIES)
BOX_KINDS = ("aabb", "obb", "obb-frame")
GOAL_N = 10**6
#: The issues' goals at 10^6 boxes, in multiples of the read-once floor.
GOALS = {("segment", "aabb"): 1.0, ("ray", "aabb"): 1.0}
OTHER_GOAL = 2.0
MIB = 2**20

# The scene, in the unit cube: box centres uniform, one half-size per box uniform in HALF_SIZE
# stretched per axis by ASPECT; oriented boxes get a uniformly random rotation each (or one
# shared FRAME). The segment through the centre gives about 70 % NONE, 20 % INTERSECT, 10 %
# INCLUDE; the ray crosses the cube; no query coordinate is zero, so the textbook ports' 0 * inf
# cases do not occur.
HALF_SIZE = (0.03, 0.45)
ASPECT = (0.7, 1.3)
SEGMENT = ((0.4, 0.42, 0.44), (0.6, 0.58, 0.56))
RAY = ((-1.0, 0.45, 0.55), (1.0, 0.1, -0.05))
TRIANGLE = ((0.2, 0.25, 0.3), (0.8, 0.35, 0.5), (0.45, 0.8, 0.7))
FRAME_QUATERNION = (0.9, 0.3, -0.2, 0.25)


def rotations(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (rows = the rotated unit axes) of quaternions ``q`` (..., 4), w first."""
    w, x, y, z = np.moveaxis(q / np.linalg.norm(q, axis=-1, keepdims=True), -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)], -1),
        np.stack([2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)], -1),
        np.stack([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


class Scene(NamedTuple):
    """N boxes, as AABBs and as oriented boxes, and the three query primitives, one dtype."""

    box_min: np.ndarray
    box_max: np.ndarray
    center: np.ndarray
    axes: np.ndarray  # (N, 3, 3), one rotation per box
    frame: np.ndarray  # (3, 3), shared by all boxes
    half_size: np.ndarray
    start: np.ndarray
    end: np.ndarray
    origin: np.ndarray
    direction: np.ndarray
    v0: np.ndarray
    v1: np.ndarray
    v2: np.ndarray

    def boxes(self, kind: str) -> tuple[np.ndarray, ...]:
        """The arrays a query against `kind` boxes reads, in argument order."""
        if kind == "aabb":
            return self.box_min, self.box_max
        return self.center, self.axes if kind == "obb" else self.frame, self.half_size


def make_scene(n: int, dtype: type, seed: int = SEED) -> Scene:
    """`n` boxes and the queries, drawn in float64 and rounded to `dtype`, deterministically."""
    rng = np.random.default_rng(seed)
    center = rng.random((n, 3))
    half = rng.uniform(*HALF_SIZE, (n, 1)) * rng.uniform(*ASPECT, (n, 3))
    axes = rotations(rng.normal(size=(n, 4)))

    def cast(x: Any) -> np.ndarray:
        return np.ascontiguousarray(x, dtype=dtype)

    return Scene(cast(center - half), cast(center + half), cast(center), cast(axes),
                 cast(rotations(np.asarray(FRAME_QUATERNION))), cast(half),
                 *(cast(p) for p in (*SEGMENT, *RAY, *TRIANGLE)))


# --- the calls that are timed -------------------------------------------------------------

def nearest(hit: Any, t_enter: np.ndarray) -> int:
    """Index of the smallest t_enter, -1 when nothing is hit."""
    i = int(np.argmin(t_enter))
    return i if hit[i] else -1


def library_call(query: str, kind: str) -> Callable[[Scene], Any]:
    """The public geometry function for `query` against `kind` boxes, as a call on a scene."""
    if query in solid_queries.QUERIES:
        return solid_queries.library_call(query, kind, lambda s: s.boxes(kind))
    box = "aabb" if kind == "aabb" else "obb"
    if query == "segment":
        classify = getattr(geometry, f"classify_segment_{box}")
        return lambda s: classify(s.start, s.end, *s.boxes(kind))
    if query == "ray":
        intersect = getattr(geometry, f"intersect_ray_{box}")

        def ray(s: Scene) -> tuple[Any, ...]:
            hit, t_enter, t_exit = intersect(s.origin, s.direction, *s.boxes(kind))
            return hit, t_enter, t_exit, nearest(hit, t_enter)

        return ray
    overlaps = getattr(geometry, f"triangle_overlaps_{box}")
    return lambda s: overlaps(s.v0, s.v1, s.v2, *s.boxes(kind))


def textbook_call(query: str, kind: str) -> Callable[[Scene], Any]:
    """The textbook port for `query` against `kind` boxes; outputs allocated here."""
    if query in solid_queries.QUERIES:
        return solid_queries.textbook_call(query, kind)
    ports: Any = textbook_ports  # numba dispatchers: their signatures are not typed

    def frame(s: Scene) -> tuple[Any, ...]:  # axes as (M, 3, 3) and the step from box to box
        return (s.center, s.axes, 1, s.half_size) if kind == "obb" else (
            s.center, s.frame[None], 0, s.half_size)

    if query == "segment":
        def segment(s: Scene) -> np.ndarray:
            out = np.empty(len(s.center), dtype=np.int8)
            if kind == "aabb":
                ports.segment_aabb(s.start, 1 / (s.end - s.start), s.box_min, s.box_max, out)
            else:
                ports.segment_obb(s.start, s.end - s.start, *frame(s), out)
            return out

        return segment
    if query == "ray":
        def ray(s: Scene) -> tuple[Any, ...]:
            n = len(s.center)
            hit = np.empty(n, dtype=bool)
            t_enter, t_exit = np.empty(n, dtype=s.center.dtype), np.empty(n, dtype=s.center.dtype)
            if kind == "aabb":
                ports.ray_aabb(s.origin, 1 / s.direction, s.box_min, s.box_max, hit, t_enter,
                               t_exit)
            else:
                ports.ray_obb(s.origin, s.direction, *frame(s), hit, t_enter, t_exit)
            return hit, t_enter, t_exit, nearest(hit, t_enter)

        return ray

    def triangle(s: Scene) -> np.ndarray:
        out = np.empty(len(s.center), dtype=bool)
        if kind == "aabb":
            ports.triangle_aabb(s.v0, s.v1, s.v2, s.box_min, s.box_max, out)
        else:
            ports.triangle_obb(s.v0, s.v1, s.v2, *frame(s), out)
        return out

    return triangle


def floor_call(kind: str, pool: ThreadPoolExecutor | None = None) -> Callable[[Scene], Any]:
    """Read every array a `kind` query reads once (np.add.reduce); with `pool`, in two halves
    on two threads."""
    def reduce(arrays: Sequence[np.ndarray]) -> float:
        return float(sum(np.add.reduce(a, axis=None) for a in arrays))

    if pool is None:
        return lambda s: reduce(s.boxes(kind))

    def halves(s: Scene) -> float:
        arrays = s.boxes(kind)
        parts = [[a[: len(a) // 2] for a in arrays], [a[len(a) // 2:] for a in arrays]]
        return sum(pool.map(reduce, parts))

    return halves


# --- describing and comparing results -----------------------------------------------------

def describe(query: str, result: Any) -> str:
    """What a result found: class counts, hits and nearest box, or overlaps."""
    if query in solid_queries.QUERIES:
        return solid_queries.describe(query, result)
    if query == "segment":
        counts = np.bincount(np.asarray(result, dtype=np.intp), minlength=3)
        return " / ".join(f"{name} {c}" for name, c in zip(("NONE", "INTERSECT", "INCLUDE"),
                                                            counts, strict=True))
    if query == "ray":
        hit, t_enter, _, near = result
        return f"{int(np.count_nonzero(hit))} hits, nearest #{near}, t {t_enter.dtype}"
    return f"{int(np.count_nonzero(result))} overlap"


#: How far a textbook port's t_enter may lie from the library's (which is within 2 ulps of the
#: exact value), in units of eps * max(|t|, 1), before exact arithmetic is asked: a port rounds
#: the frame change and the slab products (up to ~15 on the benchmark's unit-scale data).
T_TOLERANCE = 64
#: Boxes settled in exact arithmetic per disagreeing cell (the worst ones first).
ARBITRATED = 8


def one_box(scene: Scene, kind: str, i: int) -> tuple[np.ndarray, ...]:
    """Box i's arrays, as :meth:`Scene.boxes` gives them for all."""
    if kind == "obb-frame":
        return scene.center[i], scene.frame, scene.half_size[i]
    return tuple(a[i] for a in scene.boxes(kind))


def exact_answer(query: str, scene: Scene, kind: str, i: int) -> Any:
    """Box i's answer in exact arithmetic: class, ``(t_enter, t_exit)`` or None, overlap."""
    if query in solid_queries.QUERIES:
        return solid_queries.exact_answer(query, scene, kind, i)
    box = one_box(scene, kind, i)
    if query == "segment":
        return exact_arbiter.segment_class(box, scene.start, scene.end)
    if query == "ray":
        return exact_arbiter.ray_interval(box, scene.origin, scene.direction)
    return exact_arbiter.triangle_overlaps(box, scene.v0, scene.v1, scene.v2)


def settle(query: str, scene: Scene, kind: str, ours: Any, theirs: Any
           ) -> tuple[str | None, str | None]:
    """Compare a textbook result with the library's; where they differ, exact arithmetic on
    the worst boxes says who is right. Returns ``(port_note, library_problem)``, each None
    when there is nothing to say."""
    if query in solid_queries.QUERIES:
        return solid_queries.settle(query, scene, kind, ours, theirs)
    dtype = scene.center.dtype
    if query == "ray":
        found, other = ours[0], theirs[0]
    else:
        found, other = np.asarray(ours), np.asarray(theirs)
    bad = np.flatnonzero(found != other)
    if len(bad):
        what = "hit" if query == "ray" else "answer"
        checked = bad[:ARBITRATED]
        exact = [exact_answer(query, scene, kind, int(i)) for i in checked]
        if query == "ray":
            exact = [e is not None for e in exact]
        wrong = [int(i) for i, e in zip(checked, exact, strict=True) if found[i] != e]
        if wrong:
            return None, f"{what} differs from exact arithmetic at boxes #{wrong}"
        return (f"the port's {what} differs on {len(bad)} boxes; exact arithmetic agrees with "
                f"the library on the {len(checked)} checked (#{checked.tolist()})"), None
    if query != "ray":
        return None, None
    t, port_t = ours[1][found], theirs[1][found]
    error = np.abs(t - port_t) / (np.finfo(dtype).eps * np.maximum(np.abs(t), 1))
    notes = []
    if len(error) and error.max() > T_TOLERANCE:
        worst = np.flatnonzero(found)[np.argsort(error)[::-1][:ARBITRATED]]
        ulps = []
        for i in worst:
            exact_t = exact_answer(query, scene, kind, int(i))[0]
            step = float(np.spacing(dtype.type(float(exact_t))))
            ulps.append(abs(float(Fraction(float(ours[1][i])) - exact_t)) / step)
        if max(ulps) > 2:
            return None, (f"t_enter is {max(ulps):.1f} ulps from exact arithmetic at box "
                          f"#{int(worst[int(np.argmax(ulps))])} (SEMANTICS: within 2)")
        notes.append(f"the port's t_enter is up to {error.max():.0f} eps * max(|t|, 1) off; the "
                     f"library's is within {max(ulps):.1f} ulps of exact on the {len(worst)} "
                     "worst boxes")
    if ours[3] != theirs[3]:
        exact_t = {int(i): exact_answer(query, scene, kind, int(i))[0]
                   for i in (ours[3], theirs[3]) if i >= 0}
        truth = min(exact_t, key=lambda i: (exact_t[i], i)) if exact_t else -1
        if truth != ours[3]:
            return None, f"nearest box #{ours[3]}, exactly #{truth}"
        notes.append(f"the port's nearest box is #{theirs[3]}, exactly #{truth} as the library's")
    return ("; ".join(notes) or None), None


def output_bytes(result: Any) -> int:
    """Bytes of the arrays in a result."""
    if isinstance(result, np.ndarray):
        return result.nbytes
    if isinstance(result, tuple):
        return sum(output_bytes(part) for part in result)
    return 0


# --- measuring ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Runner:
    """One row kind: a call on a scene, run with the library at `threads` (None: untouched)."""

    query: str
    kind: str
    by: str
    call: Callable[[Scene], Any]
    threads: int | None = None

    @property
    def label(self) -> str:
        """The table's query column."""
        if self.query == "floor":
            return "read-once floor"
        box = "aabb" if self.kind == "aabb" else "obb"
        name = {"segment": f"classify_segment_{box}", "ray": f"intersect_ray_{box} + argmin",
                "triangle": f"triangle_overlaps_{box}"}.get(self.query) or solid_queries.label(
                    self.query, self.kind)
        return {"aabb": name, "obb": f"{name}, axes (N,3,3)",
                "obb-frame": f"{name}, one (3,3) frame"}[self.kind]

    @property
    def kind_arrays(self) -> str:
        """The arrays the floor reads, as the table's result column."""
        return {"aabb": "box_min, box_max", "obb": "center, axes (N,3,3), half_size",
                "obb-frame": "center, axes (3,3), half_size"}[self.kind]

    @property
    def goal(self) -> float | None:
        """The issue's goal for this row, in multiples of the floor (library rows only)."""
        if not self.by.startswith("slablab"):
            return None
        return GOALS.get((self.query, self.kind), OTHER_GOAL)


class Row(NamedTuple):
    """One measured line of the table."""

    runner: Runner
    dtype: str
    n: int
    seconds: float
    floor_seconds: float
    peak_bytes: int
    output_bytes: int
    result: str

    @property
    def ratio(self) -> float:
        return self.seconds / self.floor_seconds


HEADER = ("| query | run by | dtype | N | median ms | x floor | goal | meets | peak MiB | out MiB "
          "| result |\n|---|---|---|--:|--:|--:|--:|---|--:|--:|---|")


def format_ms(seconds: float) -> str:
    """Milliseconds with about three significant digits."""
    ms = seconds * 1e3
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}"


def meets(row: Row) -> str:
    """yes / no against the goal at 10^6 boxes; a dash elsewhere and for reference rows."""
    goal = row.runner.goal
    if goal is None or row.n != GOAL_N:
        return "-"
    return "yes" if row.ratio <= goal else "no"


def format_row(row: Row) -> str:
    """One Markdown table line."""
    goal = row.runner.goal
    return (f"| {row.runner.label} | {row.runner.by} | {row.dtype} | {row.n:.0e} "
            f"| {format_ms(row.seconds)} | {row.ratio:.2f} "
            f"| {'-' if goal is None else f'<= {goal:.0f}x'} | {meets(row)} "
            f"| {row.peak_bytes / MIB:.1f} | {row.output_bytes / MIB:.1f} | {row.result} |"
            ).replace("e+0", "e")


def thread_setting() -> tuple[Callable[[int], None], Callable[[], int]] | None:
    """The library's ``set_num_threads`` and ``get_num_threads``, if it has them."""
    set_n, get_n = (getattr(geometry, n, None) for n in ("set_num_threads", "get_num_threads"))
    return (set_n, get_n) if callable(set_n) and callable(get_n) else None


def runners(queries: Sequence[str], kind: str, textbook: bool, threads: bool,
            pool: ThreadPoolExecutor) -> list[Runner]:
    """Every row kind for `kind` boxes: the floor first (the others are divided by it)."""
    settable = thread_setting() is not None  # (the library's default is every CPU)
    one = "slablab, 1 thread" if settable else "slablab"
    queries = [q for q in queries
               if q not in solid_queries.QUERIES or (q, kind) in solid_queries.ROWS]
    rows = [Runner("floor", kind, "np.add.reduce, 1 thread", floor_call(kind))]
    rows += [Runner(q, kind, one, library_call(q, kind), 1 if settable else None)
             for q in queries]
    if textbook:
        rows += [Runner(q, kind, "textbook numba", textbook_call(q, kind)) for q in queries]
    if threads and settable:
        rows.append(Runner("floor", kind, "np.add.reduce, 2 threads", floor_call(kind, pool)))
        rows += [Runner(q, kind, "slablab, 2 threads", library_call(q, kind), 2) for q in queries]
    return rows


def apply_threads(runner: Runner) -> None:
    """Set the library's thread count as the runner wants it."""
    setting = thread_setting()
    if runner.threads is not None and setting is not None and setting[1]() != runner.threads:
        setting[0](runner.threads)


def peak_extra_bytes(runner: Runner, scene: Scene) -> tuple[int, Any]:
    """Peak memory allocated during one call (tracemalloc) and its result."""
    apply_threads(runner)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = runner.call(scene)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak - before, result


CACHE_MODES = ("round-robin", "warm", "cold")


def last_level_cache_bytes() -> int:
    """The largest CPU cache Linux reports for CPU 0 (sysfs), or 256 MiB where it reports none."""
    sizes = []
    for path in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        text = path.read_text().strip()
        scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1:], 1)
        digits = text.rstrip("KMG")
        if digits.isdigit():
            sizes.append(int(digits) * scale)
    return max(sizes, default=256 * MIB)


def median_seconds(cells: Sequence[tuple[Runner, Scene]], repeat: int,
                   cache: str = "round-robin") -> list[float]:
    """Median time of each (runner, scene) cell, each run finding the caches as ``cache``
    says (module docstring): the runs going round-robin over all cells, or (``warm``) each
    cell's together."""
    times: list[list[float]] = [[] for _ in cells]
    flush = np.ones(2 * last_level_cache_bytes() // 8) if cache == "cold" else None
    if cache == "warm":  # each cell's runs together, after an untimed one
        for k, (runner, scene) in enumerate(cells):
            apply_threads(runner)
            runner.call(scene)
            for _ in range(repeat):
                t0 = time.perf_counter()
                runner.call(scene)
                times[k].append(time.perf_counter() - t0)
        return [statistics.median(runs) for runs in times]
    for _ in range(repeat):
        for (runner, scene), runs in zip(cells, times, strict=True):
            apply_threads(runner)
            if flush is not None:
                float(np.add.reduce(flush))
            t0 = time.perf_counter()
            runner.call(scene)
            runs.append(time.perf_counter() - t0)
    return [statistics.median(runs) for runs in times]


def default_repeat(n: int) -> int:
    """Fewer runs for bigger N: 11 up to 10^4, 7 up to 10^5, 9 at 10^6 (where the goals are
    judged), 3 beyond."""
    return 11 if n <= 10**4 else 7 if n <= 10**5 else 9 if n <= 10**6 else 3


class Report(NamedTuple):
    """What a run measured: the rows, where the library contradicts exact arithmetic or its
    own 1-thread answers (empty: never), and where a textbook port rounds differently."""

    rows: list[Row]
    disagreements: list[str]
    notes: list[str]


def identical(ours: Any, theirs: Any) -> bool:
    """Bit for bit the same result (arrays, tuples of arrays and ints)."""
    if isinstance(ours, tuple):
        return all(identical(a, b) for a, b in zip(ours, theirs, strict=True))
    if isinstance(ours, np.ndarray):
        return (ours.dtype == theirs.dtype and ours.shape == theirs.shape
                and ours.tobytes() == theirs.tobytes())
    return bool(ours == theirs)


def check(group: Sequence[Runner], results: Sequence[Any], scene: Scene, dtype: str, n: int,
          report: Report) -> None:
    """Compare each textbook result (settled exactly where they differ) and each 2-thread
    result (bit for bit) with the library's 1-thread one; record notes and problems."""
    def is_reference(r: Runner) -> bool:
        return r.by.startswith("slablab") and r.threads in (None, 1)

    library = {r.query: res for r, res in zip(group, results, strict=True) if is_reference(r)}
    for runner, result in zip(group, results, strict=True):
        if runner.query == "floor" or is_reference(runner):
            continue
        where = f"{runner.label}, {dtype}, N = {n:.0e}".replace("e+0", "e")
        if runner.by == "textbook numba":
            note, problem = settle(runner.query, scene, runner.kind, library[runner.query],
                                   result)
        else:
            note = None
            problem = (None if identical(library[runner.query], result)
                       else f"{runner.by} differs from 1 thread")
        if note:
            report.notes.append(f"{where}: {note}")
        if problem:
            report.disagreements.append(f"{where}: {problem}")


def run(sizes: Sequence[int], dtypes: Sequence[str], queries: Sequence[str],
        kinds: Sequence[str], repeat: int | None, seed: int = SEED, textbook: bool = True,
        threads: bool = True, out: TextIO | None = None, cache: str = "round-robin") -> Report:
    """Measure every runner at every size, dtype and box kind, printing rows as they come."""
    out = out or sys.stdout
    textbook = textbook and textbook_ports is not None
    threads = threads and thread_setting() is not None
    setting = thread_setting()
    before = setting[1]() if setting else None
    report = Report([], [], [])
    print(HEADER, file=out, flush=True)
    with ThreadPoolExecutor(2) as pool:
        groups = {kind: runners(queries, kind, textbook, threads, pool) for kind in kinds}
        try:
            for dtype in dtypes:  # compile everything on a small scene first
                tiny = make_scene(64, DTYPES[dtype], seed)
                for group in groups.values():
                    for runner in group:
                        apply_threads(runner)
                        runner.call(tiny)
            for n in sorted(sizes):
                measure_size(n, dtypes, groups, repeat or default_repeat(n), seed, report, out,
                             cache)
        finally:
            if setting and before is not None:
                setting[0](before)
    print(file=out)
    print_goals(report.rows, out)
    print(file=out)
    for line in report.notes:
        print(f"port rounding: {line}", file=out)
    for line in report.disagreements:
        print(f"LIBRARY: {line}", file=out)
    if not report.disagreements:
        compared = [what for what, on in (
            ("the textbook ports (or, where a port rounds differently, exact arithmetic)",
             textbook), ("its 1-thread answers, bit for bit, for 2 threads", threads)) if on]
        print(f"The library agrees with {' and with '.join(compared)} on every measured "
              "query, dtype and N." if compared else "No reference rows were run.", file=out)
    return report


def measure_size(n: int, dtypes: Sequence[str], groups: dict[str, list[Runner]], repeat: int,
                 seed: int, report: Report, out: TextIO, cache: str = "round-robin") -> None:
    """All rows of one N: every call's memory first (results kept), then the timed rounds."""
    scenes = {dtype: make_scene(n, DTYPES[dtype], seed) for dtype in dtypes}
    memory: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    kept: list[Any] = []  # every result, until all are measured: no output memory is reused
    for dtype, scene in scenes.items():
        for kind, group in groups.items():
            measured = [peak_extra_bytes(runner, scene) for runner in group]
            results = [result for _, result in measured]
            check(group, results, scene, dtype, n, report)
            memory[dtype, kind] = [
                (peak, output_bytes(result),
                 describe(r.query, result) if r.query != "floor" else r.kind_arrays)
                for r, (peak, result) in zip(group, measured, strict=True)]
            kept.append(results)
    del kept, measured, results
    # every row of this N in each round: a spell of load from other processes (on a shared
    # machine, the second core can be taken for a second or more) then falls on every row's
    # runs alike, not on the rows of one dtype and box kind
    cells = [(runner, scene) for scene in scenes.values() for group in groups.values()
             for runner in group]
    all_seconds = iter(median_seconds(cells, repeat, cache))
    for dtype in scenes:
        for kind, group in groups.items():
            seconds = [next(all_seconds) for _ in group]
            floors = {r.by: t for r, t in zip(group, seconds, strict=True) if r.query == "floor"}
            floor = floors["np.add.reduce, 1 thread"]
            for runner, t, mem in zip(group, seconds, memory[dtype, kind], strict=True):
                row = Row(runner, dtype, n, t, floor, *mem)
                report.rows.append(row)
                print(format_row(row), file=out, flush=True)


def print_goals(rows: Sequence[Row], out: TextIO) -> None:
    """The issue's goal table at 10^6 boxes: x floor per query, dtype and runner."""
    at_goal = [r for r in rows if r.n == GOAL_N and r.runner.query != "floor"]
    if not at_goal:
        print(f"(no N = {GOAL_N:.0e} rows: the goals are stated at that size)".replace("e+0", "e"),
              file=out)
        return
    dtypes = list(dict.fromkeys(r.dtype for r in at_goal))
    bys = list(dict.fromkeys(r.runner.by for r in at_goal))
    columns = [(by, dtype) for by in bys for dtype in dtypes]
    counts = list(dict.fromkeys(r.runner.threads for r in at_goal if r.runner.goal is not None))
    print(f"Goals at N = {GOAL_N:.0e} (median / read-once floor; met: the slablab rows of every "
          f"dtype within the goal, per thread count)".replace("e+0", "e"), file=out)
    mets = [f"met, {n} thread{'s' if n != 1 else ''}" if n else "met" for n in counts]
    print("| query | " + " | ".join(f"{by}, {dt}" for by, dt in columns) + " | goal | "
          + " | ".join(mets) + " | <= port |", file=out)
    print("|---|" + "--:|" * len(columns) + "--:|" + "---|" * (len(mets) + 1), file=out)
    for label in dict.fromkeys(r.runner.label for r in at_goal):
        cells = {(r.runner.by, r.dtype): r for r in at_goal if r.runner.label == label}
        goal = next((r.runner.goal for r in cells.values() if r.runner.goal is not None), None)
        met = []
        for n in counts:
            ours = [r for r in cells.values() if r.runner.goal is not None
                    and r.runner.threads == n]
            met.append("-" if not ours else "yes" if all(meets(r) == "yes" for r in ours)
                       else "no")
        print(f"| {label} | " + " | ".join(f"{cells[c].ratio:.2f}x" if c in cells else "-"
                                           for c in columns)
              + f" | {'-' if goal is None else f'<= {goal:.0f}x'} | " + " | ".join(met)
              + f" | {at_most_port(cells.values())} |", file=out)


def at_most_port(cells: Iterable[Row]) -> str:
    """yes / no: the library's one-thread rows at most the textbook port's time, dtype by dtype
    (a dash without both)."""
    ours = {r.dtype: r.seconds for r in cells if r.runner.goal is not None
            and r.runner.threads in (1, None)}
    port = {r.dtype: r.seconds for r in cells if r.runner.goal is None}
    pairs = [(ours[d], port[d]) for d in ours if d in port]
    return "-" if not pairs else "yes" if all(a <= b for a, b in pairs) else "no"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    def names(allowed: Sequence[str]) -> Callable[[str], list[str]]:
        def parse(value: str) -> list[str]:
            chosen = value.split(",")
            unknown = [v for v in chosen if v not in allowed]
            if unknown:
                raise argparse.ArgumentTypeError(
                    f"expected some of {','.join(allowed)}, got {','.join(unknown)}")
            return chosen
        return parse

    def sizes(value: str) -> list[int]:
        try:
            chosen = [int(float(v)) for v in value.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected numbers like 1e4,1e5, got {value}") from None
        if min(chosen) < 1:
            raise argparse.ArgumentTypeError(f"expected box counts >= 1, got {value}")
        return chosen

    parser = argparse.ArgumentParser(
        prog="benchmarks/run_queries.sh", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=sizes, default=list(DEFAULT_SIZES),
                        help="comma-separated box counts (default 1e4,1e5,1e6; 1e7 takes ~6 GiB "
                        "more)")
    parser.add_argument("--dtypes", type=names(list(DTYPES)), default=list(DTYPES),
                        help="from float64,float32 (default both)")
    parser.add_argument("--queries", type=names(QUERIES), default=list(QUERIES),
                        help=f"from {','.join(QUERIES)} (default all)")
    parser.add_argument("--boxes", type=names(BOX_KINDS), default=list(BOX_KINDS),
                        help="from aabb,obb,obb-frame (default all; obb: axes (N,3,3), "
                        "obb-frame: one (3,3) frame)")
    parser.add_argument("--cache", choices=CACHE_MODES, default="round-robin",
                        help="what each timed run finds in the CPU caches: as the rounds leave "
                        "them (default), its data wherever it fits (warm: each row's runs one "
                        "after another), or nothing of it (cold); see the module docstring")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed runs per cell (default 11 / 7 / 5 / 3 by N)")
    parser.add_argument("--seed", type=int, default=SEED, help="data seed")
    parser.add_argument("--no-textbook", dest="textbook", action="store_false",
                        help="skip the textbook numba rows")
    parser.add_argument("--no-threads", dest="threads", action="store_false",
                        help="skip the 2-thread rows")
    args = parser.parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        parser.error(f"--repeat: expected at least 1, got {args.repeat}")
    return args


def machine_line() -> str:
    """CPU, cores, memory and versions, so a table says where it was measured."""
    import os
    import platform

    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f
                         if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**30
    numba = "not installed (no textbook rows)"
    if textbook_ports is not None:
        numba = textbook_ports.numba.__version__
    return (f"machine: {model}, {usable} usable cores, {memory:.0f} GiB RAM; Python "
            f"{platform.python_version()}, numpy {np.__version__}, numba {numba}")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the machine line, the table, the goals and the agreement check.

    Returns 0, or 1 when the library contradicts exact arithmetic or its 1-thread answers.
    """
    args = parse_args(argv)
    print(machine_line(), flush=True)
    where = Path(geometry.__file__).parent
    print(f"seed {args.seed}; repeat {args.repeat or 'by N'}; cache {args.cache}; geometry from "
          f"{where}", flush=True)
    report = run(args.sizes, args.dtypes, args.queries, args.boxes, args.repeat, args.seed,
                 args.textbook, args.threads, cache=args.cache)
    return 1 if report.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
