"""The demo's one WindowConfig: composes the scene state, the orbit camera, picking, the
renderers and the HUD, and turns mouse/keyboard events into calls on them.

Create it with :func:`create_window` (a real pyglet window, or a headless EGL one for tests and
screenshots); both run the same ``render_frame``.
"""

from __future__ import annotations

import math
import time
import weakref
from pathlib import Path
from typing import Any

import moderngl
import moderngl_window as mglw
import numpy as np
from moderngl_window.context.base import BaseWindow, KeyModifiers

import geometry
from app.bindings import DRAG_ACTIONS, KEY_ACTIONS, LEFT
from app.camera import OrbitCamera
from app.headless_window import HeadlessWindow
from app.images import save_image, save_new_image
from app.lesson import step_lesson
from app.presets import number_key_scene, random_scene
from app.resources import SHADERS_DIR
from app.scene import Boxes, Scene, resolve_scene
from app.state import DemoState
from app.view import SceneView

HANDLE_RADIUS_PX = 14.0  # how close (pixels) a click must be to grab a handle
BODY_RADIUS_PX = 8.0  # ... or the segment's body
CLICK_SLOP_PX = 4.0  # a press+release that moved less than this is a click
FINE = 0.1  # Shift: keyboard steps are this fraction of the normal step
#: zoom keeps the camera between these fractions of the scene's size from its target
MIN_ZOOM, MAX_ZOOM = 0.02, 6.0


def scene_extent(boxes: Boxes, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre and diagonal (world units, at least 1) of the bounding box of the boxes and the
    segment: the scene's size, which keyboard steps and zoom limits scale with."""
    pts = np.concatenate([boxes.box_min, boxes.box_max, [start, end]])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    return (lo + hi) / 2, max(float(np.linalg.norm(hi - lo)), 1.0)


def keyboard_step(extent: float) -> float:
    """One key press moves the segment or a box by about 1/32 of the scene's size, rounded to
    1, 2, 2.5 or 5 times a power of ten (0.25 for the blog scene)."""
    raw = extent / 32
    power = 10.0 ** math.floor(math.log10(raw))
    return min((m * power for m in (1, 2, 2.5, 5, 10)), key=lambda v: abs(math.log(v / raw)))


#: GL_RENDERER substrings of software rasterisers: there multisampling multiplies the cost of
#: every fragment (4 samples: ~2.6x the frame time of 6000 boxes on llvmpipe), so it is off by
#: default
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "lavapipe",
                      "swiftshader")
#: multisampling where the renderer is a GPU and --samples is not given
GPU_SAMPLES = 4


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


