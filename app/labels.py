"""Screen-space layout of in-scene labels (pure Python: tests check it without a GPU).

Two problems, solved in pixel coordinates (x right, y down, origin top-left):

* :func:`pin_to_viewport` - where a world point's marker goes: at its projection when that lies
  inside the viewport, else on the viewport's edge (inset by a margin) in the direction of the
  point, flagged so that the renderer draws an arrow there. Points behind the camera point the
  way the camera would have to turn.
* :func:`place_labels` - a rectangle for every label that overlaps no other label, no blocked
  area (the HUD, panels) and no marker, and stays inside the viewport; as near its anchor as it
  can be (a leader line joins them when it had to move away). Greedy, in the order given: each
  label tries positions on rings of growing radius around its anchor, then the free spot of a
  viewport-wide grid nearest to its anchor; a label with no room anywhere is left out (``None``)
  rather than drawn over another.

Model: the "greedy candidate positions" family of label placement (Christensen, Marks & Shieber,
"An empirical study of algorithms for point-feature label placement", ACM ToG 1995).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: pixels kept free between two labels, and between a label and a blocked area
GAP = 3.0
#: radii (pixels) of the rings of candidate positions around an anchor
RINGS = (8.0, 20.0, 36.0, 56.0, 84.0, 120.0, 170.0)
#: candidate directions per ring (the first one is to the lower right, then clockwise)
DIRECTIONS = 16


@dataclass(frozen=True)
class Rect:
    """An axis-aligned pixel rectangle: top-left ``(x, y)``, width ``w``, height ``h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Rect, gap: float = 0.0) -> bool:
        """True when the two rectangles, each grown by ``gap / 2``, share interior points."""
        return (self.x < other.right + gap and other.x < self.right + gap
                and self.y < other.bottom + gap and other.y < self.bottom + gap)

    def inside(self, width: float, height: float, margin: float = 0.0) -> bool:
        return (self.x >= margin and self.y >= margin and self.right <= width - margin
                and self.bottom <= height - margin)

    def nearest_point(self, x: float, y: float) -> tuple[float, float]:
        """The point of the rectangle (its boundary or inside) nearest to ``(x, y)``."""
        return min(max(x, self.x), self.right), min(max(y, self.y), self.bottom)


@dataclass(frozen=True)
class Pin:
    """Where a marker is drawn: ``(x, y)`` in pixels; ``arrow`` is None for a point shown where
    it projects, else the unit direction (pixels, y down) from the pin towards the point, which
    lies outside the viewport (or behind the camera)."""

    x: float
    y: float
    arrow: tuple[float, float] | None = None


def pin_to_viewport(clip: np.ndarray, size: tuple[int, int], margin: float = 16.0) -> Pin:
    """The marker position of a point given in clip coordinates ``clip`` = ``[p, 1] @ VP``.

    Inside the viewport shrunk by ``margin`` the pin is the projection itself. Otherwise the pin
    is where the line from the viewport's centre towards the point leaves that shrunk
    rectangle. For a point behind the camera (``w <= 0``) the direction is the one of its
    camera-space x/y, i.e. the way one would turn to see it.
    """
    width, height = float(size[0]), float(size[1])
    x, y, _, w = (float(v) for v in clip)
    cx, cy = width / 2, height / 2
    if w > 1e-9:
        px, py = (x / w + 1) / 2 * width, (1 - y / w) / 2 * height
        if margin <= px <= width - margin and margin <= py <= height - margin:
            return Pin(px, py)
        dx, dy = px - cx, py - cy
    else:
        dx, dy = x * width, -y * height
        if dx == 0 and dy == 0:  # straight behind the camera: any edge will do
            dy = 1.0
    norm = math.hypot(dx, dy)
    ux, uy = dx / norm, dy / norm
    half_w, half_h = max(cx - margin, 0.0), max(cy - margin, 0.0)
    scale = min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)
    return Pin(cx + ux * scale, cy + uy * scale, (ux, uy))


def _candidate(ax: float, ay: float, w: float, h: float, r: float, angle: float) -> Rect:
    """The rectangle whose side nearest the anchor is ``r`` pixels from it in ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    return Rect(ax + r * c - w / 2 + c * w / 2, ay + r * s - h / 2 + s * h / 2, w, h)


def _segment_hits_rect(ax: float, ay: float, bx: float, by: float, r: Rect) -> bool:
    """Whether the segment a-b passes through the interior of ``r`` (Liang-Barsky clip)."""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - r.x), (dx, r.right - ax), (-dy, ay - r.y), (dy, r.bottom - ay)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 < t1


def place_labels(anchors: list[tuple[float, float]], sizes: list[tuple[float, float]],
                 size: tuple[int, int], blocked: Sequence[Rect] = (),
                 markers: Sequence[Rect] = (),
                 gap: float = GAP) -> list[Rect | None]:
    """A rectangle for each label (``sizes[i]`` = (w, h) at ``anchors[i]``), or None.

    Placed rectangles lie inside the viewport, overlap neither each other nor ``blocked`` nor
    ``markers`` (each with ``gap`` pixels to spare), and their leader lines (anchor to nearest
    rectangle point) cross no other placed label where a position allows it.
    """
    width, height = size
    placed: list[Rect | None] = []
    taken = [*blocked, *markers]

    def free(rect: Rect, ax: float, ay: float, strict: bool) -> bool:
        if not rect.inside(width, height, 1.0):
            return False
        if any(rect.overlaps(o, gap) for o in taken):
            return False
        if strict:
            lx, ly = rect.nearest_point(ax, ay)
            others = [p for p in placed if p is not None]
            if any(_segment_hits_rect(ax, ay, lx, ly, p) for p in others):
                return False
        return True

    for (ax, ay), (w, h) in zip(anchors, sizes, strict=True):
        choice = None
        for strict in (True, False):
            for r in RINGS:
                for k in range(DIRECTIONS):
                    rect = _candidate(ax, ay, w, h, r, math.pi / 4 + 2 * math.pi * k / DIRECTIONS)
                    if free(rect, ax, ay, strict):
                        choice = rect
                        break
                if choice:
                    break
            if choice:
                break
        if choice is None:  # the nearest free cell of a viewport-wide grid
            best = math.inf
            for y in np.arange(1.0, height - h, max(h / 2, 1.0)):
                for x in np.arange(1.0, width - w, max(w / 4, 1.0)):
                    rect = Rect(float(x), float(y), w, h)
                    d = math.dist(rect.nearest_point(ax, ay), (ax, ay))
                    if d < best and free(rect, ax, ay, False):
                        best, choice = d, rect
        placed.append(choice)
        if choice is not None:
            taken.append(choice)
    return placed
