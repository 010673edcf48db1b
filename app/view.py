"""One frame of the demo: grid, gizmo, segment, rays, boxes, triangles, outlines, explain overlay,
handles, HUD - in that order. The window and the headless renderer both call
:meth:`SceneView.draw`, so a screenshot is exactly what the window shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import moderngl
import numpy as np

from app import colors
from app.camera import OrbitCamera
from app.hud import help_lines, hud_lines
from app.labels import Pin, Rect, pin_to_viewport, place_labels
from app.lesson import FONT as LESSON_FONT
from app.lesson import Lesson, lesson_for
from app.renderers.boxes import BoxRenderer, box_edges
from app.renderers.primitives import LineBatch, PointBatch, TriangleBatch
from app.renderers.text import TextRenderer
from app.state import DemoState
from geometry import IntersectionType, SlabKind

LIGHT_DIR = (0.4, 0.9, 0.6)
#: box faces are translucent so that boxes behind boxes show through ...
FACE_ALPHA = 0.72
#: ... up to this many boxes; from here on they are drawn opaque with depth writes, and only the
#: three faces that can face the eye: translucent overdraw of 10^5 overlapping cubes is what
#: makes a software rasteriser (llvmpipe) slow, while hidden opaque fragments are rejected by
#: depth, and half the triangles halve the vertex and set-up work.
DENSE_BOXES = 20_000
#: in a dense scene the boxes the segment touches are also outlined on top (at most this many
#: per class: a segment across the whole crowd would otherwise outline thousands)
MAX_DENSE_OUTLINES = 2_000
RAY_MISS_LENGTH = 12.0
HUD_X, HUD_Y, HUD_FONT = 12.0, 10.0, 15.0  # the HUD's top-left text position and size (px)
LABEL_FONT, LABEL_PAD = 14.0, 3.0  # in-scene labels: text size, plate padding (px)
LABEL_TEXT = (0.95, 0.95, 0.95, 1.0)
HELP_PAD = 16.0
#: the screen-space batches' matrix: their positions are already normalised device coordinates
SCREEN = np.eye(4)


def _ndc(p, size) -> tuple[float, float, float]:
    """Pixel ``(x, y)`` (y down) -> normalised device coordinates for the screen batches."""
    return 2 * p[0] / size[0] - 1, 1 - 2 * p[1] / size[1], 0.0


def _fmt_t(t: float) -> str:
    return f"{t:.2f}" if abs(t) < 1e4 else f"{t:.3g}"


@dataclass
class Label:
    """One in-scene label: coloured text runs, the marker it belongs to, where it went
    (``rect`` None: no room for it anywhere)."""

    runs: list[tuple[str, tuple]]
    color: tuple[float, float, float, float]
    pin: Pin
    rect: Rect | None = None

    @property
    def text(self) -> str:
        return "".join(s for s, _ in self.runs)


def _grid_lines(half: int = 10) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(-half, half + 1, dtype=np.float64)
    a = np.concatenate([np.stack([k, 0 * k, -half + 0 * k], -1), np.stack([-half + 0 * k, 0 * k, k], -1)])
    b = np.concatenate([np.stack([k, 0 * k, half + 0 * k], -1), np.stack([half + 0 * k, 0 * k, k], -1)])
    return a, b


class SceneView:
    """Owns the GPU parts; ``draw(state, camera, size, ...)`` renders one frame into the bound
    framebuffer."""

    def __init__(self, ctx: moderngl.Context, load_program: Callable[[str], moderngl.Program]):
        self.ctx = ctx
        self.boxes = BoxRenderer(ctx, load_program("boxes.glsl"))
        lines_prog, points_prog = load_program("lines.glsl"), load_program("points.glsl")
        self.lines = LineBatch(ctx, lines_prog)
        self.thick = LineBatch(ctx, lines_prog)
        self.overlay = LineBatch(ctx, lines_prog)
        self.points = PointBatch(ctx, points_prog)
        self.screen_lines = LineBatch(ctx, lines_prog)  # pixel-space: leader lines, arrows
        self.screen_points = PointBatch(ctx, points_prog)  # pixel-space: explain markers
        # the last frame's layout (tests read it): in-scene labels, and the panels' plates by
        # name ("hud", "explain", "help") that labels keep clear of
        self.labels: list[Label] = []
        self.panels: dict[str, Rect] = {}
        self.triangles = TriangleBatch(ctx, load_program("mesh.glsl"))
        self.lesson_faces = TriangleBatch(ctx, self.triangles.program)  # explain: slab planes
        self.lesson_lines = LineBatch(ctx, lines_prog)  # explain: plane outlines, projections
        self.lesson: Lesson | None = None  # the last frame's lesson (tests read it)
        self.text = TextRenderer(ctx, load_program("text.glsl"))
        self.grid = _grid_lines()

    # ------------------------------------------------------------------ frame
    def draw(self, state: DemoState, camera: OrbitCamera, size: tuple[int, int],
             frame_ms: float = 0.0, message: str = "") -> None:
        width, height = size
        if width <= 0 or height <= 0:  # minimised: nothing to draw into
            return
        ctx = self.ctx
        ctx.viewport = (0, 0, width, height)
        ctx.clear(*colors.BACKGROUND, 1.0, depth=1.0)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.BLEND)
        ctx.disable(moderngl.CULL_FACE)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        vp = camera.view_projection()

        for b in (self.lines, self.thick, self.overlay, self.points, self.triangles):
            b.clear()

        # opaque-ish lines that write depth: grid, gizmo, segment, rays
        self.lines.add(*self.grid, (0.5, 0.52, 0.56), alpha=0.35)
        self.thick.add(np.zeros((3, 3)), np.eye(3) * 1.5, (1, 0, 0))
        self.thick.rows[-1][:, 3:6] = np.repeat(np.eye(3), 2, axis=0)  # x red, y green, z blue
        self.thick.add(state.start, state.end, colors.SEGMENT)
        self._add_rays(state)
        ctx.depth_mask = True
        self.lines.draw(vp, size, width=1.0)
        self.thick.draw(vp, size, width=4.0)

        # translucent: boxes and triangles (no depth writes, so everything shows through;
        # dense scenes draw their boxes opaque, see DENSE_BOXES)
        moved, recoloured = state.take_moved(), state.take_recoloured()
        self.boxes.update(state.boxes, state.classes, moved, recoloured)
        dense = len(state.boxes) >= DENSE_BOXES
        ctx.depth_mask = dense
        self.boxes.draw(vp, LIGHT_DIR, face_alpha=1.0 if dense else FACE_ALPHA,
                        front_only_from=camera.eye() if dense else None)
        ctx.depth_mask = False
        if len(state.scene.triangles):
            self.triangles.add(state.scene.triangles, colors.TRIANGLE)
            self.triangles.draw(vp, size, light_dir=LIGHT_DIR)
        self.lesson = lesson_for(state, size, self.text.char_width(LESSON_FONT))
        if self.lesson is not None:
            self.lesson_faces.clear()
            for quad, rgba in self.lesson.faces:
                self.lesson_faces.add(quad[[0, 1, 2, 0, 2, 3]], rgba, alpha=rgba[3])
            self.lesson_faces.draw(vp, size, light_dir=LIGHT_DIR)
        ctx.depth_mask = True

        # outlines: boxes the segment touches (dense scenes, where they are hidden inside the
        # crowd), triangle overlaps, hover, selection
        outline = self.overlay
        if dense:
            for cls in (IntersectionType.INTERSECT, IntersectionType.INCLUDE):
                touched = np.flatnonzero(state.classes == cls)[:MAX_DENSE_OUTLINES]
                if len(touched):
                    e = box_edges(state.boxes, touched).reshape(-1, 2, 3)
                    outline.add(e[:, 0], e[:, 1], tuple(colors.CLASS_RGB[cls]))
        if state.highlight_triangles and state.overlaps.any():
            e = box_edges(state.boxes, np.flatnonzero(state.overlaps)).reshape(-1, 2, 3)
            outline.add(e[:, 0], e[:, 1], colors.TRIANGLE_OVERLAP)
        for idx, col in ((state.hovered, colors.HOVER), (state.selected, colors.SELECTED)):
            if idx is not None and idx < len(state.boxes):
                e = box_edges(state.boxes, idx)
                outline.add(e[:, 0], e[:, 1], col)
        ctx.disable(moderngl.DEPTH_TEST)
        outline.draw(vp, size, width=3.0)
        self.overlay.clear()

        # panels first (their rectangles are where in-scene labels must not go), then the
        # explain overlay, markers and handles, always on top
        hud = hud_lines(state, frame_ms, message)
        self.panels = {"hud": self._block_rect(hud, HUD_X, HUD_Y, HUD_FONT)}
        lesson = self.lesson
        if lesson is not None:
            self.panels["explain"] = lesson.panel
        help_block = self._help_layout(size) if state.show_help else None
        if help_block is not None:
            self.panels["help"] = self._block_rect(*help_block, pad=HELP_PAD)
        self.screen_lines.clear()
        self.screen_points.clear()
        handles = camera.project(np.stack([state.start, state.end]), size)
        markers = [Rect(x - 9, y - 9, 18, 18) for x, y, _ in handles if np.isfinite([x, y]).all()]
        self.labels = []
        if lesson is not None:
            self.lesson_lines.clear()
            for a, b, rgba in lesson.lines:
                self.lesson_lines.add(a, b, rgba)
            self.lesson_lines.draw(vp, size, width=2.0)
            for a, b, rgba in lesson.thick:
                self.overlay.add(a, b, rgba)
            for p, rgba, px in lesson.points:
                self.points.add(p, rgba, size=px)
            if lesson.slabs is not None:
                self.labels = self._add_explain(lesson, state, camera, size,
                                                list(self.panels.values()), markers)
        self.overlay.add(state.start, state.end, colors.SEGMENT, alpha=0.55)
        self.overlay.draw(vp, size, width=5.0)
        self.points.add(state.start, colors.HANDLE_START, size=16.0)
        self.points.add(state.end, colors.HANDLE_END, size=16.0)
        self.points.draw(vp, size)
        self.screen_lines.draw(SCREEN, size, width=1.5)
        self.screen_points.draw(SCREEN, size)

        # HUD, explain panel, labels, help
        self._draw_text_block(hud, HUD_X, HUD_Y, size, HUD_FONT)
        if lesson is not None:
            r = lesson.panel
            self.text.rect(r.x, r.y, r.w, r.h, colors.PLATE)
            for x, y, w, h, rgba in lesson.rects:
                self.text.rect(x, y, w, h, rgba)
            for x, y, text, rgba, font in lesson.texts:
                self.text.text(x, y, text, rgba, font)
        for label in self.labels:
            if label.rect is not None:
                self._draw_label(label)
        if help_block is not None:
            lines, x, y, font = help_block
            self._draw_text_block(lines, x, y, size, font, pad=HELP_PAD,
                                  background=(0.02, 0.02, 0.03, 0.93))
        self.text.draw(size)
        ctx.enable(moderngl.DEPTH_TEST)

    # ---------------------------------------------------------------- pieces
    def _add_rays(self, state: DemoState) -> None:
        origins, dirs = state.scene.ray_origins, state.scene.ray_directions
        for r, (o, d) in enumerate(zip(origins, dirs)):
            if state.rays.box[r] >= 0:
                hit = o + state.rays.t[r] * d
                self.thick.add(o, hit, colors.RAY_HIT)
                self.points.add(hit, colors.RAY_HIT, size=12.0)
            else:  # a miss fades out
                far = o + d / np.linalg.norm(d) * RAY_MISS_LENGTH
                self.thick.add(o, far, (*colors.RAY_MISS, 0.9), (*colors.RAY_MISS, 0.0))
            self.points.add(o, colors.RAY_MISS, size=8.0)

    def _add_explain(self, lesson: Lesson, state: DemoState, camera: OrbitCamera, size,
                     blocked: list[Rect], markers: list[Rect]) -> list[Label]:
        """One marker and one label per distinct slab t value of the axes the lesson has used
        so far (axes sharing a t share them). Markers of points outside the viewport sit on its
        edge with an arrow towards the point."""
        ex = lesson.slabs
        start, end = state.start, state.end
        t0, t1 = ex.interval_after(lesson.used)
        hit = lesson.verdict and t0 <= t1 and bool(np.isfinite([t0, t1]).all())
        groups: dict[float, list[tuple[int, int]]] = {}
        for slab in ex.slabs[:lesson.used]:
            for side, t in enumerate((slab.t_in, slab.t_out)):
                if slab.kind == SlabKind.INTERVAL and np.isfinite(t):
                    groups.setdefault(float(t), []).append((slab.axis, side))
        names = "uvw" if ex.frame == "box" else "xyz"
        labels, pins = [], []
        points = start + np.array(list(groups))[:, None] * (end - start) if groups else None
        clip = camera.clip(points) if groups else np.zeros((0, 4))
        for (t, members), c in zip(groups.items(), clip):
            pin = pin_to_viewport(c, size)
            col = colors.SLAB_AXES[members[0][0]]
            runs = []
            for k, (axis, side) in enumerate(members):
                runs += [(", ", LABEL_TEXT)] if k else []
                runs.append((f"{names[axis]} {'in' if side == 0 else 'out'}",
                             (*colors.SLAB_AXES[axis], 1.0)))
            runs.append((f" {_fmt_t(t)}", LABEL_TEXT))
            for tag, value in (("t0", t0), ("t1", t1)):
                if hit and t == value:
                    runs.append((f" = {tag}", (*colors.CLASS_RGB[ex.kind], 1.0)))
            labels.append(Label(runs, (*col, 1.0), pin))
            pins.append(pin)
            self._add_pin(pin, col, size)
        markers = markers + [Rect(p.x - 7, p.y - 7, 14, 14) for p in pins]
        cw = self.text.char_width(LABEL_FONT)
        sizes = [(sum(len(s) for s, _ in lb.runs) * cw + 2 * LABEL_PAD, LABEL_FONT + 2 * LABEL_PAD)
                 for lb in labels]
        rects = place_labels([(p.x, p.y) for p in pins], sizes, size, blocked, markers)
        for label, rect in zip(labels, rects):
            label.rect = rect
            if rect is not None:
                lx, ly = rect.nearest_point(label.pin.x, label.pin.y)
                if np.hypot(lx - label.pin.x, ly - label.pin.y) > 7:
                    self._screen_line((label.pin.x, label.pin.y), (lx, ly), (*label.color[:3], 0.85),
                                      size)
        return labels

    def _add_pin(self, pin: Pin, color, size) -> None:
        """A marker disc at ``pin``, and for an off-screen point a chevron pointing at it."""
        self.screen_points.add(_ndc((pin.x, pin.y), size), color, size=12.0)
        if pin.arrow is not None:
            ux, uy = pin.arrow
            tip = (pin.x + 13 * ux, pin.y + 13 * uy)
            for s in (1, -1):
                wing = (pin.x + 6 * ux - s * 6 * uy, pin.y + 6 * uy + s * 6 * ux)
                self._screen_line(wing, tip, (*color, 1.0), size)

    def _screen_line(self, a, b, color, size) -> None:
        self.screen_lines.add(_ndc(a, size), _ndc(b, size), color)

    def _draw_label(self, label: Label) -> None:
        r = label.rect
        self.text.rect(r.x, r.y, r.w, r.h, colors.PLATE)
        self.text.rect(r.x, r.y, 2.0, r.h, label.color)  # a bar in the marker's colour
        x = r.x + LABEL_PAD
        cw = self.text.char_width(LABEL_FONT)
        for s, col in label.runs:
            self.text.text(x, r.y + LABEL_PAD, s, col, LABEL_FONT)
            x += len(s) * cw

    def _help_layout(self, size) -> tuple[list, float, float, float]:
        """(lines, x, y, font) of the help overlay, centred and fitted into the window."""
        width, height = size
        lines = help_lines()
        cols = max(sum(len(t) for t, _ in ln) for ln in lines)
        font = max(6.0, min(16.0, (width - 60) / (cols * self.text.aspect),
                            (height - 60) / (len(lines) * 1.3)))
        w, h = cols * self.text.char_width(font), len(lines) * font * 1.3
        return lines, max((width - w) / 2, 10), max((height - h) / 2, 10), font

    def _block_rect(self, lines, x, y, font: float, pad: float = 6.0) -> Rect:
        """The backing rectangle of a text block drawn by :meth:`_draw_text_block`."""
        width = max((sum(len(t) for t, _ in ln) for ln in lines), default=0)
        return Rect(x - pad, y - pad, width * self.text.char_width(font) + 2 * pad,
                    len(lines) * font * 1.3 + 2 * pad - 4)

    def _draw_text_block(self, lines, x, y, size, font: float, pad: float = 6.0,
                         background=colors.PLATE) -> None:
        r = self._block_rect(lines, x, y, font, pad)
        self.text.rect(r.x, r.y, r.w, r.h, background)
        cw, step = self.text.char_width(font), font * 1.3
        for i, line in enumerate(lines):
            cx = x
            for s, col in line:
                self.text.text(cx, y + i * step, s, col, font)
                cx += len(s) * cw
