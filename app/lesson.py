"""Explain mode as a lesson: what to draw, step by step, for the slab method and the
separating-axis test (pure Python: tests read it without a GPU).

Every number comes from ``geometry.explain`` (exact, with floats for drawing); this module only
lays it out: for a segment and a box, each axis's slab as its two planes, the entry and exit
points, and a number line with the three slab intervals, their intersection [t0, t1], the
segment's [0, 1] and the rule that decides the class; for a triangle and a box, each of the 13
candidate axes as a line through the box centre with both shapes' projected intervals and the
gap. A step shows the method up to one axis (the rest dimmed); ``step=None`` is the live view,
everything at once.

Steps: a segment lesson has 4 (x, y, z slab, then the verdict), a triangle lesson 14 (the 13
axes in the test's order, then the verdict).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import geometry
from app import colors
from app.labels import Rect
from app.state import DemoState

PANEL_X = 12.0  # px: the panel's text starts here, as the HUD's does
SEGMENT_STEPS = 4
TRIANGLE_STEPS = 14
FONT = 13.0
ROW = 19.0  # px between number-line rows
BAR = 9.0  # px: bar thickness
LABEL_COLUMN = 24  # characters of the text column left of the bars
BAR_WIDTH = 230.0  # px: the number line's length
#: the number line shows t in at most this window around [0, 1] (values beyond: clipped, with
#: their value written at the edge)
T_VIEW = (-1.0, 2.0)
DIM = (0.55, 0.57, 0.62, 0.45)
TEXT = (0.9, 0.91, 0.93, 1.0)
SOFT = (0.7, 0.72, 0.77, 1.0)
PLANE_ALPHA, PLANE_DIM_ALPHA = 0.16, 0.05
BOX_PROJECTION = (0.95, 0.95, 0.95)  # the box's interval on an axis candidate
GAP_COLOR = (0.2, 0.95, 0.9)  # the gap between the intervals (teal: no class colour)
AXIS_NAMES = {"world": "xyz", "box": "uvw"}


def _rgba(rgb, alpha: float = 1.0) -> tuple[float, float, float, float]:
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]), alpha)


def _fmt(t: float) -> str:
    if math.isinf(t):
        return "+inf" if t > 0 else "-inf"
    return f"{t:.2f}" if abs(t) < 1e4 else f"{t:.3g}"


def class_text(kind: int) -> str:
    return f"{('NONE', 'INTERSECT', 'INCLUDE')[kind]} ({colors.CLASS_NAMES[kind]})"


@dataclass
class Lesson:
    """One frame of the lesson: world items (faces, lines, points), screen items (rects, texts
    in pixels, y down) and, for tests, each number-line bar's pixel rectangle by name."""

    title: str
    steps: int
    step: int | None
    faces: list = field(default_factory=list)  # (corners (4, 3), rgba)
    lines: list = field(default_factory=list)  # (a, b, rgba): thin
    thick: list = field(default_factory=list)  # (a, b, rgba): intervals on a line
    points: list = field(default_factory=list)  # (p, rgba, size)
    rects: list = field(default_factory=list)  # (x, y, w, h, rgba)
    texts: list = field(default_factory=list)  # (x, y, text, rgba, size)
    bars: dict = field(default_factory=dict)  # name -> Rect of the drawn bar
    panel: Rect = Rect(0, 0, 0, 0)
    caption: str = ""
    slabs: geometry.Slabs | None = None  # a segment lesson's explanation
    used: int = 3  # slabs used so far
    verdict: bool = True  # the rule / the verdict is shown

    def fit(self, width: float, height: float, bottom: float) -> None:
        """Shrink the screen items uniformly (about the panel's bottom-left corner, which
        stays at ``bottom``) until the panel is at most ``width`` x ``height`` pixels; the text
        is monospace, so the layout scales exactly."""
        r = self.panel
        s = min(1.0, width / r.w, max(height, 1.0) / r.h)
        if s >= 1.0:
            return
        ox, oy = r.x, r.bottom

        def at(x: float, y: float) -> tuple[float, float]:
            return ox + (x - ox) * s, oy + (y - oy) * s

        self.rects = [(*at(x, y), w * s, h * s, c) for x, y, w, h, c in self.rects]
        self.texts = [(*at(x, y), t, c, f * s) for x, y, t, c, f in self.texts]
        self.bars = {k: Rect(*at(b.x, b.y), b.w * s, b.h * s) for k, b in self.bars.items()}
        self.panel = Rect(*at(r.x, r.y), r.w * s, r.h * s)
        self.move(0.0, bottom - self.panel.bottom)

    def move(self, dx: float, dy: float) -> None:
        """Shift every screen item by ``(dx, dy)`` pixels."""
        self.rects = [(x + dx, y + dy, w, h, c) for x, y, w, h, c in self.rects]
        self.texts = [(x + dx, y + dy, t, c, f) for x, y, t, c, f in self.texts]
        self.bars = {k: Rect(r.x + dx, r.y + dy, r.w, r.h) for k, r in self.bars.items()}
        r = self.panel
        self.panel = Rect(r.x + dx, r.y + dy, r.w, r.h)


