"""Synthesised mouse and keyboard events on the headless demo window move the segment and boxes,
and the colours follow (via geometry)."""

import numpy as np
import pytest
from moderngl_window.context.base import KeyModifiers

from app.camera import OrbitCamera, glm_to_pyrr
from app.scene import CameraSpec

LEFT, RIGHT, MIDDLE = 1, 2, 3


def press(app, name, shift=False):
    mods = KeyModifiers()
    mods.shift = shift
    app.on_key_event(getattr(app.wnd.keys, name), app.wnd.keys.ACTION_PRESS, mods)
    app.on_key_event(getattr(app.wnd.keys, name), app.wnd.keys.ACTION_RELEASE, mods)


def drag(app, button, a, b, steps=5):
    app.on_mouse_press_event(int(a[0]), int(a[1]), button)
    prev = np.asarray(a, float)
    for t in np.linspace(0, 1, steps + 1)[1:]:
        p = np.asarray(a, float) + t * (np.asarray(b, float) - np.asarray(a, float))
        d = np.round(p - prev)
        app.on_mouse_drag_event(int(round(p[0])), int(round(p[1])), int(d[0]), int(d[1]))
        prev = prev + d
    app.on_mouse_release_event(int(b[0]), int(b[1]), button)


def test_camera_matrices_match_glm_and_project_round_trip():
    cam = OrbitCamera(CameraSpec(target=(1, 2, 3), distance=8, yaw=40, pitch=30), 16 / 9)
    _ = cam.matrix  # moderngl-window updates .position when the matrix is read
    np.testing.assert_allclose(cam.eye(), np.array(cam.position), atol=1e-5)
    # pyrr convention: [p, 1] @ V == glm's V @ p
    p = np.array([0.3, -1.0, 2.0, 1.0])
    glm_math = np.array(cam.matrix, dtype=np.float64)  # glm as laid out: the mathematical matrix
    np.testing.assert_allclose(p @ cam.view_matrix(), glm_math @ p, atol=1e-5)
    np.testing.assert_allclose(glm_to_pyrr(cam.matrix)[3, :3] @ np.eye(3),
                               cam.view_matrix()[3, :3])
    # the target projects to the centre; a picking ray through a projected point hits it
    np.testing.assert_allclose(cam.project([1, 2, 3], (320, 180))[:2], [160, 90], atol=1e-3)
    q = np.array([2.0, 2.5, 1.0])
    x, y, _ = cam.project(q, (320, 180))
    o, d = cam.ray(x, y, (320, 180))
    closest = o + np.dot(q - o, d) * d
    np.testing.assert_allclose(closest, q, atol=1e-4)


def test_drag_end_handle_out_of_red_box_turns_it_blue(gl_app):
    app = gl_app
    assert app.state.classes[0] == 2, "blog scene: box 0 contains the segment (red)"
    start_before = app.state.start.copy()
    end_px = app.camera.project(app.state.end, app.size)[:2]
    drag(app, LEFT, end_px, end_px + [90, 0])
    assert not np.allclose(app.state.end, [2.0, 1.0, 0.0]), "the end handle should have moved"
    np.testing.assert_array_equal(app.state.start, start_before)
    assert app.state.classes[0] == 1, "segment now leaves box 0: INTERSECT (blue)"
    app.render_frame()


def test_drag_segment_body_moves_both_ends(gl_app):
    app = gl_app
    s0, e0 = app.state.start.copy(), app.state.end.copy()
    a, b = app.camera.project(np.stack([s0, e0]), app.size)[:, :2]
    grab = a + 0.3 * (b - a)
    drag(app, LEFT, grab, grab + [0, -60])
    ds, de = app.state.start - s0, app.state.end - e0
    assert np.linalg.norm(ds) > 0.1
    np.testing.assert_allclose(ds, de, atol=1e-9)
    # moved up out of the red box: it is not INCLUDE any more
    assert app.state.classes[0] != 2


