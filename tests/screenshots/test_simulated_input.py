"""Simulated input, headless: the app's WindowConfig driven with synthesised moderngl-window
events (``on_mouse_press_event`` / ``on_mouse_drag_event`` / ``on_mouse_release_event`` /
``on_mouse_scroll_event`` / ``on_mouse_position_event`` / ``on_key_event``), checking the
pixels along with the state. What the input does to the state alone (steps, picking) is tested
without OpenGL in ``tests/app/test_controller.py``.

moderngl-window buttons: 1 left, 2 right, 3 middle. Keys: ``app.wnd.keys.<NAME>`` (the headless
window gives every key a distinct value, see ``app/headless_window.py``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from moderngl_window.context.base import KeyModifiers
from PIL import Image
from tests.screenshots.screenshot_compare import compare_images
from tests.screenshots.screenshot_helpers import (HUE_TOLERANCE, class_hues, hue_distance, median_rgb,
                                render_app, resize_headless, rgb_to_hsv)

import geometry

LEFT, RIGHT, MIDDLE = 1, 2, 3

#: camera straight down -z, so the drag plane (facing the camera) is z = 0
DRAG_SCENE = {
    "camera": {"target": [0.0, 1.0, 0.0], "distance": 11.0, "yaw": 0.0, "pitch": 0.0,
               "fov": 50.0},
    "segment": {"start": [-5.0, 1.0, 0.0], "end": [-4.0, 1.0, 0.0]},
    "boxes": [{"min": [-1.0, 0.0, -1.0], "max": [1.0, 2.0, 1.0]}],
}


def _scene(data, name="input-test"):
    from app.scene import parse_scene

    return parse_scene(data, source=name, name=name)


def _load(app, scene):
    from app.headless import headless_app

    return headless_app(scene, tuple(app.wnd.size))


def _key(app, name, shift=False):
    mods = KeyModifiers()
    mods.shift = shift
    keys = app.wnd.keys
    app.on_key_event(getattr(keys, name), keys.ACTION_PRESS, mods)
    app.on_key_event(getattr(keys, name), keys.ACTION_RELEASE, mods)
    app.controller.message = ""  # transient HUD messages ("keys move: start") are not under test


def _drag(app, button, start_xy, end_xy, steps=12, on_step=None):
    """Press at ``start_xy``, move in ``steps`` drag events to ``end_xy``, release."""
    x0, y0 = start_xy
    app.on_mouse_press_event(int(round(x0)), int(round(y0)), button)
    px, py = int(round(x0)), int(round(y0))
    for k in range(1, steps + 1):
        x = int(round(x0 + (end_xy[0] - x0) * k / steps))
        y = int(round(y0 + (end_xy[1] - y0) * k / steps))
        app.on_mouse_drag_event(x, y, x - px, y - py)
        px, py = x, y
        if on_step:
            on_step()
    app.on_mouse_release_event(px, py, button)


def _pixel_class(image, xy):
    hues = class_hues()
    h, s, _ = rgb_to_hsv(median_rgb(image, xy, radius=1) / 255.0)
    got = min(hues, key=lambda k: hue_distance(h, hues[k]))
    return got if s > 0.3 and hue_distance(h, hues[got]) < HUE_TOLERANCE else None


def _px(app, point):
    return app.camera.project(np.asarray(point, dtype=float), app.size)[:2]


# --- dragging -------------------------------------------------------------------------------
def test_dragging_the_segment_turns_a_box_green_blue_red(demo):
    app = _load(demo, _scene(DRAG_SCENE))
    st = app.state
    probe = [-0.5, 0.5, 1.0]  # on the box's front face, off the segment and the axis gizmo
    seen = []

    def record():
        cls = int(geometry.classify_segment_aabb(st.start, st.end, st.boxes.box_min[0],
                                                 st.boxes.box_max[0]))
        assert int(st.classes[0]) == cls, "the app's class differs from geometry's"
        if not seen or seen[-1] != cls:
            seen.append(cls)

    record()
    assert seen == [0]
    assert _pixel_class(render_app(app), _px(app, probe)) == 0, "the box is not drawn green"

    # 1) the end handle into the box: the segment crosses the boundary -> blue
    _drag(app, LEFT, _px(app, st.end), _px(app, [0.5, 1.0, 0.0]), on_step=record)
    np.testing.assert_allclose(st.end, [0.5, 1.0, 0.0], atol=0.06,
                               err_msg="the end handle did not follow the cursor in its plane")
    np.testing.assert_allclose(st.start, [-5.0, 1.0, 0.0], err_msg="dragging the end moved start")
    assert seen == [0, 1] and _pixel_class(render_app(app), _px(app, probe)) == 1

    # 2) the start handle into the box too: the segment is inside -> red
    _drag(app, LEFT, _px(app, st.start), _px(app, [-0.5, 1.0, 0.0]), on_step=record)
    assert seen == [0, 1, 2] and _pixel_class(render_app(app), _px(app, probe)) == 2

    # 3) the body (both ends) sideways out of the box: red -> blue (end out) -> green
    mid, length = (st.start + st.end) / 2, st.end - st.start
    _drag(app, LEFT, _px(app, mid), _px(app, mid + [3.0, 0.0, 0.0]), steps=30, on_step=record)
    assert seen == [0, 1, 2, 1, 0], f"classes seen while dragging: {seen}"
    np.testing.assert_allclose(st.end - st.start, length, atol=1e-9,
                               err_msg="dragging the body must move both ends together")
    assert _pixel_class(render_app(app), _px(app, probe)) == 0


def test_dragging_the_selected_box_redraws_it_there_in_its_new_colour_and_f9_records_it(
        demo, tmp_path, capsys):
    """Click the box, F9, drag it left over the segment's end, F9: the box is drawn where it
    went, blue (the segment crosses it), the floor shows where it was; the GIF holds the frames
    before and after, at the window's size."""
    app = _load(demo, _scene(DRAG_SCENE))
    st = app.state
    grab = np.array([0.0, 1.8, 1.0])  # on the box's front face, clear of the segment
    app.on_mouse_press_event(*(int(v) for v in _px(app, grab)), LEFT)
    app.on_mouse_release_event(*(int(v) for v in _px(app, grab)), LEFT)
    assert st.selected == 0
    old_probe = _px(app, [0.5, 0.5, 1.0])
    assert _pixel_class(render_app(app), old_probe) == 0, "the box starts green"
    old_dir, app.screenshot_dir = app.screenshot_dir, tmp_path  # recordings go there too
    try:
        _key(app, "F9")
        _drag(app, LEFT, _px(app, grab), _px(app, grab + [-3.5, 0.0, 0.0]),
              on_step=lambda: app.on_render(0.0, 0.0))
        _key(app, "F9")
    finally:
        app.screenshot_dir = old_dir
    image = render_app(app)
    assert st.classes[0] == 1, "the segment's end is inside the moved box: INTERSECT"
    assert _pixel_class(image, _px(app, [-3.5, 0.5, 1.0])) == 1, "the moved box is not blue there"
    assert _pixel_class(image, old_probe) is None, "the box is still drawn where it was"
    gifs = list(tmp_path.glob("*.gif"))
    assert len(gifs) == 1 and str(gifs[0]) in capsys.readouterr().out, gifs
    with Image.open(gifs[0]) as gif:
        assert gif.n_frames >= 2 and gif.size == tuple(app.wnd.size), (gif.n_frames, gif.size)


