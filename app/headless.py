"""Offscreen rendering through the window's own code path (EGL, Mesa llvmpipe in CI).

Seams for tests and tools:

* :func:`headless_app` - a cached headless :class:`~app.window.SlabLabWindow` (one GL context
  per process) for synthesised-event tests.
* :func:`render_scene_image` - scene + size + camera + options -> (H, W, 3) uint8 image.

Image files are written by :mod:`app.images`; the headless window class is
:class:`app.headless_window.HeadlessWindow`.
"""

from __future__ import annotations

import numpy as np

from app.scene import CameraSpec, Scene
from app.window import SlabLabWindow, create_window

_APP: SlabLabWindow | None = None


def headless_app(scene: Scene | None = None, size: tuple[int, int] = (320, 180)):
    """The process's headless demo window, resized to ``size`` and showing ``scene``."""
    global _APP
    if _APP is None:
        _APP = create_window(scene, headless=True, size=size)
    else:
        if tuple(_APP.wnd.size) != tuple(size):
            _APP.wnd.size = size  # a new framebuffer (HeadlessWindow: buffer_size follows)
            _APP.on_resize(*size)
        if scene is not None:
            _APP.show_scene(scene)
    _APP.controller.message = ""
    return _APP


def render_scene_image(scene: Scene, size: tuple[int, int] = (1280, 720), *,
                       camera: CameraSpec | None = None, explain: bool = False,
                       show_help: bool = False, highlight_triangles: bool = True,
                       selected: int | None = None, anim_time: float = 0.0,
                       step: int | None = None, triangle: int | None = None) -> np.ndarray:
    """Render one frame of ``scene`` offscreen; returns (H, W, 3) uint8 RGB, top row first.

    ``camera`` overrides the scene's camera; ``explain`` without ``selected`` explains the first
    non-green box (as the X key does); ``anim_time`` freezes the animation at that time;
    ``step`` / ``triangle``: explain mode's lesson step (None: live) and triangle (None: the
    segment), as ``--step`` / ``--triangle`` set them.
    """
    app = headless_app(scene, size)
    state = app.state
    if camera is not None:
        app.camera.reset(camera)
    state.show_help, state.highlight_triangles = show_help, highlight_triangles
    state.selected = selected
    state.set_explain(explain)
    state.lesson_step, state.lesson_triangle = step, triangle
    if anim_time:
        state.playing = True
        state.step(anim_time)
        state.playing = False
    app.render_frame()
    return app.read_image()
