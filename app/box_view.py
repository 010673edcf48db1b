"""The boxes of one frame: every box as one instanced draw (translucent, faded or opaque as the
scene gets crowded, see the constants), then, in crowded scenes, the INTERSECT / INCLUDE boxes
again on top. Instance data is written only where it changed: the poses of moved boxes and the
classes of re-classified ones, and the hits' copy only for its moved rows until a class changes.
"""

from __future__ import annotations

import math
from typing import cast

import moderngl
import numpy as np

from app import colors
from app.camera import OrbitCamera
from app.renderers import uniform
from app.renderers.boxes import BoxRenderer
from app.state import DemoState

#: box faces are translucent so that boxes behind boxes show through ...
FACE_ALPHA = 0.72
#: ... up to this many boxes; from here on they are drawn opaque, and only the
#: three faces that can face the eye: translucent overdraw of 10^5 overlapping cubes is what
#: makes a software rasteriser (llvmpipe) slow, while hidden opaque fragments are rejected by
#: depth, and half the triangles halve the vertex and set-up work.
DENSE_BOXES = 20_000
#: from this many boxes on, the scene is crowded: NONE boxes recede (their faces and edges fade
#: as 1/sqrt(N), or, opaque in dense scenes, their colour darkens) and the INTERSECT / INCLUDE
#: boxes are drawn again over everything, so that no hit is buried in green
CROWDED_BOXES = 300
#: how far NONE boxes fade at most (opacity factor), and how dark they get in dense scenes
MIN_NONE_FADE, DENSE_NONE_SHADE = 0.12, 0.4
#: crowded (not dense) scenes draw their faded NONE boxes into a layer of 1/LAYER_SCALE the
#: window's width and height, composited over the frame: a software rasteriser spends most of
#: a crowded frame blending those boxes' fragments, and a quarter of them look the same faded
LAYER_SCALE = 2

#: a frame that moved more boxes than this rebuilds the hits' copy instead of writing each pose
MAX_POSE_WRITES = 64