def lesson_for(state: DemoState, size: tuple[int, int], char_w: float) -> Lesson | None:
    """The lesson explain mode shows now (None when it is off or no box is selected): the
    separating axes when a triangle is chosen (``state.lesson_triangle``), else the slab
    method; at ``state.lesson_step`` (None: live). Its panel sits bottom-left."""
    box = state.selected
    if not state.explain or box is None or box >= len(state.boxes):
        return None
    tri = state.lesson_triangle
    if tri is not None and tri < len(state.scene.triangles):
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
        state.explain = True
        if state.selected is None:
            state.selected = int(np.argmax(state.classes > 0)) if state.classes.any() else 0
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
    return TRIANGLE_STEPS if tri is not None and tri < len(state.scene.triangles) else SEGMENT_STEPS


class NumberLine:
    """The screen-space t axis: rows of labelled bars, with ticks at 0 and 1."""

    def __init__(self, lesson: Lesson, x: float, y: float, values, char_w: float):
        finite = [v for v in values if math.isfinite(v)]
        lo, hi = min([0.0, *finite]), max([1.0, *finite])
        lo, hi = max(lo, T_VIEW[0]), min(hi, T_VIEW[1])
        pad = 0.08 * (hi - lo)
        self.t_lo, self.t_hi = lo - pad, hi + pad
        self.lesson, self.char_w = lesson, char_w
        self.x0 = x + LABEL_COLUMN * char_w
        self.x1 = self.x0 + BAR_WIDTH
        self.top, self.y = y, y

    def x_of(self, t: float) -> float:
        """Pixel x of ``t``, clamped to the line's ends."""
        if t <= self.t_lo:
            return self.x0
        if t >= self.t_hi:
            return self.x1
        return self.x0 + (t - self.t_lo) / (self.t_hi - self.t_lo) * (self.x1 - self.x0)

    def row(self, name: str, label: str, color, lo: float | None = None,
            hi: float | None = None, label_color=None, bar_color=None) -> None:
        """One row: ``label`` at the left, and the bar [lo, hi] (None: no bar)."""
        les = self.lesson
        les.texts.append((self.x0 - LABEL_COLUMN * self.char_w, self.y, label,
                          label_color or color, FONT))
        if lo is not None and hi is not None and lo <= hi:
            a, b = self.x_of(lo), self.x_of(hi)
            b = max(b, a + 2.0)  # a single t still shows
            rect = Rect(a, self.y + (FONT - BAR) / 2, b - a, BAR)
            les.rects.append((rect.x, rect.y, rect.w, rect.h, bar_color or color))
            les.bars[name] = rect
            for t, edge in ((lo, a), (hi, b)):  # a clipped finite end says where it goes
                if math.isfinite(t) and not (self.t_lo < t < self.t_hi):
                    les.texts.append((edge + (3 if t > 0 else -6 * self.char_w), self.y - 9,
                                      _fmt(t), color, FONT * 0.85))
        self.y += ROW

    def ticks(self) -> None:
        """Axis line with ticks and labels at 0 and 1."""
        les = self.lesson
        les.rects.append((self.x0, self.y + 2, self.x1 - self.x0, 1.0, SOFT))
        for t in (0.0, 1.0):
            x = self.x_of(t)
            les.rects.append((x - 0.5, self.top - 2, 1.0, self.y - self.top + 6, (*SOFT[:3], 0.35)))
            les.texts.append((x - self.char_w * 0.5, self.y + 5, f"{t:.0f}", SOFT, FONT))
        self.y += ROW + 4

    def marker(self, t: float, color, name: str) -> None:
        """A vertical line at ``t`` through every row so far (the deciding value)."""
        x = self.x_of(t)
        rect = Rect(x - 1.5, self.top - 4, 3.0, self.y - self.top - ROW + 2)
        self.lesson.rects.append((rect.x, rect.y, rect.w, rect.h, color))
        self.lesson.bars[name] = rect


