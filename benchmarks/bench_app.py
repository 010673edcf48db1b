"""Frame times of the demo (`app`) rendered headless, and what classification costs in them.

Run: ``.venv/bin/python -m benchmarks.bench_app [--sizes 1000,10000,100000] [--frames F]
[--size 1280x720]``. Not part of the test suite; it needs EGL (Mesa llvmpipe in CI).

For each N it loads ``app.presets.random_scene(N, seed)`` into the app's own headless window
(``app.headless.headless_app``: EGL, samples=0, the same ``render_frame`` as the real window) and
times whole frames, ``ctx.finish()`` included, in rounds of three so load from other processes
hits every kind alike:

* static  - nothing moves (what an idle app draws); buffer writes must stay 0.
* moving  - ``state.move_segment`` by +-0.25 (one W/S key step, alternating, so boxes near the
  segment change class every frame), then the frame: classification + colour upload + draw.
* frozen  - the segment moves the same way but ``state.start``/``state.end`` are assigned
  directly, so nothing is re-classified or uploaded: the same picture with colours frozen
  (restored after the frame, outside the clock).

Then, in-process and without drawing, the moving frame's non-draw part alone: ``move_segment``
(classification of every box, plus the ray re-trace it triggers) and ``BoxRenderer.update``
(class-buffer write of the re-classified boxes, ``ctx.finish()`` included); with its share of
the moving frame. Bytes written to the class buffer are counted through a proxy buffer.

``--window``: the demo in a REAL window (pyglet; under ``xvfb-run`` when there is no display),
``random_scene(N, seed 0)`` (the 6000-box preset, key 9, by default) orbiting one degree per
frame, drawn by the app's own loop (``app.loop.run_on_demand``: draw + buffer swap + input, what
the HUD's frame time shows), at default settings (multisampling chosen by renderer: none on
llvmpipe) against ``--samples 0`` and ``--samples 4``. Each setting runs in its own process, in
interleaved rounds, so load from other processes hits all alike; the table gives medians over
rounds and each one's ratio to no multisampling.

``--window --drag``: at default settings, the same view redrawn unchanged ("still") against the
box under the window's centre selected and dragged back and forth (controller mouse events, 4 px
a frame, what a left drag does: move, reclassify, upload), and every 20th frame a pick under
the cursor (what a hover after a release costs: at 1e5 boxes through the refitted BoxTree).
``--frustum`` (with ``--window --drag``): the same in frustum culling mode (the random scene with
a frustum camera over part of it, :func:`frustum_scene`), the issue's case: ``--sizes 1e5``
must reach 20 fps while dragging.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time

import numpy as np

DELTA = np.array([0.0, 0.0, 0.25])  # a keyboard step of the blog scene, along z
SEED = 7


def parse_size(text: str) -> tuple[int, int]:
    w, h = text.lower().split("x")
    return int(w), int(h)


def frames_for(n: int) -> int:
    """Default rounds per N: llvmpipe draws 10^5 translucent cubes slowly."""
    return 40 if n <= 2_000 else 20 if n <= 20_000 else 7


def machine_line(ctx) -> str:
    """CPU model, cores, GL renderer and versions, load."""
    from benchmarks.bench_geometry import cpu_model_and_cores

    model, usable = cpu_model_and_cores()
    import moderngl
    import moderngl_window
    load = f", load avg {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    lp = os.environ.get("LP_NUM_THREADS")
    return (f"machine: {model}, {os.cpu_count()} cores ({usable} usable){load}; "
            f"GL_RENDERER {ctx.info['GL_RENDERER']}; GL_VERSION {ctx.info['GL_VERSION']}"
            f"{'; LP_NUM_THREADS ' + lp if lp else ''}; numpy {np.__version__}, moderngl "
            f"{moderngl.__version__}, moderngl-window {moderngl_window.__version__}, Python "
            f"{platform.python_version()}; {datetime.date.today().isoformat()}")


class _CountingBuffer:
    """Stands in for a moderngl Buffer in ``write_rows``: counts the bytes written."""

    def __init__(self, buffer, tally: dict):
        self._buffer, self._tally = buffer, tally

    def write(self, data, offset: int = 0) -> None:
        self._tally[id(self._buffer)] = self._tally.get(id(self._buffer), 0) + len(data)
        self._buffer.write(data, offset=offset)


def install_byte_counter() -> dict:
    """Wrap the box renderer's ``write_rows`` so every byte it writes is tallied per buffer."""
    import app.renderers.boxes as boxes_mod

    tally: dict = {}
    original = getattr(boxes_mod.write_rows, "__wrapped__", boxes_mod.write_rows)

    def write_rows(buffer, rows, indices, *args, **kwargs):
        return original(_CountingBuffer(buffer, tally), rows, indices, *args, **kwargs)

    write_rows.__wrapped__ = original
    boxes_mod.write_rows = write_rows
    return tally


def ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1e3


def bench_n(n: int, rounds: int, size: tuple[int, int], tally: dict) -> dict:
    from app.headless import headless_app
    from app.presets import random_scene
    from app.state import classify_boxes

    t0 = time.perf_counter()
    scene = random_scene(n, SEED)
    build_s = time.perf_counter() - t0
    app = headless_app(scene, size)
    state, view, ctx = app.state, app.view, app.ctx
    boxes = view.boxes

    def frame() -> float:
        t = time.perf_counter()
        app.render_frame()
        ctx.finish()
        return time.perf_counter() - t

    frame(), frame()  # first frame uploads every box; the second is a warm static one
    static, moving, frozen = [], [], []
    static_writes = static_bytes = 0
    moving_writes, moving_bytes, recoloured = [], [], []
    sign = 1.0
    for _ in range(rounds):
        # static
        w0, b0 = boxes.uploads, sum(tally.values())
        static.append(frame())
        static_writes += boxes.uploads - w0
        static_bytes += sum(tally.values()) - b0
        # moving: the move (classification) and the frame (upload + draw) on one clock
        w0, b0 = boxes.uploads, tally.get(id(boxes.classes), 0)
        before = state.classes.copy()
        t = time.perf_counter()
        state.move_segment(sign * DELTA, "both")
        app.render_frame()
        ctx.finish()
        moving.append(time.perf_counter() - t)
        moving_writes.append(boxes.uploads - w0)
        moving_bytes.append(tally.get(id(boxes.classes), 0) - b0)
        recoloured.append(int(np.count_nonzero(before != state.classes)))
        sign = -sign
        # frozen: the same segment move, colours not updated
        start, end = state.start.copy(), state.end.copy()
        w0 = boxes.uploads
        t = time.perf_counter()
        state.start, state.end = start + sign * DELTA, end + sign * DELTA
        app.render_frame()
        ctx.finish()
        frozen.append(time.perf_counter() - t)
        assert boxes.uploads == w0, "a frozen frame wrote a buffer"
        state.start, state.end = start, end

    # the non-draw part of a moving frame alone, in-process
    reps = max(rounds, 7)
    move_update, classify_only, update_only = [], [], []
    for _ in range(reps):
        t = time.perf_counter()
        classify_boxes(state.start + sign * DELTA, state.end + sign * DELTA, state.boxes)
        classify_only.append(time.perf_counter() - t)
        t = time.perf_counter()
        state.move_segment(sign * DELTA, "both")
        t1 = time.perf_counter()
        boxes.update(state.boxes, state.classes, state.take_moved(), state.take_recoloured())
        ctx.finish()
        t2 = time.perf_counter()
        move_update.append(t2 - t)
        update_only.append(t2 - t1)
        sign = -sign
    app.render_frame()
    ctx.finish()

    frame_moving = ms(moving)
    return {
        "n": n, "rounds": rounds, "build_s": build_s, "counts": state.counts(),
        "static": ms(static), "moving": frame_moving, "frozen": ms(frozen),
        "ratio": ms(moving) / ms(frozen),
        "classify": ms(classify_only), "update": ms(update_only), "cls_upd": ms(move_update),
        "share": 100.0 * ms(move_update) / frame_moving,
        "est_ratio": (ms(frozen) + ms(move_update)) / ms(frozen),
        "static_writes": static_writes, "static_bytes": static_bytes,
        "moving_writes": statistics.median(moving_writes),
        "moving_kib": statistics.median(moving_bytes) / 1024,
        "recoloured": statistics.median(recoloured),
        "colour_kib": 4 * n / 1024,
    }


HEADER = (
    "| N | frames | static ms | moving ms | frozen ms | moving / frozen "
    "| (frozen + classify + update) / frozen | classify ms "
    "| colour update ms | classify + update ms | % of moving frame | recoloured boxes / frame "
    "| colour bytes written / frame | static-frame writes |\n"
    "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
)


