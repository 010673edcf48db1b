"""Controls: one bindings table behind the key handler, the help overlay and the README; mouse
drags as three.js and Blender users expect; zoom limits; keyboard steps scaled to the scene."""

import re
from pathlib import Path

import numpy as np
import pytest

from app.bindings import BINDINGS, DRAG_ACTIONS, KEY_ACTIONS, LEFT, MIDDLE, RIGHT, bindings_markdown

ROOT = Path(__file__).resolve().parents[2]


def _drag(app, button, a, b, steps=6):
    app.on_mouse_press_event(int(a[0]), int(a[1]), button)
    px, py = int(a[0]), int(a[1])
    for t in np.linspace(0, 1, steps + 1)[1:]:
        x, y = (int(round(a[i] + t * (b[i] - a[i]))) for i in range(2))
        app.on_mouse_drag_event(x, y, x - px, y - py)
        px, py = x, y
    app.on_mouse_release_event(px, py, button)


def _press(app, name):
    keys = app.wnd.keys
    app.on_key_event(getattr(keys, name), keys.ACTION_PRESS, None)
    app.on_key_event(getattr(keys, name), keys.ACTION_RELEASE, None)


def test_every_key_of_the_table_has_its_action_and_a_distinct_key(gl_app):
    keys = [k for b in BINDINGS for k in b.keys]
    assert len(keys) == len(set(keys)), "a key bound twice"
    for name, binding in KEY_ACTIONS.items():
        assert hasattr(gl_app.wnd.keys, name), f"{name} is not a moderngl-window key name"
        assert callable(getattr(gl_app, f"action_{binding.action}", None)), (
            f"{binding.inputs}: the window has no action_{binding.action}")
    assert set(DRAG_ACTIONS.values()) == {"orbit", "pan"}


def test_help_overlay_lists_exactly_the_table():
    from app.hud import help_lines

    shown = ["".join(s for s, _ in line) for line in help_lines()]
    for b in BINDINGS:
        assert any(line.startswith(b.inputs) and line.rstrip().endswith(b.what)
                   for line in shown), f"help overlay lacks {b.inputs!r}"
    rows = [line for line in shown if any(line.startswith(b.inputs + "  ") for b in BINDINGS)]
    assert len(rows) == len(BINDINGS)


def test_readme_controls_table_is_the_bindings_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^\| Input \| Action \|\n(?:^\|.*\|\n)+", text, re.M)
    assert m, "README.md has no controls table (| Input | Action |)"
    assert m.group(0) == bindings_markdown(), (
        "README.md's controls table differs from app.bindings; paste app.bindings."
        "bindings_markdown() there:\n" + bindings_markdown())


def test_left_drag_on_empty_space_orbits_and_a_click_selects(gl_app):
    cam, st = gl_app.camera, gl_app.state
    yaw, target = cam.yaw, np.array(cam.target)
    _drag(gl_app, LEFT, (10, 170), (60, 150))  # bottom-left corner: floor, no box
    assert cam.yaw != yaw and np.allclose(np.array(cam.target), target), "left-drag must orbit"
    assert st.selected is None, "a drag is not a click"
    _press(gl_app, "HOME")
    centre = cam.project(st.boxes.center[5], gl_app.size)[:2]
    _drag(gl_app, LEFT, centre, centre, steps=1)
    assert st.selected == 5, "a left-click on a box selects it"


def test_left_drag_on_a_box_orbits_without_selecting_it(gl_app):
    cam, st = gl_app.camera, gl_app.state
    centre = cam.project(st.boxes.center[5], gl_app.size)[:2]
    yaw = cam.yaw
    _drag(gl_app, LEFT, centre, centre + [40, 0])
    assert cam.yaw != yaw and st.selected is None


def test_right_drag_pans_middle_drag_orbits(gl_app):
    cam = gl_app.camera
    yaw, pitch, target = cam.yaw, cam.pitch, np.array(cam.target)
    _drag(gl_app, RIGHT, (150, 90), (190, 70))
    assert (cam.yaw, cam.pitch) == (yaw, pitch) and not np.allclose(np.array(cam.target), target)
    target = np.array(cam.target)
    _drag(gl_app, MIDDLE, (150, 90), (190, 70))
    assert cam.yaw != yaw and np.allclose(np.array(cam.target), target)


def test_hover_outline_is_cleared_after_a_drag(gl_app):
    st, cam = gl_app.state, gl_app.camera
    x, y = cam.project(st.boxes.center[5], gl_app.size)[:2]
    gl_app.on_mouse_position_event(int(x), int(y), 0, 0)
    assert st.hovered == 5
    _drag(gl_app, MIDDLE, (x, y), (x + 50, y + 10))
    assert st.hovered is None, "after orbiting, the old hover outline must not stay"


def test_zoom_stops_before_a_box_and_before_losing_the_scene(gl_app):
    from app.window import MAX_ZOOM, MIN_ZOOM

    cam = gl_app.camera
    for _ in range(200):
        gl_app.on_mouse_scroll_event(0, 1)
        assert not gl_app._eye_in_a_box(), "zooming in put the camera inside a box"
    assert cam.radius >= MIN_ZOOM * gl_app.extent
    for _ in range(400):
        gl_app.on_mouse_scroll_event(0, -1)
    assert cam.radius == pytest.approx(MAX_ZOOM * gl_app.extent)


def test_pan_keeps_the_scene_in_reach(gl_app):
    for _ in range(30):
        _drag(gl_app, RIGHT, (20, 20), (300, 160))
    offset = np.array(gl_app.camera.target) - gl_app.scene_centre
    assert np.linalg.norm(offset) <= gl_app.extent * (1 + 1e-6)  # glm: float32


@pytest.mark.parametrize("extent, step", [(8.3, 0.25), (1.0, 0.025), (57.0, 2.0),
                                          (700.0, 20.0)])
def test_keyboard_step_scales_with_the_scene(extent, step):
    from app.window import keyboard_step

    assert keyboard_step(extent) == pytest.approx(step)


def test_keys_move_by_the_scene_step(gl_app):
    from app.presets import random_scene
    from app.window import FINE

    gl_app.show_scene(random_scene(1500, 0))
    assert gl_app.step >= 1.0, f"a 1500-box scene needs larger steps, got {gl_app.step}"
    s0 = gl_app.state.start.copy()
    _press(gl_app, "E")
    np.testing.assert_allclose(gl_app.state.start - s0, [0, gl_app.step, 0])
    keys = gl_app.wnd.keys
    gl_app.on_key_event(keys.LEFT_SHIFT, keys.ACTION_PRESS, None)
    _press(gl_app, "Q")
    gl_app.on_key_event(keys.LEFT_SHIFT, keys.ACTION_RELEASE, None)
    np.testing.assert_allclose(gl_app.state.start - s0, [0, gl_app.step * (1 - FINE), 0])