def _box_frame(state: DemoState, index: int):
    """``(to_world, explain_args, frame)``: the map from the box frame's coordinates to world
    (identity for an AABB) and the box's arguments for geometry.explain's OBB/AABB function."""
    boxes = state.boxes
    if boxes.is_obb[index]:
        c, axes, h = boxes.center[index], boxes.axes[index], boxes.half_size[index]
        return (lambda u: c + np.asarray(u) @ axes), (c, axes, h), "box"
    return (lambda u: np.asarray(u, dtype=np.float64)), (boxes.box_min[index],
                                                         boxes.box_max[index]), "world"


def explain_segment(state: DemoState, index: int) -> geometry.Slabs:
    """geometry's slab explanation of the segment against box ``index`` (OBB: box frame)."""
    _, args, frame = _box_frame(state, index)
    if frame == "box":
        return geometry.explain_segment_obb(state.start, state.end, *args)
    return geometry.explain_segment_aabb(state.start, state.end, *args)


def explain_triangle(state: DemoState, triangle: int, index: int) -> geometry.SeparatingAxes:
    """geometry's separating-axis explanation of scene triangle ``triangle`` against box
    ``index`` (OBB: box frame)."""
    _, args, frame = _box_frame(state, index)
    v0, v1, v2 = state.scene.triangles[triangle]
    if frame == "box":
        return geometry.explain_triangle_obb(v0, v1, v2, *args)
    return geometry.explain_triangle_aabb(v0, v1, v2, *args)


# --- segment: the slab method -----------------------------------------------------------------
def _slab_text(slab: geometry.Slab, name: str) -> str:
    kind = slab.kind
    if kind == geometry.SlabKind.INTERVAL:
        return f"{name}  [{_fmt(slab.t_in)}, {_fmt(slab.t_out)}]"
    if kind == geometry.SlabKind.ALL_T:
        return f"{name}  all t, d{name}=0" + (" on face" if slab.on_plane else "")
    if kind == geometry.SlabKind.NO_T:
        return f"{name}  no t, d{name}=0 outside"
    return f"{name}  no t, box empty"


def _no_t(slabs, names: str) -> str | None:
    """The name of the first slab that allows no t, if any."""
    return next((names[s.axis] for s in slabs
                 if s.kind in (geometry.SlabKind.NO_T, geometry.SlabKind.EMPTY)), None)


