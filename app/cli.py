"""Command line of ``python -m app`` / ``slablab``: options, and every failure as one line.

Exit codes: 0 ok, 2 bad input (scene file, size, screenshot or recording path, sample count) or
no display.
"""

from __future__ import annotations

import argparse
import os
import sys

from app.images import ImagePathError
from app.scene import DEFAULT_SEGMENT, SceneError, preset_names, resolve_scene

#: options whose value may start with "-" (argparse would take "--size -5x-5" for two options)
_TEXT_VALUED = ("--size", "--screenshot", "--scene", "--record")


class CliError(Exception):
    """A problem the user can fix; ``str()`` is the one line printed before exit 2."""


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT (e.g. 1280x720), got {text!r}") from None
    if not (1 <= w <= 8192 and 1 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"width and height must be in 1..8192, got {text!r}")
    return w, h


def _samples(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 (off) or more, got {n}")
    return n


def _frames(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 2 <= n <= 3600:
        raise argparse.ArgumentTypeError(f"expected 2..3600 frames, got {n}")
    return n


def _vec(p) -> str:
    return "(" + ", ".join(f"{v:g}" for v in p) + ")"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="slablab", description="Interactive segment/ray/triangle vs box demo "
        "(green NONE, blue INTERSECT, red INCLUDE). Press H in the window for the controls.")
    p.add_argument("--scene", default=None, metavar="NAME|PATH",
                   help=f"preset ({', '.join(preset_names())}) or a scene .json file "
                        f"(default: blog); a file without a \"segment\" gets "
                        f"{_vec(DEFAULT_SEGMENT[0])} -> {_vec(DEFAULT_SEGMENT[1])}")
    p.add_argument("--boxes", type=int, default=None, metavar="N",
                   help="instead of --scene: a random scene of N boxes")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the random scene, any integer (default 0)")
    p.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                   help="window / image size (default 1280x720)")
    p.add_argument("--headless", action="store_true",
                   help="render offscreen (EGL) instead of opening a window")
    p.add_argument("--screenshot", metavar="FILE",
                   help="write one rendered frame to FILE (.png, .jpg or .jpeg) and exit "
                        "(with --headless, or in a window opened just for that frame)")
    p.add_argument("--record", metavar="FILE",
                   help="write an animated GIF (.gif) to FILE and exit: with --explain each "
                        "step of the lesson, held 1 s; else one turn of the camera around the "
                        "scene (see --frames)")
    p.add_argument("--frames", type=_frames, default=None, metavar="N",
                   help="with --record and no --explain: the turn's frames, 0.1 s each "
                        "(default 60)")
    p.add_argument("--explain", action="store_true", help="start in explain mode")
    p.add_argument("--select", type=int, default=None, metavar="I",
                   help="select box I (the box explain mode explains)")
    p.add_argument("--step", type=int, default=None, metavar="N",
                   help="with --explain: show step N of the lesson (segment: 1-3 the x, y, z "
                        "slab, 4 the verdict; with --triangle: 1-13 the axes, 14 the verdict; "
                        "in a box scene: 1-15 the axes, 16 the verdict)")
    p.add_argument("--triangle", type=int, default=None, metavar="I",
                   help="with --explain: explain scene triangle I against the box")
    p.add_argument("--help-overlay", action="store_true", help="start with the help overlay")
    p.add_argument("--samples", type=_samples, default=None, metavar="N",
                   help="multisampling (anti-aliased edges), N samples per pixel, 0 = off. "
                        "Default: 0 on software OpenGL (Mesa llvmpipe, where 4 samples cost "
                        "about 2.6x the frame time), 4 on a GPU. At most what the OpenGL "
                        "implementation offers (GL_MAX_SAMPLES; 4 on llvmpipe)")
    return p