def test_keyboard_moves_segment_and_changes_colours(gl_app):
    app = gl_app
    before = app.state.classes.copy()
    s0 = app.state.start.copy()
    for _ in range(8):
        press(app, "E")  # up
    np.testing.assert_allclose(app.state.start - s0, [0, 8 * 0.25, 0])
    assert (app.state.classes != before).any(), "moving the segment 2 units up changes colours"
    press(app, "Q", shift=True)
    np.testing.assert_allclose(app.state.start - s0, [0, 8 * 0.25 - 0.025, 0])


def test_tab_selects_which_end_keys_move(gl_app):
    app = gl_app
    assert app.state.part == "both"
    press(app, "TAB")
    assert app.state.part == "start"
    s0, e0 = app.state.start.copy(), app.state.end.copy()
    press(app, "D")
    assert not np.allclose(app.state.start, s0)
    np.testing.assert_array_equal(app.state.end, e0)
    press(app, "TAB")
    press(app, "TAB")
    assert app.state.part == "both"


def test_hover_click_select_and_arrow_keys_move_box(gl_app):
    app = gl_app
    target = 5  # a green box at the back right
    centre = app.camera.project(app.state.boxes.center[target], app.size)[:2]
    app.on_mouse_position_event(int(centre[0]), int(centre[1]), 0, 0)
    assert app.state.hovered == target
    app.on_mouse_press_event(int(centre[0]), int(centre[1]), LEFT)
    app.on_mouse_release_event(int(centre[0]), int(centre[1]), LEFT)
    assert app.state.selected == target
    c0 = app.state.boxes.center[target].copy()
    press(app, "PAGE_UP")
    np.testing.assert_allclose(app.state.boxes.center[target] - c0, [0, 0.25, 0])
    press(app, "LEFT")
    assert not np.allclose(app.state.boxes.center[target][[0, 2]], c0[[0, 2]])


def test_orbit_pan_zoom_home(gl_app):
    app = gl_app
    cam = app.camera
    yaw, pitch, dist = cam.yaw, cam.pitch, cam.distance
    drag(app, MIDDLE, (100, 100), (140, 80))
    assert cam.yaw != yaw and cam.pitch != pitch
    t0 = np.array(cam.target)
    drag(app, RIGHT, (100, 100), (150, 100))
    assert not np.allclose(np.array(cam.target), t0)
    app.on_mouse_scroll_event(0, 2)
    assert cam.distance < dist
    press(app, "HOME")
    assert (cam.yaw, cam.pitch, cam.distance) == pytest.approx((yaw, pitch, dist))


def test_toggles_and_presets(gl_app):
    app = gl_app
    press(app, "X")
    assert app.state.explain and app.state.selected is not None
    press(app, "H")
    assert app.state.show_help
    press(app, "T")
    assert not app.state.highlight_triangles
    app.render_frame()  # explain + help overlay draw without error
    press(app, "NUMBER_3")
    assert app.state.scene.name == "obb"
    press(app, "R")
    assert app.state.scene.name.startswith("random")
    press(app, "NUMBER_1")
    assert app.state.scene.name == "blog"


def test_animation_with_frozen_clock_changes_colours(gl_app):
    app = gl_app
    before = app.state.boxes.center.copy()
    press(app, "SPACE")
    assert app.state.playing
    app.state.step(1.5)
    assert not np.allclose(app.state.boxes.center, before)
    app.render_frame()
    press(app, "SPACE")
    frozen = app.state.boxes.center.copy()
    app.state.step(1.0)
    np.testing.assert_array_equal(app.state.boxes.center, frozen)


def test_only_changed_colours_are_uploaded(gl_app):
    app = gl_app
    app.render_frame()
    uploads = app.view.boxes.uploads
    app.render_frame()
    assert app.view.boxes.uploads == uploads, "an idle frame writes no instance data"
    press(app, "E")
    assert len(app.state._recoloured.nonzero()[0]) < len(app.state.boxes)


def test_resize_and_minimise_do_not_crash(gl_app):
    app = gl_app
    app.on_resize(0, 0)
    app.view.draw(app.state, app.camera, (0, 0))
    app.on_resize(200, 100)
    app.render_frame()
