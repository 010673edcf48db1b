"""Frustum culling for the demo, without OpenGL: the frustum of a second camera (a
:class:`~app.scene.CameraSpec`) and every box's class against it, from ``geometry``.

Boxes are classified exactly (``classify_aabb_frustum`` / ``classify_obb_frustum``); the boxes
the plane-only test (``conservative=True``) keeps although they are outside are its false
positives, which the demo shows in their own colour and counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from pyrr import matrix44

import geometry
from app.scene import Boxes, CameraSpec

#: the frustum camera's near and far planes, as fractions of its distance to its target: the
#: frustum ends a little past the target, so that it is drawn closed in the scene
NEAR, FAR = 0.05, 2.0
#: from this many boxes on, the axis-aligned ones are culled through a geometry.BoxTree
TREE_CULLING = 10**4


def camera_eye(spec: CameraSpec) -> np.ndarray:
    """The eye of a camera at ``spec``'s distance, yaw and pitch from its target (yaw 0: on +z,
    90: on +x)."""
    yaw, pitch = math.radians(spec.yaw), math.radians(spec.pitch)
    offset = spec.distance * np.array([math.cos(pitch) * math.sin(yaw), math.sin(pitch),
                                       math.cos(pitch) * math.cos(yaw)])
    return np.asarray(spec.target, dtype=np.float64) + offset


def view_projection(spec: CameraSpec, aspect: float = 16 / 9) -> np.ndarray:
    """(4, 4) pyrr (row-vector) view-projection matrix of a camera at ``spec``."""
    view = matrix44.create_look_at(camera_eye(spec), np.asarray(spec.target, dtype=np.float64),
                                   np.array([0.0, 1.0, 0.0]))
    proj = matrix44.create_perspective_projection(spec.fov, aspect, NEAR * spec.distance,
                                                  FAR * spec.distance)
    return np.asarray(matrix44.multiply(view, proj), dtype=np.float64)


def frustum_corners(matrix: np.ndarray) -> np.ndarray:
    """(8, 3) world corners of the frustum of view-projection ``matrix``: near face then far
    face, each (-1,-1), (1,-1), (1,1), (-1,1) in normalised device coordinates."""
    ndc = np.array([(x, y, z, 1.0) for z in (-1, 1) for x, y in
                    ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    world = ndc @ np.linalg.inv(matrix)
    return world[:, :3] / world[:, 3:]


#: the 12 edges of a frustum as pairs of :func:`frustum_corners` indices: near face, far face,
#: and the four from near to far
FRUSTUM_EDGES = np.array([(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4),
                          (0, 4), (1, 5), (2, 6), (3, 7)])


@dataclass
class Culling:
    """Every box against the frustum: ``classes`` (N,) int8 (exact), ``false_positive`` (N,)
    bool: outside, yet kept by the plane-only test."""

    classes: np.ndarray
    false_positive: np.ndarray


def _classify(boxes: Boxes, frustum: geometry.Frustum, conservative: bool) -> np.ndarray:
    """(N,) int8 classes of ``boxes`` against ``frustum``: axis-aligned boxes by their exact
    min/max (through a BoxTree in large scenes), rotated ones as OBBs."""
    classes = np.zeros(len(boxes), dtype=np.int8)
    aabb = np.flatnonzero(~boxes.is_obb)
    if len(aabb) >= TREE_CULLING:
        found = geometry.BoxTree(boxes.box_min[aabb], boxes.box_max[aabb]).frustum(
            frustum, conservative=conservative)
        classes[aabb[found.box_index]] = found.kind
    elif len(aabb):
        classes[aabb] = geometry.classify_aabb_frustum(
            boxes.box_min[aabb], boxes.box_max[aabb], frustum, conservative=conservative)
    obb = np.flatnonzero(boxes.is_obb)
    if len(obb):
        classes[obb] = geometry.classify_obb_frustum(
            boxes.center[obb], boxes.axes[obb], boxes.half_size[obb], frustum,
            conservative=conservative)
    return classes


def cull(boxes: Boxes, frustum: geometry.Frustum) -> Culling:
    """Exact classes of ``boxes`` against ``frustum`` and the plane-only test's false
    positives."""
    exact = _classify(boxes, frustum, conservative=False)
    planes_only = _classify(boxes, frustum, conservative=True)
    return Culling(exact, (exact == 0) & (planes_only != 0))
