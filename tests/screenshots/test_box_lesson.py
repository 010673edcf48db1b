"""Explain mode's 15-axis lesson in the box scene (``--scene boxes --explain --select I``): a
golden of the separating step, and pixel checks whose expectations come from
``geometry.explain_obb_aabb`` (the preset's query box is an OBB, box 52 an AABB it misses).

Pixel checks: on each checked step the query's and the box's projected intervals are drawn in
their colours on the number line, apart on screen exactly when geometry says the axis
separates, with the teal gap bar between them; the verdict's plate has the hue of the class.
"""

from __future__ import annotations

import numpy as np
import pytest
from tests.screenshots.screenshot_compare import assert_matches_golden
from tests.screenshots.screenshot_helpers import (
    hue_distance,
    nearest_class,
    resize_headless,
    rgb_to_hsv,
)

import geometry

SIZE = (640, 480)
BOX = 52  # a green box of the boxes preset, apart from the query box along its 3rd normal


def _render(step):
    from app.headless import headless_app, render_scene_image
    from app.scene import resolve_scene

    resize_headless(SIZE)
    image = render_scene_image(resolve_scene("boxes"), SIZE, explain=True, selected=BOX,
                               step=step)
    return image, headless_app(None, SIZE).view.lesson


def _extent(image, rect, rgb, tol=40.0):
    """Leftmost and rightmost x on the middle row of ``rect`` (8 px wider each side) within
    ``tol`` of ``rgb`` (0..1), or None."""
    y = int(rect.y + rect.h / 2)
    x0 = max(int(rect.x) - 8, 0)
    row = image[y, x0:int(rect.x + rect.w) + 8].astype(float) / 255.0
    near = np.flatnonzero(np.linalg.norm(row - np.asarray(rgb)[:3], axis=1) * 255 < tol)
    return None if not len(near) else (x0 + near[0], x0 + near[-1])


def test_box_lesson_golden(egl_app, update_golden):
    image, lesson = _render(3)
    assert any("axis 3/15" in t for _, _, t, _, _ in lesson.texts), "expected axis 3 shown"
    assert_matches_golden("lesson_boxes_step3", image, update=update_golden)


@pytest.mark.parametrize("step", [1, 3, 16])
def test_box_lesson_pixels(egl_app, step):
    from app.colors import QUERY_BOX, SELECTED
    from app.scene import resolve_scene

    scene = resolve_scene("boxes")
    q, b = scene.query_box, scene.boxes
    sat = geometry.explain_obb_aabb(q.center[0], q.axes[0], q.half_size[0], b.box_min[BOX],
                                    b.box_max[BOX])
    assert sat.kind == geometry.IntersectionType.NONE and sat.separating == 2, (
        f"expected box {BOX} apart on axis 3, got {sat.kind!r} on {sat.separating}")
    image, lesson = _render(step)
    test = sat.axes[sat.separating if step == 16 else step - 1]
    query = _extent(image, lesson.bars["query"], QUERY_BOX)
    box = _extent(image, lesson.bars["box"], SELECTED)
    assert query and box, f"step {step}: the projected intervals are not drawn in their colours"
    apart = query[1] < box[0] or box[1] < query[0]
    assert apart == test.separates, (
        f"step {step} ({test.name}): bars {query} / {box} on screen, but geometry says "
        f"separates={test.separates}")
    if test.separates:
        gap = lesson.bars["gap"]
        y, x = int(gap.y + gap.h / 2), int(gap.x + gap.w / 2)
        rgb = image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(axis=0) / 255.0
        assert hue_distance(rgb_to_hsv(rgb)[0], 177) < 25, f"expected a teal gap bar, got {rgb}"
    else:
        assert "gap" not in lesson.bars, f"step {step}: a gap bar on an axis that separates nothing"
    if step == 16:
        plate = [r for r in lesson.rects if r[3] > 12 and r[4][3] < 0.5 and r[2] > 100][-1]
        x, y, w, h, _ = plate
        strip = image[int(y + h / 2), int(x + 1):int(x + 4)].astype(float)
        hue_class, distance = nearest_class(np.median(strip, axis=0))
        assert hue_class == sat.kind and distance < 35, (
            f"expected the verdict's plate in the hue of {sat.kind!r}, got class {hue_class}")
        assert "axis 3 (query normal 2) separates" in lesson.caption
    else:
        assert f"step {step}/16" in lesson.caption
