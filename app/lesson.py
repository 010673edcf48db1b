"""Explain mode as a lesson: what to draw, step by step, for the slab method and the
separating-axis test (pure Python: tests read it without a GPU).

Every number comes from ``geometry.explain`` (exact, with floats for drawing); this module only
lays it out: for a segment and a box, each axis's slab as its two planes, the entry and exit
points, and a number line with the three slab intervals, their intersection [t0, t1], the
segment's [0, 1] and the rule that decides the class; for a triangle and a box, each of the 13
candidate axes as a line through the box centre with both shapes' projected intervals and the
gap; for a box scene's query box and a box, each of the 15 candidate axes likewise; in a sphere
scene, the box's point nearest the sphere's centre and its distance against the radius. A step shows
the method up to one axis (the rest dimmed); ``step=None`` is the live view, everything at once.

Steps: a segment lesson has 4 (x, y, z slab, then the verdict), a triangle lesson 14 (the 13
axes in the test's order, then the verdict), a box lesson 16 (15 axes, then the verdict), a
sphere's 1.
"""

from __future__ import annotations

from app.lesson_axes import TRIANGLE_STEPS, triangle_lesson
from app.lesson_boxes import BOX_STEPS, box_lesson
from app.lesson_layout import FONT, PANEL_X, Lesson
from app.lesson_slabs import SEGMENT_STEPS, segment_lesson
from app.lesson_sphere import SPHERE_STEPS, sphere_lesson
from app.state import DemoState

__all__ = ["BOX_STEPS", "FONT", "SEGMENT_STEPS", "TRIANGLE_STEPS", "Lesson", "lesson_for",
           "lesson_steps", "step_lesson", "steps_of"]


def lesson_for(state: DemoState, size: tuple[int, int], char_w: float) -> Lesson | None:
    """The lesson explain mode shows now (None when it is off or no box is selected): in a box
    scene the query box's 15 separating axes, in a sphere scene the distance, else the
    triangle's 13 when a triangle is chosen (``state.lesson_triangle``), else the slab method;
    at ``state.lesson_step`` (None: live). Its panel sits bottom-left."""
    box = state.selected
    if not state.explain or box is None or box >= len(state.boxes):
        return None
    tri = state.lesson_triangle
    if state.query is not None:
        les = box_lesson(state, box, state.lesson_step, (PANEL_X, 0.0), char_w)
    elif len(state.sphere_radii):
        les = sphere_lesson(state, box, (PANEL_X, 0.0), char_w)
    elif tri is not None and tri < len(state.scene.triangles):
        les = triangle_lesson(state, tri, box, state.lesson_step, (PANEL_X, 0.0), char_w)
    else:
        les = segment_lesson(state, box, state.lesson_step, (PANEL_X, 0.0), char_w)
    les.move(0.0, size[1] - 8 - les.panel.bottom)
    return les


def step_lesson(state: DemoState, key: str) -> str:
    """Explain mode's lesson keys: "PERIOD" next step, "COMMA" previous step, "BACKSPACE" the
    live view, "G" the next scene triangle to explain (then back to the segment). Turns
    explain mode on (selecting a box as the X key does) when needed; returns what to say."""
    if not len(state.boxes):
        return "no box to explain"
    if not state.explain or state.selected is None:
        state.set_explain(True)
    if key == "G":
        count = len(state.scene.triangles)
        if not count:
            return "this scene has no triangles"
        tri = state.lesson_triangle
        state.lesson_triangle = 0 if tri is None else (tri + 1 if tri + 1 < count else None)
        state.lesson_step = None
        return ("explaining the segment" if state.lesson_triangle is None
                else f"explaining triangle #{state.lesson_triangle}")
    steps = lesson_steps(state)
    if key == "BACKSPACE":
        state.lesson_step = None
        return "live view"
    step = state.lesson_step
    if key == "PERIOD":
        step = 1 if step is None else min(step + 1, steps)
    else:
        step = steps if step is None else max(step - 1, 1)
    state.lesson_step = step
    return f"step {step}/{steps}"


def lesson_steps(state: DemoState) -> int:
    """How many steps the current lesson has."""
    tri = state.lesson_triangle
    return steps_of(state.query is not None, bool(len(state.sphere_radii)),
                    tri is not None and tri < len(state.scene.triangles))


def steps_of(box_scene: bool, sphere_scene: bool, triangle: bool) -> int:
    """How many steps a lesson has: a box scene's, a sphere scene's, a triangle's or the
    segment's."""
    if box_scene or sphere_scene:
        return BOX_STEPS if box_scene else SPHERE_STEPS
    return TRIANGLE_STEPS if triangle else SEGMENT_STEPS
