"""Explain mode in the sphere scene (``--scene spheres --explain --select I``): the box's point
nearest the sphere's centre and its distance against the radius. A golden of a green box, and
pixel checks whose expectations come from ``geometry`` (``distance_point_aabb``,
``classify_sphere_aabb``), not from the app's layout: the distance and radius bars' drawn lengths
are in the ratio of the two numbers, and the verdict's plate has the class's hue.
"""

from __future__ import annotations

import numpy as np
import pytest
from tests.screenshots.screenshot_compare import assert_matches_golden
from tests.screenshots.screenshot_helpers import nearest_class, resize_headless

import geometry

SIZE = (640, 480)


def _render(box):
    from app.headless import headless_app, render_scene_image
    from app.scene import resolve_scene

    resize_headless(SIZE)
    image = render_scene_image(resolve_scene("spheres"), SIZE, explain=True, selected=box)
    return image, headless_app(None, SIZE).view.lesson


def _length(image, rect, rgb, tol=40.0) -> int:
    """How many pixels on the middle row of ``rect`` (8 px wider each side) are within ``tol``
    of ``rgb`` (0..1)."""
    y = int(rect.y + rect.h / 2)
    x0 = max(int(rect.x) - 8, 0)
    row = image[y, x0:int(rect.x + rect.w) + 8].astype(float) / 255.0
    return int((np.linalg.norm(row - np.asarray(rgb)[:3], axis=1) * 255 < tol).sum())


def test_sphere_explain_golden(egl_app, update_golden):
    image, lesson = _render(80)
    assert "NONE" in lesson.caption, f"expected box 80 apart from the sphere: {lesson.caption!r}"
    assert_matches_golden("spheres_explain_box80", image, update=update_golden)


@pytest.mark.parametrize("box", [80, 50])  # a green box beyond the radius, a blue one within
def test_distance_and_radius_bars_follow_geometry(egl_app, box):
    from app.colors import SPHERE
    from app.lesson_sphere import DISTANCE_COLOR
    from app.scene import resolve_scene

    scene = resolve_scene("spheres")
    center, radius = scene.sphere_centers[0], scene.sphere_radii[0]
    lo, hi = scene.boxes.box_min[box], scene.boxes.box_max[box]
    distance = float(geometry.distance_point_aabb(center, lo, hi))
    kind = int(geometry.classify_sphere_aabb(center, radius, lo, hi))
    assert (distance > radius) == (kind == geometry.IntersectionType.NONE)
    image, lesson = _render(box)
    d_px = _length(image, lesson.bars["distance"], DISTANCE_COLOR)
    r_px = _length(image, lesson.bars["radius"], SPHERE)
    assert r_px > 50, f"expected the radius bar drawn, {r_px} px"
    assert abs(d_px / r_px - distance / radius) < 0.03, (
        f"box {box}: bars {d_px} / {r_px} px, expected the ratio {distance / radius:.3f} of "
        f"distance {distance} to radius {radius}")
    x, y, w, h, _ = [r for r in lesson.rects if r[3] > 12 and r[4][3] < 0.5 and r[2] > 100][-1]
    strip = image[int(y + h / 2), int(x + 1):int(x + 4)].astype(float)
    hue_class, _ = nearest_class(np.median(strip, axis=0))
    assert hue_class == kind, f"box {box}: expected the plate in class {kind}'s hue, got {hue_class}"
    assert f"distance {distance:.2f}" in "".join(t for _, _, t, _, _ in lesson.texts), (
        "expected geometry's distance written on the panel")
