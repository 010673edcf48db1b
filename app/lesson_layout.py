"""Explain mode's lesson panel: the frame's items (:class:`Lesson`) and the screen-space number
line they are laid out on (pure Python: tests read it without a GPU). Every number placed here
comes from ``geometry.explain``; :mod:`app.lesson_slabs` and :mod:`app.lesson_axes` decide
what to show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import geometry
from app import colors
from app.hud import fmt_number
from app.labels import Rect
from app.state import DemoState

PANEL_X = 12.0  # px: the panel's text starts here, as the HUD's does
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
AXIS_NAMES = {"world": "xyz", "box": "uvw"}
GAP_COLOR = (0.2, 0.95, 0.9)  # a separating-axis lesson's gap between intervals (teal)


def rgba(rgb, alpha: float = 1.0) -> tuple[float, float, float, float]:
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]), alpha)


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
                                      fmt_number(t), color, FONT * 0.85))
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


def finish_panel(les: Lesson, line: NumberLine, origin: tuple[float, float], caption: str,
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
def axis_rows(line: NumberLine, test, count: int, zero_text: str,
              first: tuple[str, float, float, tuple[float, float, float, float]],
              box_color: tuple[float, float, float, float]) -> None:
    """A separating-axis lesson's rows for one candidate axis ``test`` (a
    ``geometry.AxisTest`` or ``BoxAxisTest``) of ``count``: the axis, then, unless it is zero,
    the first shape's interval (``first``: label, ends, colour), the box's (``test.box_lo`` ..
    ``test.box_hi``) and the gap."""
    label, lo, hi, color = first
    vec = ", ".join(f"{v:.3g}" for v in test.axis)
    line.row("axis", f"axis {test.number + 1}/{count}: {test.name} = ({vec})", TEXT)
    if test.zero:
        line.row("zero", zero_text, DIM)
        return
    line.row(label, f"{label} [{fmt_number(lo)}, {fmt_number(hi)}]", color, lo, hi)
    line.row("box", f"box [{fmt_number(test.box_lo)}, {fmt_number(test.box_hi)}]",
             box_color, test.box_lo, test.box_hi)
    if test.separates and test.gap > 0:
        a, b = (hi, test.box_lo) if hi < test.box_lo else (test.box_hi, lo)
        line.row("gap", f"gap {fmt_number(test.gap)} > 0: separated", rgba(GAP_COLOR), a, b)
    elif test.separates:
        line.row("gap", "an empty box: separated", rgba(GAP_COLOR))
    elif test.gap == 0:
        line.row("gap", "touching (gap 0): not separating", SOFT)
    else:
        line.row("gap", f"overlap {fmt_number(-test.gap)}: not separating", SOFT)


def step_caption(step: int | None, steps: int, test) -> str:
    """The panel's caption at a separating-axis lesson's ``step`` (not the verdict)."""
    return f"step {step}/{steps}: " + (
        "a zero axis is skipped" if test.zero else "apart on this axis: separated"
        if test.separates else "the intervals overlap: try the next axis")


def box_frame(state: DemoState, index: int):
    """``(to_world, explain_args, frame)``: the map from the box frame's coordinates to world
    (identity for an AABB) and the box's arguments for geometry.explain's OBB/AABB function."""
    boxes = state.boxes
    if boxes.is_obb[index]:
        c, axes, h = boxes.center[index], boxes.axes[index], boxes.half_size[index]
        return (lambda u: c + np.asarray(u) @ axes), (c, axes, h), "box"
    return (lambda u: np.asarray(u, dtype=np.float64)), (boxes.box_min[index],
                                                         boxes.box_max[index]), "world"
