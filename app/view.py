"""One frame of the demo: grid, gizmo, segment, rays, boxes, triangles, outlines, explain overlay,
handles, HUD - in that order. The window and the headless renderer both call
:meth:`SceneView.draw`, so a screenshot is exactly what the window shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import moderngl
import numpy as np
from pyrr import matrix44

from app import colors
from app.box_view import BoxView
from app.camera import OrbitCamera
from app.drag_cache import DragCache
from app.frustum import FRUSTUM_EDGES, frustum_corners, view_projection
from app.hud import fmt_number, help_lines, hud_lines
from app.labels import Pin, Rect, pin_to_viewport, place_labels
from app.lesson import FONT as LESSON_FONT
from app.lesson import Lesson, lesson_for
from app.renderers.boxes import box_edges
from app.renderers.primitives import LineBatch, PointBatch, TriangleBatch
from app.renderers.text import TextRenderer
from app.spheres import sphere_rings
from app.state import DemoState
from geometry import IntersectionType, SlabKind

LIGHT_DIR = (0.4, 0.9, 0.6)
#: boxes the segment touches are outlined on top in their class colour, at most this many per
#: class (a segment across the whole crowd would otherwise outline thousands)
MAX_HIT_OUTLINES = 2_000
RAY_MISS_LENGTH = 12.0
HUD_X, HUD_Y, HUD_FONT = 12.0, 10.0, 15.0  # the HUD's top-left text position and size (px)
#: no text is drawn smaller than this (px) in a window of MIN_FONT_WINDOW or more: the HUD,
#: panel and help shrink to fit small windows down to here; smaller windows scale it down
MIN_FONT, MIN_FONT_WINDOW = 11.0, (640, 360)
LABEL_FONT, LABEL_PAD = 14.0, 3.0  # in-scene labels: text size, plate padding (px)
LABEL_TEXT = (0.95, 0.95, 0.95, 1.0)
HELP_FONT, HELP_PAD, HELP_STEP = 16.0, 10.0, 1.25  # help overlay: size, padding, line height
MIN_HELP_STEP = 1.05  # ... where the help fits no other way, its lines close up to this
#: the screen-space batches' matrix: their positions are already normalised device coordinates
SCREEN = matrix44.create_identity()


def _ndc(p, size) -> tuple[float, float, float]:
    """Pixel ``(x, y)`` (y down) -> normalised device coordinates for the screen batches."""
    return 2 * p[0] / size[0] - 1, 1 - 2 * p[1] / size[1], 0.0


@dataclass
class TextBlock:
    """A panel of text lines (runs of ``(text, rgba)``) on a backing plate ``rect``."""

    lines: list
    x: float
    y: float
    font: float
    step: float  # line height / font size
    rect: Rect
    background: tuple


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
    a = np.concatenate(
        [np.stack([k, 0 * k, -half + 0 * k], -1), np.stack([-half + 0 * k, 0 * k, k], -1)]
    )
    b = np.concatenate(
        [np.stack([k, 0 * k, half + 0 * k], -1), np.stack([half + 0 * k, 0 * k, k], -1)]
    )
    return a, b


class SceneView:
    """Owns the GPU parts; ``draw(state, camera, size, ...)`` renders one frame into the bound
    framebuffer."""

    def __init__(self, ctx: moderngl.Context, load_program: Callable[[str], moderngl.Program]):
        self.ctx = ctx
        box_program = load_program("boxes.glsl")
        self.box_view = BoxView(ctx, box_program, load_program("layer.glsl"))
        self.drag_cache = DragCache(ctx)
        self.boxes = self.box_view.boxes  # every box (tests and benchmarks count its uploads)
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
        self.blocks: dict[str, TextBlock] = {}
        self.panels: dict[str, Rect] = {}
        self.triangles = TriangleBatch(ctx, load_program("mesh.glsl"))
        self.lesson_faces = TriangleBatch(ctx, self.triangles.program)  # explain: slab planes
        self.lesson_lines = LineBatch(ctx, lines_prog)  # explain: plane outlines, projections
        self.lesson: Lesson | None = None  # the last frame's lesson (tests read it)
        self.text = TextRenderer(ctx, load_program("text.glsl"))
        self.grid = _grid_lines()

    # ------------------------------------------------------------------ frame
    def draw(self, state: DemoState, camera: OrbitCamera, size: tuple[int, int],
             frame_ms: float = 0.0, message: str = "", dragged: int | None = None) -> None:
        """One frame; ``dragged``: the box a drag is moving (dense scenes then draw the rest
        of the boxes once, see :mod:`app.drag_cache`)."""
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
        moved, recoloured = self.box_view.sync(state)
        frame, cache = ctx.fbo, self.drag_cache
        plan = cache.plan(state, dragged, vp, size, moved, recoloured)
        if plan == "hit":
            cache.copy_to(frame)
        else:
            if plan == "build":
                assert cache.fbo is not None and dragged is not None
                cache.fbo.use()
                ctx.clear(*colors.BACKGROUND, 1.0, depth=1.0)
                self.box_view.hide(state, dragged, True)
            self._draw_below(state, camera, vp, size)
            if plan == "build" and dragged is not None:
                self.box_view.hide(state, dragged, False)
                self._add_hit_outlines(state, dragged)  # theirs are drawn once too
                self._draw_overlay(vp, size)
                cache.copy_to(frame)
        if plan is not None and dragged is not None:
            self.box_view.draw_one(state, dragged, camera, vp, LIGHT_DIR)

        if len(state.scene.triangles):
            self.triangles.add(state.scene.triangles, colors.TRIANGLE)
            self.triangles.draw(vp, size, light_dir=LIGHT_DIR)
        self.lesson = lesson_for(state, size, self.text.char_width(LESSON_FONT))
        if self.lesson is not None:
            self.lesson_faces.clear()
            for quad, rgba in self.lesson.faces:
                self.lesson_faces.add(quad[[0, 1, 2, 0, 2, 3]], rgba, alpha=rgba[3])
            self.lesson_faces.draw(vp, size, light_dir=LIGHT_DIR)

        # outlines: boxes the segment touches, triangle overlaps, hover, selection, spheres
        outline = self.overlay
        if plan is None:
            self._add_hit_outlines(state)
        elif dragged is not None and state.classes[dragged]:  # the others' are in the cache
            e = box_edges(state.boxes, dragged)
            outline.add(e[:, 0], e[:, 1], tuple(colors.CLASS_RGB[state.classes[dragged]]))
        if state.highlight_triangles and state.overlaps.any():
            e = box_edges(state.boxes, np.flatnonzero(state.overlaps)).reshape(-1, 2, 3)
            outline.add(e[:, 0], e[:, 1], colors.TRIANGLE_OVERLAP)
        for idx, col in ((state.hovered, colors.HOVER), (state.selected, colors.SELECTED)):
            if idx is not None and idx < len(state.boxes):
                e = box_edges(state.boxes, idx)
                outline.add(e[:, 0], e[:, 1], col)
        for center, radius in zip(state.sphere_centers, state.sphere_radii, strict=True):
            outline.add(*sphere_rings(center, radius), colors.SPHERE)
        if state.query is not None:
            e = box_edges(state.query, 0)
            outline.add(e[:, 0], e[:, 1], colors.QUERY_BOX)
        self._draw_overlay(vp, size)

        # panels first (their rectangles are where in-scene labels must not go), then the
        # explain overlay, markers and handles, always on top
        blocks = self.blocks = self._layout_panels(state, size, frame_ms, message)
        self.panels = {name: block.rect for name, block in blocks.items()}
        lesson = self.lesson
        if lesson is not None:  # below the HUD, inside the window (shrunk where it must)
            top = blocks["hud"].rect.bottom + 4 if "hud" in blocks else 4
            lesson.fit(size[0] - 2 * HUD_X, lesson.panel.bottom - top, lesson.panel.bottom)
        if lesson is not None and "help" in blocks and lesson.panel.overlaps(blocks["help"].rect):
            lesson = None  # the help covers the scene; the lesson waits below it
        if lesson is not None:
            self.panels["explain"] = lesson.panel
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
        if state.shows_segment():  # the segment over everything, with its handles
            self.overlay.add(state.start, state.end, colors.SEGMENT, alpha=0.55)
            self.points.add(state.start, colors.HANDLE_START, size=16.0)
            self.points.add(state.end, colors.HANDLE_END, size=16.0)
        self.overlay.draw(vp, size, width=5.0)
        self.points.draw(vp, size)
        self.screen_lines.draw(SCREEN, size, width=1.5)
        self.screen_points.draw(SCREEN, size)

        # HUD, explain panel, labels, help
        if "hud" in blocks:
            self._draw_block(blocks["hud"])
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
        if "help" in blocks:
            self._draw_block(blocks["help"])
        self.text.draw(size)
        ctx.enable(moderngl.DEPTH_TEST)

    # ---------------------------------------------------------------- pieces
    def _draw_below(self, state: DemoState, camera: OrbitCamera, vp: np.ndarray,
                    size: tuple[int, int]) -> None:
        """What a dragged box is drawn over: grid, gizmo, segment or frustum, rays, boxes."""
        # opaque-ish lines that write depth: grid, gizmo, segment, rays
        self.lines.add(*self.grid, (0.5, 0.52, 0.56), alpha=0.35)
        self.thick.add(np.zeros((3, 3)), np.eye(3) * 1.5, (1, 0, 0))
        self.thick.rows[-1][:, 3:6] = np.repeat(np.eye(3), 2, axis=0)  # x red, y green, z blue
        if state.frustum_camera is not None:  # its frustum's edges instead of the segment
            edges = frustum_corners(view_projection(state.frustum_camera))[FRUSTUM_EDGES]
            self.thick.add(edges[:, 0], edges[:, 1], colors.FRUSTUM)
        elif state.shows_segment():  # (a sphere scene's spheres are outlined on top)
            self.thick.add(state.start, state.end, colors.SEGMENT)
        self._add_rays(state)
        self.lines.draw(vp, size, width=1.0)
        self.thick.draw(vp, size, width=4.0)

        # translucent: boxes (they write depth like everything else, so a face drawn later
        # behind a nearer one is hidden; dense scenes draw their boxes opaque, see
        # app.box_view.DENSE_BOXES; crowded ones draw the hits again on top)
        self.box_view.draw(state, camera, vp, size, LIGHT_DIR)

    def _add_hit_outlines(self, state: DemoState, leave_out: int | None = None) -> None:
        """The INTERSECT / INCLUDE boxes' outlines in their class colours (at most
        MAX_HIT_OUTLINES each), but box ``leave_out``'s."""
        for cls in (IntersectionType.INTERSECT, IntersectionType.INCLUDE):
            touched = np.flatnonzero(state.classes == cls)[:MAX_HIT_OUTLINES]
            touched = touched[touched != leave_out]
            if len(touched):
                e = box_edges(state.boxes, touched).reshape(-1, 2, 3)
                self.overlay.add(e[:, 0], e[:, 1], tuple(colors.CLASS_RGB[cls]))

    def _draw_overlay(self, vp: np.ndarray, size: tuple[int, int]) -> None:
        """The outlines added so far, over everything (depth test off from here on)."""
        self.ctx.disable(moderngl.DEPTH_TEST)
        self.overlay.draw(vp, size, width=3.0)
        self.overlay.clear()

    def _add_rays(self, state: DemoState) -> None:
        origins, dirs = state.scene.ray_origins, state.scene.ray_directions
        for r, (o, d) in enumerate(zip(origins, dirs, strict=True)):
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
        assert ex is not None, "explain labels belong to the slab lesson"
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
        for (t, members), c in zip(groups.items(), clip, strict=True):
            pin = pin_to_viewport(c, size)
            col = colors.SLAB_AXES[members[0][0]]
            runs = []
            for k, (axis, side) in enumerate(members):
                runs += [(", ", LABEL_TEXT)] if k else []
                runs.append((f"{names[axis]} {'in' if side == 0 else 'out'}",
                             (*colors.SLAB_AXES[axis], 1.0)))
            runs.append((f" {fmt_number(t)}", LABEL_TEXT))
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
        for label, rect in zip(labels, rects, strict=True):
            label.rect = rect
            if rect is not None:
                lx, ly = rect.nearest_point(label.pin.x, label.pin.y)
                if np.hypot(lx - label.pin.x, ly - label.pin.y) > 7:
                    self._screen_line((label.pin.x, label.pin.y), (lx, ly),
                                      (*label.color[:3], 0.85), size)
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
        assert r is not None, "only placed labels are drawn"
        self.text.rect(r.x, r.y, r.w, r.h, colors.PLATE)
        self.text.rect(r.x, r.y, 2.0, r.h, label.color)  # a bar in the marker's colour
        x = r.x + LABEL_PAD
        cw = self.text.char_width(LABEL_FONT)
        for s, col in label.runs:
            self.text.text(x, r.y + LABEL_PAD, s, col, LABEL_FONT)
            x += len(s) * cw

    def _fit(self, lines, width: float, height: float, preferred: float, step: float = 1.3
             ) -> float:
        """The largest font size up to ``preferred`` at which ``lines`` fit into ``width`` x
        ``height`` pixels, but never below the window's minimum (legibility wins)."""
        cols = max((sum(len(t) for t, _ in ln) for ln in lines), default=1)
        fit = min(width / (max(cols, 1) * self.text.aspect), height / (max(len(lines), 1) * step))
        return max(self._min_font, min(preferred, fit))

    def _block(self, lines, x: float, y: float, font: float, pad: float = 6.0,
               step: float = 1.3, background=colors.PLATE) -> TextBlock:
        cols = max((sum(len(t) for t, _ in ln) for ln in lines), default=0)
        rect = Rect(x - pad, y - pad, cols * self.text.char_width(font) + 2 * pad,
                    (len(lines) - 1) * font * step + font + 2 * pad)
        return TextBlock(lines, x, y, font, step, rect, background)

    def _layout_panels(self, state: DemoState, size, frame_ms: float, message: str
                       ) -> dict[str, TextBlock]:
        """The HUD (top-left) and the help overlay, each text as large as fits up to its
        preferred size and never under ``MIN_FONT``. The help goes below the HUD; where it
        cannot fit there at ``MIN_FONT``, the HUD gives way to it (they never overlap) and, if
        that is not room enough, its lines close up (down to ``MIN_HELP_STEP``); so does
        explain mode's lesson panel (bottom-left, laid out by :mod:`app.lesson`)."""
        width, height = size
        self._min_font = MIN_FONT * min(1.0, width / MIN_FONT_WINDOW[0],
                                        height / MIN_FONT_WINDOW[1])
        blocks = {}
        hud = hud_lines(state, frame_ms, message)
        font = self._fit(hud, width - 2 * HUD_X, 0.4 * height, HUD_FONT)
        blocks["hud"] = self._block(hud, HUD_X, HUD_Y, font)
        if state.show_help:
            lines, step, pad = help_lines(), HELP_STEP, HELP_PAD
            top = blocks["hud"].rect.bottom + 6
            font = self._fit(lines, width - 2 * pad - 16, height - top - 2 * pad - 8, HELP_FONT,
                             step)
            rows = (len(lines) - 1) * font * step + font
            if top + 2 * pad + rows > height - 4:  # no room below the HUD: it gives way
                del blocks["hud"]
                top = 4
                font = self._fit(lines, width - 2 * pad - 16, height - 2 * pad - 8, HELP_FONT,
                                 step)
                room = height - top - 2 * pad - 4  # still too tall: the lines move closer
                if (len(lines) - 1) * font * step + font > room:
                    step = max(MIN_HELP_STEP, (room / font - 1) / (len(lines) - 1))
            cols = max(sum(len(t) for t, _ in ln) for ln in lines)
            x = max((width - cols * self.text.char_width(font)) / 2, pad + 4)
            blocks["help"] = self._block(lines, x, top + pad, font, pad, step,
                                         (0.02, 0.02, 0.03, 0.94))
        return blocks

    def _draw_block(self, block: TextBlock) -> None:
        r = block.rect
        self.text.rect(r.x, r.y, r.w, r.h, block.background)
        cw = self.text.char_width(block.font)
        for i, line in enumerate(block.lines):
            cx = block.x
            for s, col in line:
                self.text.text(cx, block.y + i * block.font * block.step, s, col, block.font)
                cx += len(s) * cw
