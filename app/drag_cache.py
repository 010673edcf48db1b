"""The frame under a dragged box, kept while only that box changes.

Dragging a box in a dense scene changes one box a frame: its pose and maybe its class, nothing
else that is drawn before the outlines (grid, gizmo, frustum edges, the other boxes and the
hits drawn over them). So the first frame of a drag draws those into a texture without the
dragged box, and every frame after copies that texture into the frame and draws the dragged box
over it: one box, not 10^5, until the camera, the window size, another box or the scene
changes. Only scenes whose later drawing needs no depth from the boxes take part (no
triangles, no rays, explain off), as the copy carries colour only.
"""

from __future__ import annotations

import moderngl
import numpy as np

from app.state import DemoState

#: from this many boxes on a drag draws over the cached frame (app.box_view.DENSE_BOXES: the
#: opaque scenes, whose passes do not depend on the order the boxes are drawn in)
CACHED_DRAG_BOXES = 20_000


class DragCache:
    def __init__(self, ctx: moderngl.Context):
        self.ctx = ctx
        self.key: tuple | None = None
        self._color: moderngl.Texture | None = None
        self.fbo: moderngl.Framebuffer | None = None  # colour + depth: drawn into
        self._color_fbo: moderngl.Framebuffer | None = None  # colour only: copied from

    def plan(self, state: DemoState, dragged: int | None, vp: np.ndarray,
             size: tuple[int, int], moved: np.ndarray, recoloured: np.ndarray) -> str | None:
        """"hit": the cache holds this frame without box ``dragged``; "build": draw it into
        the cache now; None: draw the frame as usual (no drag, or a scene that does not take
        part). ``moved`` / ``recoloured``: the boxes that changed since the last frame."""
        scene = state.scene
        if (dragged is None or len(state.boxes) < CACHED_DRAG_BOXES or len(scene.triangles)
                or len(scene.ray_origins) or state.explain):
            self.key = None
            return None
        spec = state.frustum_camera
        key = (dragged, id(scene), len(state.boxes), size, vp.tobytes(), state.show_none,
               None if spec is None else (tuple(spec.target), spec.distance, spec.yaw,
                                          spec.pitch, spec.fov),
               state.start.tobytes(), state.end.tobytes())
        others = np.setdiff1d(np.concatenate([moved, recoloured]), [dragged])
        if key == self.key and not len(others):
            return "hit"
        self.key = key
        self._ensure(size)
        return "build"

    def _ensure(self, size: tuple[int, int]) -> None:
        if self._color is not None and self._color.size == size:
            return
        if self.fbo is not None and self._color_fbo is not None and self._color is not None:
            depth = self.fbo.depth_attachment
            for old in (self._color_fbo, self.fbo, self._color, depth):
                old.release()
        self._color = self.ctx.texture(size, 4)
        self.fbo = self.ctx.framebuffer(self._color, self.ctx.depth_renderbuffer(size))
        self._color_fbo = self.ctx.framebuffer(self._color)

    def copy_to(self, target: moderngl.Framebuffer) -> None:
        """The cached colour into ``target``, which is bound afterwards."""
        assert self._color_fbo is not None, "plan() returned no cache"
        self.ctx.copy_framebuffer(target, self._color_fbo)
        target.use()
