"""The headless screenshot command: a PNG of the right size with all three class colours, and
clear one-line failures (no display, unwritable path)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.colors import CLASS_RGB

ROOT = Path(__file__).resolve().parents[2]


def run_app(*args, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env=env)


def class_pixel_counts(image: np.ndarray) -> list[int]:
    """Pixels whose hue is closest to each class colour (and saturated enough to be a box)."""
    rgb = image.reshape(-1, 3).astype(np.float64) / 255.0
    sat = rgb.max(1) - rgb.min(1)
    chroma = rgb / np.maximum(rgb.max(1, keepdims=True), 1e-6)
    ref = CLASS_RGB / CLASS_RGB.max(1, keepdims=True)
    nearest = np.argmin(((chroma[:, None, :] - ref[None]) ** 2).sum(-1), axis=1)
    close = ((chroma - ref[nearest]) ** 2).sum(-1) < 0.08
    keep = (sat > 0.25) & close
    return [int(((nearest == k) & keep).sum()) for k in range(3)]


def test_headless_screenshot_blog(egl, tmp_path):
    out = tmp_path / "blog.png"
    r = run_app("--headless", "--scene", "blog", "--screenshot", str(out), "--size", "320x180")
    assert r.returncode == 0, r.stderr
    assert str(out) in r.stdout, f"the command should print the PNG's path: {r.stdout!r}"
    img = np.asarray(Image.open(out).convert("RGB"))
    assert img.shape == (180, 320, 3), f"expected a 320x180 image, got {img.shape}"
    green, blue, red = class_pixel_counts(img)
    assert min(green, blue, red) > 100, (
        f"the blog scene should show green, blue and red boxes; pixel counts {green, blue, red}")


def test_render_scene_image_seam(egl):
    from app.headless import render_scene_image
    from app.scene import resolve_scene

    img = render_scene_image(resolve_scene("blog"), (320, 180), explain=True, show_help=True)
    assert img.shape == (180, 320, 3) and img.dtype == np.uint8
    assert img.std() > 10, "an image with content was expected"


def test_no_display_without_headless_exits_2():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = run_app("--scene", "blog", env=env)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--headless" in lines[0] and "display" in lines[0], r.stderr


@pytest.mark.parametrize("where", ["missing-dir/out.png", "is-a-dir", "a-file/out.png"])
def test_unwritable_screenshot_path_exits_2(egl, tmp_path, where):
    """Unwritable even for root (CI runs as root): a missing directory, a directory as the
    target, a regular file as the parent directory."""
    (tmp_path / "is-a-dir").mkdir()
    (tmp_path / "a-file").write_bytes(b"keep")
    target = tmp_path / where
    r = run_app("--headless", "--scene", "blog", "--screenshot", str(target), "--size", "64x36")
    assert r.returncode == 2
    assert r.stderr.strip().startswith(f"{target}: cannot write screenshot"), r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "missing-dir").exists()
    assert list((tmp_path / "is-a-dir").iterdir()) == [], "nothing half-written"
    assert (tmp_path / "a-file").read_bytes() == b"keep"


def test_readonly_directory_leaves_nothing(egl, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root can write into read-only directories")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    r = run_app("--headless", "--screenshot", str(ro / "x.png"), "--size", "64x36")
    assert r.returncode == 2 and "cannot write screenshot" in r.stderr
    assert list(ro.iterdir()) == []


def test_bad_size_is_a_usage_error():
    r = run_app("--headless", "--size", "big")
    assert r.returncode == 2 and "WIDTHxHEIGHT" in r.stderr


def test_random_scene_headless(egl, tmp_path):
    out = tmp_path / "r.png"
    r = run_app("--headless", "--boxes", "300", "--seed", "3", "--screenshot", str(out),
                "--size", "160x90")
    assert r.returncode == 0, r.stderr
    assert Image.open(out).size == (160, 90)
