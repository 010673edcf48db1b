"""Explain mode's separating-axis lesson: for a triangle and a box, each of the 13 candidate
axes in the test's order (box normals, the triangle's normal, the nine edge cross products) as
a line through the box centre with both shapes' projected intervals and the gap, then the
verdict. Every value comes from ``geometry.explain_triangle_aabb`` / ``explain_triangle_obb``.
"""

from __future__ import annotations

import numpy as np

import geometry
from app import colors
from app.hud import fmt_number
from app.lesson_layout import (
    FONT,
    GAP_COLOR,
    ROW,
    TEXT,
    Lesson,
    NumberLine,
    axis_rows,
    box_frame,
    finish_panel,
    rgba,
    step_caption,
)
from app.state import DemoState

TRIANGLE_STEPS = 14
BOX_PROJECTION = (0.95, 0.95, 0.95)  # the box's interval on an axis candidate


def explain_triangle(state: DemoState, triangle: int, index: int) -> geometry.SeparatingAxes:
    """geometry's separating-axis explanation of scene triangle ``triangle`` against box
    ``index`` (OBB: box frame)."""
    _, args, frame = box_frame(state, index)
    v0, v1, v2 = state.scene.triangles[triangle]
    if frame == "box":
        return geometry.explain_triangle_obb(v0, v1, v2, *args)
    return geometry.explain_triangle_aabb(v0, v1, v2, *args)


def triangle_lesson(state: DemoState, triangle: int, index: int, step: int | None,
                    origin: tuple[float, float], char_w: float) -> Lesson:
    """The separating-axis lesson for scene triangle ``triangle`` and box ``index`` at ``step``
    (1..13: that axis, 14 or None: the verdict, which shows the separating axis if any)."""
    sat = explain_triangle(state, triangle, index)
    to_world, _, frame = box_frame(state, index)
    where = "box's own frame" if frame == "box" else "world frame"
    title = f"separating axes, triangle #{triangle} vs box #{index} ({where})"
    verdict = step is None or step >= TRIANGLE_STEPS
    les = Lesson(title, TRIANGLE_STEPS, step, verdict=verdict)
    shown = sat.separating if step is None or step >= TRIANGLE_STEPS else step - 1
    x, y = origin
    les.texts.append((x, y, title, TEXT, FONT))
    test = sat.axes[shown] if shown is not None else None
    if test is not None and not test.zero:
        _draw_axis(les, test, sat, to_world, frame)
    values = [] if test is None else [test.tri_min, test.tri_max, test.box_lo, test.box_hi]
    line = NumberLine(les, x, y + ROW * 1.2, values, char_w)
    if test is not None:
        line.t_lo, line.t_hi = _axis_view(test)
        axis_rows(line, test, 13, "zero axis: separates nothing",
                  ("triangle", test.tri_min, test.tri_max, rgba(colors.TRIANGLE)),
                  rgba(BOX_PROJECTION))
    if verdict:
        if sat.separating is None:
            caption = "no axis of the 13 separates them: the triangle and the box overlap"
        else:
            sep = sat.axes[sat.separating]
            caption = (f"axis {sep.number + 1} ({sep.name}) separates them, gap "
                       f"{fmt_number(sep.gap)} > 0: no common point")
        finish_panel(les, line, origin, caption, GAP_COLOR)
    else:
        assert test is not None
        finish_panel(les, line, origin, step_caption(step, TRIANGLE_STEPS, test))
    tri = [to_world(v) for v in sat.vertices]  # the triangle explained, outlined
    for j in range(3):
        les.lines.append((tri[j], tri[(j + 1) % 3], rgba(colors.TRIANGLE_OVERLAP, 0.9)))
    return les


def _axis_view(test: geometry.AxisTest) -> tuple[float, float]:
    lo = min(test.tri_min, test.box_lo)
    hi = max(test.tri_max, test.box_hi)
    pad = 0.1 * (hi - lo) or 1.0
    return lo - pad, hi + pad


def _draw_axis(les: Lesson, test: geometry.AxisTest, sat: geometry.SeparatingAxes, to_world,
               frame: str) -> None:
    """The axis as a line through the box centre; both projected intervals and the gap on it,
    and thin lines from the triangle's vertices to their projections."""
    axis = test.axis
    norm2 = float(axis @ axis)
    c_proj = float(axis @ sat.center)

    def at(s: float) -> np.ndarray:  # the point of the axis line whose projection is s
        return to_world(sat.center + (s - c_proj) / norm2 * axis)

    lo, hi = _axis_view(test)
    les.lines.append((at(lo - (hi - lo)), at(hi + (hi - lo)), (1, 1, 1, 0.45)))
    les.thick.append((at(test.box_lo), at(test.box_hi), rgba(BOX_PROJECTION, 0.95)))
    les.thick.append((at(test.tri_min), at(test.tri_max), rgba(colors.TRIANGLE_OVERLAP, 0.95)))
    for v in sat.vertices:
        s = float(axis @ v)
        les.lines.append((to_world(v), at(s), rgba(colors.TRIANGLE, 0.6)))
        les.points.append((at(s), rgba(colors.TRIANGLE_OVERLAP), 8.0))
    if test.separates:
        a, b = ((test.tri_max, test.box_lo) if test.tri_max < test.box_lo
                else (test.box_hi, test.tri_min))
        les.thick.append((at(a), at(b), rgba(GAP_COLOR, 0.9)))
        les.points.append((at(a), rgba(GAP_COLOR), 10.0))
        les.points.append((at(b), rgba(GAP_COLOR), 10.0))
    les.points.append((to_world(sat.center), rgba(BOX_PROJECTION), 9.0))
    # the box's corners that project to the ends of its interval
    for sign in (1, -1):
        corner = np.where(sign * axis >= 0, sat.box_max, sat.box_min)
        s = float(axis @ corner)
        les.lines.append((to_world(corner), at(s), rgba(BOX_PROJECTION, 0.5)))
