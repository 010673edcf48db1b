"""Simulated input, headless: the app's WindowConfig driven with synthesised moderngl-window
events (``on_mouse_press_event`` / ``on_mouse_drag_event`` / ``on_mouse_release_event`` /
``on_mouse_scroll_event`` / ``on_mouse_position_event`` / ``on_key_event``), checking both the
state (classes from ``geometry``) and the pixels.

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

    app = headless_app(scene, tuple(app.wnd.size))
    app.message = ""
    return app


def _key(app, name, shift=False):
    mods = KeyModifiers()
    mods.shift = shift
    keys = app.wnd.keys
    app.on_key_event(getattr(keys, name), keys.ACTION_PRESS, mods)
    app.on_key_event(getattr(keys, name), keys.ACTION_RELEASE, mods)
    app.message = ""  # transient HUD messages ("keys move: start") are not under test


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
@pytest.mark.parametrize("shift", [False, True], ids=["step", "fine-step"])
def test_tab_and_wasdqe_move_the_chosen_end_by_the_documented_step(demo, shift):
    from app.window import FINE

    step = demo.step * (FINE if shift else 1)
    assert demo.step == 0.25, "the blog scene's keyboard step (1/32 of its size, rounded)"
    st = demo.state
    # the camera's right and forward, flattened onto the ground (WASD are camera-relative)
    v = demo.camera.view_matrix()
    right, back = v[:3, 0], v[:3, 2]
    right = np.array([right[0], 0, right[2]]) / math.hypot(right[0], right[2])
    fwd = -np.array([back[0], 0, back[2]]) / math.hypot(back[0], back[2])
    up = np.array([0.0, 1.0, 0.0])
    moves = {"D": right, "A": -right, "W": fwd, "S": -fwd, "E": up, "Q": -up}
    assert st.part == "both"
    for part in ("start", "end", "both"):
        _key(demo, "TAB")
        assert st.part == part, f"Tab should cycle start -> end -> both, got {st.part}"
        for key, direction in moves.items():
            s0, e0 = st.start.copy(), st.end.copy()
            _key(demo, key, shift=shift)
            want_s = s0 + step * direction if part in ("start", "both") else s0
            want_e = e0 + step * direction if part in ("end", "both") else e0
            np.testing.assert_allclose(st.start, want_s, atol=1e-9,
                                       err_msg=f"{key} with {part} chosen moved start wrongly")
            np.testing.assert_allclose(st.end, want_e, atol=1e-9,
                                       err_msg=f"{key} with {part} chosen moved end wrongly")
            expected = geometry.classify_segment_aabb(st.start, st.end, st.boxes.box_min,
                                                      st.boxes.box_max)
            np.testing.assert_array_equal(st.classes, expected)


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


# --- picking --------------------------------------------------------------------------------
def _expected_pick(app, x, y):
    """Nearest box along the ray through pixel (x, y), computed with pyrr-convention maths
    (inverse view-projection) and geometry.intersect_ray_aabb."""
    w, h = app.size
    inv = np.linalg.inv(app.camera.view_matrix() @ app.camera.projection_matrix())
    ndc = [2 * (x + 0.0) / w - 1, 1 - 2 * (y + 0.0) / h]
    near = np.array([*ndc, -1.0, 1.0]) @ inv
    far = np.array([*ndc, 1.0, 1.0]) @ inv
    a, b = near[:3] / near[3], far[:3] / far[3]
    b_ = app.state.boxes
    r = geometry.intersect_ray_aabb(a, b - a, b_.box_min, b_.box_max)
    if not r.hit.any():
        return None
    return int(np.argmin(np.where(r.hit, r.t_enter, np.inf)))


def _off_segment(app, candidates, margin=14.0):
    """The first pixel of ``candidates`` (world points) farther than ``margin`` px from the
    segment (a left press there grabs the segment instead of clicking)."""
    from app.window import _point_segment_distance_2d

    a, b = _px(app, app.state.start), _px(app, app.state.end)
    for c in candidates:
        p = _px(app, c)
        if _point_segment_distance_2d(p, a, b) > margin:
            return tuple(int(round(v)) for v in p)
    raise AssertionError(f"test problem: no candidate pixel away from the segment: {candidates}")


def _box_pixel(app, i):
    b = app.state.boxes
    c, h = b.center[i], b.half_size[i]
    corners = [c + 0.8 * h * [sx, sy, sz] for sz in (1, -1) for sy in (-1, 1) for sx in (-1, 1)]
    return _off_segment(app, [c, c + [0, 0.7 * h[1], 0], *corners])


def test_click_selects_the_nearest_box_along_the_cursor_ray(demo):
    st = demo.state
    picked = set()
    pixels = [_box_pixel(demo, i) for i in range(len(st.boxes))]
    pixels += [(150, 185), (205, 190), (210, 200), (5, 295)]  # overlaps, and the empty floor
    for x, y in pixels:
        want = _expected_pick(demo, x, y)
        demo.on_mouse_position_event(x, y, 0, 0)
        assert st.hovered == want, f"hover at ({x}, {y}): expected box {want}, got {st.hovered}"
        demo.on_mouse_press_event(x, y, LEFT)
        demo.on_mouse_release_event(x, y, LEFT)
        assert st.selected == want, f"click at ({x}, {y}): expected box {want}, got {st.selected}"
        picked.add(want)
    assert None in picked and len(picked) >= 4, f"too few distinct answers tested: {picked}"


def test_selected_box_moves_with_arrows_and_is_reclassified(demo):
    st = demo.state
    x, y = _box_pixel(demo, 1)
    demo.on_mouse_press_event(x, y, LEFT)
    demo.on_mouse_release_event(x, y, LEFT)
    assert st.selected == 1
    lo = st.boxes.box_min[1].copy()
    _key(demo, "PAGE_UP")
    np.testing.assert_allclose(st.boxes.box_min[1], lo + [0, demo.step, 0])
    np.testing.assert_array_equal(st.classes, geometry.classify_segment_aabb(
        st.start, st.end, st.boxes.box_min, st.boxes.box_max))


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
