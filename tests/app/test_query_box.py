"""Box scenes: the query box dragged, switched AABB / OBB and turned through the input
controller without OpenGL, every box's class from geometry's box-vs-box queries."""

from __future__ import annotations

import numpy as np
import pytest

import geometry
from app.bindings import LEFT
from app.query_box import TURN_DEG
from app.scene import SceneError, parse_scene
from tests.app.pixels import colour_pixels
from tests.app.test_controller import SHOT, drag, make, no_gl, px  # noqa: F401 (no_gl: autouse)

SCENE = {
    "camera": {"target": [0, 1, 0], "distance": 12, "yaw": 0, "pitch": 0, "fov": 50},
    "boxes": [{"min": [-1.5, -0.5, -1.5], "max": [1.5, 2.5, 1.5]},
              {"center": [4, 1, 0], "half_size": [0.5, 0.5, 0.5], "rotation": [0, 30, 0]}],
    "query_box": {"min": [-4.5, 0.5, -0.5], "max": [-3.5, 1.5, 0.5]},
}


def _expected(st) -> list[int]:
    q, b = st.query, st.boxes
    if q.is_obb[0]:
        a = (q.center[0], q.axes[0], q.half_size[0])
        return [int(geometry.classify_obb_aabb(*a, b.box_min[0], b.box_max[0])),
                int(geometry.classify_obb_obb(*a, b.center[1], b.axes[1], b.half_size[1]))]
    a = (q.box_min[0], q.box_max[0])
    return [int(geometry.classify_aabb_aabb(*a, b.box_min[0], b.box_max[0])),
            int(geometry.classify_aabb_obb(*a, b.center[1], b.axes[1], b.half_size[1]))]


def test_dragging_switching_and_turning_the_query_box():
    ctl = make(parse_scene(SCENE, "b.json", "b"), SHOT)
    st, cam = ctl.state, ctl.camera
    yaw, pitch, seen = cam.yaw, cam.pitch, [int(st.classes[0])]

    def check():
        assert st.classes.tolist() == _expected(st), "expected geometry's classes"
        if seen[-1] != st.classes[0]:
            seen.append(int(st.classes[0]))

    drag(ctl, LEFT, px(ctl, [-4.1, 1.1, 0.5]), px(ctl, [-0.1, 1.1, 0.5]), steps=8,
         on_step=check)
    assert seen == [0, 1, 2], f"expected green -> blue -> red while dragging, saw {seen}"
    np.testing.assert_allclose(st.query.center[0], [0, 1, 0], atol=0.03,
                               err_msg="expected the grabbed point to follow the cursor")
    assert (cam.yaw, cam.pitch) == (yaw, pitch), "dragging the query box must not orbit"
    ctl.key("B")
    assert st.query.is_obb[0] and st.classes.tolist() == _expected(st), "expected B: an OBB"
    for _ in range(3):
        ctl.key("L")
    np.testing.assert_allclose(st.query.rotation[0], [0, 3 * TURN_DEG, 0],
                               err_msg="expected L to turn the query box about y")
    assert st.classes.tolist() == _expected(st), "expected geometry's classes once turned"
    ctl.key("B")
    assert not st.query.is_obb[0] and st.classes.tolist() == _expected(st) == [2, 0], (
        "expected B back to the AABB, inside box 0")
    ctl.key("B")
    np.testing.assert_allclose(st.query.rotation[0], [0, 3 * TURN_DEG, 0],
                               err_msg="expected B to bring back the turned OBB")


def test_the_box_lesson_steps_through_geometrys_15_axes():
    """X explains the selected box against the query box; . steps through the 15 axes of
    geometry.explain_aabb_aabb / aabb_obb, then the verdict, and stays there."""
    from app.lesson import lesson_for

    ctl = make(parse_scene(SCENE, "b.json", "b"), SHOT)
    st = ctl.state
    st.selected = 1
    ctl.key("X")
    assert st.explain, "expected X to turn explain mode on in a box scene"
    q, b = st.query, st.boxes
    sat = geometry.explain_aabb_obb(q.box_min[0], q.box_max[0], b.center[1], b.axes[1],
                                    b.half_size[1])
    for step in range(1, 18):
        ctl.key("PERIOD")
        assert ctl.message == f"step {min(step, 16)}/16", f"expected step {step}: {ctl.message}"
        les = lesson_for(st, (640, 480), 8.0)
        if step <= 15:
            test = sat.axes[step - 1]
            want = "zero axis" if test.zero else "separated" if test.separates else "overlap"
            assert want in les.caption, f"step {step} ({test.name}): {les.caption!r}"
    assert f"axis {sat.separating + 1} ({sat.axes[sat.separating].name})" in les.caption, (
        f"expected the verdict to name the separating axis: {les.caption!r}")


def test_a_bad_query_box_is_one_line_naming_the_field():
    with pytest.raises(SceneError, match=r"^b\.json: query_box\.min: min > max on axis y"):
        parse_scene({"boxes": [], "query_box": {"min": [0, 2, 0], "max": [1, 1, 1]}}, "b.json",
                    "b")


def test_blue_pixels_are_the_boxes_the_query_box_crosses(egl):
    from app.colors import CLASS_COLORS
    from app.headless import headless_app
    from app.scene import resolve_scene

    app = headless_app(resolve_scene("boxes"), (640, 360))

    def blue_outside_the_hud():
        return int(colour_pixels(app, CLASS_COLORS[1][1])[0].sum())

    shown, crossed = blue_outside_the_hud(), app.state.counts()[1]
    app.state.set_query((0.0, 30.0, 0.0))  # above every box
    without = blue_outside_the_hud()
    assert crossed > 0 and shown > 20 * crossed and without == 0, (
        f"expected blue pixels only from the {crossed} boxes the query box crosses ({shown} "
        f"with them, {without} without)")
