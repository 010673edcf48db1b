"""Dragging the selected box, through the input controller without OpenGL (the ``no_gl``
fixture of ``test_controller.py`` refuses any GL context): the grabbed point follows the
cursor, the colours follow (via geometry), and picking follows the box, also in scenes large
enough to pick through a refitted BoxTree."""

from __future__ import annotations

import numpy as np

import app.state
import geometry
from app.bindings import LEFT
from app.presets import random_scene
from app.scene import parse_scene
from app.state import first_hit
from tests.app.test_controller import (  # no_gl: autouse, no GL context here
    DRAG_SCENE,
    SHOT,
    click,
    drag,
    make,
    no_gl,  # noqa: F401
    px,
)


def test_dragging_the_selected_box_onto_the_segment_goes_green_blue_red():
    ctl = make(parse_scene(DRAG_SCENE, source="drag-test", name="drag-test"), SHOT)
    st, cam = ctl.state, ctl.camera
    click(ctl, *(int(v) for v in px(ctl, [0.0, 1.8, 1.0])))  # the front face, above the segment
    assert st.selected == 0, f"a click on the box should select it, got {st.selected}"
    yaw, pitch, seen = cam.yaw, cam.pitch, [int(st.classes[0])]

    def check():
        want = int(geometry.classify_segment_aabb(st.start, st.end, st.boxes.box_min[0],
                                                  st.boxes.box_max[0]))
        assert int(st.classes[0]) == want, "the app's class differs from geometry's"
        if seen[-1] != want:
            seen.append(want)

    grab = np.array([0.0, 1.8, 1.0])  # on the front face (z = 1), clear of the segment
    for shift in (-3.5, -1.0):  # box x in [-4.5, -2.5] (end inside), then [-5.5, -3.5]
        drag(ctl, LEFT, px(ctl, grab), px(ctl, grab + [shift, 0.0, 0.0]), steps=8,
             on_step=check)
        grab += [shift, 0.0, 0.0]
    assert seen == [0, 1, 2], f"expected green -> blue -> red while dragging, saw {seen}"
    np.testing.assert_allclose(st.boxes.center[0], [-4.5, 1.0, 0.0], atol=0.03,
                               err_msg="the grabbed point should follow the cursor in its plane")
    np.testing.assert_allclose(st.boxes.box_max[0] - st.boxes.box_min[0], [2.0, 2.0, 2.0],
                               err_msg="a drag moves the box, it must not resize it")
    np.testing.assert_array_equal(st.base_boxes.center, st.boxes.center,
                                  err_msg="the animation's rest pose should keep the move")
    assert (cam.yaw, cam.pitch) == (yaw, pitch), "dragging the selected box must not orbit"
    assert st.selected == 0 and st.hovered is None, "the box stays selected, the hover clears"


def test_a_wobble_on_the_selected_box_is_a_click_not_a_move():
    ctl = make(parse_scene(DRAG_SCENE, source="drag-test", name="drag-test"), SHOT)
    x, y = (int(v) for v in px(ctl, [0.0, 1.0, 1.0]))
    click(ctl, x, y)
    centre = ctl.state.boxes.center[0].copy()
    ctl.mouse_press(x, y, LEFT)
    assert ctl.dragging == "grab", f"a press on the selected box grabs it, got {ctl.dragging}"
    ctl.mouse_drag(x + 2, y + 1, 2, 1)  # under CLICK_SLOP_PX
    ctl.mouse_release(x + 2, y + 1)
    np.testing.assert_array_equal(ctl.state.boxes.center[0], centre,
                                  err_msg="a 2-pixel wobble must not move the box")
    assert ctl.state.selected == 0, "a click on the selected box keeps it selected"


def test_picking_follows_a_dragged_box_through_the_refitted_tree(monkeypatch):
    monkeypatch.setattr(app.state, "TREE_PICKING", 1)  # pick through a BoxTree, as at 1e5
    ctl = make(random_scene(150, seed=4))
    st = ctl.state
    target = next(i for i in range(len(st.boxes))
                  if ctl.pick_at(*(int(v) for v in px(ctl, st.boxes.center[i]))) == i)
    start_px = px(ctl, st.boxes.center[target])
    click(ctl, *(int(v) for v in start_px))
    assert st.selected == target
    drag(ctl, LEFT, start_px, start_px + [40, -25], steps=6)
    assert st.selected == target and not np.allclose(
        px(ctl, st.boxes.center[target]), start_px), "the selected box should have moved"
    for x, y in [start_px, start_px + [40, -25], (60, 40), (250, 120)]:
        origin, direction = ctl.camera.ray(int(x), int(y), ctl.size())
        assert st.pick(origin, direction) == first_hit(origin, direction, st.boxes), (
            f"after the drag, picking at ({x}, {y}) should equal the scan of every box")
    np.testing.assert_array_equal(
        st.classes, app.state.classify_boxes(st.start, st.end, st.boxes),
        err_msg="after the drag every class should be geometry's")