def _join_text_values(argv: list[str]) -> list[str]:
    """``--size -5x-5`` -> ``--size=-5x-5``: a value starting with "-" stays a value."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] in _TEXT_VALUED and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and not argv[i + 1].startswith("--"):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def load_requested_scene(args: argparse.Namespace):
    if args.boxes is not None:
        if args.scene is not None:
            raise CliError("give either --scene or --boxes, not both")
        if not 0 <= args.boxes <= 200_000:
            raise CliError(f"--boxes must be in 0..200000, got {args.boxes}")
        from app.presets import random_scene
        return random_scene(args.boxes, args.seed)
    return resolve_scene(args.scene or "blog")


def has_display() -> bool:
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


_HEADLESS_HINT = "use --headless --screenshot out.png to render offscreen, or run under xvfb-run"
NO_DISPLAY = f"slablab: no display to open a window on (DISPLAY is not set); {_HEADLESS_HINT}"


def _unreachable_display() -> str:
    where = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or "(default)"
    return f"slablab: cannot connect to display {where} (is a display server running there?); " \
           f"{_HEADLESS_HINT}"


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(_join_text_values(argv))
    try:
        scene = load_requested_scene(args)
        if args.screenshot is not None:
            from app.images import check_writable
            try:
                check_writable(args.screenshot)
            except ImagePathError as exc:
                raise CliError(f"--screenshot {args.screenshot!r}: {exc}") from None
            except OSError as exc:
                raise CliError(f"{args.screenshot}: cannot write screenshot: "
                               f"{exc.strerror or exc}") from None
        _check_record_options(args)
        if args.select is not None and not 0 <= args.select < len(scene.boxes):
            raise CliError(f"--select {args.select}: the scene has {len(scene.boxes)} boxes")
        _check_lesson_options(args, scene)
        if args.headless:
            return _run_headless(args, scene)
        if not has_display():
            raise CliError(NO_DISPLAY)
        return _run_window(args, scene)
    except (SceneError, CliError) as exc:
        print(str(exc), file=sys.stderr)
        return 2


def _check_record_options(args) -> None:
    """--record: a writable .gif, not with --screenshot or --step; --frames only for an orbit."""
    if args.record is None:
        if args.frames is not None:
            raise CliError("--frames needs --record")
        return
    if args.screenshot is not None:
        raise CliError("give either --screenshot or --record, not both")
    if args.step is not None:
        raise CliError("--record records every step of the lesson; leave out --step")
    if args.frames is not None and args.explain:
        raise CliError("--frames is for the camera's turn; with --explain, --record records "
                       "one frame per lesson step")
    from app.record import RecordPathError, check_record_path
    try:
        check_record_path(args.record)
    except RecordPathError as exc:
        raise CliError(f"--record {args.record!r}: {exc}") from None
    except OSError as exc:
        raise CliError(f"--record {args.record!r}: cannot write there: "
                       f"{exc.strerror or exc}") from None


def _check_lesson_options(args, scene) -> None:
    """--step and --triangle: only with --explain, and in range."""
    from app.lesson import steps_of

    for name in ("step", "triangle"):
        if getattr(args, name) is not None and not args.explain:
            raise CliError(f"--{name} needs --explain")
    if args.triangle is not None and not 0 <= args.triangle < len(scene.triangles):
        raise CliError(f"--triangle {args.triangle}: the scene has {len(scene.triangles)} "
                       f"triangles")
    steps = steps_of(scene.query_box is not None, bool(len(scene.sphere_radii)),
                     args.triangle is not None)
    if args.step is not None and not 1 <= args.step <= steps:
        raise CliError(f"--step {args.step}: this lesson has steps 1..{steps}")


def _apply_options(app, args) -> None:
    st = app.state
    st.show_help = args.help_overlay
    if args.select is not None:
        st.selected = args.select
    if args.explain:
        st.set_explain(True)  # what the X key does (it toggles; the demo starts with it off)
        st.lesson_triangle, st.lesson_step = args.triangle, args.step


def _save(app, path: str) -> None:
    try:
        app.save_screenshot(path)
    except OSError as exc:
        raise CliError(f"{path}: cannot write screenshot: {exc.strerror or exc}") from None


def _record(app, args) -> None:
    """Render what --record asks for and write it to ``args.record``."""
    from app.lesson import lesson_steps
    from app.record import ORBIT_FRAMES, lesson_frames, orbit_frames, save_animation

    if args.explain:
        frames = list(lesson_frames(app, lesson_steps(app.state)))
    else:
        frames = list(orbit_frames(app, args.frames or ORBIT_FRAMES))
    try:
        path = save_animation([f for f, _ in frames], [ms for _, ms in frames], args.record)
    except OSError as exc:
        raise CliError(f"--record {args.record!r}: cannot write there: "
                       f"{exc.strerror or exc}") from None
    print(f"recording saved: {path} ({len(frames)} frames)")


def _run_headless(args, scene) -> int:
    from app.window import ContextError, SamplesError, create_window

    try:
        app = create_window(scene, headless=True, size=args.size, samples=args.samples,
                            seed=args.seed)
    except SamplesError as exc:
        raise CliError(str(exc)) from None
    except ContextError as exc:  # no EGL / no GPU driver: say what to install
        raise CliError(f"slablab: cannot create an offscreen OpenGL context ({exc}); "
                       f"install Mesa's EGL (apt-get install libegl1 libgl1-mesa-dri)") from None
    _apply_options(app, args)
    if args.screenshot is not None:
        _save(app, args.screenshot)
    elif args.record is not None:
        _record(app, args)
    else:
        app.render_frame()
        print("slablab: rendered one frame offscreen (add --screenshot out.png to keep it)")
    return 0


def _run_window(args, scene) -> int:
    from app.loop import run_on_demand
    from app.window import ContextError, SamplesError, create_window

    try:
        app = create_window(scene, size=args.size, samples=args.samples, seed=args.seed)
    except SamplesError as exc:
        raise CliError(str(exc)) from None
    except ContextError as exc:
        if "display" in str(exc).lower():  # the backend's class name and message
            raise CliError(_unreachable_display()) from None
        raise CliError(f"slablab: cannot open an OpenGL 3.3 window ({exc}); "
                       f"try --headless") from None
    _apply_options(app, args)
    if args.screenshot is not None or args.record is not None:
        if args.screenshot is not None:
            _save(app, args.screenshot)
        else:
            _record(app, args)
        app.wnd.destroy()
        return 0
    run_on_demand(app)
    return 0
