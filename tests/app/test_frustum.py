"""app.frustum: the second camera's frustum and the boxes' classes against it."""

import numpy as np
import pytest

import geometry
from app import frustum
from app.presets import random_scene
from app.scene import CameraSpec

SPEC = CameraSpec(target=(0.0, 1.0, 0.0), distance=8.0, yaw=40.0, pitch=20.0, fov=40.0)


def test_cull_matches_geometry_and_the_tree_path(monkeypatch):
    boxes = random_scene(600).boxes
    f = geometry.Frustum.from_matrix(frustum.view_projection(SPEC))
    direct = frustum.cull(boxes, f)
    assert {0, 1, 2} <= set(direct.classes.tolist()), "expected all three classes in the scene"
    aabb = ~boxes.is_obb
    expected = geometry.classify_aabb_frustum(boxes.box_min[aabb], boxes.box_max[aabb], f)
    np.testing.assert_array_equal(direct.classes[aabb], expected,
                                  err_msg="expected classify_aabb_frustum's classes")
    planes = geometry.classify_aabb_frustum(boxes.box_min[aabb], boxes.box_max[aabb], f,
                                            conservative=True)
    np.testing.assert_array_equal(direct.false_positive[aabb], (expected == 0) & (planes != 0),
                                  err_msg="expected false positives: NONE, kept by the planes")
    monkeypatch.setattr(frustum, "TREE_CULLING", 1)
    tree = frustum.cull(boxes, f)
    np.testing.assert_array_equal(tree.classes, direct.classes,
                                  err_msg="expected the BoxTree path to agree")
    np.testing.assert_array_equal(tree.false_positive, direct.false_positive,
                                  err_msg="expected the BoxTree path's false positives to agree")


def test_frustum_corners_lie_on_the_frustum():
    m = frustum.view_projection(SPEC)
    corners = frustum.frustum_corners(m)
    clip = np.c_[corners, np.ones(8)] @ m
    ndc = clip[:, :3] / clip[:, 3:]
    np.testing.assert_allclose(np.abs(ndc), 1.0, atol=1e-9,
                               err_msg="expected every corner at NDC +-1 on each axis")
    eye = frustum.camera_eye(SPEC)
    assert np.linalg.norm(corners[:4] - eye, axis=1).max() < np.linalg.norm(
        corners[4:] - eye, axis=1).min(), "expected the near face closer to the eye than the far"


def test_frustum_scene_keys_hud_and_validator():
    from dataclasses import replace

    from app.camera import OrbitCamera
    from app.controller import FRUSTUM_ORBIT_DEG, Controller
    from app.hud import hud_lines
    from app.scene import SceneError, parse_scene, resolve_scene
    from app.state import DemoState

    scene = resolve_scene("frustum")
    state = DemoState(scene)
    assert state.false_positives() > 0, "expected the frustum preset to show false positives"
    hud = "".join(text for line in hud_lines(state, 0.0) for text, _ in line)
    assert f"{state.false_positives()} orange" in hud, f"expected the count in the HUD: {hud}"
    ctl = Controller(state, OrbitCamera(scene.camera), lambda: (320, 180))
    spec = scene.frustum_camera
    ctl.key("X")
    assert not state.explain, "expected no segment lesson in a frustum scene"
    start = ctl.camera.project(state.start[None], (320, 180))[0]
    assert ctl.handle_at(*start[:2]) is None, "expected no segment handle to grab"
    ctl.key("O")
    turned = replace(spec, yaw=spec.yaw + FRUSTUM_ORBIT_DEG)
    expected = frustum.cull(state.boxes, geometry.Frustum.from_matrix(
        frustum.view_projection(turned)))
    np.testing.assert_array_equal(state.classes, expected.classes,
                                  err_msg="expected O to classify against the turned frustum")
    ctl.key("O", shift=True)
    assert state.frustum_camera == spec, "expected Shift+O to turn the frustum back"
    ctl.key("V")
    np.testing.assert_allclose(ctl.camera.eye(), frustum.camera_eye(spec), atol=1e-4,
                               err_msg="expected V to put the view at the frustum camera")
    ctl.key("HOME")
    np.testing.assert_allclose(ctl.camera.eye(), frustum.camera_eye(scene.camera), atol=1e-4,
                               err_msg="expected Home to go back to the scene's camera")
    with pytest.raises(SceneError, match=r"^f\.json: frustum_camera\.target: expected 3"):
        parse_scene({"boxes": [], "frustum_camera": {"target": [1, 2]}}, "f.json", "f")


def test_orange_pixels_are_the_false_positives(egl):
    from app.colors import FALSE_POSITIVE
    from app.headless import headless_app
    from app.scene import resolve_scene

    def orange_outside_the_hud(scene):
        app = headless_app(scene, (640, 360))
        app.render_frame()
        hud = app.view.panels["hud"]
        rgb = app.read_image().astype(np.float64) / 255.0
        rgb[: int(hud.y + hud.h) + 1, : int(hud.x + hud.w) + 1] = 0  # its "N orange" text
        chroma = rgb / np.maximum(rgb.max(-1, keepdims=True), 1e-6)
        return int((((chroma - FALSE_POSITIVE[1]) ** 2).sum(-1) < 0.02).sum()), app.state

    scene = resolve_scene("frustum")
    shown, state = orange_outside_the_hud(scene)
    fp = state.false_positive.copy()
    scene.boxes = scene.boxes.subset(np.flatnonzero(~fp))
    without, _ = orange_outside_the_hud(scene)
    assert shown > 20 and without == 0, (
        f"expected orange pixels only from the {fp.sum()} false positives ({shown} with them, "
        f"{without} without)")
