"""Offscreen rendering through the window's own code path (EGL, Mesa llvmpipe in CI).

Seams for tests and tools:

* :func:`headless_app` - a cached headless :class:`~app.window.SlabLabWindow` (one GL context
  per process) for synthesised-event tests.
* :func:`render_scene_image` - scene + size + camera + options -> (H, W, 3) uint8 image.
* :func:`save_png` - write an image atomically (nothing half-written on failure).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from moderngl_window.context.headless import Window as _MglwHeadlessWindow

from app.keys import HeadlessKeys
from app.scene import CameraSpec, Scene


class HeadlessWindow(_MglwHeadlessWindow):
    """moderngl-window's headless window with distinct key constants (see app.keys)."""

    keys = HeadlessKeys


_APP = None


def headless_app(scene: Scene | None = None, size: tuple[int, int] = (320, 180)):
    """The process's headless demo window, resized to ``size`` and showing ``scene``."""
    global _APP
    from app.window import create_window

    if _APP is None:
        _APP = create_window(scene, headless=True, size=size)
    else:
        if tuple(_APP.wnd.size) != tuple(size):
            _APP.wnd.size = size  # recreates the headless framebuffer at the new size ...
            # ... but moderngl-window 3.1's headless window leaves buffer_size (what viewports
            # and reads use) at the old size; a real window's resize sets both.
            _APP.wnd._buffer_width, _APP.wnd._buffer_height = size
            _APP.on_resize(*size)
        if scene is not None:
            _APP.load_scene(scene)
    _APP.message = ""
    return _APP


def render_scene_image(scene: Scene, size: tuple[int, int] = (1280, 720), *,
                       camera: CameraSpec | None = None, explain: bool = False,
                       show_help: bool = False, highlight_triangles: bool = True,
                       selected: int | None = None, anim_time: float = 0.0) -> np.ndarray:
    """Render one frame of ``scene`` offscreen; returns (H, W, 3) uint8 RGB, top row first.

    ``camera`` overrides the scene's camera; ``explain`` without ``selected`` explains the first
    non-green box (as the X key does); ``anim_time`` freezes the animation at that time.
    """
    app = headless_app(scene, size)
    state = app.state
    if camera is not None:
        app.camera.reset(camera)
    state.show_help, state.highlight_triangles = show_help, highlight_triangles
    state.selected = selected
    state.explain = False
    if explain and selected is None and len(state.boxes):
        state.selected = int(np.argmax(state.classes > 0)) if state.classes.any() else 0
    state.explain = explain
    if anim_time:
        state.playing = True
        state.step(anim_time)
        state.playing = False
    app.render_frame()
    return app.read_image()


def check_writable(path: str | Path) -> Path:
    """Fail early (OSError with a reason) if a PNG cannot be written at ``path``."""
    path = Path(path)
    if path.exists() and path.is_dir():
        raise IsADirectoryError(21, "is a directory", str(path))
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise FileNotFoundError(2, "directory does not exist", str(parent))
    if not os.access(parent, os.W_OK):
        raise PermissionError(13, "directory is not writable", str(parent))
    return path


def save_png(image: np.ndarray, path: str | Path) -> Path:
    """Write ``image`` as PNG via a temporary file + rename, so a failure leaves nothing."""
    from PIL import Image

    path = check_writable(path)
    fd, tmp = tempfile.mkstemp(prefix=".slablab-", suffix=".png", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            Image.fromarray(image).save(f, format="PNG")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the PNG normal permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