# --- camera ---------------------------------------------------------------------------------
def test_orbit_pan_zoom_change_the_picture_and_home_restores_it(demo):
    base = render_app(demo)
    for what, act in [
        ("orbit (middle-drag)", lambda: _drag(demo, MIDDLE, (200, 150), (260, 120))),
        ("orbit (left-drag on empty space)", lambda: _drag(demo, LEFT, (20, 280), (60, 260))),
        ("pan (right-drag)", lambda: _drag(demo, RIGHT, (200, 150), (230, 170))),
        ("zoom (wheel)", lambda: demo.on_mouse_scroll_event(0.0, 2.0)),
    ]:
        before = render_app(demo)
        act()
        after = render_app(demo)
        assert not compare_images(after, before).passed(), f"{what} did not change the picture"
    _key(demo, "HOME")
    cmp = compare_images(render_app(demo), base)
    assert cmp.max_channel_diff == 0, f"Home did not restore the scene's camera: {cmp.summary()}"


def test_shift_middle_drag_pans_like_right_drag(demo):
    base = render_app(demo)
    _drag(demo, RIGHT, (200, 150), (230, 170))
    right = render_app(demo)
    _key(demo, "HOME")
    np.testing.assert_array_equal(render_app(demo), base)
    keys = demo.wnd.keys
    demo.on_key_event(keys.LEFT_SHIFT, keys.ACTION_PRESS, KeyModifiers())
    _drag(demo, MIDDLE, (200, 150), (230, 170))
    demo.on_key_event(keys.LEFT_SHIFT, keys.ACTION_RELEASE, KeyModifiers())
    assert compare_images(render_app(demo), right).max_channel_diff == 0, (
        "Shift+middle-drag must pan exactly like right-drag")


