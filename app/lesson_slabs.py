"""Explain mode's slab lesson: for a segment and a box, each axis's slab as its two planes, the
running [t0, t1] on the segment's line, and the number line with the three slab intervals,
their intersection, the segment's [0, 1] and the rule that decides the class, step by step
(x, y, z, verdict). Every value comes from ``geometry.explain_segment_aabb`` /
``explain_segment_obb`` (an OBB in its own frame, axes u, v, w).
"""

from __future__ import annotations

import math

import numpy as np

import geometry
from app import colors
from app.hud import fmt_number
from app.lesson_layout import (
    AXIS_NAMES,
    DIM,
    FONT,
    ROW,
    TEXT,
    Lesson,
    NumberLine,
    box_frame,
    class_text,
    finish_panel,
    rgba,
)
from app.state import DemoState

SEGMENT_STEPS = 4
PLANE_ALPHA, PLANE_DIM_ALPHA = 0.16, 0.05


def explain_segment(state: DemoState, index: int) -> geometry.Slabs:
    """geometry's slab explanation of the segment against box ``index`` (OBB: box frame)."""
    _, args, frame = box_frame(state, index)
    if frame == "box":
        return geometry.explain_segment_obb(state.start, state.end, *args)
    return geometry.explain_segment_aabb(state.start, state.end, *args)


# --- segment: the slab method -----------------------------------------------------------------
def _slab_text(slab: geometry.Slab, name: str) -> str:
    kind = slab.kind
    if kind == geometry.SlabKind.INTERVAL:
        return f"{name}  [{fmt_number(slab.t_in)}, {fmt_number(slab.t_out)}]"
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
    t0, t1, verdict = fmt_number(ex.t0), fmt_number(ex.t1), class_text(ex.kind)
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
    to_world, _, frame = box_frame(state, index)
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
            les.faces.append((quad, rgba(col, PLANE_ALPHA if on else PLANE_DIM_ALPHA)))
            for j in range(4):
                les.lines.append((quad[j], quad[(j + 1) % 4], rgba(col, 0.8 if on else 0.15)))
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
        shade = rgba(colors.SLAB_AXES[slab.axis]) if on else DIM
        line.row(names[slab.axis], _slab_text(slab, names[slab.axis]), shade, slab.t_in,
                 slab.t_out)
    if run_lo <= run_hi:
        line.row("t0t1", f"[t0,t1] [{fmt_number(run_lo)}, {fmt_number(run_hi)}]", TEXT,
                 run_lo, run_hi, bar_color=rgba(colors.CLASS_RGB[ex.kind]) if verdict
                 else (1.0, 1.0, 1.0, 1.0))
    else:
        empty = _no_t(ex.slabs[:used], names)
        line.row("t0t1", f"[t0,t1] empty: {empty} no t" if empty else "[t0,t1] empty: t0 > t1",
                 TEXT)
    line.row("segment", "segment [0, 1]", rgba(colors.SEGMENT), 0.0, 1.0)
    line.ticks()
    if verdict:
        cls = rgba(colors.CLASS_RGB[ex.kind])
        R = geometry.SlabRule
        if ex.rule in (R.CROSSES_BOUNDARY, R.INSIDE, R.IN_FACE_PLANE, R.MISSES_SEGMENT,
                       R.NO_COMMON_T):
            for name, t in (("t0", ex.t0), ("t1", ex.t1)):
                deciding = {R.CROSSES_BOUNDARY: 0 <= t <= 1, R.MISSES_SEGMENT:
                            (name == "t1" and t < 0) or (name == "t0" and t > 1)}.get(ex.rule, True)
                if math.isfinite(t) and deciding:
                    line.marker(t, cls, f"rule {name}")
        finish_panel(les, line, origin, rule_text(ex), cls)
    else:
        so_far = (f"; [t0,t1] over {', '.join(names[:used])}: max entry, min exit" if used > 1
                  else "; [t0,t1] is its interval")
        finish_panel(les, line, origin,
                     f"step {step}/{SEGMENT_STEPS}: the {names[used - 1]} slab{so_far}")
    return les
