"""The headless screenshot command: a PNG of the right size with all three class colours, and
clear one-line failures (no display, unwritable path).

Commands that render, or that fail only once a window or context exists, run as a real process
(``python -m app``); the refusals before that run in this process (the ``cli`` fixture).
"""

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


def test_no_display_without_headless_exits_2(cli, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    r = cli("--scene", "blog")
    assert r.code == 2, f"expected exit 2, got {r.code}: {r.err}"
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "--headless" in lines[0] and "display" in lines[0], r.err


@pytest.mark.parametrize("where", ["missing-dir/out.png", "is-a-dir.png", "a-file/out.png"])
def test_unwritable_screenshot_path_exits_2(cli, tmp_path, where):
    """Unwritable even for root (CI runs as root): a missing directory, a directory as the
    target, a regular file as the parent directory; refused before any window opens."""
    (tmp_path / "is-a-dir.png").mkdir()
    (tmp_path / "a-file").write_bytes(b"keep")
    target = tmp_path / where
    r = cli("--headless", "--scene", "blog", "--screenshot", str(target), "--size", "64x36")
    assert r.code == 2, f"expected exit 2, got {r.code}: {r.err}"
    assert r.err.strip().startswith(f"{target}: cannot write screenshot"), r.err
    assert not (tmp_path / "missing-dir").exists()
    assert list((tmp_path / "is-a-dir.png").iterdir()) == [], "nothing half-written"
    assert (tmp_path / "a-file").read_bytes() == b"keep"


def test_readonly_directory_leaves_nothing(cli, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root can write into read-only directories")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    r = cli("--headless", "--screenshot", str(ro / "x.png"), "--size", "64x36")
    assert r.code == 2 and "cannot write screenshot" in r.err, f"exit {r.code}: {r.err}"
    assert list(ro.iterdir()) == []


def test_bad_size_is_a_usage_error(cli):
    r = cli("--headless", "--size", "big")
    assert r.code == 2 and "WIDTHxHEIGHT" in r.err, f"exit {r.code}: {r.err}"


def test_random_scene_headless(egl, tmp_path):
    out = tmp_path / "r.png"
    r = run_app("--headless", "--boxes", "300", "--seed", "3", "--screenshot", str(out),
                "--size", "160x90")
    assert r.returncode == 0, r.stderr
    assert Image.open(out).size == (160, 90)


def _one_line_error(r, starts):
    """The one line a refused command printed (a ``cli`` result or a finished process)."""
    code, err = (r.code, r.err) if hasattr(r, "code") else (r.returncode, r.stderr)
    lines = err.strip().splitlines()
    assert code == 2, f"expected exit 2, got {code}: {err}"
    assert len(lines) == 1 and lines[0].startswith(starts), err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("seed", [-1, -(2**70), 2**70])
def test_every_integer_seed_works(egl, tmp_path, seed):
    out = tmp_path / "r.png"
    r = run_app("--headless", "--boxes", "50", "--seed", str(seed), "--screenshot", str(out),
                "--size", "64x36")
    assert r.returncode == 0 and out.exists(), r.stderr


def test_negative_seeds_have_their_own_scenes_and_number_keys_take_them():
    from app.presets import number_key_scene, random_scene

    minus, plus = random_scene(40, -1), random_scene(40, 1)
    assert not np.array_equal(minus.boxes.center, plus.boxes.center)
    np.testing.assert_array_equal(random_scene(40, -1).boxes.center, minus.boxes.center)
    assert number_key_scene(7, -1).name == "random-150-seed-1"


def test_seed_minus_one_then_key_7(gl_app):
    gl_app.controller.seed = -1
    gl_app.on_key_event(gl_app.wnd.keys.NUMBER_7, gl_app.wnd.keys.ACTION_PRESS, None)
    assert gl_app.state.scene.name == "random-150-seed-1"


@pytest.mark.parametrize("name, magic", [("a.jpg", b"\xff\xd8\xff"), ("b.JPEG", b"\xff\xd8\xff"),
                                         ("c.png", b"\x89PNG")])
def test_screenshot_format_follows_the_extension(gl_app, tmp_path, name, magic):
    """What ``--screenshot FILE`` calls (the command itself: test_headless_screenshot_blog)."""
    out = gl_app.save_screenshot(tmp_path / name)
    assert out == tmp_path / name, f"expected the screenshot at {tmp_path / name}, got {out}"
    assert out.read_bytes()[:len(magic)] == magic, f"{name} does not hold its format's bytes"


@pytest.mark.parametrize("name", ["x.gif", "x", "x.png.bak"])
def test_unknown_screenshot_extension_is_refused(cli, tmp_path, name):
    r = cli("--headless", "--screenshot", str(tmp_path / name), "--size", "64x36")
    line = _one_line_error(r, f"--screenshot '{tmp_path / name}': ")
    assert ".png" in line and ".jpg" in line
    assert list(tmp_path.iterdir()) == []


def test_empty_screenshot_name_is_refused(cli):
    line = _one_line_error(cli("--headless", "--screenshot", ""), "--screenshot '': ")
    assert "empty" in line


def test_screenshot_key_never_overwrites_and_prints_absolute_paths(gl_app, tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    gl_app.screenshot_dir = type(gl_app.screenshot_dir)("shots")  # relative, as the default
    try:
        paths = [gl_app.save_screenshot() for _ in range(3)]  # well within one second
    finally:
        gl_app.screenshot_dir = type(gl_app.screenshot_dir)("screenshots")
    assert len(set(paths)) == 3 and all(p.is_absolute() and p.exists() for p in paths), paths
    out = capsys.readouterr().out
    assert all(f"screenshot saved: {p}" in out for p in paths), out


def test_save_new_image_skips_existing_names(tmp_path):
    from app.images import save_new_image

    (tmp_path / "shot.png").write_bytes(b"keep")
    image = np.zeros((4, 4, 3), np.uint8)
    first = save_new_image(image, tmp_path, "shot")
    second = save_new_image(image, tmp_path, "shot")
    assert (first.name, second.name) == ("shot-2.png", "shot-3.png")
    assert (tmp_path / "shot.png").read_bytes() == b"keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot-2.png", "shot-3.png", "shot.png"]


def test_unreachable_display_is_named():
    env = dict(os.environ, DISPLAY=":42")
    env.pop("WAYLAND_DISPLAY", None)
    line = _one_line_error(run_app("--scene", "blog", env=env), "slablab: cannot connect to ")
    assert ":42" in line and "--headless" in line and "not set" not in line


def test_samples_beyond_the_renderer_names_the_option_and_the_range(egl):
    line = _one_line_error(run_app("--headless", "--samples", "64", "--size", "64x36"),
                           "--samples 64: ")
    assert "offers" in line and "0 (off)" in line


@pytest.mark.parametrize("value", ["-5x-5", "-5"])
def test_negative_size_is_a_size_error(cli, value):
    r = cli("--headless", "--size", value)
    last = r.err.strip().splitlines()[-1]
    assert r.code == 2 and last.startswith("slablab: error: argument --size: "), r.err
    assert "1..8192" in last or "WIDTHxHEIGHT" in last, last


def test_samples_and_default_segment_are_documented_in_help(cli):
    from app.scene import DEFAULT_SEGMENT, Scene, parse_scene

    r = cli("--help")
    assert r.code == 0, f"--help should exit 0, got {r.code}: {r.err}"
    text = " ".join(r.out.split())
    assert "--samples N" in text and "0 = off" in text and "llvmpipe" in text, text
    assert '"segment" gets (-3, 0.5, 0) -> (3, 0.5, 0)' in text, text
    presets = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "assets" / "scenes")
                     .glob("*.json"))
    assert f"preset ({', '.join(presets)})" in text, text  # every preset, lesson included
    s = parse_scene({"boxes": []}, "t.json", "t")
    assert (tuple(s.segment_start), tuple(s.segment_end)) == DEFAULT_SEGMENT
    assert Scene.__module__ == "app.scene"
