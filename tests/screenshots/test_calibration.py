"""Calibration of the golden comparison (``screenshot_compare``): with the real renderer and the
real comparison function, the same frame passes and the smallest real regressions fail.

* the same frame rendered twice (same process, and a fresh process through the CLI) passes;
* the smallest camera change the input allows (a 1-pixel orbit drag, a 1-pixel pan) fails;
* swapping two class colours in the app's colour table fails;
* removing any one box of any preset fails.

Run with ``-s`` to see the measured pixel counts (they are quoted in screenshot_compare's
docstring and the README).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image
from tests.screenshots.screenshot_compare import (CHANNEL_TOLERANCE, MAX_DIFF_FRACTION, ROOT, compare_images,
                                golden_path)
from tests.screenshots.screenshot_helpers import SIZE, load_scene, render_app, resize_headless

PRESETS = ["blog", "grid", "obb", "triangles", "rays", "edges"]


def _render(scene, size=SIZE, **kwargs) -> np.ndarray:
    from app.headless import render_scene_image

    resize_headless(size)
    return render_scene_image(scene, size, **kwargs)


def _must_fail(what: str, changed, base) -> None:
    cmp = compare_images(changed, base)
    print(f"calibration: {what}: {cmp.n_diff} px ({100 * cmp.fraction:.2f} %) differ")
    assert not cmp.passed(), (
        f"{what} must fail the golden comparison, but only {cmp.summary()}: the tolerance "
        f"(> {CHANNEL_TOLERANCE}/255 on > {100 * MAX_DIFF_FRACTION} % of pixels) is too loose")


def test_same_frame_twice_is_bit_identical(egl_app):
    scene = load_scene("blog")
    a, b = _render(scene), _render(scene)
    cmp = compare_images(a, b)
    print(f"calibration: same frame twice: max channel difference {cmp.max_channel_diff}")
    assert cmp.max_channel_diff == 0, f"two renders of the same frame differ: {cmp.summary()}"


def test_fresh_process_render_matches(egl_app, tmp_path):
    """The CLI in a new process (new GL context, new buffers) renders the committed golden."""
    out = tmp_path / "blog.png"
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--headless", "--scene", "blog", "--size",
         f"{SIZE[0]}x{SIZE[1]}", "--screenshot", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"headless CLI failed (exit {proc.returncode}):\n{proc.stderr}"
    fresh = np.asarray(Image.open(out).convert("RGB"))
    here = _render(load_scene("blog"))
    cmp = compare_images(fresh, here)
    print(f"calibration: fresh process vs this process: max channel difference "
          f"{cmp.max_channel_diff}, {cmp.n_diff} px differ")
    assert cmp.passed(), f"a render in a fresh process differs: {cmp.summary()}"
    golden = np.asarray(Image.open(golden_path("preset_blog")).convert("RGB"))
    assert compare_images(fresh, golden).passed(), "the CLI's image differs from the golden"


@pytest.mark.parametrize("move", ["orbit_1px_right", "orbit_1px_down", "pan_1px", "zoom_1_step"])
def test_smallest_camera_change_fails(demo, move):
    """One synthesised mouse event of one pixel (or one wheel click) is a visible change."""
    base = render_app(demo)
    x, y = 200, 150
    if move == "zoom_1_step":
        demo.on_mouse_scroll_event(0.0, 1.0)
    else:
        button = 2 if move == "pan_1px" else 3  # moderngl-window: 1 left, 2 right, 3 middle
        dx, dy = (0, 1) if move == "orbit_1px_down" else (1, 0)
        demo.on_mouse_press_event(x, y, button)
        demo.on_mouse_drag_event(x + dx, y + dy, dx, dy)
        demo.on_mouse_release_event(x + dx, y + dy, button)
    _must_fail(f"camera {move}", render_app(demo), base)


def _colour_tables():
    """Every (module, attribute) in the app that holds the class colour table object."""
    import app.colors

    table = app.colors.CLASS_RGB
    found = [(m, "CLASS_RGB") for name, m in sorted(sys.modules.items())
             if (name == "app" or name.startswith("app.")) and getattr(m, "CLASS_RGB", None)
             is table]
    assert found, "app.colors.CLASS_RGB (the class -> colour table) not found"
    return table, found


@pytest.mark.parametrize("pair", [(0, 1), (0, 2), (1, 2)], ids=["green-blue", "green-red",
                                                                  "blue-red"])
def test_swapped_class_colours_fail(egl_app, monkeypatch, pair):
    scene = load_scene("blog")  # all three classes are on screen
    base = _render(scene)
    table, holders = _colour_tables()
    swapped = table.copy()
    swapped[list(pair)] = swapped[list(pair[::-1])]
    for module, attr in holders:
        monkeypatch.setattr(module, attr, swapped)
    _must_fail(f"colours {pair} swapped", _render(scene), base)


def _without_box(scene, k):
    from app.scene import Boxes

    b = scene.boxes
    keep = np.arange(len(b)) != k
    return replace(scene, boxes=Boxes(b.box_min[keep], b.box_max[keep], b.center[keep],
                                      b.half_size[keep], b.rotation[keep], b.is_obb[keep]))


@pytest.mark.parametrize("preset", PRESETS)
def test_any_missing_box_fails(egl_app, preset):
    scene = load_scene(preset)
    base = _render(scene)
    counts = []
    for k in range(len(scene.boxes)):
        cmp = compare_images(_render(_without_box(scene, k)), base)
        counts.append(cmp.n_diff)
        assert not cmp.passed(), (
            f"{preset} without box {k} still passes the golden comparison ({cmp.summary()})")
    print(f"calibration: {preset}: removing one box changes >= {min(counts)} px "
          f"(box {int(np.argmin(counts))})")