def rule_text(ex: geometry.Slabs) -> str:
    """One sentence: the rule that decides the class, with its numbers."""
    R = geometry.SlabRule
    t0, t1, verdict = _fmt(ex.t0), _fmt(ex.t1), class_text(ex.kind)
    if ex.rule == R.NO_COMMON_T:
        empty = _no_t(ex.slabs, AXIS_NAMES[ex.frame])
        if empty is not None:
            return f"the {empty} slab allows no t: the line misses the box -> {verdict}"
        return f"t0={t0} > t1={t1}: no t is in every slab -> {verdict}"
    if ex.rule == R.MISSES_SEGMENT:
        side = f"t1={t1} < 0" if ex.t1 < 0 else f"t0={t0} > 1"
        return f"{side}: [t0,t1] misses [0,1] -> {verdict}"
    if ex.rule == R.CROSSES_BOUNDARY:
        which = f"t0={t0}" if 0 <= ex.t0 <= 1 else f"t1={t1}"
        return f"{which} in [0,1]: the segment reaches the boundary -> {verdict}"
    if ex.rule == R.IN_FACE_PLANE:
        return f"[0,1] in (t0,t1), but the segment lies in a face plane -> {verdict}"
    return f"t0={t0} < 0 and t1={t1} > 1: [0,1] inside (t0,t1) -> {verdict}"


def _plane_quad(axis: int, value: float, lo, hi, margin: float, extra) -> np.ndarray:
    """(4, 3) corners, in the box frame, of the plane ``u[axis] = value`` over the box's extent
    on the other two axes grown by ``margin`` and to take in the points ``extra``."""
    a, b = [k for k in range(3) if k != axis]
    span = []
    for k in (a, b):
        k_lo, k_hi = lo[k] - margin, hi[k] + margin
        for p in extra:  # the line's crossing of this plane, if not too far off
            if abs(p[k] - (lo[k] + hi[k]) / 2) < 4 * (hi[k] - lo[k] + 2 * margin):
                k_lo, k_hi = min(k_lo, p[k] - margin / 2), max(k_hi, p[k] + margin / 2)
        span.append((k_lo, k_hi))
    quad = np.zeros((4, 3))
    quad[:, axis] = value
    for j, (s, t) in enumerate(((0, 0), (1, 0), (1, 1), (0, 1))):
        quad[j, a], quad[j, b] = span[0][s], span[1][t]
    return quad


