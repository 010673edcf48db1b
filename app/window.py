"""The demo's one WindowConfig: wires the scene state, the orbit camera, the input controller
(:mod:`app.controller`, where every mouse and key event goes), the renderers and the HUD, and
draws frames.

Create it with :func:`create_window` (a real pyglet window, or a headless EGL one for tests and
screenshots); both run the same ``render_frame``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import moderngl
import moderngl_window as mglw
import numpy as np
from moderngl_window.context.base import BaseWindow, KeyModifiers

import geometry
from app.bindings import KEY_ACTIONS
from app.camera import OrbitCamera
from app.controller import Controller
from app.headless_window import HeadlessWindow
from app.images import save_image, save_new_image
from app.resources import SHADERS_DIR
from app.scene import Scene, resolve_scene
from app.state import DemoState
from app.view import SceneView

#: GL_RENDERER substrings of software rasterisers: there multisampling multiplies the cost of
#: every fragment (4 samples: ~2.6x the frame time of 6000 boxes on llvmpipe), so it is off by
#: default
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "lavapipe",
                      "swiftshader")
#: multisampling where the renderer is a GPU and --samples is not given
GPU_SAMPLES = 4
#: key names of the Shift keys (held: fine steps, and Shift+middle-drag pans)
SHIFT_KEYS = ("LEFT_SHIFT", "RIGHT_SHIFT")


class SamplesError(ValueError):
    """``--samples`` asks for more than the OpenGL implementation offers; one-line message."""


class ContextError(RuntimeError):
    """The window backend could not make a window or an OpenGL context (no display, no EGL, no
    driver); the message is the backend's own, the backend's exception its ``__cause__``."""


def choose_samples(requested: int | None, renderer: str, max_samples: int) -> int:
    """Multisampling samples per pixel: ``requested``, or by renderer when None (0 on a
    software rasteriser, else ``GPU_SAMPLES`` capped at ``max_samples``). Raises
    :class:`SamplesError` for a count outside ``0..max_samples``."""
    if requested is None:
        software = any(name in renderer.lower() for name in SOFTWARE_RENDERERS)
        return 0 if software else min(GPU_SAMPLES, max_samples)
    if not 0 <= requested <= max_samples:
        offered = "only 0 (off)" if max_samples < 2 else f"0 (off) to {max_samples}"
        raise SamplesError(f"--samples {requested}: this OpenGL ({renderer}) offers {offered} "
                           f"samples per pixel")
    return requested


class SlabLabWindow(mglw.WindowConfig):
    title = "slablab - segment vs box (H for help)"
    gl_version = (3, 3)
    window_size = (1280, 720)
    aspect_ratio = None  # type: ignore[assignment]  # follow the window (None is documented)
    resizable = True
    vsync = True
    samples = 0  # the window's own framebuffer; multisampling happens offscreen (self.samples)
    resource_dir = SHADERS_DIR  # type: ignore[assignment]  # typed None in moderngl-window
    clear_color = None  # type: ignore[assignment]  # SceneView clears (None is documented)

    def __init__(self, scene: Scene | None = None, seed: int = 0,
                 screenshot_dir: str | Path = "screenshots", samples: int | None = None,
                 **kwargs):
        super().__init__(**kwargs)
        #: multisampling of the frame (0: off): frames are drawn into a multisampled
        #: framebuffer and resolved into the window's, so the count is chosen after the
        #: context exists and knows its renderer
        self.samples = choose_samples(samples, self.ctx.info["GL_RENDERER"], self.ctx.max_samples)
        self._msaa: moderngl.Framebuffer | None = None
        self.state = DemoState(scene if scene is not None else resolve_scene("blog"))
        w, h = self.wnd.size
        self.camera = OrbitCamera(self.state.scene.camera, w / h if w and h else 16 / 9)
        #: all input goes there; the event methods below only forward (and ask for a frame)
        self.controller = Controller(self.state, self.camera, lambda: self.wnd.size, seed=seed,
                                     save_screenshot=self.save_screenshot, close=self.wnd.close,
                                     read_frame=lambda: self.read_image(messages=False),
                                     record_dir=screenshot_dir)
        self.view = SceneView(self.ctx, self.load_program)
        names = (*KEY_ACTIONS, *SHIFT_KEYS)
        self.key_names = {getattr(self.wnd.keys, n): n for n in names}
        self.frame_ms = 0.0  # smoothed cost of a frame (app.loop; 0: not measured)
        self.frame_ms_last = 0.0  # the last frame's cost
        self._dirty = True  # the picture may have changed since the last frame (app.loop)

    # ------------------------------------------------------------- scene/frame
    def show_scene(self, scene: Scene) -> None:
        """Show ``scene``: its boxes, segment, rays and camera. (Not ``load_scene``, which is
        moderngl-window's loader of 3D model files.)"""
        self.controller.show_scene(scene)
        self._dirty = True

    @property
    def screenshot_dir(self) -> Path:
        """Where F12 / P screenshots and F9 recordings go (the controller's ``record_dir``)."""
        return self.controller.record_dir

    @screenshot_dir.setter
    def screenshot_dir(self, path: str | Path) -> None:
        self.controller.record_dir = Path(path)

    @property
    def size(self) -> tuple[int, int]:
        """Window size in event coordinates (what picking and ``camera.project`` use)."""
        width, height = self.wnd.size
        return width, height

    def render_frame(self, target=None, *, messages: bool = True) -> None:
        """Draw one frame into the window's framebuffer, or into ``target`` (window and
        headless alike); ``messages=False`` leaves the HUD's transient message out."""
        message = self.controller.current_message() if messages else ""
        # a box being dragged (see app.drag_cache)
        dragged = self.state.selected if self.controller.dragging in ("grab", "box") else None
        width, height = self.wnd.buffer_size
        size = (width, height)
        if not self.samples or min(size) <= 0:
            (target or self.wnd).use()
            self.view.draw(self.state, self.camera, size, self.frame_ms, message, dragged)
            return
        if self._msaa is None or self._msaa.size != size:
            if self._msaa is not None:
                for a in (*self._msaa.color_attachments, self._msaa.depth_attachment):
                    a.release()
                self._msaa.release()
            self._msaa = self.ctx.framebuffer(
                self.ctx.renderbuffer(size, 4, samples=self.samples),
                self.ctx.depth_renderbuffer(size, samples=self.samples))
        self._msaa.use()
        self.view.draw(self.state, self.camera, size, self.frame_ms, message, dragged)
        self.ctx.copy_framebuffer(target or self.wnd.fbo, self._msaa)
        (target or self.wnd).use()

    def read_image(self, *, messages: bool = True) -> np.ndarray:
        """(H, W, 3) uint8 RGB of the current frame, top row first (``messages=False``:
        without the HUD's transient message, as recordings show it).

        Headless, the window's framebuffer is our own and is read directly. A real window's is
        the default framebuffer, which moderngl reads with glReadBuffer(GL_COLOR_ATTACHMENT0):
        invalid there, and pyglet raises at its next checked GL call. So the frame is drawn
        again, by the same code, into an offscreen framebuffer of the same size, and read there
        (also when the message is to be left out).
        """
        w, h = self.wnd.buffer_size
        fbo, offscreen = self.wnd.fbo, None
        if not fbo.color_attachments or not messages:
            offscreen = self.ctx.simple_framebuffer((w, h))
            self.render_frame(offscreen, messages=messages)
            fbo = offscreen
        try:
            data = fbo.read(viewport=(0, 0, w, h), components=3, alignment=1)
        finally:
            if offscreen is not None:
                offscreen.release()
                self.wnd.use()
        return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1].copy()

    def wants_frame(self) -> bool:
        """Whether the loop must draw: input changed something since the last frame, the
        animation plays, or a HUD message has just expired."""
        return self._dirty or self.state.playing or self.controller.message_expired()

    def on_render(self, time: float, frame_time: float) -> None:
        self.state.step(frame_time)
        self._dirty = False
        self.render_frame()
        if self.controller.record_due():
            self.controller.record_frame()

    def on_close(self) -> None:
        """The window closes (Esc, or its close button): a running recording is saved."""
        self.controller.stop_recording(last_frame=False)

    def on_resize(self, width: int, height: int) -> None:
        self._dirty = True
        self.camera.set_aspect(width, height)  # 0x0 (minimised) is ignored there

    def save_screenshot(self, path: str | Path | None = None) -> Path:
        """Write the current frame to ``path`` (its extension names the format), or, with no
        path (F12 / P), to a new ``slablab-<date>-<time>[-n].png`` in ``screenshot_dir`` that
        overwrites nothing. Prints and returns the absolute path."""
        self.render_frame()
        image = self.read_image()
        if path is None:
            path = save_new_image(image, self.screenshot_dir)
        else:
            path = save_image(image, path)
        print(f"screenshot saved: {path}", flush=True)
        self.controller.say(f"saved {path}")
        return path

    # ------------------------------------------- events: forwarded to the controller
    def on_mouse_position_event(self, x: int, y: int, dx: int, dy: int) -> None:
        hovered = self.state.hovered
        self.controller.mouse_move(x, y)
        self._dirty |= self.state.hovered != hovered

    def on_mouse_press_event(self, x: int, y: int, button: int) -> None:
        self._dirty = True
        self.controller.mouse_press(x, y, button, bool(getattr(self.wnd.modifiers, "shift", False)))

    def on_mouse_drag_event(self, x: int, y: int, dx: int, dy: int) -> None:
        self._dirty = True
        self.controller.mouse_drag(x, y, dx, dy)

    def on_mouse_release_event(self, x: int, y: int, button: int) -> None:
        self._dirty = True
        self.controller.mouse_release(x, y)

    def on_mouse_scroll_event(self, x_offset: float, y_offset: float) -> None:
        self._dirty = True
        shift = bool(getattr(self.wnd.modifiers, "shift", False)) or self.controller.shift
        # some platforms turn Shift+wheel into a horizontal scroll
        self.controller.scroll(y_offset or (x_offset if shift else 0.0), shift)

    def on_key_event(self, key, action, modifiers: KeyModifiers) -> None:
        """Shift keys are tracked; a press of a key of :data:`app.bindings.KEY_ACTIONS` runs
        its action."""
        self._dirty = True
        name = self.key_names.get(key)
        if name in SHIFT_KEYS:
            self.controller.shift = action == self.wnd.keys.ACTION_PRESS
        elif name is not None and action == self.wnd.keys.ACTION_PRESS:
            self.controller.key(name, bool(getattr(modifiers, "shift", False)))


