"""Sphere scenes: the boxes' classes against the spheres (from geometry), the sphere dragged and
resized through the input controller without OpenGL, the HUD's distance, the validator, and
the red pixels of a box holding a sphere."""

from __future__ import annotations

import numpy as np
import pytest

import geometry
from app.bindings import LEFT
from app.controller import SPHERE_SCALE
from app.hud import fmt_number, hud_lines
from app.scene import SceneError, parse_scene
from tests.app.pixels import colour_pixels
from tests.app.test_controller import SHOT, drag, make, no_gl, px  # noqa: F401 (no_gl: autouse)

SCENE = {
    "camera": {"target": [0, 1, 0], "distance": 12, "yaw": 0, "pitch": 0, "fov": 50},
    "boxes": [{"min": [-1, 0, -1], "max": [1, 2, 1]},
              {"center": [4, 1, 0], "half_size": [0.5, 0.5, 0.5], "rotation": [0, 30, 0]}],
    "spheres": [{"center": [-4, 1, 0], "radius": 0.5}],
}


def _expected(st) -> list[int]:
    c, r, b = st.sphere_centers[0], st.sphere_radii[0], st.boxes
    return [int(geometry.classify_sphere_aabb(c, r, b.box_min[0], b.box_max[0])),
            int(geometry.classify_sphere_obb(c, r, b.center[1], b.axes[1], b.half_size[1]))]


def test_dragging_and_resizing_the_sphere_recolours_the_boxes():
    ctl = make(parse_scene(SCENE, "s.json", "s"), SHOT)
    st, cam = ctl.state, ctl.camera
    yaw, pitch, seen = cam.yaw, cam.pitch, [int(st.classes[0])]

    def check():
        assert st.classes.tolist() == _expected(st), "expected geometry's classes"
        if seen[-1] != st.classes[0]:
            seen.append(int(st.classes[0]))

    drag(ctl, LEFT, px(ctl, [-4.1, 1.1, 0]), px(ctl, [-0.1, 1.1, 0]), steps=8, on_step=check)
    assert seen == [0, 1, 2], f"expected green -> blue -> red while dragging, saw {seen}"
    np.testing.assert_allclose(st.sphere_centers[0], [0, 1, 0], atol=0.03,
                               err_msg="expected the sphere's centre to follow the cursor")
    assert (cam.yaw, cam.pitch) == (yaw, pitch), "dragging the sphere must not orbit"
    radius = cam.radius
    ctl.scroll(8, shift=True)
    np.testing.assert_allclose(st.sphere_radii[0], 0.5 * SPHERE_SCALE ** 8,
                               err_msg="expected Shift+wheel to scale the radius")
    assert cam.radius == radius, "Shift+wheel in a sphere scene must not zoom"
    assert st.classes.tolist() == _expected(st) == [1, 0], "expected the grown sphere to cross"
    st.selected = 1
    hud = "".join(text for line in hud_lines(st, 0.0) for text, _ in line)
    d = geometry.distance_point_obb(st.sphere_centers[0], st.boxes.center[1], st.boxes.axes[1],
                                    st.boxes.half_size[1])
    assert f"centre {fmt_number(float(d))}" in hud, f"expected the distance in the HUD: {hud}"
    assert ctl.handle_at(*px(ctl, st.start)) is None, "expected no segment handle here"
    ctl.key("X")
    from app.lesson import lesson_for

    les = lesson_for(st, (640, 480), 8.0)
    assert st.explain and les is not None and les.slabs is None, "expected the sphere lesson"
    nearest = geometry.OBB(st.boxes.center[1], st.boxes.axes[1],
                           st.boxes.half_size[1]).closest_point(st.sphere_centers[0])
    assert any(np.array_equal(p, nearest) for p, _, _ in les.points), (
        f"expected geometry's closest point {nearest} marked")
    assert "NONE" in les.caption, f"expected the distant box's rule: {les.caption!r}"


@pytest.mark.parametrize("sphere, message", [
    ({"center": [0, 0, 0], "radius": -1}, r"^f\.json: spheres\[0\]\.radius: expected a number "
                                          r">= 0, got -1$"),
    ({"center": [0, 0, 0], "radius": "1"}, r"^f\.json: spheres\[0\]\.radius: expected a number"),
    ({"center": [0, 0], "radius": 1}, r"^f\.json: spheres\[0\]\.center: expected 3 numbers"),
])
def test_bad_spheres_are_one_line_naming_the_field(sphere, message):
    with pytest.raises(SceneError, match=message):
        parse_scene({"boxes": [], "spheres": [sphere]}, "f.json", "f")


def test_red_pixels_are_the_box_holding_a_sphere(egl):
    from app.colors import CLASS_COLORS
    from app.headless import headless_app
    from app.scene import resolve_scene

    app = headless_app(resolve_scene("spheres"), (640, 360))

    def red_outside_the_hud():
        return int(colour_pixels(app, CLASS_COLORS[2][1])[0].sum())

    shown = red_outside_the_hud()
    assert app.state.counts()[2] == 1, "expected the preset's small sphere inside one box"
    app.state.move_sphere(1, [0.0, 0.0, 30.0])  # out of every box
    without = red_outside_the_hud()
    assert shown > 20 and without == 0 and app.state.counts()[2] == 0, (
        f"expected red pixels only from the box holding a sphere ({shown} with it, {without} "
        "without)")