def segment_lesson(state: DemoState, index: int, step: int | None, origin: tuple[float, float],
                   char_w: float) -> Lesson:
    """The slab lesson for box ``index`` at ``step`` (1..4, None: live), its panel's top-left
    at ``origin`` (pixels; call :func:`segment_panel_height` to place it)."""
    ex = explain_segment(state, index)
    to_world, _, frame = _box_frame(state, index)
    names = AXIS_NAMES[frame]
    used = 3 if step is None or step >= SEGMENT_STEPS else step
    verdict = step is None or step >= SEGMENT_STEPS
    where = "the box's own axes u, v, w" if frame == "box" else "world axes x, y, z"
    title = f"slab method, box #{index} ({'OBB' if frame == 'box' else 'AABB'}, {where})"
    les = Lesson(title, SEGMENT_STEPS, step, slabs=ex, used=used, verdict=verdict)
    start, end = state.start, state.end

    def world_at(t: float) -> np.ndarray:
        return start + t * (end - start)

    # the planes: each slab's pair in its axis colour (unused ones faint)
    lo, hi = ex.box_min, ex.box_max
    margin = 0.35 * float(np.max(hi - lo)) if np.all(hi >= lo) else 0.0
    for slab in ex.slabs:
        if slab.kind == geometry.SlabKind.EMPTY:
            continue
        col = colors.SLAB_AXES[slab.axis]
        on = slab.axis < used
        crossings = [ex.start + t * (ex.end - ex.start) for t in (slab.t_in, slab.t_out)
                     if math.isfinite(t)]
        for value in (lo[slab.axis], hi[slab.axis]):
            quad = np.array([to_world(u) for u in _plane_quad(slab.axis, value, lo, hi, margin,
                                                               crossings)])
            les.faces.append((quad, _rgba(col, PLANE_ALPHA if on else PLANE_DIM_ALPHA)))
            for j in range(4):
                les.lines.append((quad[j], quad[(j + 1) % 4], _rgba(col, 0.8 if on else 0.15)))
    # the line, and the running [t0, t1] on it
    run_lo, run_hi = ex.interval_after(used)
    finite = [t for s in ex.slabs for t in (s.t_in, s.t_out) if math.isfinite(t)]
    far_lo, far_hi = min([0.0, *finite]) - 0.25, max([1.0, *finite]) + 0.25
    les.lines.append((world_at(far_lo), world_at(far_hi), (1, 1, 1, 0.5)))
    if run_lo <= run_hi:
        # white: a class colour would vanish on a box of that colour
        a, b = max(run_lo, far_lo), min(run_hi, far_hi)
        les.thick.append((world_at(a), world_at(b), (1.0, 1.0, 1.0, 0.95)))

    # the number line
    x, y = origin
    line = NumberLine(les, x, y + ROW * 1.2, finite, char_w)
    les.texts.append((x, y, title, TEXT, FONT))
    for slab in ex.slabs:
        on = slab.axis < used
        shade = _rgba(colors.SLAB_AXES[slab.axis]) if on else DIM
        line.row(names[slab.axis], _slab_text(slab, names[slab.axis]), shade, slab.t_in,
                 slab.t_out)
    if run_lo <= run_hi:
        line.row("t0t1", f"[t0,t1] [{_fmt(run_lo)}, {_fmt(run_hi)}]", TEXT,
                 run_lo, run_hi, bar_color=_rgba(colors.CLASS_RGB[ex.kind]) if verdict
                 else (1.0, 1.0, 1.0, 1.0))
    else:
        empty = _no_t(ex.slabs[:used], names)
        line.row("t0t1", f"[t0,t1] empty: {empty} no t" if empty else "[t0,t1] empty: t0 > t1",
                 TEXT)
    line.row("segment", "segment [0, 1]", _rgba(colors.SEGMENT), 0.0, 1.0)
    line.ticks()
    if verdict:
        cls = _rgba(colors.CLASS_RGB[ex.kind])
        R = geometry.SlabRule
        if ex.rule in (R.CROSSES_BOUNDARY, R.INSIDE, R.IN_FACE_PLANE, R.MISSES_SEGMENT,
                       R.NO_COMMON_T):
            for name, t in (("t0", ex.t0), ("t1", ex.t1)):
                deciding = {R.CROSSES_BOUNDARY: 0 <= t <= 1, R.MISSES_SEGMENT:
                            (name == "t1" and t < 0) or (name == "t0" and t > 1)}.get(ex.rule, True)
                if math.isfinite(t) and deciding:
                    line.marker(t, cls, f"rule {name}")
        _finish(les, line, origin, rule_text(ex), cls)
    else:
        _finish(les, line, origin, f"step {step}/{SEGMENT_STEPS}: the {names[used - 1]} slab" + (
            f"; [t0,t1] over {', '.join(names[:used])}: max entry, min exit" if used > 1
            else "; [t0,t1] is its interval"))
    return les


def _finish(les: Lesson, line: NumberLine, origin: tuple[float, float], caption: str,
            plate=None) -> None:
    """The caption under the number line (on a plate of colour ``plate``: the verdict), the
    key hint, and the panel around everything."""
    x, y = origin
    les.caption = caption
    if plate is not None:
        les.rects.append((x - 2, line.y - 3, len(caption) * line.char_w + 4, FONT + 6,
                          (*plate[:3], 0.3)))
    les.texts.append((x, line.y, caption, (1, 1, 1, 1) if plate is not None else SOFT, FONT))
    line.y += ROW
    hint = "live view" if les.step is None else ". next  , back  Backspace live"
    les.texts.append((x, line.y, hint, DIM, FONT * 0.85))
    line.y += ROW
    width = max(len(les.title), len(caption)) * line.char_w + 12
    les.panel = Rect(x - 6, y - 6, max(LABEL_COLUMN * line.char_w + BAR_WIDTH + 40, width),
                     line.y - y + 6)


