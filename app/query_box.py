"""Box scenes, without OpenGL: a query box (axis-aligned or oriented) and every box's class
against it, from ``geometry``'s box-vs-box queries with the query box first:
``classify_aabb_aabb`` / ``classify_aabb_obb`` for an axis-aligned query box,
``classify_obb_aabb`` / ``classify_obb_obb`` for an oriented one.
"""

from __future__ import annotations

import numpy as np

import geometry
from app.scene import Boxes

#: J / L and I / K turn the query box this far (degrees) about y and x
TURN_DEG = 15.0


def query_pose(center, half_size, rotation, is_obb: bool) -> Boxes:
    """The query box as a one-box :class:`Boxes`: oriented by ``rotation`` (degrees, XYZ), or
    axis-aligned (``rotation`` ignored) with min/max ``center -+ half_size``."""
    c, h = np.asarray(center, dtype=np.float64), np.asarray(half_size, dtype=np.float64)
    if is_obb:
        return Boxes.build(obbs=[(c, h, np.asarray(rotation, dtype=np.float64))])
    return Boxes.build(aabbs=[(c - h, c + h)])


def classify_query(query: Boxes, boxes: Boxes) -> np.ndarray:
    """(N,) int8 classes of the query box (``query``, one box) against each of ``boxes``."""
    classes = np.zeros(len(boxes), dtype=np.int8)
    aabb, obb = np.flatnonzero(~boxes.is_obb), np.flatnonzero(boxes.is_obb)
    if query.is_obb[0]:
        c, a, h = query.center[0], query.axes[0], query.half_size[0]
        if len(aabb):
            classes[aabb] = geometry.classify_obb_aabb(c, a, h, boxes.box_min[aabb],
                                                       boxes.box_max[aabb])
        if len(obb):
            classes[obb] = geometry.classify_obb_obb(c, a, h, boxes.center[obb], boxes.axes[obb],
                                                     boxes.half_size[obb])
        return classes
    lo, hi = query.box_min[0], query.box_max[0]
    if len(aabb):
        classes[aabb] = geometry.classify_aabb_aabb(lo, hi, boxes.box_min[aabb],
                                                    boxes.box_max[aabb])
    if len(obb):
        classes[obb] = geometry.classify_aabb_obb(lo, hi, boxes.center[obb], boxes.axes[obb],
                                                  boxes.half_size[obb])
    return classes