def create_window(scene: Scene | None = None, *, headless: bool = False,
                  size: tuple[int, int] = (1280, 720), samples: int | None = None,
                  seed: int = 0, visible: bool = True) -> SlabLabWindow:
    """Open the demo: a pyglet window, or (``headless=True``) an offscreen EGL context.
    ``samples``: multisampling, None to choose by renderer (see :func:`choose_samples`).
    Returns the :class:`SlabLabWindow`; :func:`app.loop.run` runs its loop. Raises
    :class:`ContextError` when the backend cannot make a window or context (no display, no EGL),
    :class:`SamplesError` for a sample count the OpenGL implementation does not offer.

    The demo keeps ``geometry`` to one thread (:func:`geometry.set_num_threads`): Mesa's
    llvmpipe renders on the other cores, and a frame's queries are small."""
    geometry.set_num_threads(1)
    window_cls: type[BaseWindow]
    kwargs: dict[str, Any] = {}
    try:
        if headless:
            window_cls = HeadlessWindow
            kwargs["backend"] = "egl"
        else:
            window_cls = mglw.get_local_window_cls("pyglet")  # pyglet connects on import
        wnd = window_cls(title=SlabLabWindow.title, size=size, resizable=not headless,
                         visible=visible, gl_version=SlabLabWindow.gl_version, aspect_ratio=None,
                         vsync=SlabLabWindow.vsync and not headless, samples=0, cursor=True,
                         **kwargs)
        mglw.activate_context(window=wnd)
    except Exception as exc:  # the backend's own errors: no display, no EGL, no driver
        raise ContextError(f"{type(exc).__name__}: {exc}") from exc
    try:
        app = SlabLabWindow(scene=scene, seed=seed, samples=samples, ctx=wnd.ctx, wnd=wnd,
                            timer=None)
    except SamplesError:
        wnd.destroy()
        raise
    wnd.config = app  # moderngl-window's own event wiring (what run_window_config does)
    wnd.swap_buffers()
    wnd.set_default_viewport()
    app.on_resize(*wnd.size)
    return app