def _point_segment_distance_2d(p, a, b) -> float:
    ab = b - a
    t = 0.0 if not ab.any() else float(np.clip(np.dot(p - a, ab) / np.dot(ab, ab), 0, 1))
    return float(np.linalg.norm(p - (a + t * ab)))


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
        self.seed = seed
        self.screenshot_dir = Path(screenshot_dir)
        self.state = DemoState(scene if scene is not None else resolve_scene("blog"))
        w, h = self.wnd.size
        self.camera = OrbitCamera(self.state.scene.camera, w / h if w and h else 16 / 9)
        self.view = SceneView(self.ctx, self.load_program)
        names = (*KEY_ACTIONS, "LEFT_SHIFT", "RIGHT_SHIFT")
        self.key_names = {getattr(self.wnd.keys, n): n for n in names}
        self.message = ""
        self._message_until = 0.0
        self.frame_ms = 0.0  # smoothed cost of a frame (app.loop; 0: not measured)
        self.frame_ms_last = 0.0  # the last frame's cost
        self._drag: str | None = None  # "start" | "end" | "both" | "orbit" | "pan" | "click"
        self._drag_button: int | None = None
        self._press_xy = np.zeros(2)
        self._grab_point: np.ndarray | None = None
        self._shift = False
        self._dirty = True  # the picture may have changed since the last frame (app.loop)
        self._measure_scene()

    # ------------------------------------------------------------- scene/frame
    def _measure_scene(self) -> None:
        st = self.state
        self.scene_centre, self.extent = scene_extent(st.base_boxes, st.start, st.end)
        self.step = keyboard_step(self.extent)

    def show_scene(self, scene: Scene) -> None:
        """Show ``scene``: its boxes, segment, rays and camera. (Not ``load_scene``, which is
        moderngl-window's loader of 3D model files.)"""
        self.state.load(scene)
        self.camera.reset(scene.camera)
        self._measure_scene()
        self.say(f"scene: {scene.name}")

    def say(self, message: str, seconds: float = 4.0) -> None:
        self.message, self._message_until = message, time.monotonic() + seconds

    @property
    def size(self) -> tuple[int, int]:
        """Window size in event coordinates (what picking and ``camera.project`` use)."""
        width, height = self.wnd.size
        return width, height

    def render_frame(self, target=None) -> None:
        """Draw one frame into the window's framebuffer, or into ``target`` (window and
        headless alike)."""
        if self.message and time.monotonic() > self._message_until:
            self.message = ""
        width, height = self.wnd.buffer_size
        size = (width, height)
        if not self.samples or min(size) <= 0:
            (target or self.wnd).use()
            self.view.draw(self.state, self.camera, size, self.frame_ms, self.message)
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
        self.view.draw(self.state, self.camera, size, self.frame_ms, self.message)
        self.ctx.copy_framebuffer(target or self.wnd.fbo, self._msaa)
        (target or self.wnd).use()

    def read_image(self) -> np.ndarray:
        """(H, W, 3) uint8 RGB of the current frame, top row first.

        Headless, the window's framebuffer is our own and is read directly. A real window's is
        the default framebuffer, which moderngl reads with glReadBuffer(GL_COLOR_ATTACHMENT0):
        invalid there, and pyglet raises at its next checked GL call. So the frame is drawn
        again, by the same code, into an offscreen framebuffer of the same size, and read there.
        """
        w, h = self.wnd.buffer_size
        fbo, offscreen = self.wnd.fbo, None
        if not fbo.color_attachments:
            offscreen = self.ctx.simple_framebuffer((w, h))
            self.render_frame(offscreen)
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
        expired = bool(self.message) and time.monotonic() > self._message_until
        return self._dirty or self.state.playing or expired

    def on_render(self, time: float, frame_time: float) -> None:
        self.state.step(frame_time)
        self._dirty = False
        self.render_frame()

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
        self.say(f"saved {path}")
        return path

    # ------------------------------------------------------------------ mouse
    def _handle_hit(self, x: float, y: float) -> str | None:
        pts = self.camera.project(np.stack([self.state.start, self.state.end]), self.size)
        p = np.array([x, y], dtype=np.float64)
        if not np.isfinite(pts[:, :2]).all():
            return None
        d_start, d_end = (np.linalg.norm(pts[i, :2] - p) for i in range(2))
        if min(d_start, d_end) <= HANDLE_RADIUS_PX:
            return "start" if d_start <= d_end else "end"
        if _point_segment_distance_2d(p, pts[0, :2], pts[1, :2]) <= BODY_RADIUS_PX:
            return "both"
        return None

    def _plane_point(self, x: float, y: float) -> np.ndarray | None:
        """Where the cursor ray meets the plane facing the camera through the grabbed point."""
        origin, direction = self.camera.ray(x, y, self.size)
        normal = self.camera.basis()[2]
        denom = float(np.dot(direction, normal))
        if abs(denom) < 1e-9:
            return None
        t = float(np.dot(self._grab_point - origin, normal)) / denom
        return origin + t * direction

    def _pick_at(self, x: float, y: float) -> int | None:
        origin, direction = self.camera.ray(x, y, self.size)
        return self.state.pick(origin, direction)[0]

    def on_mouse_position_event(self, x: int, y: int, dx: int, dy: int) -> None:
        hovered = self._pick_at(x, y)
        if hovered != self.state.hovered:
            self.state.hovered, self._dirty = hovered, True

    def on_mouse_press_event(self, x: int, y: int, button: int) -> None:
        self._dirty = True
        self._drag_button, self._press_xy = button, np.array([x, y], dtype=np.float64)
        shift = self._shift or bool(getattr(self.wnd.modifiers, "shift", False))
        part = self._handle_hit(x, y) if button == LEFT else None
        if part is not None:
            self._drag = part
            self._grab_point = {"start": self.state.start, "end": self.state.end}.get(
                part, (self.state.start + self.state.end) / 2).copy()
            # grab the body where it was clicked, not at its midpoint
            if part == "both":
                hit = self._plane_point(x, y)
                self._grab_point = hit if hit is not None else self._grab_point
        elif button == LEFT:
            self._drag = "click"  # a click selects; moved past CLICK_SLOP_PX it orbits
        else:
            self._drag = DRAG_ACTIONS.get((button, shift))

    def on_mouse_drag_event(self, x: int, y: int, dx: int, dy: int) -> None:
        self._dirty = True
        if self._drag == "click" and np.hypot(*(np.array([x, y]) - self._press_xy)) > \
                CLICK_SLOP_PX:
            self._drag = DRAG_ACTIONS[(LEFT, False)]
            dx, dy = x - self._press_xy[0], y - self._press_xy[1]  # the slop counts too
        if self._drag in ("orbit", "pan"):
            self.state.hovered = None  # what was under the cursor moves away
            if self._drag == "orbit":
                self.camera.orbit(dx, dy)
            else:
                self.camera.pan(dx, dy, self.size[1])
                self._keep_scene_in_reach()
        elif self._drag in ("start", "end", "both"):
            point = self._plane_point(x, y)
            if point is not None:
                self.state.move_segment(point - self._grab_point, self._drag)
                self._grab_point = point

    def on_mouse_release_event(self, x: int, y: int, button: int) -> None:
        self._dirty = True
        if self._drag == "click":
            self.state.selected = self._pick_at(x, y)
        else:  # after a drag the hover outline is stale until the cursor moves again
            self.state.hovered = None
        self._drag = self._drag_button = None

    def on_mouse_scroll_event(self, x_offset: float, y_offset: float) -> None:
        self._dirty = True
        cam, before = self.camera, self.camera.radius
        cam.zoom(y_offset)
        cam.radius = min(max(cam.radius, MIN_ZOOM * self.extent), MAX_ZOOM * self.extent)
        if y_offset > 0 and cam.radius < before and self._eye_in_a_box():
            cam.radius = before  # one more step would put the camera inside a box
            self.say("zoom stops here: the camera would enter a box", 2.0)

    def _eye_in_a_box(self) -> bool:
        """Whether the camera's eye is inside (or on) a box as drawn."""
        b, eye = self.state.boxes, self.camera.eye()
        local = np.einsum("nij,nj->ni", b.axes, eye - b.center)
        return bool((np.abs(local) <= b.half_size).all(axis=1).any())

    def _keep_scene_in_reach(self) -> None:
        """Pan keeps the camera's target within the scene's size of its centre."""
        target = np.array(self.camera.target, dtype=np.float64)
        offset = target - self.scene_centre
        far = float(np.linalg.norm(offset))
        if far > self.extent:
            self.camera.set_target(self.scene_centre + offset * (self.extent / far))

    # --------------------------------------------------------------- keyboard
    def _camera_moves(self) -> dict[str, np.ndarray]:
        right, _, forward = self.camera.basis()
        flat_fwd = np.array([forward[0], 0.0, forward[2]])
        flat_fwd = flat_fwd / (np.linalg.norm(flat_fwd) or 1.0)
        flat_right = np.array([right[0], 0.0, right[2]])
        flat_right = flat_right / (np.linalg.norm(flat_right) or 1.0)
        up = np.array([0.0, 1.0, 0.0])
        return {"W": flat_fwd, "S": -flat_fwd, "D": flat_right, "A": -flat_right, "E": up, "Q": -up,
                "UP": flat_fwd, "DOWN": -flat_fwd, "RIGHT": flat_right, "LEFT": -flat_right,
                "PAGE_UP": up, "PAGE_DOWN": -up}

    def on_key_event(self, key, action, modifiers: KeyModifiers) -> None:
        """Dispatch through :data:`app.bindings.KEY_ACTIONS` to ``action_<name>``."""
        self._dirty = True
        name = self.key_names.get(key)
        if name in ("LEFT_SHIFT", "RIGHT_SHIFT"):
            self._shift = action == self.wnd.keys.ACTION_PRESS
            return
        if action != self.wnd.keys.ACTION_PRESS or name is None:
            return
        shift = bool(getattr(modifiers, "shift", False)) or self._shift
        getattr(self, f"action_{KEY_ACTIONS[name].action}")(name, shift)

    # one method per action of app.bindings.BINDINGS: (key name, Shift held)
    def action_move_segment(self, name: str, shift: bool) -> None:
        self.state.move_segment(self._camera_moves()[name] * self.step * (FINE if shift else 1))

    def action_move_box(self, name: str, shift: bool) -> None:
        st = self.state
        if st.selected is None:
            self.say("select a box first (left-click it)")
        else:
            step = self.step * (FINE if shift else 1)
            st.move_box(st.selected, self._camera_moves()[name] * step)

    def action_cycle_part(self, name: str, shift: bool) -> None:
        self.say(f"keys move: {self.state.cycle_part()}")

    def action_play(self, name: str, shift: bool) -> None:
        self.state.playing = not self.state.playing

    def action_random(self, name: str, shift: bool) -> None:
        self.seed += 1
        self.show_scene(random_scene(max(len(self.state.boxes), 100), self.seed))

    def action_preset(self, name: str, shift: bool) -> None:
        scene = number_key_scene(int(name[-1]), self.seed)
        if scene is not None:
            self.show_scene(scene)

    def action_explain(self, name: str, shift: bool) -> None:
        st = self.state
        st.explain = not st.explain
        if st.explain and st.selected is None and len(st.boxes):
            # explain needs a box: take the first non-green one (else box 0)
            st.selected = int(np.argmax(st.classes > 0)) if st.classes.any() else 0

    def action_toggle_none(self, name: str, shift: bool) -> None:
        st = self.state
        st.show_none = not st.show_none
        if not st.show_none and st.hovered is not None and st.classes[st.hovered] == 0:
            st.hovered = None
        self.say(f"NONE boxes {'shown' if st.show_none else 'hidden'}")

    def action_lesson(self, name: str, shift: bool) -> None:
        self.say(step_lesson(self.state, name))

    def action_triangles(self, name: str, shift: bool) -> None:
        self.state.highlight_triangles = not self.state.highlight_triangles

    def action_help(self, name: str, shift: bool) -> None:
        self.state.show_help = not self.state.show_help

    def action_screenshot(self, name: str, shift: bool) -> None:
        try:
            self.save_screenshot()
        except OSError as exc:
            self.say(f"screenshot failed: {exc}")

    def action_home(self, name: str, shift: bool) -> None:
        self.camera.reset()

    def action_quit(self, name: str, shift: bool) -> None:
        self.wnd.close()


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
    wnd._config = weakref.ref(app)  # as moderngl_window.create_window_config_instance does
    wnd.swap_buffers()
    wnd.set_default_viewport()
    app.on_resize(*wnd.size)
    return app
