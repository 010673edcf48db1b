"""A real window: the demo opens a pyglet window under X (Xvfb where there is no display),
renders frames in moderngl-window's main loop, saves a screenshot through the F12 key path and
closes cleanly on Esc. Each run is a subprocess, so a crash or hang cannot take pytest down.

Skipped, with what to install, where neither a display nor ``xvfb-run`` exists
(``apt-get install xvfb xauth``; ``./tests/run.sh`` installs them as root on Debian).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from tests.screenshots.screenshot_helpers import class_hues, hue_distance, rgb_to_hsv

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

pytestmark = pytest.mark.real_window


def _x_command(argv: list[str]) -> list[str]:
    """``argv`` on the current display, or under xvfb-run; skip when neither is available."""
    if os.environ.get("DISPLAY"):
        return argv
    if shutil.which("xvfb-run") and shutil.which("Xvfb") and shutil.which("xauth"):
        return ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *argv]
    pytest.skip("no X display and no xvfb-run: install Xvfb to run the real-window test "
                "(apt-get install xvfb xauth)")


#: run from the repository root (``cwd=ROOT``), as a module of the tests package
DRIVER = "tests.screenshots.real_window_driver"


def _run(argv, timeout=120):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.run(_x_command(argv), cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return proc


def _class_pixels(image: np.ndarray) -> list[int]:
    """How many saturated pixels have each class colour's hue."""
    hsv = rgb_to_hsv(image.reshape(-1, 3) / 255.0)
    strong = (hsv[:, 1] > 0.5) & (hsv[:, 2] > 0.35)
    return [int((strong & (np.array([hue_distance(h, hue) for h in hsv[:, 0]]) < 15)).sum())
            for _, hue in sorted(class_hues().items())]


@pytest.fixture(scope="module")
def screenshot_run(tmp_path_factory):
    """One run of the driver: blog scene, F12 at frame 5, Esc at frame 10."""
    out = tmp_path_factory.mktemp("real_window") / "shots"
    proc = _run([sys.executable, "-m", DRIVER, str(out), "5", "10"])
    return proc, out, f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"


def test_real_window_renders_and_f12_saves_the_frame(screenshot_run):
    proc, out, log = screenshot_run
    assert "backend: pyglet" in proc.stdout, f"the pyglet window did not open\n{log}"
    files = sorted(out.glob("*.png"))
    assert len(files) == 1, f"F12 should save exactly one PNG in {out}, found {files}\n{log}"
    assert f"screenshot saved: {files[0]}" in proc.stdout, log
    image = np.asarray(Image.open(files[0]).convert("RGB"))
    assert image.shape == (240, 320, 3), f"expected a 320x240 screenshot, got {image.shape}"
    green, blue, red = _class_pixels(image)
    assert min(green, blue, red) > 50, (
        f"the blog scene in a real window should show all three classes; class-coloured pixels "
        f"green {green}, blue {blue}, red {red} (image: {files[0]})")


def test_real_window_closes_cleanly_after_a_screenshot(screenshot_run):
    proc, _, log = screenshot_run
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, log
    assert "window closed" in proc.stdout, log


def test_idle_window_draws_on_demand_and_esc_closes_cleanly(tmp_path):
    """Paused and untouched for 250 loop iterations (~2 s): a frame when the window opens and a
    repaint a second (app.loop.REFRESH_S), not a frame per iteration, and little CPU."""
    import re

    proc = _run([sys.executable, "-m", DRIVER, str(tmp_path), "0",
                 "250"])
    log = f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, log
    m = re.search(r"frames rendered: (\d+) in (\d+) iterations; wall ([\d.]+) s, cpu ([\d.]+) s;"
                  r" window closed", proc.stdout)
    assert m, log
    frames, iterations, wall, cpu = int(m[1]), int(m[2]), float(m[3]), float(m[4])
    assert iterations == 250 and frames <= 2 + wall, f"an idle demo drew {frames} frames\n{log}"
    assert cpu < 0.3 * wall, f"an idle demo used {cpu:.2f} s of CPU in {wall:.2f} s\n{log}"


def test_cli_window_screenshot_opens_and_closes(tmp_path):
    """``python -m app --screenshot PNG`` without --headless: one frame in a real window."""
    shot = tmp_path / "cli.png"
    proc = _run([sys.executable, "-m", "app", "--scene", "obb", "--size", "320x240",
                 "--screenshot", str(shot)])
    log = f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert proc.returncode == 0, f"exit {proc.returncode}\n{log}"
    assert shot.exists(), log
    image = np.asarray(Image.open(shot).convert("RGB"))
    assert image.shape == (240, 320, 3)
    assert min(_class_pixels(image)) > 50, "the obb scene should show all three classes"


def test_samples_beyond_what_the_display_offers_names_the_option(tmp_path):
    shot = tmp_path / "s.png"
    proc = _run([sys.executable, "-m", "app", "--samples", "64", "--size", "64x48",
                 "--screenshot", str(shot)])
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert lines[0].startswith("--samples 64: ") and "offers" in lines[0], lines[0]
    assert not shot.exists()


def test_samples_within_range_draw_antialiased_in_a_window(tmp_path):
    shots = {n: tmp_path / f"s{n}.png" for n in (0, 4)}
    for n, shot in shots.items():
        proc = _run([sys.executable, "-m", "app", "--samples", str(n), "--size", "320x240",
                     "--screenshot", str(shot)])
        assert proc.returncode == 0, proc.stderr
    a, b = (np.asarray(Image.open(shots[n]).convert("RGB")).astype(int) for n in (0, 4))
    assert a.shape == b.shape and (np.abs(a - b).max(axis=-1) > 40).mean() > 0.002, (
        "4 samples should smooth the edges that 0 samples draws hard")