class BoxView:
    """Owns the box renderers (all boxes; the hits on top) and the reduced-resolution layer."""

    def __init__(self, ctx: moderngl.Context, box_program: moderngl.Program,
                 layer_program: moderngl.Program):
        self.ctx = ctx
        self.boxes = BoxRenderer(ctx, box_program)
        self.hits = BoxRenderer(ctx, box_program)  # crowded scenes: the hits again, on top
        self.one = BoxRenderer(ctx, box_program)  # a dragged box over a cached frame
        #: each box's row in ``self.hits`` (-1: not a hit); None: rebuild it
        self._hit_rows: np.ndarray | None = None
        self.layer_program = layer_program
        self.layer_vao = ctx.vertex_array(layer_program, [])
        self._layer: moderngl.Framebuffer | None = None
        self._frame_fbo: moderngl.Framebuffer | None = None

    def _begin_layer(self, size) -> None:
        """Draw into the (cleared) reduced-resolution layer from here until _end_layer."""
        w, h = (max(1, -(-v // LAYER_SCALE)) for v in size)
        if self._layer is None or self._layer.size != (w, h):
            if self._layer is not None:
                self._layer.color_attachments[0].release()
                self._layer.release()
            texture = self.ctx.texture((w, h), 4)
            texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
            texture.repeat_x = texture.repeat_y = False
            self._layer = self.ctx.framebuffer(texture)
        self._frame_fbo = self.ctx.fbo
        self._layer.use()
        self._layer.clear(0.0, 0.0, 0.0, 0.0)
        self.ctx.disable(moderngl.DEPTH_TEST)
        # colour blends as usual onto transparent black, so the layer holds premultiplied
        # colour; alpha accumulates coverage
        # (colour and alpha factors apart: moderngl takes 4, its stub says 2)
        self.ctx.blend_func = (moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA,  # type: ignore[assignment]
                               moderngl.ONE, moderngl.ONE_MINUS_SRC_ALPHA)

    def _end_layer(self, size) -> None:
        """Composite the layer over the frame and go back to drawing into it."""
        assert self._frame_fbo is not None and self._layer is not None, "no _begin_layer"
        ctx = self.ctx
        self._frame_fbo.use()
        ctx.viewport = (0, 0, *size)
        ctx.blend_func = moderngl.ONE, moderngl.ONE_MINUS_SRC_ALPHA  # premultiplied over
        cast(moderngl.Texture, self._layer.color_attachments[0]).use(location=0)
        uniform(self.layer_program, "layer").value = 0
        self.layer_vao.render(moderngl.TRIANGLES, vertices=3)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        ctx.enable(moderngl.DEPTH_TEST)

    def sync(self, state: DemoState) -> tuple[np.ndarray, np.ndarray]:
        """Write what changed since the last frame into the instance buffers; returns the
        indices of the boxes that moved and of those re-classified."""
        moved, recoloured = state.take_moved(), state.take_recoloured()
        self.boxes.update(state.boxes, state.drawn_classes(), moved, recoloured)
        n = len(state.boxes)
        if not state.show_none or n >= CROWDED_BOXES:
            self._update_hits(state, moved, recoloured)
        else:
            self._hit_rows = None  # the changes of this frame are not in self.hits
        return moved, recoloured

    def _styles(self, n: int):
        """``(class_rgb, face_alpha, edge_alpha, edge_white)`` of the pass over every box."""
        rgb = np.array(colors.DRAWN_RGB, dtype=np.float64)
        fade = max(MIN_NONE_FADE, min(1.0, math.sqrt(CROWDED_BOXES / max(n, 1))))
        if n >= DENSE_BOXES:  # opaque: recede by colour
            none_rgb = rgb.copy()
            none_rgb[0] *= DENSE_NONE_SHADE
            return none_rgb, (1.0,) * 4, (1.0,) * 4, (0.55 * fade, 0.55, 0.55, 0.55)
        # faded edges keep the class's colour (lightened, they would read as grey)
        return (rgb, (FACE_ALPHA * fade, FACE_ALPHA, FACE_ALPHA, FACE_ALPHA),
                (fade, 1.0, 1.0, 1.0), (0.55 * fade, 0.55, 0.55, 0.55))

    def draw(self, state: DemoState, camera: OrbitCamera, vp: np.ndarray,
             size: tuple[int, int], light_dir) -> None:
        """Every box (NONE ones receding as the scene gets crowded, or left out when the user
        hid them), then, in a crowded scene, the INTERSECT / INCLUDE boxes over everything
        (:meth:`sync` first)."""
        ctx, n = self.ctx, len(state.boxes)
        dense, crowded = n >= DENSE_BOXES, n >= CROWDED_BOXES
        if state.show_none:
            none_rgb, face, edge, white = self._styles(n)
            # crowded: the faces that look at the eye only (translucent and faded, the back
            # faces add little to the picture and half the cost), at reduced resolution
            layer = crowded and not dense
            if layer:
                self._begin_layer(size)
            self.boxes.draw(vp, light_dir, none_rgb, face, edge,
                            front_only_from=camera.eye() if crowded else None, edge_white=white)
            if layer:
                self._end_layer(size)
        if state.show_none and not crowded:
            return
        on_top = state.show_none  # over the NONE boxes; alone, drawn like any box
        if on_top:
            ctx.disable(moderngl.DEPTH_TEST)
        rgb = np.array(colors.DRAWN_RGB, dtype=np.float64)
        self.hits.draw(vp, light_dir, rgb, (FACE_ALPHA,) * 4, (1.0,) * 4)
        ctx.enable(moderngl.DEPTH_TEST)

    def hide(self, state: DemoState, index: int, hidden: bool) -> None:
        """Leave box ``index`` out of both passes (a zero pose draws nothing), or put it back."""
        rows = self._hit_rows
        for renderer, row in ((self.boxes, index),
                              (self.hits, -1 if rows is None else int(rows[index]))):
            if row < 0:
                continue
            if hidden:
                renderer.models.write(np.zeros(16, dtype="f4").tobytes(), offset=row * 64)
            else:
                renderer.write_poses(np.array([row]), state.boxes.subset(np.array([index])))

    def draw_one(self, state: DemoState, index: int, camera: OrbitCamera, vp: np.ndarray,
                 light_dir) -> None:
        """Box ``index`` alone, as both passes of a dense scene draw it, over everything."""
        one, n = self.one, len(state.boxes)
        one.replace(state.boxes.subset(np.array([index])), state.drawn_classes()[[index]])
        self.ctx.disable(moderngl.DEPTH_TEST)
        if state.show_none:
            none_rgb, face, edge, white = self._styles(n)
            one.draw(vp, light_dir, none_rgb, face, edge, front_only_from=camera.eye(),
                     edge_white=white)
        if state.classes[index] != 0:
            one.replace(state.boxes.subset(np.array([index])), state.classes[[index]])
            one.draw(vp, light_dir, np.array(colors.DRAWN_RGB, dtype=np.float64),
                     (FACE_ALPHA,) * 4, (1.0,) * 4)
        self.ctx.enable(moderngl.DEPTH_TEST)

    def _update_hits(self, state: DemoState, moved: np.ndarray, recoloured: np.ndarray) -> None:
        """Keep ``self.hits`` the INTERSECT / INCLUDE boxes: rebuilt when a class changed (the
        set and its order depend on the classes only), else only the moved hits' poses
        written (a dragged box: one row, not the whole set)."""
        n, rows = len(state.boxes), self._hit_rows
        if rows is None or len(rows) != n or len(recoloured) or len(moved) > MAX_POSE_WRITES:
            hit = np.flatnonzero(state.classes != 0)
            # INCLUDE boxes (around the segment, large) first, INTERSECT ones over them
            hit = hit[np.argsort(-state.classes[hit], kind="stable")]
            self.hits.replace(state.boxes.subset(hit), state.classes[hit])
            self._hit_rows = rows = np.full(n, -1)
            rows[hit] = np.arange(len(hit))
            return
        moved = moved[rows[moved] >= 0]
        if len(moved):
            self.hits.write_poses(rows[moved], state.boxes.subset(moved))
