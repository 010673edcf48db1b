"""The input controller without OpenGL: simulated drags, clicks, the wheel and keys move the
segment, the boxes and the camera, and the colours follow (via geometry).

Every test here runs with moderngl's context constructors replaced by ones that fail (see
``no_gl``): the controller needs no GL context, so these run where EGL is absent.
Sizes and pixels are the window's event coordinates (x right, y down); buttons are
moderngl-window's (1 left, 2 right, 3 middle).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import geometry
from app.bindings import LEFT, MIDDLE, RIGHT
from app.camera import OrbitCamera
from app.controller import FINE, MAX_ZOOM, MIN_ZOOM, Controller, point_segment_distance_2d
from app.presets import random_scene
from app.scene import parse_scene, resolve_scene
from app.state import DemoState

ROOT = Path(__file__).resolve().parents[2]
SIZE = (320, 180)  # tests/app's window size
SHOT = (400, 300)  # tests/screenshots' window size


@pytest.fixture(autouse=True)
def no_gl(monkeypatch):
    """Any attempt to create an OpenGL context fails the test."""
    import moderngl

    def refuse(*args, **kwargs):
        raise AssertionError("the controller's tests must not create an OpenGL context")

    for name in ("create_context", "create_standalone_context"):
        monkeypatch.setattr(moderngl, name, refuse)


def make(scene="blog", size=SIZE, seed=0, **kwargs) -> Controller:
    """A controller over ``scene`` (a preset name or a Scene) in a window of ``size``."""
    scene = resolve_scene(scene) if isinstance(scene, str) else scene
    state = DemoState(scene)
    camera = OrbitCamera(scene.camera, size[0] / size[1])
    return Controller(state, camera, lambda: size, seed=seed, **kwargs)


def press(ctl, name, shift=False):
    ctl.key(name, shift)


def drag(ctl, button, a, b, steps=5, on_step=None):
    """Press at ``a``, move in ``steps`` drag events to ``b`` (integer pixels, as windows
    report them), release."""
    x0, y0 = (int(round(v)) for v in a)
    ctl.mouse_press(x0, y0, button)
    px, py = x0, y0
    for k in range(1, steps + 1):
        x = int(round(a[0] + (b[0] - a[0]) * k / steps))
        y = int(round(a[1] + (b[1] - a[1]) * k / steps))
        ctl.mouse_drag(x, y, x - px, y - py)
        px, py = x, y
        if on_step:
            on_step()
    ctl.mouse_release(px, py)


def click(ctl, x, y):
    ctl.mouse_press(x, y, LEFT)
    ctl.mouse_release(x, y)


def px(ctl, point):
    return ctl.camera.project(np.asarray(point, dtype=float), ctl.size())[:2]


# --- the seam -----------------------------------------------------------------------------------
def test_the_controller_imports_no_opengl():
    code = ("import json, sys, app.controller; "
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('moderngl', 'moderngl_window', 'glcontext', 'pyglet', 'OpenGL'))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"importing app.controller failed:\n{result.stderr}"
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded == [], f"expected no OpenGL modules after `import app.controller`, found {loaded}"


# --- dragging the segment -----------------------------------------------------------------------
def test_drag_end_handle_out_of_red_box_turns_it_blue():
    ctl = make()
    st = ctl.state
    assert st.classes[0] == 2, "blog scene: box 0 contains the segment (red)"
    start_before = st.start.copy()
    end_px = px(ctl, st.end)
    drag(ctl, LEFT, end_px, end_px + [90, 0])
    assert not np.allclose(st.end, [2.0, 1.0, 0.0]), "the end handle should have moved"
    np.testing.assert_array_equal(st.start, start_before)
    assert st.classes[0] == 1, "segment now leaves box 0: INTERSECT (blue)"


def test_drag_segment_body_moves_both_ends():
    ctl = make()
    st = ctl.state
    s0, e0 = st.start.copy(), st.end.copy()
    a, b = ctl.camera.project(np.stack([s0, e0]), ctl.size())[:, :2]
    grab = a + 0.3 * (b - a)
    drag(ctl, LEFT, grab, grab + [0, -60])
    ds, de = st.start - s0, st.end - e0
    assert np.linalg.norm(ds) > 0.1, "the body drag should have moved the segment"
    np.testing.assert_allclose(ds, de, atol=1e-9)
    assert st.classes[0] != 2, "moved up out of the red box: it is not INCLUDE any more"


#: camera straight down -z, so the drag plane (facing the camera) is z = 0
DRAG_SCENE = {
    "camera": {"target": [0.0, 1.0, 0.0], "distance": 11.0, "yaw": 0.0, "pitch": 0.0,
               "fov": 50.0},
    "segment": {"start": [-5.0, 1.0, 0.0], "end": [-4.0, 1.0, 0.0]},
    "boxes": [{"min": [-1.0, 0.0, -1.0], "max": [1.0, 2.0, 1.0]}],
}


def test_dragging_the_segment_goes_green_blue_red_and_handles_follow_the_cursor():
    ctl = make(parse_scene(DRAG_SCENE, source="input-test", name="input-test"), SHOT)
    st = ctl.state
    seen = []

    def record():
        cls = int(geometry.classify_segment_aabb(st.start, st.end, st.boxes.box_min[0],
                                                 st.boxes.box_max[0]))
        assert int(st.classes[0]) == cls, "the app's class differs from geometry's"
        if not seen or seen[-1] != cls:
            seen.append(cls)

    record()
    assert seen == [0]
    # the end handle into the box -> blue
    drag(ctl, LEFT, px(ctl, st.end), px(ctl, [0.5, 1.0, 0.0]), steps=12, on_step=record)
    np.testing.assert_allclose(st.end, [0.5, 1.0, 0.0], atol=0.06,
                               err_msg="the end handle did not follow the cursor in its plane")
    np.testing.assert_allclose(st.start, [-5.0, 1.0, 0.0], err_msg="dragging the end moved start")
    assert seen == [0, 1], f"classes seen while dragging the end: {seen}"
    # the start handle into the box too -> red
    drag(ctl, LEFT, px(ctl, st.start), px(ctl, [-0.5, 1.0, 0.0]), steps=12, on_step=record)
    assert seen == [0, 1, 2], f"classes seen while dragging the start: {seen}"
    # the body sideways out of the box: red -> blue (end out) -> green
    mid, length = (st.start + st.end) / 2, st.end - st.start
    drag(ctl, LEFT, px(ctl, mid), px(ctl, mid + [3.0, 0.0, 0.0]), steps=30, on_step=record)
    assert seen == [0, 1, 2, 1, 0], f"classes seen while dragging: {seen}"
    np.testing.assert_allclose(st.end - st.start, length, atol=1e-9,
                               err_msg="dragging the body must move both ends together")


# --- keyboard -----------------------------------------------------------------------------------
def test_keyboard_moves_segment_and_changes_colours():
    ctl = make()
    st = ctl.state
    before = st.classes.copy()
    s0 = st.start.copy()
    for _ in range(8):
        press(ctl, "E")  # up
    np.testing.assert_allclose(st.start - s0, [0, 8 * 0.25, 0])
    assert (st.classes != before).any(), "moving the segment 2 units up changes colours"
    press(ctl, "Q", shift=True)
    np.testing.assert_allclose(st.start - s0, [0, 8 * 0.25 - 0.025, 0])


def test_tab_selects_which_end_keys_move():
    ctl = make()
    st = ctl.state
    assert st.part == "both"
    press(ctl, "TAB")
    assert st.part == "start"
    assert ctl.message == "keys move: start", "Tab says what the keys move now"
    s0, e0 = st.start.copy(), st.end.copy()
    press(ctl, "D")
    assert not np.allclose(st.start, s0), "D should move the start"
    np.testing.assert_array_equal(st.end, e0)
    press(ctl, "TAB")
    press(ctl, "TAB")
    assert st.part == "both"


@pytest.mark.parametrize("shift", [False, True], ids=["step", "fine-step"])
def test_tab_and_wasdqe_move_the_chosen_end_by_the_documented_step(shift):
    ctl = make(size=SHOT)
    step = ctl.step * (FINE if shift else 1)
    assert ctl.step == 0.25, "the blog scene's keyboard step (1/32 of its size, rounded)"
    st = ctl.state
    # the camera's right and forward, flattened onto the ground (WASD are camera-relative)
    v = ctl.camera.view_matrix()
    right, back = v[:3, 0], v[:3, 2]
    right = np.array([right[0], 0, right[2]]) / math.hypot(right[0], right[2])
    fwd = -np.array([back[0], 0, back[2]]) / math.hypot(back[0], back[2])
    up = np.array([0.0, 1.0, 0.0])
    moves = {"D": right, "A": -right, "W": fwd, "S": -fwd, "E": up, "Q": -up}
    assert st.part == "both"
    for part in ("start", "end", "both"):
        press(ctl, "TAB")
        assert st.part == part, f"Tab should cycle start -> end -> both, got {st.part}"
        for key, direction in moves.items():
            s0, e0 = st.start.copy(), st.end.copy()
            press(ctl, key, shift=shift)
            want_s = s0 + step * direction if part in ("start", "both") else s0
            want_e = e0 + step * direction if part in ("end", "both") else e0
            np.testing.assert_allclose(st.start, want_s, atol=1e-9,
                                       err_msg=f"{key} with {part} chosen moved start wrongly")
            np.testing.assert_allclose(st.end, want_e, atol=1e-9,
                                       err_msg=f"{key} with {part} chosen moved end wrongly")
            expected = geometry.classify_segment_aabb(st.start, st.end, st.boxes.box_min,
                                                      st.boxes.box_max)
            np.testing.assert_array_equal(st.classes, expected)


def test_keys_move_by_the_scene_step_and_a_held_shift_makes_them_fine():
    ctl = make()
    ctl.show_scene(random_scene(1500, 0))
    assert ctl.step >= 1.0, f"a 1500-box scene needs larger steps, got {ctl.step}"
    s0 = ctl.state.start.copy()
    press(ctl, "E")
    np.testing.assert_allclose(ctl.state.start - s0, [0, ctl.step, 0])
    ctl.shift = True  # a Shift key held (the window tracks LEFT_SHIFT / RIGHT_SHIFT)
    press(ctl, "Q")
    ctl.shift = False
    np.testing.assert_allclose(ctl.state.start - s0, [0, ctl.step * (1 - FINE), 0])


def test_move_box_without_a_selection_says_how_to_select():
    ctl = make()
    centres = ctl.state.boxes.center.copy()
    press(ctl, "UP")
    np.testing.assert_array_equal(ctl.state.boxes.center, centres)
    assert "select a box first" in ctl.message, f"expected a hint, got {ctl.message!r}"


# --- picking ------------------------------------------------------------------------------------
def test_hover_click_select_and_arrow_keys_move_box():
    ctl = make()
    st = ctl.state
    target = 5  # a green box at the back right
    x, y = (int(v) for v in px(ctl, st.boxes.center[target]))
    ctl.mouse_move(x, y)
    assert st.hovered == target, f"hover: expected box {target}, got {st.hovered}"
    click(ctl, x, y)
    assert st.selected == target, f"click: expected box {target}, got {st.selected}"
    c0 = st.boxes.center[target].copy()
    press(ctl, "PAGE_UP")
    np.testing.assert_allclose(st.boxes.center[target] - c0, [0, 0.25, 0])
    press(ctl, "LEFT")
    assert not np.allclose(st.boxes.center[target][[0, 2]], c0[[0, 2]]), "LEFT moves the box"


def _expected_pick(ctl, x, y):
    """Nearest box along the ray through pixel (x, y), computed with pyrr-convention maths
    (inverse view-projection) and geometry.intersect_ray_aabb."""
    w, h = ctl.size()
    inv = np.linalg.inv(ctl.camera.view_matrix() @ ctl.camera.projection_matrix())
    ndc = [2 * (x + 0.0) / w - 1, 1 - 2 * (y + 0.0) / h]
    near = np.array([*ndc, -1.0, 1.0]) @ inv
    far = np.array([*ndc, 1.0, 1.0]) @ inv
    a, b = near[:3] / near[3], far[:3] / far[3]
    boxes = ctl.state.boxes
    r = geometry.intersect_ray_aabb(a, b - a, boxes.box_min, boxes.box_max)
    if not r.hit.any():
        return None
    return int(np.argmin(np.where(r.hit, r.t_enter, np.inf)))


def _off_segment(ctl, candidates, margin=14.0):
    """The first pixel of ``candidates`` (world points) farther than ``margin`` px from the
    segment (a left press there grabs the segment instead of clicking)."""
    a, b = px(ctl, ctl.state.start), px(ctl, ctl.state.end)
    for c in candidates:
        p = px(ctl, c)
        if point_segment_distance_2d(p, a, b) > margin:
            return tuple(int(round(v)) for v in p)
    raise AssertionError(f"test problem: no candidate pixel away from the segment: {candidates}")


def _box_pixel(ctl, i):
    b = ctl.state.boxes
    c, h = b.center[i], b.half_size[i]
    corners = [c + 0.8 * h * [sx, sy, sz] for sz in (1, -1) for sy in (-1, 1) for sx in (-1, 1)]
    return _off_segment(ctl, [c, c + [0, 0.7 * h[1], 0], *corners])


def test_click_selects_the_nearest_box_along_the_cursor_ray():
    ctl = make(size=SHOT)
    st = ctl.state
    picked = set()
    pixels = [_box_pixel(ctl, i) for i in range(len(st.boxes))]
    pixels += [(150, 185), (205, 190), (210, 200), (5, 295)]  # overlaps, and the empty floor
    for x, y in pixels:
        want = _expected_pick(ctl, x, y)
        ctl.mouse_move(x, y)
        assert st.hovered == want, f"hover at ({x}, {y}): expected box {want}, got {st.hovered}"
        click(ctl, x, y)
        assert st.selected == want, f"click at ({x}, {y}): expected box {want}, got {st.selected}"
        picked.add(want)
    assert None in picked and len(picked) >= 4, f"too few distinct answers tested: {picked}"


def test_selected_box_moves_with_arrows_and_is_reclassified():
    ctl = make(size=SHOT)
    st = ctl.state
    click(ctl, *_box_pixel(ctl, 1))
    assert st.selected == 1, f"expected box 1 selected, got {st.selected}"
    lo = st.boxes.box_min[1].copy()
    press(ctl, "PAGE_UP")
    np.testing.assert_allclose(st.boxes.box_min[1], lo + [0, ctl.step, 0])
    np.testing.assert_array_equal(st.classes, geometry.classify_segment_aabb(
        st.start, st.end, st.boxes.box_min, st.boxes.box_max))


def test_hidden_none_boxes_are_not_picked_nor_stay_hovered():
    ctl = make()
    st = ctl.state
    green = 5
    x, y = (int(v) for v in px(ctl, st.boxes.center[green]))
    ctl.mouse_move(x, y)
    assert st.hovered == green and st.classes[green] == 0, "test problem: box 5 is green"
    press(ctl, "N")
    assert not st.show_none and st.hovered is None, "hiding NONE boxes drops a green hover"
    assert ctl.message == "NONE boxes hidden"
    click(ctl, x, y)
    assert st.selected != green, "a hidden green box must not be picked"
    press(ctl, "N")
    assert st.show_none and ctl.message == "NONE boxes shown"


# --- camera -------------------------------------------------------------------------------------
def test_orbit_pan_zoom_home():
    ctl = make()
    cam = ctl.camera
    yaw, pitch, dist = cam.yaw, cam.pitch, cam.distance
    drag(ctl, MIDDLE, (100, 100), (140, 80))
    assert cam.yaw != yaw and cam.pitch != pitch, "middle-drag orbits"
    t0 = np.array(cam.target)
    drag(ctl, RIGHT, (100, 100), (150, 100))
    assert not np.allclose(np.array(cam.target), t0), "right-drag pans"
    ctl.scroll(2)
    assert cam.distance < dist, "the wheel zooms in"
    press(ctl, "HOME")
    assert (cam.yaw, cam.pitch, cam.distance) == pytest.approx((yaw, pitch, dist))


def test_left_drag_on_empty_space_orbits_and_a_click_selects():
    ctl = make()
    cam, st = ctl.camera, ctl.state
    yaw, target = cam.yaw, np.array(cam.target)
    drag(ctl, LEFT, (10, 170), (60, 150), steps=6)  # bottom-left corner: floor, no box
    assert cam.yaw != yaw and np.allclose(np.array(cam.target), target), "left-drag must orbit"
    assert st.selected is None, "a drag is not a click"
    press(ctl, "HOME")
    centre = px(ctl, st.boxes.center[5])
    drag(ctl, LEFT, centre, centre, steps=1)
    assert st.selected == 5, "a left-click on a box selects it"


def test_a_press_that_moves_within_the_slop_is_still_a_click():
    ctl = make()
    x, y = (int(v) for v in px(ctl, ctl.state.boxes.center[5]))
    yaw = ctl.camera.yaw
    ctl.mouse_press(x, y, LEFT)
    ctl.mouse_drag(x + 2, y + 1, 2, 1)  # under CLICK_SLOP_PX
    ctl.mouse_release(x + 2, y + 1)
    assert ctl.camera.yaw == yaw and ctl.state.selected == 5, "a 2-pixel wobble is a click"


def test_left_drag_on_a_box_orbits_without_selecting_it():
    ctl = make()
    cam, st = ctl.camera, ctl.state
    centre = px(ctl, st.boxes.center[5])
    yaw = cam.yaw
    drag(ctl, LEFT, centre, centre + [40, 0], steps=6)
    assert cam.yaw != yaw and st.selected is None, "left-drag on a box orbits, selects nothing"


def test_right_drag_pans_middle_drag_orbits_shift_middle_pans():
    ctl = make()
    cam = ctl.camera
    yaw, pitch, target = cam.yaw, cam.pitch, np.array(cam.target)
    drag(ctl, RIGHT, (150, 90), (190, 70), steps=6)
    assert (cam.yaw, cam.pitch) == (yaw, pitch) and not np.allclose(np.array(cam.target), target)
    target = np.array(cam.target)
    drag(ctl, MIDDLE, (150, 90), (190, 70), steps=6)
    assert cam.yaw != yaw and np.allclose(np.array(cam.target), target)
    yaw, target = cam.yaw, np.array(cam.target)
    ctl.mouse_press(150, 90, MIDDLE, shift=True)
    ctl.mouse_drag(170, 80, 20, -10)
    ctl.mouse_release(170, 80)
    assert cam.yaw == yaw and not np.allclose(np.array(cam.target), target), (
        "Shift+middle-drag must pan")


def test_hover_outline_is_cleared_after_a_drag():
    ctl = make()
    st = ctl.state
    x, y = px(ctl, st.boxes.center[5])
    ctl.mouse_move(int(x), int(y))
    assert st.hovered == 5
    drag(ctl, MIDDLE, (x, y), (x + 50, y + 10), steps=6)
    assert st.hovered is None, "after orbiting, the old hover outline must not stay"


def test_zoom_stops_before_a_box_and_before_losing_the_scene():
    ctl = make()
    cam = ctl.camera
    for _ in range(200):
        ctl.scroll(1)
        assert not ctl.eye_in_a_box(), "zooming in put the camera inside a box"
    assert cam.radius >= MIN_ZOOM * ctl.extent
    for _ in range(400):
        ctl.scroll(-1)
    assert cam.radius == pytest.approx(MAX_ZOOM * ctl.extent)


def test_pan_keeps_the_scene_in_reach():
    ctl = make()
    for _ in range(30):
        drag(ctl, RIGHT, (20, 20), (300, 160), steps=6)
    offset = np.array(ctl.camera.target) - ctl.scene_centre
    assert np.linalg.norm(offset) <= ctl.extent * (1 + 1e-6)  # glm: float32


# --- toggles, scenes, window actions ------------------------------------------------------------
def test_toggles_and_presets():
    ctl = make()
    st = ctl.state
    press(ctl, "X")
    assert st.explain and st.selected is not None, "X turns explain on and selects a box"
    press(ctl, "H")
    assert st.show_help
    press(ctl, "T")
    assert not st.highlight_triangles
    press(ctl, "NUMBER_3")
    assert st.scene.name == "obb" and ctl.message == "scene: obb"
    press(ctl, "R")
    assert st.scene.name.startswith("random")
    press(ctl, "NUMBER_1")
    assert st.scene.name == "blog"


def test_seed_minus_one_then_key_7():
    ctl = make(seed=-1)
    press(ctl, "NUMBER_7")
    assert ctl.state.scene.name == "random-150-seed-1"


def test_explain_selects_the_first_non_green_box_and_keeps_a_selection():
    ctl = make()
    st = ctl.state
    first = int(np.flatnonzero(st.classes > 0)[0])
    press(ctl, "X")
    assert st.selected == first, f"expected the first non-green box {first}, got {st.selected}"
    press(ctl, "X")
    assert not st.explain and st.selected == first
    st.selected = 5
    press(ctl, "X")
    assert st.explain and st.selected == 5, "explain keeps the user's selection"


def test_lesson_keys_step_through_the_lesson():
    ctl = make()
    press(ctl, "PERIOD")
    assert ctl.state.explain and ctl.state.lesson_step == 1 and ctl.message == "step 1/4"
    press(ctl, "BACKSPACE")
    assert ctl.state.lesson_step is None and ctl.message == "live view"


def test_animation_with_frozen_clock_changes_colours():
    ctl = make()
    st = ctl.state
    before = st.boxes.center.copy()
    press(ctl, "SPACE")
    assert st.playing
    st.step(1.5)
    assert not np.allclose(st.boxes.center, before), "playing, the boxes move"
    press(ctl, "SPACE")
    frozen = st.boxes.center.copy()
    st.step(1.0)
    np.testing.assert_array_equal(st.boxes.center, frozen)


def test_screenshot_and_quit_call_the_window_and_a_failed_save_is_said():
    calls = []

    def fail():
        calls.append("screenshot")
        raise OSError("disk full")

    ctl = make(save_screenshot=fail, close=lambda: calls.append("close"))
    press(ctl, "F12")
    assert ctl.message == "screenshot failed: disk full", ctl.message
    press(ctl, "P")
    press(ctl, "ESCAPE")
    assert calls == ["screenshot", "screenshot", "close"], calls


def test_messages_expire():
    ctl = make()
    ctl.say("hello", seconds=-1.0)
    assert ctl.message_expired() and ctl.current_message() == "" and not ctl.message_expired()
    ctl.say("hello")
    assert not ctl.message_expired() and ctl.current_message() == "hello"


def test_minimised_window_0x0_keeps_input_working():
    size = [320, 180]
    ctl = make()
    ctl.size = lambda: (size[0], size[1])
    size[:] = [0, 0]
    ctl.mouse_move(0, 0)
    s0 = ctl.state.start.copy()
    press(ctl, "D")
    press(ctl, "A")
    np.testing.assert_allclose(ctl.state.start, s0, atol=1e-12)
