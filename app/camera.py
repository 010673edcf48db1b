"""The orbit camera: moderngl-window's, and the ONE place where its PyGLM matrices become
pyrr-convention numpy arrays.

moderngl-window's cameras hand out ``glm.mat4`` (column vectors, ``p' = M @ p``); slablab's
``geometry`` and pyrr use row vectors (``p' = [p, 1] @ M``, translation in ``M[3, :3]``). The two
are transposes of each other: :func:`glm_to_pyrr` is the conversion, and every other module asks
this one for numpy matrices (``view_matrix``, ``projection_matrix``, ``view_projection``), which
are combined and inverted with pyrr. A pyrr-convention matrix uploaded as raw float32 bytes is
exactly the matrix GLSL expects (``gl_Position = m * vec4(p, 1)``), so shaders receive
``M.astype("f4").tobytes()``.

The view and projection themselves stay PyGLM's (float32, glm's formulas): where surfaces
coincide (explain mode's slab planes on box faces) the picture depends on the matrices' last
bits, and pyrr's ``create_look_at`` / ``create_perspective_projection`` round differently in 2 or
3 entries, which moves a few hundred of those pixels.
"""

from __future__ import annotations

import math

try:  # PyGLM >= 2.8 prefers this spelling
    from pyglm import glm
except ImportError:  # pragma: no cover
    import glm  # type: ignore[no-redef]
import numpy as np
from moderngl_window.scene.camera import OrbitCamera as _MglwOrbitCamera
from pyrr import matrix44

from app.scene import CameraSpec

NEAR, FAR = 0.05, 500.0


def glm_to_pyrr(m: glm.mat4) -> np.ndarray:
    """(4, 4) float64 in pyrr's row-vector convention from a PyGLM matrix."""
    # np.array(glm.mat4) lays out the mathematical matrix row by row; pyrr wants its transpose.
    return np.array(m, dtype=np.float64).T.copy()


