"""Spheres for the demo, without OpenGL: every box's class against the scene's spheres and a
box's distance from a sphere's centre, both from ``geometry``; and the rings that draw a
sphere as a wire frame.

A box's class in a sphere scene is its highest class against any of the spheres (INCLUDE over
INTERSECT over NONE), as a box overlapping several triangles is highlighted once.
"""

from __future__ import annotations

import numpy as np

import geometry
from app.scene import Boxes

#: a drawn sphere: this many segments per ring; three great circles and two latitudes
RING_SEGMENTS = 48
LATITUDES = (-0.5, 0.5)  # heights of the latitude rings, as fractions of the radius


def classify_spheres(centers: np.ndarray, radii: np.ndarray, boxes: Boxes) -> np.ndarray:
    """(N,) int8: each box's highest class against the spheres (``centers`` (S, 3),
    ``radii`` (S,)); ``classify_sphere_aabb`` on the axis-aligned boxes' exact min/max,
    ``classify_sphere_obb`` on the rotated ones."""
    classes = np.zeros(len(boxes), dtype=np.int8)
    aabb, obb = np.flatnonzero(~boxes.is_obb), np.flatnonzero(boxes.is_obb)
    for center, radius in zip(centers, radii, strict=True):
        if len(aabb):
            found = geometry.classify_sphere_aabb(center, radius, boxes.box_min[aabb],
                                                  boxes.box_max[aabb])
            classes[aabb] = np.maximum(classes[aabb], found)
        if len(obb):
            found = geometry.classify_sphere_obb(center, radius, boxes.center[obb],
                                                 boxes.axes[obb], boxes.half_size[obb])
            classes[obb] = np.maximum(classes[obb], found)
    return classes


def box_distance(point: np.ndarray, boxes: Boxes, index: int) -> float:
    """Distance from ``point`` to box ``index`` (0 inside): ``distance_point_aabb`` or
    ``distance_point_obb``."""
    if boxes.is_obb[index]:
        return float(geometry.distance_point_obb(point, boxes.center[index], boxes.axes[index],
                                                 boxes.half_size[index]))
    return float(geometry.distance_point_aabb(point, boxes.box_min[index],
                                              boxes.box_max[index]))


def sphere_rings(center: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """``(a, b)``, each (K, 3): the segments that draw a sphere as a wire frame (the three
    great circles in the coordinate planes and the :data:`LATITUDES`)."""
    angle = np.linspace(0.0, 2 * np.pi, RING_SEGMENTS + 1)
    cos, sin, zero = np.cos(angle), np.sin(angle), np.zeros_like(angle)
    rings = [np.stack([cos, sin, zero], -1), np.stack([cos, zero, sin], -1),
             np.stack([zero, cos, sin], -1)]
    for h in LATITUDES:
        r = np.sqrt(1 - h * h)
        rings.append(np.stack([r * cos, np.full_like(angle, h), r * sin], -1))
    points = np.asarray(center, dtype=np.float64) + radius * np.stack(rings)  # (rings, K+1, 3)
    return points[:, :-1].reshape(-1, 3), points[:, 1:].reshape(-1, 3)