# --- triangle: the separating axes ------------------------------------------------------------
def triangle_lesson(state: DemoState, triangle: int, index: int, step: int | None,
                    origin: tuple[float, float], char_w: float) -> Lesson:
    """The separating-axis lesson for scene triangle ``triangle`` and box ``index`` at ``step``
    (1..13: that axis, 14 or None: the verdict, which shows the separating axis if any)."""
    sat = explain_triangle(state, triangle, index)
    to_world, _, frame = _box_frame(state, index)
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
        vec = ", ".join(f"{v:.3g}" for v in test.axis)
        line.row("axis", f"axis {test.number + 1}/13: {test.name} = ({vec})", TEXT)
        if test.zero:
            line.row("zero", "zero axis: separates nothing", DIM)
        else:
            tri_col = _rgba(colors.TRIANGLE)
            line.row("triangle", f"triangle [{_fmt(test.tri_min)}, {_fmt(test.tri_max)}]",
                     tri_col, test.tri_min, test.tri_max)
            line.row("box", f"box [{_fmt(test.box_lo)}, {_fmt(test.box_hi)}]",
                     _rgba(BOX_PROJECTION), test.box_lo, test.box_hi)
            if test.separates:
                a, b = sorted((test.tri_max, test.box_lo) if test.tri_max < test.box_lo
                               else (test.box_hi, test.tri_min))
                line.row("gap", f"gap {_fmt(test.gap)} > 0: separated", _rgba(GAP_COLOR), a, b)
            elif test.gap == 0:
                line.row("gap", "touching (gap 0): not separating", SOFT)
            else:
                line.row("gap", f"overlap {_fmt(-test.gap)}: not separating", SOFT)
    if verdict:
        if sat.separating is None:
            caption = "no axis of the 13 separates them: the triangle and the box overlap"
        else:
            sep = sat.axes[sat.separating]
            caption = (f"axis {sep.number + 1} ({sep.name}) separates them, gap "
                       f"{_fmt(sep.gap)} > 0: no common point")
        _finish(les, line, origin, caption, GAP_COLOR)
    else:
        assert test is not None
        _finish(les, line, origin, f"step {step}/{TRIANGLE_STEPS}: " + (
            "a zero axis is skipped" if test.zero else "apart on this axis: separated" if
            test.separates else "the intervals overlap: try the next axis"))
    tri = [to_world(v) for v in sat.vertices]  # the triangle explained, outlined
    for j in range(3):
        les.lines.append((tri[j], tri[(j + 1) % 3], _rgba(colors.TRIANGLE_OVERLAP, 0.9)))
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
    les.thick.append((at(test.box_lo), at(test.box_hi), _rgba(BOX_PROJECTION, 0.95)))
    les.thick.append((at(test.tri_min), at(test.tri_max), _rgba(colors.TRIANGLE_OVERLAP, 0.95)))
    for v in sat.vertices:
        s = float(axis @ v)
        les.lines.append((to_world(v), at(s), _rgba(colors.TRIANGLE, 0.6)))
        les.points.append((at(s), _rgba(colors.TRIANGLE_OVERLAP), 8.0))
    if test.separates:
        a, b = ((test.tri_max, test.box_lo) if test.tri_max < test.box_lo
                else (test.box_hi, test.tri_min))
        les.thick.append((at(a), at(b), _rgba(GAP_COLOR, 0.9)))
        les.points.append((at(a), _rgba(GAP_COLOR), 10.0))
        les.points.append((at(b), _rgba(GAP_COLOR), 10.0))
    les.points.append((to_world(sat.center), _rgba(BOX_PROJECTION), 9.0))
    # the box's corners that project to the ends of its interval
    for sign in (1, -1):
        corner = np.where(sign * axis >= 0, sat.box_max, sat.box_min)
        s = float(axis @ corner)
        les.lines.append((to_world(corner), at(s), _rgba(BOX_PROJECTION, 0.5)))
