"""Explain mode: *why* the selected box has its colour.

For display only, this module computes the slab method's per-axis parameters of the segment's
line (Kay & Kajiya 1986; Williams et al. 2004): for each axis of the box, the t where the line
enters and leaves that slab, then t0 = max(entries), t1 = min(exits). The box's class itself is
never decided here: it is the one ``geometry`` returned (``DemoState.classes``), and the rule
text says how that class follows from [t0, t1] - or, for boundary cases the interval alone does
not settle (segment parallel to a face, a flat box), that geometry's exact test decided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.colors import CLASS_NAMES
from app.state import DemoState

_NAMES = ("NONE", "INTERSECT", "INCLUDE")


@dataclass
class Explanation:
    box: int
    kind: str  # "AABB" or "OBB"
    cls: int  # from geometry
    t_near: np.ndarray  # (3,) slab entry t per box axis (may be -inf/inf when parallel)
    t_far: np.ndarray  # (3,) slab exit t per box axis
    parallel: np.ndarray  # (3,) bool: the segment is parallel to that slab
    t0: float
    t1: float
    rule: str

    def points(self, start: np.ndarray, end: np.ndarray, t) -> np.ndarray:
        """World points on the segment's line at parameters ``t``."""
        t = np.asarray(t, dtype=np.float64)
        return start + t[..., None] * (end - start)

    def lines(self) -> list[str]:
        """HUD lines: per-axis slab t values, the interval and the rule."""
        out = [f"explain box #{self.box} ({self.kind})"]
        for i, axis in enumerate("xyz" if self.kind == "AABB" else "uvw"):
            if self.parallel[i]:
                inside = self.t_near[i] == -math.inf
                out.append(f"  {axis}-slab: parallel, line {'inside' if inside else 'outside'}")
            else:
                out.append(f"  {axis}-slab: enter t={_fmt(self.t_near[i])}  "
                           f"exit t={_fmt(self.t_far[i])}")
        out.append(f"  [t0, t1] = [{_fmt(self.t0)}, {_fmt(self.t1)}]   segment is t in [0, 1]")
        out.append("  " + self.rule)
        return out


def _fmt(t: float) -> str:
    if math.isinf(t):
        return "+inf" if t > 0 else "-inf"
    return f"{t:.3g}"


def _rule(cls: int, t0: float, t1: float, degenerate: bool) -> str:
    name = f"{_NAMES[cls]} ({CLASS_NAMES[cls]})"
    if cls == 2 and t0 < 0 and t1 > 1:
        return f"t0={_fmt(t0)} < 0 and t1={_fmt(t1)} > 1 -> {name}"
    if cls == 1 and 0 <= t0 <= 1 and t0 <= t1:
        return f"t0={_fmt(t0)} in [0,1] -> {name}"
    if cls == 1 and 0 <= t1 <= 1 and t0 <= t1:
        return f"t1={_fmt(t1)} in [0,1] -> {name}"
    if cls == 0 and t0 > t1:
        return f"t0={_fmt(t0)} > t1={_fmt(t1)}: the line misses the box -> {name}"
    if cls == 0 and (t1 < 0 or t0 > 1):
        return f"[t0,t1] does not meet [0,1] -> {name}"
    why = "segment on a face plane / flat box" if degenerate else "boundary case"
    return f"{why}: decided by geometry's exact test -> {name}"


def explain(state: DemoState, index: int) -> Explanation:
    """Slab parameters of the segment against box ``index`` (display only)."""
    boxes = state.boxes
    start, end = state.start, state.end
    if boxes.is_obb[index]:
        axes, c, h = boxes.axes[index], boxes.center[index], boxes.half_size[index]
        s, e = axes @ (start - c), axes @ (end - c)
        lo, hi, kind = -h, h, "OBB"
    else:
        s, e = start, end
        lo, hi, kind = boxes.box_min[index], boxes.box_max[index], "AABB"
    d = e - s
    parallel = d == 0
    with np.errstate(divide="ignore", invalid="ignore"):  # parallel slabs: handled just below
        ta, tb = (lo - s) / d, (hi - s) / d
    t_near, t_far = np.minimum(ta, tb), np.maximum(ta, tb)
    inside = (s >= lo) & (s <= hi)
    t_near = np.where(parallel, np.where(inside, -np.inf, np.inf), t_near)
    t_far = np.where(parallel, np.where(inside, np.inf, -np.inf), t_far)
    t0, t1 = float(t_near.max()), float(t_far.min())
    cls = int(state.classes[index])
    degenerate = bool(parallel.any() or (hi - lo == 0).any())
    return Explanation(index, kind, cls, t_near, t_far, parallel, t0, t1,
                       _rule(cls, t0, t1, degenerate))
