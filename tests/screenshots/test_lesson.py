"""Explain mode's lesson, step by step: golden screenshots, and pixel checks whose expectations
come from ``geometry.explain`` (not from the app's layout code).

Cases (the ``lesson`` preset's box 0, [-1, 1] x [0.5, 2.5] x [-1, 1]): a segment that crosses
it (INTERSECT), one inside it (INCLUDE), one whose line misses it because the slab intervals do
not overlap (NONE), and one with zero y and z components (y "all t", z "no t": NONE); then the
preset's triangle 0 (separated by an edge cross product, the 5th axis) and triangle 1
(overlapping). Segment lessons have steps 1-4 (x, y, z, verdict), triangle lessons 1-14.

Pixel checks, per step: the number line's bars are drawn in their axis's colour for the slabs
used so far and grey for the others; the [t0, t1] bar spans exactly the overlap of the used
bars (or is absent when they share no t); at the verdict the rule's plate has the class's
documented hue; for triangles, the gap bar sits between the two projected intervals exactly
when ``geometry`` says the axis separates.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from tests.screenshots.screenshot_compare import assert_matches_golden
from tests.screenshots.screenshot_helpers import hue_distance, nearest_class, resize_headless, rgb_to_hsv

import geometry

GOLDEN_SIZE = (640, 480)
CHECK_SIZE = (640, 480)
BOX = (np.array([-1.0, 0.5, -1.0]), np.array([1.0, 2.5, 1.0]))
SEGMENTS = {
    "intersect": ([-1.25, 0.0, 0.55], [1.25, 2.1, -1.65]),
    "include": ([-0.6, 0.9, 0.5], [0.7, 2.1, -0.6]),
    "none": ([-2.5, 2.0, 0.8], [-0.5, 3.5, 0.2]),
    "zero_direction": ([-2.0, 1.5, 1.4], [2.0, 1.5, 1.4]),
}
WANT = {"intersect": geometry.IntersectionType.INTERSECT,
        "include": geometry.IntersectionType.INCLUDE,
        "none": geometry.IntersectionType.NONE,
        "zero_direction": geometry.IntersectionType.NONE}
TRIANGLES = {"separated": 0, "overlapping": 1}


def _scene(segment: str | None = None):
    from app.scene import resolve_scene

    scene = resolve_scene("lesson")
    if segment is not None:
        start, end = SEGMENTS[segment]
        scene = replace(scene, segment_start=np.array(start), segment_end=np.array(end))
    return scene


def _render(size, *, segment=None, triangle=None, step=None):
    """(image, lesson) of one lesson frame."""
    from app.headless import headless_app, render_scene_image

    resize_headless(size)
    image = render_scene_image(_scene(segment), size, explain=True, selected=0, step=step,
                               triangle=triangle)
    return image, headless_app(None, size).view.lesson


# --- goldens ---------------------------------------------------------------------------------
GOLDENS = ([(f"lesson_{name}_step{k}", {"segment": name, "step": k})
            for name in SEGMENTS for k in (1, 2, 3, 4)]
           + [(f"lesson_triangle_separated_step{k}", {"triangle": 0, "step": k})
              for k in (1, 4, 5, 14)]
           + [(f"lesson_triangle_overlapping_step{k}", {"triangle": 1, "step": k})
              for k in (4, 14)])


@pytest.mark.parametrize("name, options", GOLDENS, ids=[g[0] for g in GOLDENS])
def test_lesson_golden(egl_app, name, options, update_golden):
    image, _ = _render(GOLDEN_SIZE, **options)
    assert_matches_golden(name, image, update=update_golden)


# --- pixels ----------------------------------------------------------------------------------
def _extent(image, rect, rgb, tol=40.0) -> tuple[float, float] | None:
    """Leftmost and rightmost pixel x, on the middle row of ``rect`` (widened by 8 px each
    side), whose colour is within ``tol`` of ``rgb`` (0..1); None if there is none."""
    y = int(rect.y + rect.h / 2)
    x0, x1 = int(rect.x) - 8, int(rect.x + rect.w) + 8
    row = image[y, max(x0, 0):x1].astype(float) / 255.0
    near = np.flatnonzero(np.linalg.norm(row - np.asarray(rgb)[:3], axis=1) * 255 < tol)
    if not len(near):
        return None
    return max(x0, 0) + near[0], max(x0, 0) + near[-1]


def _centre_rgb(image, rect) -> np.ndarray:
    y, x = int(rect.y + rect.h / 2), int(rect.x + rect.w / 2)
    return image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(axis=0) / 255.0


@pytest.mark.parametrize("segment", list(SEGMENTS))
@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_segment_lesson_pixels(egl_app, segment, step):
    from app.colors import SLAB_AXES

    ex = geometry.explain_segment_aabb(*SEGMENTS[segment], *BOX)
    assert ex.kind == WANT[segment], f"the {segment} case is {ex.kind!r} by {ex.rule!r}"
    image, lesson = _render(CHECK_SIZE, segment=segment, step=step)
    used = min(step, 3)
    bars = lesson.bars
    seg = _extent(image, bars["segment"], _segment_rgb())
    assert seg is not None, "the segment's [0, 1] bar is not drawn"

    def x_of(t):  # the number line's scale, read off the drawn [0, 1] bar
        return seg[0] + t * (seg[1] - seg[0])

    spans = []
    for slab in ex.slabs:
        name = "xyz"[slab.axis]
        if slab.kind in (geometry.SlabKind.NO_T, geometry.SlabKind.EMPTY):
            assert name not in bars, f"step {step}: the {name} slab allows no t, yet has a bar"
            continue
        assert name in bars, f"step {step}: no bar for the {name} slab ({slab.kind!r})"
        rgb = _centre_rgb(image, bars[name])
        if slab.axis < used:
            span = _extent(image, bars[name], SLAB_AXES[slab.axis])
            assert span is not None, (
                f"step {step}: the {name} bar is not drawn in the {name} colour "
                f"{SLAB_AXES[slab.axis]} (centre pixel {rgb})")
            spans.append(span)
            for t, x in ((slab.t_in, span[0]), (slab.t_out, span[1])):
                if -0.5 <= t <= 1.5 and step < 4:  # in view, and no rule marker on it
                    assert abs(x - x_of(t)) <= 2, (
                        f"step {step}: the {name} bar ends at x={x}, but t={t:.3f} from "
                        f"geometry.explain is at x={x_of(t):.1f} on the number line")
        else:
            assert rgb_to_hsv(rgb)[1] < 0.25, (
                f"step {step}: the unused {name} slab's bar should be dimmed grey, got {rgb}")
    t0, t1 = ex.interval_after(used)
    if t0 <= t1:
        assert "t0t1" in bars, f"step {step}: [t0, t1] = [{t0}, {t1}] has no bar"
        color = (1.0, 1.0, 1.0) if step < 4 else np.asarray(_class_rgb(ex.kind))
        got = _extent(image, bars["t0t1"], color)
        assert got is not None, f"step {step}: the [t0, t1] bar is not drawn in {color}"
        want = (max(s[0] for s in spans), min(s[1] for s in spans))
        # 2 px of rasterisation; at the verdict the rule's 3 px markers in the class colour
        # sit on the deciding ends, widening the class-coloured bar and hiding slab pixels
        slack = 2 if step < 4 else 4
        assert abs(got[0] - want[0]) <= slack and abs(got[1] - want[1]) <= slack, (
            f"step {step}: the [t0, t1] bar spans x {got}, expected the overlap {want} of the "
            f"used slabs' bars")
    else:
        assert "t0t1" not in bars, f"step {step}: the slabs share no t, yet [t0, t1] has a bar"
    if step == 4:
        hue_class, distance = nearest_class(_caption_plate(image, lesson) * 255)
        assert hue_class == ex.kind and distance < 35, (
            f"the rule's plate should have the hue of class {ex.kind!r}, got class {hue_class} "
            f"at {distance:.0f} degrees")
        assert ("INCLUDE", "INTERSECT", "NONE")[2 - ex.kind] in lesson.caption
    else:
        assert f"step {step}/4" in lesson.caption


def _segment_rgb():
    from app.colors import SEGMENT

    return SEGMENT


def _class_rgb(kind):
    from app.colors import CLASS_RGB

    return CLASS_RGB[kind]


def _caption_plate(image, lesson) -> np.ndarray:
    """Median colour of the caption's plate (the rect drawn under the caption, left of its
    text)."""
    plates = [r for r in lesson.rects if r[3] > 12 and r[4][3] < 0.5 and r[2] > 100]
    x, y, w, h, _ = plates[-1]
    strip = image[int(y + h / 2), int(x + 1):int(x + 4)].astype(float) / 255.0
    return np.median(strip, axis=0)


@pytest.mark.parametrize("case", list(TRIANGLES))
@pytest.mark.parametrize("step", list(range(1, 15)))
def test_triangle_lesson_pixels(egl_app, case, step):
    from app.colors import TRIANGLE

    tri = _scene().triangles[TRIANGLES[case]]
    sat = geometry.explain_triangle_aabb(*tri, *BOX)
    assert sat.overlaps == (case == "overlapping")
    image, lesson = _render(CHECK_SIZE, triangle=TRIANGLES[case], step=step)
    shown = sat.separating if step == 14 else step - 1
    if shown is None:
        assert "triangle" not in lesson.bars and "no axis of the 13" in lesson.caption
        return
    test = sat.axes[shown]
    if test.zero:
        assert "triangle" not in lesson.bars, f"axis {shown} is zero: nothing to project"
        return
    tri_span = _extent(image, lesson.bars["triangle"], TRIANGLE)
    box_span = _extent(image, lesson.bars["box"], (0.95, 0.95, 0.95))
    assert tri_span and box_span, f"step {step}: the projected intervals are not drawn"
    # the intervals' order and overlap on screen follow geometry's projections
    assert (tri_span[1] < box_span[0] or box_span[1] < tri_span[0]) == test.separates or (
        not test.separates and abs(test.gap) < 1e-9), (
        f"step {step} ({test.name}): bars {tri_span} / {box_span} vs separates={test.separates}")
    if test.separates:
        gap = lesson.bars["gap"]
        assert hue_distance(rgb_to_hsv(_centre_rgb(image, gap))[0], 177) < 25, "gap not teal"
    else:
        assert "gap" not in lesson.bars
    if step == 14:
        assert f"axis {sat.separating + 1} ({test.name}) separates" in lesson.caption


def test_keys_step_and_return_to_live(demo):
    """. steps forward (x, y, z, verdict, and stays there), , back, Backspace to live; G
    switches to a triangle and back."""
    from app.headless import headless_app

    app = headless_app(_scene(), (400, 300))
    keys, st = app.wnd.keys, app.state
    st.selected, st.explain = 0, True

    def press(name):
        app.on_key_event(getattr(keys, name), keys.ACTION_PRESS, None)
        app.render_frame()
        return app.view.lesson

    assert [press("PERIOD").step for _ in range(5)] == [1, 2, 3, 4, 4]
    assert press("COMMA").step == 3
    assert press("BACKSPACE").step is None and "live" in " ".join(t[2] for t in
                                                                  app.view.lesson.texts)
    assert press("G").title.startswith("separating axes, triangle #0")
    assert press("G").title.startswith("separating axes, triangle #1")
    assert press("G").title.startswith("slab method")


def test_obb_lesson_is_in_the_box_frame(egl_app):
    image, lesson = _render(CHECK_SIZE, step=4)
    from app.headless import headless_app

    app = headless_app(None, CHECK_SIZE)
    app.state.selected = 1  # the rotated box
    app.render_frame()
    lesson = app.view.lesson
    assert "OBB, the box's own axes u, v, w" in lesson.title
    assert {"u", "v", "w"} & set(lesson.bars) or "no t" in " ".join(t[2] for t in lesson.texts)
    state = app.state
    want = geometry.classify_segment_obb(state.start, state.end, state.boxes.center[1],
                                         state.boxes.axes[1], state.boxes.half_size[1])
    assert lesson.slabs.kind == want and lesson.slabs.frame == "box"
