"""One frame of the demo: grid, gizmo, segment, rays, boxes, triangles, outlines, explain overlay,
handles, HUD - in that order. The window and the headless renderer both call
:meth:`SceneView.draw`, so a screenshot is exactly what the window shows.
"""

from __future__ import annotations

from typing import Callable

import moderngl
import numpy as np

from app import colors
from app.camera import OrbitCamera
from app.explain import explain
from app.hud import help_lines, hud_lines
from app.renderers.boxes import BoxRenderer, box_edges
from app.renderers.primitives import LineBatch, PointBatch, TriangleBatch
from app.renderers.text import TextRenderer
from app.state import DemoState
from geometry import IntersectionType

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
        self.triangles = TriangleBatch(ctx, load_program("mesh.glsl"))
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

        # explain overlay, markers and handles are always on top
        labels = []
        if state.explain and state.selected is not None and state.selected < len(state.boxes):
            labels = self._add_explain(state, camera, size)
        self.overlay.add(state.start, state.end, colors.SEGMENT, alpha=0.55)
        self.overlay.draw(vp, size, width=5.0)
        self.points.add(state.start, colors.HANDLE_START, size=16.0)
        self.points.add(state.end, colors.HANDLE_END, size=16.0)
        self.points.draw(vp, size)

        # HUD
        self._draw_text_block(hud_lines(state, frame_ms, message), 12, 10, size, 15.0)
        for x, y, s, col in labels:
            self.text.text(x, y, s, col, 13.0)
        if state.show_help:
            lines = help_lines()
            cols = max(sum(len(t) for t, _ in ln) for ln in lines)
            # fit the panel into the window: font size from the width and the height
            font = max(6.0, min(16.0, (width - 60) / (cols * self.text.aspect),
                                (height - 60) / (len(lines) * 1.3)))
            w, h = cols * self.text.char_width(font), len(lines) * font * 1.3
            self._draw_text_block(lines, max((width - w) / 2, 10), max((height - h) / 2, 10),
                                  size, font, pad=16, background=(0.02, 0.02, 0.03, 0.9))
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

    def _add_explain(self, state: DemoState, camera: OrbitCamera, size) -> list:
        ex = explain(state, state.selected)
        finite = [t for t in (*ex.t_near, *ex.t_far) if np.isfinite(t)]
        lo, hi = min([0.0, *finite]) - 0.15, max([1.0, *finite]) + 0.15
        self.overlay.add(ex.points(state.start, state.end, lo), ex.points(state.start, state.end, hi),
                         (1, 1, 1, 0.35))
        labels = []
        for axis in range(3):
            col = colors.SLAB_AXES[axis]
            ts = [t for t in (ex.t_near[axis], ex.t_far[axis]) if np.isfinite(t)]
            if ts:
                self.points.add(ex.points(state.start, state.end, ts), col, size=11.0)
            for j, t in enumerate(ts):
                px = camera.project(ex.points(state.start, state.end, t), size)
                if np.isfinite(px[:2]).all():
                    name = ("xyz" if ex.kind == "AABB" else "uvw")[axis]
                    labels.append((px[0] + 8, px[1] - 22 - 14 * axis,
                                   f"{name}{'in' if j == 0 else 'out'} {t:.2f}", (*col, 1.0)))
        if ex.t0 <= ex.t1 and np.isfinite([ex.t0, ex.t1]).all():
            cls_rgb = colors.CLASS_RGB[ex.cls]
            a, b = ex.points(state.start, state.end, [ex.t0, ex.t1])
            self.overlay.add(a, b, (*cls_rgb, 0.9))
            for t, p in ((ex.t0, a), (ex.t1, b)):
                px = camera.project(p, size)
                if np.isfinite(px[:2]).all():
                    labels.append((px[0] + 8, px[1] + 8, f"t{0 if p is a else 1}={t:.2f}",
                                   (1, 1, 1, 1)))
        # the explanation text, bottom-left
        lines = [[(s, (1, 1, 1, 1) if i == len(ex.lines()) - 1 else (0.8, 0.82, 0.86, 1))]
                 for i, s in enumerate(ex.lines())]
        self._draw_text_block(lines, 12, size[1] - 22 * len(lines) - 14, size, 15.0)
        return labels

    def _draw_text_block(self, lines, x, y, size, font: float, pad: float = 6.0,
                         background=(0.0, 0.0, 0.0, 0.6)) -> None:
        cw = self.text.char_width(font)
        step = font * 1.3
        width = max((sum(len(t) for t, _ in ln) for ln in lines), default=0) * cw
        self.text.rect(x - pad, y - pad, width + 2 * pad, len(lines) * step + 2 * pad - 4,
                       background)
        for i, line in enumerate(lines):
            cx = x
            for s, col in line:
                self.text.text(cx, y + i * step, s, col, font)
                cx += len(s) * cw
