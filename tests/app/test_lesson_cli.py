"""``--explain --step N`` / ``--triangle I``: a lesson step rendered headless, and one-line
refusals of options that do not fit."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def run_app(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("args, message", [
    (["--step", "2"], "--step needs --explain"),
    (["--triangle", "0"], "--triangle needs --explain"),
    (["--explain", "--step", "5"], "--step 5: this lesson has steps 1..4"),
    (["--explain", "--step", "0"], "--step 0: this lesson has steps 1..4"),
    (["--explain", "--triangle", "0", "--step", "15"], "--step 15: this lesson has steps 1..14"),
    (["--explain", "--triangle", "2"], "--triangle 2: the scene has 2 triangles"),
])
def test_bad_lesson_options_are_one_line_errors(cli, args, message, tmp_path):
    out = tmp_path / "x.png"
    r = cli("--headless", "--scene", "lesson", *args, "--screenshot", str(out))
    assert r.code == 2, f"expected exit 2, got {r.code}: {r.err}"
    assert r.err.strip() == message or r.err.strip().endswith(message), (
        f"expected the one line {message!r}, got {r.err!r}")
    assert not out.exists(), "a refused command must write no screenshot"


def test_step_renders_that_step(egl, tmp_path):
    """Steps 1 and 3 of the same lesson differ (the y and z slabs appear), and step 1 shows no
    z-slab colour on the number line while step 3 does."""
    from app.colors import SLAB_AXES

    images = {}
    for step in (1, 3):
        out = tmp_path / f"step{step}.png"
        r = run_app("--headless", "--scene", "lesson", "--explain", "--select", "0", "--step",
                    str(step), "--size", "640x480", "--screenshot", str(out))
        assert r.returncode == 0, r.stderr
        images[step] = np.asarray(Image.open(out).convert("RGB")).astype(float) / 255.0
    amber = np.asarray(SLAB_AXES[2])
    panel = (slice(280, 480), slice(0, 460))  # the lesson panel, bottom-left at 640x480

    def amber_pixels(img):
        return int((np.linalg.norm(img[panel] - amber, axis=-1) < 0.08).sum())

    assert amber_pixels(images[1]) < 20 < amber_pixels(images[3]), (
        f"the z slab's bar should appear at step 3 only: {amber_pixels(images[1])} amber "
        f"pixels at step 1, {amber_pixels(images[3])} at step 3")
