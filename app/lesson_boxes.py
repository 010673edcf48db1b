"""Explain mode's box-vs-box lesson: for the box scene's query box and a selected box, each of
the 15 candidate separating axes in the test's order (the query's face normals, the box's, then
the nine edge cross products) as a line through the boxes' midpoint with both boxes' projected
intervals and the gap, then the verdict. Every value comes from ``geometry.explain_aabb_aabb``
/ ``explain_aabb_obb`` / ``explain_obb_aabb`` / ``explain_obb_obb`` (world frame).
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
    finish_panel,
    rgba,
    step_caption,
)
from app.state import DemoState

BOX_STEPS = 16  # the 15 axes, then the verdict
QUERY_PROJECTION = colors.QUERY_BOX  # the query box's interval on an axis
BOX_PROJECTION = colors.SELECTED  # the selected box's interval (its outline's colour)
RULE_TEXT = {
    geometry.BoxRule.TOUCHES_OR_CROSSES: "no axis of the 15 separates them and the query box "
                                          "reaches the box's boundary: INTERSECT",
    geometry.BoxRule.INSIDE: "no axis of the 15 separates them and on the box's 3 normals the "
                             "query lies strictly inside: INCLUDE",
}


def explain_query(state: DemoState, index: int) -> geometry.BoxSeparatingAxes:
    """geometry's 15-axis explanation of the box scene's query box against box ``index``."""
    q, b = state.query, state.boxes
    assert q is not None, "a box lesson needs a box scene"
    if b.is_obb[index]:
        obb = (b.center[index], b.axes[index], b.half_size[index])
        if q.is_obb[0]:
            return geometry.explain_obb_obb(q.center[0], q.axes[0], q.half_size[0], *obb)
        return geometry.explain_aabb_obb(q.box_min[0], q.box_max[0], *obb)
    aabb = (b.box_min[index], b.box_max[index])
    if q.is_obb[0]:
        return geometry.explain_obb_aabb(q.center[0], q.axes[0], q.half_size[0], *aabb)
    return geometry.explain_aabb_aabb(q.box_min[0], q.box_max[0], *aabb)


def box_lesson(state: DemoState, index: int, step: int | None, origin: tuple[float, float],
               char_w: float) -> Lesson:
    """The 15-axis lesson for the query box and box ``index`` at ``step`` (1..15: that axis,
    16 or None: the verdict, which shows the separating axis if any)."""
    sat = explain_query(state, index)
    assert state.query is not None
    kind = "OBB" if state.query.is_obb[0] else "AABB"
    title = f"separating axes, query box ({kind}) vs box #{index}"
    verdict = step is None or step >= BOX_STEPS
    les = Lesson(title, BOX_STEPS, step, verdict=verdict)
    shown = sat.separating if step is None or step >= BOX_STEPS else step - 1
    x, y = origin
    les.texts.append((x, y, title, TEXT, FONT))
    test = sat.axes[shown] if shown is not None else None
    if test is not None and not test.zero:
        _draw_axis(les, test, sat)
    values = [] if test is None else [test.lo, test.hi, test.box_lo, test.box_hi]
    line = NumberLine(les, x, y + ROW * 1.2, values, char_w)
    if test is not None:
        line.t_lo, line.t_hi = _axis_view(test)
        axis_rows(line, test, 15, "zero axis (parallel edges): separates nothing",
                  ("query", test.lo, test.hi, rgba(QUERY_PROJECTION)), rgba(BOX_PROJECTION))
    if verdict:
        if sat.separating is None:
            caption = RULE_TEXT[sat.rule]
        else:
            sep = sat.axes[sat.separating]
            caption = (f"axis {sep.number + 1} ({sep.name}) separates them, gap "
                       f"{fmt_number(sep.gap)} > 0: NONE")
        finish_panel(les, line, origin, caption, colors.CLASS_RGB[sat.kind])
    else:
        assert test is not None
        finish_panel(les, line, origin, step_caption(step, BOX_STEPS, test))
    return les


def _gap_ends(test: geometry.BoxAxisTest) -> tuple[float, float]:
    return (test.hi, test.box_lo) if test.hi < test.box_lo else (test.box_hi, test.lo)


def _axis_view(test: geometry.BoxAxisTest) -> tuple[float, float]:
    lo = min(test.lo, test.box_lo)
    hi = max(test.hi, test.box_hi)
    pad = 0.1 * (hi - lo) or 1.0
    return lo - pad, hi + pad


def _draw_axis(les: Lesson, test: geometry.BoxAxisTest, sat: geometry.BoxSeparatingAxes) -> None:
    """The axis as a line through the midpoint of the two boxes; both projected intervals and
    the gap on it, and thin lines from the corners that project to each interval's ends."""
    axis = test.axis
    norm2 = float(axis @ axis)
    mid = 0.5 * (sat.query_corners.mean(axis=0) + sat.box_corners.mean(axis=0))
    m_proj = float(axis @ mid)

    def at(s: float) -> np.ndarray:  # the point of the axis line whose projection is s
        return mid + (s - m_proj) / norm2 * axis

    lo, hi = _axis_view(test)
    les.lines.append((at(lo - (hi - lo)), at(hi + (hi - lo)), (1, 1, 1, 0.45)))
    les.thick.append((at(test.box_lo), at(test.box_hi), rgba(BOX_PROJECTION, 0.95)))
    les.thick.append((at(test.lo), at(test.hi), rgba(QUERY_PROJECTION, 0.95)))
    if test.separates and test.gap > 0:
        a, b = _gap_ends(test)
        les.thick.append((at(a), at(b), rgba(GAP_COLOR, 0.9)))
        les.points.append((at(a), rgba(GAP_COLOR), 10.0))
        les.points.append((at(b), rgba(GAP_COLOR), 10.0))
    for corners, rgb in ((sat.query_corners, QUERY_PROJECTION), (sat.box_corners, BOX_PROJECTION)):
        s = corners @ axis
        for k in (int(np.argmin(s)), int(np.argmax(s))):
            les.lines.append((corners[k], at(float(s[k])), rgba(rgb, 0.6)))
            les.points.append((at(float(s[k])), rgba(rgb), 8.0))