class OrbitCamera(_MglwOrbitCamera):
    """moderngl-window's orbit camera, addressed by yaw/pitch/distance (the scene file's terms),
    plus pan, multiplicative zoom, reset, projection of points to pixels and picking rays.

    ``yaw`` 0 puts the camera on +z looking towards -z, 90 on +x; ``pitch`` is the elevation in
    degrees above the target's horizontal plane, kept within [-85, 85].
    Pixels: x to the right, y DOWN from the top-left corner (the window's event coordinates).
    """

    def __init__(self, spec: CameraSpec | None = None, aspect_ratio: float = 16 / 9):
        self.spec = spec or CameraSpec()
        super().__init__(target=self.spec.target, radius=self.spec.distance,
                         fov=self.spec.fov, aspect_ratio=aspect_ratio, near=NEAR, far=FAR)
        self.reset()

    # --- yaw/pitch on top of moderngl-window's angle_x/angle_y -------------------------
    @property
    def yaw(self) -> float:  # angle_x = -90 - yaw
        return -90.0 - self.angle_x

    @yaw.setter
    def yaw(self, value: float) -> None:
        self.angle_x = -90.0 - value

    @property
    def pitch(self) -> float:  # angle_y = pitch - 90 (moderngl-window measures from +y)
        return self.angle_y + 90.0

    @pitch.setter
    def pitch(self, value: float) -> None:
        self.angle_y = min(max(value, -85.0), 85.0) - 90.0

    @property
    def distance(self) -> float:
        return self.radius

    def reset(self, spec: CameraSpec | None = None) -> None:
        """Back to the scene's camera (Home)."""
        if spec is not None:
            self.spec = spec
        self.target = glm.vec3(*self.spec.target)
        self.radius = float(self.spec.distance)
        self.yaw, self.pitch = self.spec.yaw, self.spec.pitch
        self.projection.update(fov=self.spec.fov)

    def set_aspect(self, width: int, height: int) -> None:
        if width > 0 and height > 0:  # a minimised window reports 0x0: keep the last aspect
            self.projection.update(aspect_ratio=width / height)

    # --- interaction ----------------------------------------------------------------------
    def set_target(self, point) -> None:
        """Orbit around world ``point`` from now on (distance and angles kept)."""
        self.target = glm.vec3(*(float(v) for v in point))

    def orbit(self, dx: float, dy: float) -> None:
        """An orbit drag (app.bindings): ``dx``/``dy`` in pixels."""
        self.yaw -= dx * 0.3
        self.pitch += dy * 0.3

    def pan(self, dx: float, dy: float, viewport_height: int) -> None:
        """A pan drag (app.bindings): move the target so the scene follows the cursor."""
        per_pixel = 2 * self.radius * math.tan(math.radians(self.projection.fov) / 2) / max(
            viewport_height, 1)
        right, up, _ = self.basis()
        move = (-dx * right + dy * up) * per_pixel
        self.target = self.target + glm.vec3(*move)

    def zoom(self, steps: float) -> None:
        """Wheel: each step moves 12% closer (negative: further)."""
        self.radius = float(min(max(self.radius * 0.88 ** steps, 0.5), 400.0))

    # --- numpy views ----------------------------------------------------------------------
    def eye(self) -> np.ndarray:
        y, p = math.radians(self.yaw), math.radians(self.pitch)
        offset = np.array([math.sin(y) * math.cos(p), math.sin(p), math.cos(y) * math.cos(p)])
        return np.array(self.target, dtype=np.float64) + self.radius * offset

    def basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """World-space (right, up, forward) unit vectors of the camera."""
        v = self.view_matrix()
        # the view matrix's rotation part maps world -> camera; its columns are the camera axes
        right, up, back = v[:3, 0], v[:3, 1], v[:3, 2]
        return right.copy(), up.copy(), -back

    def view_matrix(self) -> np.ndarray:
        """(4, 4) pyrr convention: ``[p, 1] @ V`` is the point in camera space."""
        return glm_to_pyrr(self.matrix)

    def projection_matrix(self) -> np.ndarray:
        """(4, 4) pyrr convention perspective projection."""
        return glm_to_pyrr(self.projection.matrix)

    def view_projection(self) -> np.ndarray:
        """(4, 4) ``V @ P``: ``[p, 1] @ VP`` is the clip position (what the shaders get)."""
        return matrix44.multiply(self.view_matrix(), self.projection_matrix())

    def clip(self, points) -> np.ndarray:
        """Homogeneous clip coordinates ``[p, 1] @ V @ P`` of world ``points`` (..., 3) ->
        (..., 4); what :func:`app.labels.pin_to_viewport` takes."""
        p = np.asarray(points, dtype=np.float64)
        return np.concatenate([p, np.ones(p.shape[:-1] + (1,))], axis=-1) @ self.view_projection()

    def project(self, points, size: tuple[int, int]) -> np.ndarray:
        """Pixel coordinates (x right, y down, origin top-left) of world ``points`` (..., 3);
        returns (..., 3): x, y and NDC depth (points behind the camera get NaN x/y)."""
        h = self.clip(points)
        w = h[..., 3:4]
        with np.errstate(divide="ignore", invalid="ignore"):
            ndc = np.where(w > 1e-9, h[..., :3] / w, np.nan)
        width, height = size
        x = (ndc[..., 0] + 1) / 2 * width
        y = (1 - ndc[..., 1]) / 2 * height
        return np.stack([x, y, ndc[..., 2]], axis=-1)

    def ray(self, x: float, y: float, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """World-space picking ray (origin at the eye, unit direction) through pixel (x, y)."""
        width, height = max(size[0], 1), max(size[1], 1)
        ndc = np.array([2 * x / width - 1, 1 - 2 * y / height])
        inv = matrix44.inverse(self.view_projection())
        near = np.array([ndc[0], ndc[1], -1.0, 1.0]) @ inv
        far = np.array([ndc[0], ndc[1], 1.0, 1.0]) @ inv
        a, b = near[:3] / near[3], far[:3] / far[3]
        d = b - a
        return self.eye(), d / np.linalg.norm(d)