# --- keyboard -------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["H", "F1"])
def test_help_overlay_toggles(demo, key):
    base = render_app(demo)
    _key(demo, key)
    assert demo.state.show_help
    shown = render_app(demo)
    cmp = compare_images(shown, base)
    assert cmp.fraction > 0.2, f"the help overlay should cover much of the picture: {cmp.summary()}"
    _key(demo, key)
    assert not demo.state.show_help
    assert compare_images(render_app(demo), base).max_channel_diff == 0, "help did not go away"


@pytest.mark.parametrize("key", ["F12", "P"])
def test_screenshot_key_writes_the_frame(demo, key, tmp_path, capsys):
    old = demo.screenshot_dir
    demo.screenshot_dir = tmp_path / "shots"
    try:
        frame = render_app(demo)
        _key(demo, key)
    finally:
        demo.screenshot_dir = old
    files = list((tmp_path / "shots").glob("*.png"))
    assert len(files) == 1, f"{key} should write one PNG into the screenshot dir, got {files}"
    assert str(files[0]) in capsys.readouterr().out, "the screenshot's path is not printed"
    saved = np.asarray(Image.open(files[0]).convert("RGB"))
    assert saved.shape == frame.shape
    assert compare_images(saved, frame).max_channel_diff == 0, "the PNG is not the frame shown"


# --- resizing -------------------------------------------------------------------------------
def test_headless_resize_seam(egl_app):
    from app.headless import render_scene_image
    from app.scene import resolve_scene

    render_scene_image(resolve_scene("blog"), (320, 180))
    image = render_scene_image(resolve_scene("blog"), (317, 211))
    assert image.shape == (211, 317, 3), f"asked for 317x211, got {image.shape[1]}x{image.shape[0]}"


@pytest.mark.parametrize("size", [(317, 211), (211, 317), (1, 1), (2, 3), (401, 299)])
def test_odd_sizes_render_with_the_right_aspect(demo, size):
    app = resize_headless(size)
    image = render_app(app)
    assert image.shape == (size[1], size[0], 3)
    # the target stays at the image centre and the projection has the window's aspect
    proj = app.camera.projection_matrix()
    assert math.isclose(proj[1, 1] / proj[0, 0], size[0] / size[1], rel_tol=1e-6)
    if min(size) > 100:
        px = _px(app, app.camera.target)
        np.testing.assert_allclose(px, np.array(size) / 2, atol=1e-6)
        red = _px(app, [0.0, 0.75, 0.5])  # on the red (INCLUDE) box's front face
        assert _pixel_class(image, red) == 2, f"at {size} the red box is not red at {red}"


def test_minimised_window_0x0_survives_and_recovers(demo):
    base = render_app(demo)
    aspect = demo.camera.projection_matrix().copy()
    demo.on_resize(0, 0)  # what pyglet reports for a minimised window
    demo.view.draw(demo.state, demo.camera, (0, 0))  # a frame into a 0x0 framebuffer
    demo.on_mouse_position_event(0, 0, 0, 0)
    _key(demo, "D")
    _key(demo, "A")
    np.testing.assert_array_equal(demo.camera.projection_matrix(), aspect)
    demo.on_resize(*demo.wnd.size)
    assert compare_images(render_app(demo), base).max_channel_diff == 0
