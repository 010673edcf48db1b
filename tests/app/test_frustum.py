"""app.frustum: the second camera's frustum and the boxes' classes against it."""

import re

import numpy as np
import pytest

import geometry
from app import frustum
from app.presets import random_scene
from app.scene import CameraSpec
from tests.app.pixels import colour_pixels

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


#: a close-up of the frustum preset's false positives from which each shows part of its
#: footprint clear of every other box's: faces are translucent, so a box's pixels are surely its
#: own colour only where no other box is drawn in front of it or behind it
FALSE_POSITIVES_CLOSE_UP = CameraSpec(target=(3.5, 1.6, 3.5), distance=12.0, yaw=90.0,
                                      pitch=75.0, fov=50.0)
SIZE = (640, 360)


def _orange_pixels(app):
    """Render a frame of ``app`` and find its orange pixels (the HUD panel masked: its "N
    orange"). Returns ``(own, clear, stray, hud)``: per box, the orange pixels and all pixels
    of its screen footprint (the rectangle around its projected corners, in the view's camera)
    that no other box's footprint covers; the orange pixels outside every false positive's
    footprint; the false positives the HUD counts."""
    from app.colors import FALSE_POSITIVE
    from app.hud import hud_lines
    from app.renderers.boxes import box_corners

    state = app.state
    orange, in_hud = colour_pixels(app, FALSE_POSITIVE[1])

    corners = app.camera.project(box_corners(state.boxes, np.arange(len(state.boxes))), SIZE)
    assert np.isfinite(corners).all(), "expected every box in front of the camera"
    lo = np.clip(np.floor(corners[..., :2].min(1)), 0, SIZE).astype(int)  # pixels x0, y0
    hi = np.clip(np.ceil(corners[..., :2].max(1)), 0, SIZE).astype(int)  # x1, y1 (past the end)
    rects = [np.s_[y0:y1, x0:x1] for (x0, y0), (x1, y1) in zip(lo, hi, strict=True)]
    boxes_over = np.zeros(in_hud.shape, dtype=int)
    for r in rects:
        boxes_over[r] += 1
    own_pixels = [(boxes_over[r] == 1) & ~in_hud[r] for r in rects]
    own = np.array([(orange[r] & m).sum() for r, m in zip(rects, own_pixels, strict=True)])
    clear = np.array([m.sum() for m in own_pixels])
    near_false_positive = np.zeros(in_hud.shape, dtype=bool)
    for i in np.flatnonzero(state.false_positive):
        near_false_positive[rects[i]] = True
    hud_text = "".join(text for line in hud_lines(state, 0.0) for text, _ in line)
    counted = re.search(rf"(\d+) {FALSE_POSITIVE[0]}", hud_text)
    assert counted, f"expected the HUD to count the false positives: {hud_text}"
    return own, clear, int((orange & ~near_false_positive).sum()), int(counted[1])


def test_orange_pixels_count_the_false_positives(egl, monkeypatch):
    from app.headless import headless_app
    from app.scene import resolve_scene

    scene = resolve_scene("frustum")
    scene.camera = FALSE_POSITIVES_CLOSE_UP
    app = headless_app(scene, SIZE)
    fp = np.flatnonzero(app.state.false_positive)
    own, clear, stray, hud = _orange_pixels(app)
    assert len(fp) and (clear[fp] > 50).all(), (
        f"expected each false positive {fp} partly clear of other boxes: {clear[fp]} pixels")
    assert (own[fp] > 20).all(), f"expected orange in each false positive {fp}: {own[fp]} pixels"
    assert stray == 0, f"expected orange only in the false positives' footprints: {stray} outside"
    shown = np.flatnonzero(own)
    assert len(shown) == hud and shown.tolist() == fp.tolist(), (
        f"expected the HUD's {hud} orange boxes, the false positives {fp}; the pixels show {shown}")

    # the count sees a false positive drawn in its class's colour and another box drawn orange
    lost = fp[0]
    extra = int(np.argmax(np.where(app.state.false_positive, 0, clear)))
    drawn = app.state.drawn_classes()
    drawn[lost], drawn[extra] = app.state.classes[lost], 3
    headless_app(scene, SIZE)  # reloaded: every box's colour is uploaded with the next frame
    monkeypatch.setattr(app.state, "drawn_classes", lambda: drawn)
    own, _, stray, hud = _orange_pixels(app)
    expected = sorted({*fp.tolist(), extra} - {lost})
    assert np.flatnonzero(own).tolist() == expected and stray > 0, (
        f"expected orange seen in boxes {expected} (not {lost}) and outside the false "
        f"positives' footprints (box {extra}): {np.flatnonzero(own)}, {stray} outside")