def row(r: dict) -> str:
    def f(x: float) -> str:
        return f"{x:.3g}" if x < 100 else f"{x:.0f}"

    return (
        f"| {r['n']:.0e}".replace("e+0", "e") + f" | {r['rounds']} | {f(r['static'])} "
        f"| {f(r['moving'])} | {f(r['frozen'])} | {r['ratio']:.2f} | {r['est_ratio']:.3f} "
        f"| {f(r['classify'])} "
        f"| {f(r['update'])} | {f(r['cls_upd'])} | {r['share']:.1f} % | {r['recoloured']:.0f} "
        f"| {r['moving_kib']:.1f} KiB of {r['colour_kib']:.1f} KiB in {r['moving_writes']:.0f} "
        f"write(s) | {r['static_writes']} ({r['static_bytes']} B) |"
    )


WINDOW_SETTINGS = (("default", None), ("--samples 0", 0), ("--samples 4", 4))
#: --drag: (name, samples, motion) at default settings; ratios are to the still frame
DRAG_SETTINGS = (("dragging a box", None, "drag"), ("still", None, "still"))


#: --frustum: the frame rate a drag must keep
TARGET_FPS = 20.0


def frustum_scene(n: int):
    """``random_scene(n, 0)`` in frustum culling mode: a frustum camera looking over part of
    the boxes (each class and false positives appear)."""
    from dataclasses import replace

    from app.presets import random_scene
    from app.scene import CameraSpec

    spread = max(4.0, 1.1 * n ** (1 / 3))  # random_scene's half width
    return replace(random_scene(n, 0), frustum_camera=CameraSpec(
        target=(0.0, 1.5, 0.0), distance=0.9 * spread, yaw=-50.0, pitch=25.0, fov=45.0))


