"""Rendering and pixel helpers shared by the screenshot tests (they use only the app's seams:
``app.headless.render_scene_image``, ``OrbitCamera.project``, ``app.colors``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: the size of every golden unless a case says otherwise: small, so llvmpipe stays fast
SIZE = (400, 300)


@dataclass(frozen=True)
class Case:
    """One golden: a preset rendered with options, compared with ``tests/golden/<name>.png``."""

    name: str
    scene: str = "blog"
    size: tuple[int, int] = SIZE
    camera: dict | None = None  # CameraSpec overrides (yaw, pitch, distance, target, fov)
    options: dict = field(default_factory=dict)  # render_scene_image keyword arguments


def camera_spec(scene, overrides: dict | None):
    """The scene's camera with ``overrides`` applied (None: the scene's own camera)."""
    from dataclasses import replace

    return None if overrides is None else replace(scene.camera, **overrides)


def load_scene(name: str):
    """A preset by name, or ``random:N:SEED`` for the app's generated random scene."""
    if name.startswith("random:"):
        from app.presets import random_scene

        _, n, seed = name.split(":")
        return random_scene(int(n), int(seed))
    from app.scene import resolve_scene

    return resolve_scene(name)


def resize_headless(size: tuple[int, int]):
    """The session's headless app at ``size`` (``app.headless.headless_app`` resizes it)."""
    from app.headless import headless_app

    app = headless_app(None, size)
    assert tuple(app.wnd.buffer_size) == tuple(size), (
        f"headless_app({size}) left buffer_size at {tuple(app.wnd.buffer_size)}: frames would "
        f"render and read at the wrong size")
    return app


def render_case(case: Case) -> np.ndarray:
    """(H, W, 3) uint8: ``case`` rendered headless through the app's screenshot path."""
    from app.headless import render_scene_image

    resize_headless(case.size)

    scene = load_scene(case.scene)
    return render_scene_image(scene, case.size, camera=camera_spec(scene, case.camera),
                              **case.options)


def render_app(app) -> np.ndarray:
    """One frame of a (headless) SlabLabWindow as it is now."""
    app.render_frame()
    return app.read_image()


# --- colours -------------------------------------------------------------------------------
def rgb_to_hsv(rgb) -> np.ndarray:
    """(..., 3) in [0, 1] -> (..., 3) hue in degrees [0, 360), saturation, value."""
    rgb = np.asarray(rgb, dtype=np.float64)
    mx, mn = rgb.max(-1), rgb.min(-1)
    c = mx - mn
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    safe = np.where(c > 0, c, 1.0)
    h = np.where(mx == r, ((g - b) / safe) % 6,
                 np.where(mx == g, (b - r) / safe + 2, (r - g) / safe + 4)) * 60.0
    h = np.where(c > 0, h, 0.0)
    s = np.where(mx > 0, c / np.where(mx > 0, mx, 1.0), 0.0)
    return np.stack([h % 360.0, s, mx], axis=-1)


def hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


#: SEMANTICS.md's colours, by name: NONE green, INTERSECT blue, INCLUDE red (hue in degrees).
#: Deliberately NOT read from app.colors, so a swapped colour table fails the pixel checks.
DOCUMENTED_HUES = {0: 125.0, 1: 220.0, 2: 0.0}
HUE_TOLERANCE = 35.0  # degrees: the named colour's hue band


def class_hues() -> dict[int, float]:
    """Hue (degrees) of each class's documented colour (green, blue, red)."""
    return dict(DOCUMENTED_HUES)


def nearest_class(pixel_rgb_u8) -> tuple[int, float]:
    """The class whose colour's hue is nearest to the pixel's hue, and that hue distance."""
    h = float(rgb_to_hsv(np.asarray(pixel_rgb_u8, dtype=np.float64) / 255.0)[0])
    best = min(class_hues().items(), key=lambda kv: hue_distance(h, kv[1]))
    return best[0], hue_distance(h, best[1])


def patch(image: np.ndarray, xy, radius: int = 1) -> np.ndarray:
    """The (2r+1)^2 pixels around pixel ``xy`` (x right, y down), as (K, 3)."""
    x, y = int(round(float(xy[0]))), int(round(float(xy[1])))
    h, w = image.shape[:2]
    if not (radius <= x < w - radius and radius <= y < h - radius):
        raise AssertionError(f"pixel ({x}, {y}) is not inside the {w}x{h} image")
    return image[y - radius:y + radius + 1, x - radius:x + radius + 1].reshape(-1, 3)


def median_rgb(image: np.ndarray, xy, radius: int = 1) -> np.ndarray:
    return np.median(patch(image, xy, radius).astype(np.float64), axis=0)
