"""HUD and help overlay as text lines (pure Python, so tests read them without a GPU).

A line is a list of ``(text, rgba)`` runs; :class:`app.view.SceneView` draws them.
"""

from __future__ import annotations

import math

import numpy as np

from app.bindings import BINDINGS
from app.colors import CLASS_COLORS, CLASS_NAMES, FALSE_POSITIVE
from app.state import DemoState

WHITE = (0.93, 0.93, 0.93, 1.0)
DIM = (0.65, 0.67, 0.72, 1.0)
ACCENT = (1.0, 0.85, 0.3, 1.0)

def _rgba(rgb) -> tuple[float, float, float, float]:
    return (*rgb, 1.0)


def fmt_number(x: float) -> str:
    """A coordinate or a t for on-screen text: two decimals, three significant digits from
    1e4 on (a scene may reach 3.4e38), ``+inf`` / ``-inf``."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:.2f}" if abs(x) < 1e4 else f"{x:.3g}"


def _v(p: np.ndarray) -> str:
    return "(" + ", ".join(fmt_number(x) for x in p) + ")"


def hud_lines(state: DemoState, frame_ms: float, message: str = "") -> list[list[tuple]]:
    """The top-left HUD, in lines of at most ~60 characters (a 400 px wide window shows them
    at 13 px); ``frame_ms`` 0 means not measured (left out)."""
    g, b, r = state.counts()
    lines: list[list[tuple]] = [
        [("slablab", ACCENT), (f"  scene: {state.scene.name}   ", WHITE), ("H: help", DIM)],
        [(f"{g} {CLASS_NAMES[0]}", _rgba(CLASS_COLORS[0][1])), ("  ", WHITE),
         (f"{b} {CLASS_NAMES[1]}", _rgba(CLASS_COLORS[1][1])), ("  ", WHITE),
         (f"{r} {CLASS_NAMES[2]}", _rgba(CLASS_COLORS[2][1])),
         (f"   of {len(state.boxes)} boxes", DIM)],
    ]
    if len(state.sphere_radii):
        i = state.active_sphere
        lines.append([(f"sphere {_v(state.sphere_centers[i])} radius "
                       f"{fmt_number(state.sphere_radii[i])}", WHITE)])
    elif state.query is not None:
        q = state.query
        kind = f"OBB rotation {_v(q.rotation[0])}" if q.is_obb[0] else "AABB"
        lines.append([(f"query box {kind}", WHITE)])
        lines.append([(f"  center {_v(q.center[0])} half {_v(q.half_size[0])}", DIM)])
    elif state.frustum_camera is None:
        lines.append([(f"segment {_v(state.start)} -> {_v(state.end)}", WHITE)])
    else:
        lines.append([(f"{state.false_positives()} {FALSE_POSITIVE[0]}", _rgba(FALSE_POSITIVE[1])),
                      (": outside the frustum, kept by its plane-only test", DIM)])
    if state.selected is not None and state.selected < len(state.boxes):
        i = state.selected
        bx = state.boxes
        cls = int(state.classes[i])
        kind = "OBB" if bx.is_obb[i] else "AABB"
        lines.append([(f"selected #{i} ({kind}) ", WHITE),
                      (CLASS_NAMES[cls], _rgba(CLASS_COLORS[cls][1]))])
        if bx.is_obb[i]:
            lines.append([(f"  center {_v(bx.center[i])} half {_v(bx.half_size[i])}", DIM)])
            lines.append([(f"  rotation {_v(bx.rotation[i])}", DIM)])
        else:
            lines.append([(f"  min {_v(bx.box_min[i])} max {_v(bx.box_max[i])}", DIM)])
        distance = state.sphere_distance()
        if distance is not None:
            lines.append([(f"  distance from the sphere's centre {fmt_number(distance)}", WHITE)])
    else:
        lines.append([("selected: none (click a box)", DIM)])
    # the frame time only once a frame has been measured (headless frames are not)
    flags = [f"frame {frame_ms:.1f} ms"] if frame_ms > 0 else []
    flags += ["playing" if state.playing else "paused",
              f"explain {'on' if state.explain else 'off'}",
              f"triangles {'on' if state.highlight_triangles else 'off'}"]
    if not state.show_none:
        flags.append(f"{CLASS_NAMES[0]} hidden")
    lines.append([("  ".join(flags), DIM), (f"  keys move: {state.part}", DIM)])
    if message:
        lines.append([(message, ACCENT)])
    return lines


def help_lines() -> list[list[tuple]]:
    """The help overlay (H / F1): the bindings table (app.bindings) and the colour legend."""
    width = max(len(b.inputs) for b in BINDINGS) + 2
    out = [[("Controls", ACCENT), ("   (H closes this)", DIM)]]
    out += [[(b.inputs.ljust(width), ACCENT), (b.what, WHITE)] for b in BINDINGS]
    out += [[("green NONE: no common point   blue INTERSECT: touches/crosses the boundary   "
              "red INCLUDE: inside", DIM)]]
    return out
