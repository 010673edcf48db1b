"""app.frustum: the second camera's frustum and the boxes' classes against it."""

import numpy as np

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
