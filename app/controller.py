"""The demo's input controller: mouse drags, clicks, the wheel and the actions of
:mod:`app.bindings`, applied to the demo state (:class:`~app.state.DemoState`) and the camera
(:class:`~app.camera.OrbitCamera`).

No OpenGL here: this module imports neither moderngl nor moderngl-window (the camera arrives
from the window, built by :mod:`app.camera`), the window forwards its events to a
:class:`Controller`, and tests drive one without a GL context. What needs the window (saving a
screenshot, reading a frame for a recording, closing) arrives as callables.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from app.bindings import DRAG_ACTIONS, KEY_ACTIONS, LEFT
from app.lesson import step_lesson
from app.presets import number_key_scene, random_scene
from app.query_box import TURN_DEG
from app.record import Recording, save_new_animation
from app.scene import Boxes, Scene
from app.state import DemoState, first_hit

if TYPE_CHECKING:  # app.camera imports moderngl-window
    from app.camera import OrbitCamera

HANDLE_RADIUS_PX = 14.0  # how close (pixels) a click must be to grab a handle
BODY_RADIUS_PX = 8.0  # ... or the segment's body
CLICK_SLOP_PX = 4.0  # a press+release that moved less than this is a click
FINE = 0.1  # Shift: keyboard steps are this fraction of the normal step
FRUSTUM_ORBIT_DEG = 15.0  # O turns the frustum camera this far about its target
SPHERE_SCALE = 1.1  # one step of Shift+wheel scales the sphere's radius by this
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


def point_segment_distance_2d(p, a, b) -> float:
    """Distance (pixels) from point ``p`` to the segment ``a``-``b``, all (2,)."""
    ab = b - a
    t = 0.0 if not ab.any() else float(np.clip(np.dot(p - a, ab) / np.dot(ab, ab), 0, 1))
    return float(np.linalg.norm(p - (a + t * ab)))


def _ignore() -> None:
    """What a window-only action does where there is no window."""


def _no_frame() -> np.ndarray | None:
    """What reading the frame gives where there is no window: nothing to record."""
    return None


class Controller:
    """Turns input into changes of ``state`` and ``camera``.

    ``size()`` is the window's size in event coordinates (what picking and
    ``camera.project`` use). ``save_screenshot()`` and ``close()`` are what F12 / P and Esc
    do; they default to doing nothing. ``read_frame()`` returns the frame as shown ((H, W, 3)
    uint8, without HUD messages) for a recording (F9), saved in ``record_dir``. Event methods
    take moderngl-window's arguments (pixels with y down, buttons 1 left, 2 right, 3 middle);
    key actions are ``action_<name>`` per :data:`app.bindings.BINDINGS` row, called with the
    key's name and whether Shift was held.
    """

    def __init__(self, state: DemoState, camera: OrbitCamera, size: Callable[[], tuple[int, int]],
                 *, seed: int = 0, save_screenshot: Callable[[], object] = _ignore,
                 close: Callable[[], None] = _ignore,
                 read_frame: Callable[[], np.ndarray | None] = _no_frame,
                 record_dir: str | Path = "screenshots"):
        self.state, self.camera, self.size = state, camera, size
        self.seed = seed  # of the last random scene; R takes the next one
        self.save_screenshot, self.close = save_screenshot, close
        self.read_frame, self.record_dir = read_frame, Path(record_dir)
        self.recording: Recording | None = None  # F9 started one
        self.message = ""
        self._message_until = 0.0
        self.shift = False  # a Shift key is held (moderngl-window's modifiers lag on some backends)
        self._drag: str | None = None  # what the held button does (see ``dragging``)
        self._press_xy = np.zeros(2)
        self._grab_point = np.zeros(3)
        self._measure_scene()

    @property
    def dragging(self) -> str | None:
        """What the held button does: "start" / "end" / "both" (the segment), "grab" / "box"
        (the selected box, before / after it moved), "sphere", "query" (the box scene's query
        box), "click", "orbit", "pan"; None when no button is held."""
        return self._drag

    # ------------------------------------------------------------------ scene
    def _measure_scene(self) -> None:
        st = self.state
        self.scene_centre, self.extent = scene_extent(st.base_boxes, st.start, st.end)
        self.step = keyboard_step(self.extent)

    def show_scene(self, scene: Scene) -> None:
        """Show ``scene``: its boxes, segment, rays and camera."""
        self.state.load(scene)
        self.camera.reset(scene.camera)
        self._measure_scene()
        self.say(f"scene: {scene.name}")

    def say(self, message: str, seconds: float = 4.0) -> None:
        """Show ``message`` in the HUD for ``seconds``."""
        self.message, self._message_until = message, time.monotonic() + seconds

    def message_expired(self) -> bool:
        """Whether a message is shown past its time (the next frame drops it)."""
        return bool(self.message) and time.monotonic() > self._message_until

    def current_message(self) -> str:
        """The HUD's message now ("" once expired; while recording, that it records)."""
        if self.message_expired():
            self.message = ""
        if not self.message and self.recording is not None:
            return "recording (F9 stops)"
        return self.message

    # ------------------------------------------------------------------ mouse
    def handle_at(self, x: float, y: float) -> str | None:
        """The segment part a left press at pixel (x, y) grabs: "start" or "end" (a handle),
        "both" (the body) or None (always in a frustum culling or sphere scene, which shows no
        segment)."""
        if not self.state.shows_segment():
            return None
        pts = self.camera.project(np.stack([self.state.start, self.state.end]), self.size())
        p = np.array([x, y], dtype=np.float64)
        if not np.isfinite(pts[:, :2]).all():
            return None
        d_start, d_end = (np.linalg.norm(pts[i, :2] - p) for i in range(2))
        if min(d_start, d_end) <= HANDLE_RADIUS_PX:
            return "start" if d_start <= d_end else "end"
        if point_segment_distance_2d(p, pts[0, :2], pts[1, :2]) <= BODY_RADIUS_PX:
            return "both"
        return None

    def _plane_point(self, x: float, y: float) -> np.ndarray | None:
        """Where the cursor ray meets the plane facing the camera through the grabbed point."""
        origin, direction = self.camera.ray(x, y, self.size())
        normal = self.camera.basis()[2]
        denom = float(np.dot(direction, normal))
        if abs(denom) < 1e-9:
            return None
        t = float(np.dot(self._grab_point - origin, normal)) / denom
        return origin + t * direction

    def pick_at(self, x: float, y: float) -> int | None:
        """The box under pixel (x, y) (the first one the cursor ray hits), or None."""
        origin, direction = self.camera.ray(x, y, self.size())
        return self.state.pick(origin, direction)[0]

    def mouse_move(self, x: float, y: float) -> None:
        """The cursor moved with no button held: hover."""
        self.state.hovered = self.pick_at(x, y)

    def mouse_press(self, x: float, y: float, button: int, shift: bool = False) -> None:
        """A left press on a handle or the body grabs it, on the selected box grabs that,
        elsewhere it may become a click; other buttons start the drag
        :data:`app.bindings.DRAG_ACTIONS` names."""
        self._press_xy = np.array([x, y], dtype=np.float64)
        shift = shift or self.shift
        part = self.handle_at(x, y) if button == LEFT else None
        if part is None and button == LEFT and self._grab_selected_box(x, y):
            self._drag = "grab"  # moved past CLICK_SLOP_PX it drags the box
        elif part is None and button == LEFT and self._grab_sphere(x, y):
            self._drag = "sphere"
        elif part is None and button == LEFT and self._grab_query(x, y):
            self._drag = "query"
        elif part is not None:
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

    def _grab_selected_box(self, x: float, y: float) -> bool:
        """Whether the cursor ray at (x, y) hits the selected box first; then the point it hits
        is what a drag moves (the box keeps that point under the cursor)."""
        if self.state.selected is None:
            return False
        origin, direction = self.camera.ray(x, y, self.size())
        box, t = self.state.pick(origin, direction)
        if box != self.state.selected:
            return False
        self._grab_point = origin + max(t, 0.0) * direction
        return True

    def _grab_sphere(self, x: float, y: float) -> bool:
        """Whether (x, y) is on a sphere's disc as drawn (the nearest centre on screen wins);
        then that sphere is the active one, grabbed where the cursor meets the plane facing the
        camera through its centre."""
        st = self.state
        if not len(st.sphere_radii):
            return False
        right = self.camera.basis()[0]
        centers = self.camera.project(st.sphere_centers, self.size())[:, :2]
        rims = self.camera.project(st.sphere_centers + st.sphere_radii[:, None] * right,
                                   self.size())[:, :2]
        off = np.linalg.norm(centers - np.array([x, y]), axis=1)
        inside = np.isfinite(off) & (off <= np.linalg.norm(rims - centers, axis=1))
        if not inside.any():
            return False
        st.active_sphere = int(np.argmin(np.where(inside, off, np.inf)))
        self._grab_point = st.sphere_centers[st.active_sphere].copy()
        hit = self._plane_point(x, y)
        self._grab_point = hit if hit is not None else self._grab_point
        return True

    def _grab_query(self, x: float, y: float) -> bool:
        """Whether the cursor ray at (x, y) hits the box scene's query box; then the point it
        hits is what a drag moves."""
        if self.state.query is None:
            return False
        origin, direction = self.camera.ray(x, y, self.size())
        box, t = first_hit(origin, direction, self.state.query)
        if box is None:
            return False
        self._grab_point = origin + max(t, 0.0) * direction
        return True

    def mouse_drag(self, x: float, y: float, dx: float, dy: float) -> None:
        """The cursor moved with a button held (``dx``, ``dy``: since the last event)."""
        if self._drag in ("click", "grab") and np.hypot(
                *(np.array([x, y]) - self._press_xy)) > CLICK_SLOP_PX:
            self._drag = "box" if self._drag == "grab" else DRAG_ACTIONS[(LEFT, False)]
            dx, dy = x - self._press_xy[0], y - self._press_xy[1]  # the slop counts too
        if self._drag in ("orbit", "pan"):
            self.state.hovered = None  # what was under the cursor moves away
            if self._drag == "orbit":
                self.camera.orbit(dx, dy)
            else:
                self.camera.pan(dx, dy, self.size()[1])
                self._keep_scene_in_reach()
        elif self._drag in ("start", "end", "both"):
            point = self._plane_point(x, y)
            if point is not None:
                self.state.move_segment(point - self._grab_point, self._drag)
                self._grab_point = point
        elif self._drag in ("sphere", "query"):
            point = self._plane_point(x, y)
            if point is not None:
                if self._drag == "sphere":
                    self.state.move_sphere(self.state.active_sphere, point - self._grab_point)
                else:
                    self.state.set_query(point - self._grab_point)
                self._grab_point = point
        elif self._drag == "box" and self.state.selected is not None:
            point = self._plane_point(x, y)
            if point is not None:
                self.state.move_box(self.state.selected, point - self._grab_point)
                self._grab_point = point

    def mouse_release(self, x: float, y: float) -> None:
        """The end of a press: a click selects the box under the cursor."""
        if self._drag in ("click", "grab"):
            self.state.selected = self.pick_at(x, y)
        else:  # after a drag the hover outline is stale until the cursor moves again
            self.state.hovered = None
        self._drag = None

    def scroll(self, steps: float, shift: bool = False) -> None:
        """The wheel: zoom, kept between MIN_ZOOM and MAX_ZOOM of the scene's size and
        outside the boxes; with Shift in a sphere scene, resize the active sphere
        (:data:`SPHERE_SCALE` a step)."""
        if (shift or self.shift) and len(self.state.sphere_radii):
            self.state.scale_sphere(SPHERE_SCALE ** steps)
            return
        cam, before = self.camera, self.camera.radius
        cam.zoom(steps)
        cam.radius = min(max(cam.radius, MIN_ZOOM * self.extent), MAX_ZOOM * self.extent)
        if steps > 0 and cam.radius < before and self.eye_in_a_box():
            cam.radius = before  # one more step would put the camera inside a box
            self.say("zoom stops here: the camera would enter a box", 2.0)

    def eye_in_a_box(self) -> bool:
        """Whether the camera's eye is inside (or on) a box as drawn."""
        b, eye = self.state.boxes, self.camera.eye()
        local = np.einsum("nij,nj->ni", b.axes, eye - b.center)
        return bool((np.abs(local) <= b.half_size).all(axis=1).any())

    def _keep_scene_in_reach(self) -> None:
        """Pan keeps the camera's target within the scene's size of its centre."""
        offset = np.array(self.camera.target, dtype=np.float64) - self.scene_centre
        far = float(np.linalg.norm(offset))
        if far > self.extent:
            self.camera.set_target(self.scene_centre + offset * (self.extent / far))

    # --------------------------------------------------------------- keyboard
    def key(self, name: str, shift: bool = False) -> None:
        """A press of the key ``name`` (a key of :data:`app.bindings.KEY_ACTIONS`): its
        action, with Shift if ``shift`` or a Shift key is held."""
        getattr(self, f"action_{KEY_ACTIONS[name].action}")(name, shift or self.shift)

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
        if self.state.frustum_camera is not None:  # every other scene has a lesson
            self.say("explain mode has no lesson in a frustum scene")
            return
        self.state.set_explain(not self.state.explain)

    def action_frustum(self, name: str, shift: bool) -> None:
        """O orbits the frustum camera about its target (Shift: the other way), V puts the
        view camera where it is (Home takes it back)."""
        spec = self.state.frustum_camera
        if spec is None:
            self.say("no frustum in this scene (try --scene frustum)")
        elif name == "O":
            turn = -FRUSTUM_ORBIT_DEG if shift else FRUSTUM_ORBIT_DEG
            self.state.set_frustum_camera(replace(spec, yaw=spec.yaw + turn))
        else:
            self.camera.reset(spec)
            self.camera.spec = self.state.scene.camera  # Home goes back to the view
            self.say("looking through the frustum camera (Home: back)")

    def action_query_box(self, name: str, shift: bool) -> None:
        """B switches the box scene's query box between AABB and OBB; J / L turn it about y,
        I / K about x (Shift: a tenth of the turn)."""
        st = self.state
        if st.query is None:
            self.say("no query box in this scene (try --scene boxes)")
            return
        if name == "B":
            st.set_query(is_obb=not st.query.is_obb[0])
            self.say(f"query box: {'OBB' if st.query.is_obb[0] else 'AABB'}")
            return
        angle = TURN_DEG * (FINE if shift else 1) * (1 if name in ("L", "I") else -1)
        st.set_query(turn=(angle, 0, 0) if name in ("I", "K") else (0, angle, 0))

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

    def action_record(self, name: str, shift: bool) -> None:
        if self.recording is None:
            self.recording = Recording()
            self.message = ""  # the HUD says "recording" from now on (not in the frames)
            self.record_frame()
        else:
            self.stop_recording()

    def action_home(self, name: str, shift: bool) -> None:
        self.camera.reset()

    def action_quit(self, name: str, shift: bool) -> None:
        self.close()

    # -------------------------------------------------------------- recording
    def record_due(self) -> bool:
        """Whether a recording runs and wants the frame just drawn (at most
        :data:`app.record.WINDOW_FPS` a second)."""
        return self.recording is not None and self.recording.due(time.monotonic())

    def record_frame(self) -> None:
        """Add the frame shown now (``read_frame()``) to the recording; at its size limit
        (:data:`app.record.MAX_RECORDING_BYTES`), or when the window's size changed, the
        recording stops and is saved."""
        if self.recording is None:
            return
        image = self.read_frame()
        if image is not None and not self.recording.fits(image):
            self.stop_recording("the window's size changed: ", last_frame=False)
            return
        if image is not None:
            self.recording.add(image, time.monotonic())
        if self.recording.full():
            self.stop_recording("size limit reached: ")

    def stop_recording(self, why: str = "", *, last_frame: bool = True) -> Path | None:
        """End the recording, with the frame shown now unless ``last_frame`` is False (the
        window is closing), and save it as a new GIF in ``record_dir`` (never over a file);
        prints and returns its absolute path."""
        rec, self.recording = self.recording, None
        if rec is None:
            return None
        image = self.read_frame() if last_frame else None
        if image is not None and rec.fits(image):
            rec.add(image, time.monotonic())
        if not rec.frames:
            self.say("recording stopped: no frames")
            return None
        try:
            path = save_new_animation(rec.frames, rec.durations_ms(time.monotonic()),
                                      self.record_dir)
        except OSError as exc:
            self.say(f"recording failed: {exc}")
            return None
        print(f"recording saved: {path}", flush=True)
        self.say(f"{why}saved {path} ({len(rec.frames)} frames)")
        return path
