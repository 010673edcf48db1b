"""HUD and help overlay as text lines (pure Python, so tests read them without a GPU).

A line is a list of ``(text, rgba)`` runs; :class:`app.view.SceneView` draws them.
"""

from __future__ import annotations

import numpy as np

from app.colors import CLASS_COLORS, CLASS_NAMES
from app.state import DemoState

WHITE = (0.93, 0.93, 0.93, 1.0)
DIM = (0.65, 0.67, 0.72, 1.0)
ACCENT = (1.0, 0.85, 0.3, 1.0)

#: every binding, in the order the help overlay and the README list them
BINDINGS: list[tuple[str, str]] = [
    ("Right-drag", "orbit the camera"),
    ("Middle-drag / Shift+Right-drag", "pan the camera"),
    ("Wheel", "zoom"),
    ("Home", "reset the camera"),
    ("Left-drag a handle", "move that segment end (in the plane facing you)"),
    ("Left-drag the segment", "move the whole segment"),
    ("Tab", "keyboard moves: start / end / both"),
    ("W A S D / Q E", "move the segment (camera-relative; Q/E down/up)"),
    ("Shift (with keys)", "fine steps"),
    ("Hover / Left-click", "highlight / select the box under the cursor"),
    ("Arrows / PageUp PageDown", "move the selected box"),
    ("Space", "play / pause the animation"),
    ("R", "new random scene"),
    ("1 - 9", "presets: blog grid obb triangles rays edges random 150/1500/6000"),
    ("X", "explain mode (why the selected box has its colour)"),
    (". / ,", "explain: next / previous step of the lesson"),
    ("Backspace", "explain: back to the live view"),
    ("G", "explain: a triangle against the box (again: the next; then the segment)"),
    ("T", "highlight boxes overlapping a triangle"),
    ("F12 / P", "save a screenshot PNG (path printed)"),
    ("H / F1", "this help"),
    ("Esc", "quit"),
]


def _rgba(rgb) -> tuple[float, float, float, float]:
    return (*rgb, 1.0)


def _v(p: np.ndarray) -> str:
    return "(" + ", ".join(f"{x:.2f}" for x in p) + ")"


def hud_lines(state: DemoState, frame_ms: float, message: str = "") -> list[list[tuple]]:
    """The top-left HUD; ``frame_ms`` 0 means not measured (left out)."""
    g, b, r = state.counts()
    lines: list[list[tuple]] = [
        [("slablab", ACCENT), (f"  scene: {state.scene.name}   ", WHITE), ("H: help", DIM)],
        [(f"{g} {CLASS_NAMES[0]}", _rgba(CLASS_COLORS[0][1])), ("  ", WHITE),
         (f"{b} {CLASS_NAMES[1]}", _rgba(CLASS_COLORS[1][1])), ("  ", WHITE),
         (f"{r} {CLASS_NAMES[2]}", _rgba(CLASS_COLORS[2][1])),
         (f"   of {len(state.boxes)} boxes", DIM)],
        [(f"segment {_v(state.start)} -> {_v(state.end)}", WHITE),
         (f"   keys move: {state.part}", DIM)],
    ]
    if state.selected is not None and state.selected < len(state.boxes):
        i = state.selected
        bx = state.boxes
        cls = int(state.classes[i])
        shape = (f"center {_v(bx.center[i])} half {_v(bx.half_size[i])} rot {_v(bx.rotation[i])}"
                 if bx.is_obb[i] else f"min {_v(bx.box_min[i])} max {_v(bx.box_max[i])}")
        lines.append([(f"selected #{i} ", WHITE), (shape + " ", DIM),
                      (CLASS_NAMES[cls], _rgba(CLASS_COLORS[cls][1]))])
    else:
        lines.append([("selected: none (click a box)", DIM)])
    # the frame time only once a frame has been measured (headless frames are not)
    flags = [f"frame {frame_ms:5.1f} ms"] if frame_ms > 0 else []
    flags += ["playing" if state.playing else "paused",
             f"explain {'on' if state.explain else 'off'}",
             f"triangles {'on' if state.highlight_triangles else 'off'}"]
    lines.append([("   ".join(flags), DIM)])
    if message:
        lines.append([(message, ACCENT)])
    return lines


def help_lines() -> list[list[tuple]]:
    """The help overlay (H / F1)."""
    width = max(len(k) for k, _ in BINDINGS) + 2
    out = [[("Controls", ACCENT)], [("", WHITE)]]
    out += [[(key.ljust(width), ACCENT), (what, WHITE)] for key, what in BINDINGS]
    out += [[("", WHITE)], [("green NONE: no common point   blue INTERSECT: touches/crosses "
                             "the boundary   red INCLUDE: inside", DIM)]]
    return out