def window_child(n: int, samples: int | None, frames: int, size: tuple[int, int],
                 motion: str = "orbit", frustum: bool = False) -> dict:
    """In this process: open the real window on ``random_scene(n, 0)`` and, ``frames`` frames
    through ``app.loop.run_on_demand``, orbit it (``motion`` "orbit"), drag the box at its
    centre ("drag") or redraw it unchanged ("still"); return the frame costs (ms) measured."""
    from app.bindings import LEFT
    from app.loop import run_on_demand
    from app.presets import random_scene
    from app.window import create_window

    app = create_window(frustum_scene(n) if frustum else random_scene(n, 0), size=size,
                        samples=samples)
    ctl, (cx, cy) = app.controller, (app.size[0] // 2, app.size[1] // 2)
    seen = [0]
    if motion == "drag":
        ctl.state.selected = ctl.pick_at(cx, cy)
        ctl.mouse_press(cx, cy, LEFT)
        if ctl.state.selected is None or ctl.dragging != "grab":
            raise SystemExit("--drag: no box to grab under the window's centre")
    costs: list[float] = []
    drawn = [0]
    render = app.wnd.render_func

    def counted(time: float, frame_time: float) -> None:
        render(time, frame_time)
        drawn[0] += 1

    app.wnd.render_func = counted
    previous = [0.0]

    def tick() -> None:
        if drawn[0] > 3 and app.frame_ms != previous[0]:  # three warm-up frames
            costs.append(app.frame_ms_last)
        previous[0] = app.frame_ms
        if len(costs) >= frames:
            app.wnd.close()
        if motion == "orbit":
            app.camera.orbit(1 / 0.3, 0.0)  # one degree of yaw
        elif motion == "drag" and drawn[0] != seen[0]:  # a drag event per frame, out and back
            seen[0] = drawn[0]
            k = drawn[0] % 20
            ctl.mouse_drag(cx + 8 + 4 * min(k, 20 - k), cy, 4, 0)  # past the click slop
            if k == 0:  # what a hover after a release costs: a pick through the refitted tree
                ctl.pick_at(cx, cy)
        app._dirty = True

    run_on_demand(app, tick)
    return {"samples": app.samples, "renderer": app.ctx.info["GL_RENDERER"], "costs": costs}


def bench_window(n: int, frames: int, rounds: int, size: tuple[int, int],
                 drag: bool = False, frustum: bool = False) -> int:
    """Run :func:`window_child` per setting and round in subprocesses; print the table."""
    import json
    import shutil
    import subprocess

    prefix: list[str] = []
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            print("--window needs a display or xvfb-run (apt-get install xvfb xauth)")
            return 2
        prefix = ["xvfb-run", "-a", "-s", f"-screen 0 {size[0] + 64}x{size[1] + 64}x24"]
    settings = DRAG_SETTINGS if drag else tuple((name, samples, "orbit")
                                                for name, samples in WINDOW_SETTINGS)
    results: dict[str, list[dict]] = {name: [] for name, *_ in settings}
    for _ in range(rounds):
        for name, samples, motion in settings:
            cmd = [*prefix, sys.executable, "-m", "benchmarks.bench_app", "--window-child",
                   f"{n},{'auto' if samples is None else samples},{frames},"
                   f"{size[0]}x{size[1]},{motion},{int(frustum)}"]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                                 cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            if out.returncode != 0:
                print(f"{name}: failed\n{out.stderr}")
                return 1
            results[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    first = results[settings[0][0]][0]
    load = f", load avg {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"real window {size[0]}x{size[1]} (pyglet{', Xvfb' if prefix else ''}), "
          f"{first['renderer']}{load}; random_scene({n}, seed 0)"
          f"{' in frustum mode' if frustum else ''} "
          f"{'dragging a box 4 px or still' if drag else 'orbiting 1 degree'} a frame; "
          f"{frames} frames x {rounds} rounds per setting; frame = draw + swap + input "
          f"(app.loop)")
    base_name = "still" if drag else "--samples 0"
    print(f"| setting | samples | median frame ms | fps | / {base_name} |\n|---|--:|--:|--:|--:|")
    base = statistics.median(c for r in results[base_name] for c in r["costs"])
    for name, *_ in settings:
        costs = [c for r in results[name] for c in r["costs"]]
        med = statistics.median(costs)
        print(f"| {name} | {results[name][0]['samples']} | {med:.1f} | {1e3 / med:.1f} "
              f"| {med / base:.2f} |")
    if frustum:
        drag_ms = statistics.median(c for r in results[settings[0][0]] for c in r["costs"])
        met = 1e3 / drag_ms >= TARGET_FPS
        print(f"dragging at {1e3 / drag_ms:.1f} fps: the {TARGET_FPS:.0f} fps target is "
              f"{'met' if met else 'NOT met'}")
        return 0 if met else 1
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_app", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="1000,10000,100000",
                   help="box counts, comma-separated (1e5 accepted); default %(default)s")
    p.add_argument("--frames", type=int, default=None,
                   help="rounds (one static, one moving, one frozen frame each) per N; "
                        "default 40 / 20 / 7 at N <= 2e3 / 2e4 / above")
    p.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH, default 1280x720")
    p.add_argument("--window", action="store_true",
                   help="real-window frame times at default settings vs --samples 0 / 4 "
                        "(N: the first of --sizes if given, else 6000)")
    p.add_argument("--rounds", type=int, default=3, help="--window: rounds (default 3)")
    p.add_argument("--drag", action="store_true",
                   help="--window: dragging a box against the still view (default settings)")
    p.add_argument("--frustum", action="store_true",
                   help="--window --drag: in frustum culling mode (exit 1 below 20 fps)")
    p.add_argument("--window-child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.window_child:
        import json

        n, samples, frames, size, motion, frustum = args.window_child.split(",")
        r = window_child(int(n), None if samples == "auto" else int(samples), int(frames),
                         parse_size(size), motion, frustum == "1")
        print(json.dumps(r))
        return 0
    if args.window:
        n = int(float(args.sizes.split(",")[0])) if "--sizes" in (argv or sys.argv) else 6000
        return bench_window(n, args.frames or 40, args.rounds, args.size,
                            args.drag or args.frustum, args.frustum)
    sizes = [int(float(s)) for s in args.sizes.split(",") if s.strip()]

    from app.headless import headless_app

    tally = install_byte_counter()
    app = headless_app(None, args.size)
    print(machine_line(app.ctx), flush=True)
    print(f"window {args.size[0]}x{args.size[1]} headless EGL, samples 0; random_scene(N, seed "
          f"{SEED}); segment step {DELTA[2]} along z; medians; ctx.finish() inside every clock",
          flush=True)
    print(HEADER, flush=True)
    results = []
    for n in sizes:
        r = bench_n(n, args.frames or frames_for(n), args.size, tally)
        results.append(r)
        print(row(r), flush=True)
    for r in results:
        g, b, red = r["counts"]
        print(f"N = {r['n']}: scene built in {r['build_s']:.2f} s; classes green {g} / blue {b} "
              f"/ red {red}", flush=True)
    bad = [r["n"] for r in results if r["static_writes"]]
    if bad:
        print(f"static frames wrote buffers at N = {bad}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
