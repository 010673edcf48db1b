"""Scenes as data: the JSON format of ``assets/scenes/*.json``, its validator, and the arrays
the app works on.

A scene file is::

    {"camera":    {"target": [x, y, z], "distance": d, "yaw": deg, "pitch": deg, "fov": deg},
     "segment":   {"start": [x, y, z], "end": [x, y, z]},
     "boxes":     [{"min": [..], "max": [..]}
                   or {"center": [..], "half_size": [..], "rotation": [rx, ry, rz]}],
     "rays":      [{"origin": [..], "direction": [..]}],
     "triangles": [{"vertices": [[..], [..], [..]]}],
     "frustum_camera": {like "camera"},
     "spheres":   [{"center": [x, y, z], "radius": r}],
     "query_box": {like a box}}

Coordinates are finite numbers that OpenGL's float32 can draw (:data:`DRAWABLE_MAX`; the
``geometry`` library itself takes any float64). Every key but ``boxes`` is optional; a scene
without ``segment`` gets :data:`DEFAULT_SEGMENT` ((-3, 0.5, 0) -> (3, 0.5, 0)), one without
``camera`` the defaults of :class:`CameraSpec`. A scene with ``frustum_camera`` is a frustum
culling scene: its boxes are classified against that camera's frustum (:mod:`app.frustum`), not
against the segment. A scene with ``spheres`` is a sphere scene: its boxes are classified
against the spheres (:mod:`app.spheres`), and one with ``query_box`` against that box
(:mod:`app.query_box`), not against the segment. ``rotation`` is in degrees,
applied about X, then Y, then Z (fixed world axes). Every problem is reported as one
:class:`SceneError` line ``FILE: FIELD.PATH: what was expected, what came`` (e.g. ``blog.json:
boxes[3].max: expected 3 numbers, got 2``) — the CLI prints it and exits 2.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from app.resources import SCENES_DIR

#: the largest coordinate a scene may hold: float32's largest, what OpenGL draws (beyond it a
#: vertex is infinite, and the scene's extent, which steps and zoom scale with, overflows)
DRAWABLE_MAX = float(np.finfo(np.float32).max)
#: the segment of a scene file that has no "segment": along x at height 0.5, 6 units long
DEFAULT_SEGMENT = ((-3.0, 0.5, 0.0), (3.0, 0.5, 0.0))


class SceneError(ValueError):
    """A scene file (or preset name) that cannot be used; ``str()`` is the one-line message."""


@dataclass
class CameraSpec:
    """Where the orbit camera starts (and where Home takes it back)."""

    target: tuple[float, float, float] = (0.0, 0.0, 0.0)
    distance: float = 12.0
    yaw: float = 30.0  # degrees; 0 = camera on +z looking towards -z, 90 = camera on +x
    pitch: float = 25.0  # degrees above the ground plane
    fov: float = 50.0  # vertical, degrees


def rotation_axes(rotation_deg: np.ndarray) -> np.ndarray:
    """Unit axes (as ROWS, geometry's OBB convention) of boxes rotated about X, then Y, then Z.

    rotation_deg : (N, 3) degrees. Returns (N, 3, 3): ``axes[n]`` is the box's rotation as a
    pyrr (row-vector) matrix, so a box is ``center + u @ axes``; for one box it equals pyrr's
    ``matrix33.create_from_x_rotation(-rx) @ create_from_y_rotation(-ry) @
    create_from_z_rotation(-rz)`` (radians; pyrr's ``create_from_*_rotation(a)`` turns row
    vectors by -a). Written out in numpy because pyrr builds one matrix per call, and an
    animated frame rotates every box (a test checks it against pyrr).
    """
    rx, ry, rz = np.radians(np.asarray(rotation_deg, dtype=np.float64)).T
    cx, sx, cy, sy, cz, sz = np.cos(rx), np.sin(rx), np.cos(ry), np.sin(ry), np.cos(rz), np.sin(rz)
    one, zero = np.ones_like(rx), np.zeros_like(rx)
    mx = np.stack([one, zero, zero, zero, cx, -sx, zero, sx, cx], -1).reshape(-1, 3, 3)
    my = np.stack([cy, zero, sy, zero, one, zero, -sy, zero, cy], -1).reshape(-1, 3, 3)
    mz = np.stack([cz, -sz, zero, sz, cz, zero, zero, zero, one], -1).reshape(-1, 3, 3)
    rot = mz @ my @ mx  # column-vector convention: X applied first
    return np.ascontiguousarray(np.swapaxes(rot, -1, -2))


@dataclass
class Boxes:
    """All boxes of a scene, in file order. Axis-aligned boxes keep their exact ``min``/``max``
    (they are classified with ``classify_segment_aabb``); rotated ones (``is_obb``) are
    classified with ``classify_segment_obb`` from ``center``/``axes``/``half_size``.
    ``center``/``half_size``/``rotation`` are filled for every box (for drawing)."""

    box_min: np.ndarray  # (N, 3); for OBBs: their bounding box (drawing/picking hints only)
    box_max: np.ndarray  # (N, 3)
    center: np.ndarray  # (N, 3)
    half_size: np.ndarray  # (N, 3)
    rotation: np.ndarray  # (N, 3) degrees, XYZ
    is_obb: np.ndarray  # (N,) bool
    # (rotation it was computed from, axes): rotation is edited in place (animation, keys), so
    # the cache is checked against a copy: comparing the angles costs far less than rebuilding
    # every box's axes from them.
    _axes_cache: tuple[np.ndarray, np.ndarray] | None = field(
        default=None, repr=False, compare=False
    )

    def __len__(self) -> int:
        return len(self.is_obb)

    @property
    def axes(self) -> np.ndarray:
        """(N, 3, 3) unit axes as rows (identity for axis-aligned boxes); read-only, cached."""
        cache = self._axes_cache
        if (
            cache is None
            or cache[0].shape != self.rotation.shape
            or not np.array_equal(cache[0], self.rotation)
        ):
            axes = rotation_axes(self.rotation)
            axes.flags.writeable = False
            cache = self._axes_cache = (self.rotation.copy(), axes)
        return cache[1]

    def subset(self, index: np.ndarray) -> Boxes:
        """The boxes ``index`` (integer array), copied, in that order."""
        return Boxes(self.box_min[index], self.box_max[index], self.center[index],
                     self.half_size[index], self.rotation[index], self.is_obb[index])

    def copy(self) -> Boxes:
        return self.subset(np.arange(len(self)))  # integer indexing copies

    @classmethod
    def build(cls, aabbs: list[tuple[Any, Any]] | None = None,
              obbs: list[tuple[Any, Any, Any]] | None = None, order: list[bool] | None = None
              ) -> Boxes:
        """From ``[(min, max)]`` and ``[(center, half_size, rotation_deg)]`` (``order``: per box,
        True = next OBB, False = next AABB; default all AABBs then all OBBs)."""
        aabbs, obbs = list(aabbs or []), list(obbs or [])
        if order is None:
            order = [False] * len(aabbs) + [True] * len(obbs)
        n = len(order)
        out = cls(np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)),
                  np.zeros((n, 3)), np.asarray(order, dtype=bool).reshape(n))
        ia = io = 0
        for i, obb in enumerate(order):
            if obb:
                c, h, r = (np.asarray(v, dtype=np.float64) for v in obbs[io])
                io += 1
                out.center[i], out.half_size[i], out.rotation[i] = c, h, r
            else:
                lo, hi = (np.asarray(v, dtype=np.float64) for v in aabbs[ia])
                ia += 1
                out.box_min[i], out.box_max[i] = lo, hi
                out.center[i], out.half_size[i] = (lo + hi) / 2, (hi - lo) / 2
        out.refresh_bounds()
        return out

    def refresh_bounds(self) -> None:
        """Recompute OBBs' bounding boxes after their center/rotation changed."""
        if not self.is_obb.any():
            return
        ext = (
            np.abs(self.axes[self.is_obb]).transpose(0, 2, 1)
            @ self.half_size[self.is_obb][..., None]
        )
        c = self.center[self.is_obb]
        self.box_min[self.is_obb] = c - ext[..., 0]
        self.box_max[self.is_obb] = c + ext[..., 0]


@dataclass
class Scene:
    """One scene: camera, segment, boxes, rays, triangles (all numpy float64)."""

    name: str
    boxes: Boxes
    camera: CameraSpec = field(default_factory=CameraSpec)
    segment_start: np.ndarray = field(default_factory=lambda: np.array(DEFAULT_SEGMENT[0]))
    segment_end: np.ndarray = field(default_factory=lambda: np.array(DEFAULT_SEGMENT[1]))
    ray_origins: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    ray_directions: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    triangles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 3)))  # (T, vertex, xyz)
    frustum_camera: CameraSpec | None = None  # frustum culling: the boxes are classified by it
    #: sphere scenes: (S, 3) centres and (S,) radii the boxes are classified against
    sphere_centers: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    sphere_radii: np.ndarray = field(default_factory=lambda: np.zeros(0))
    query_box: Boxes | None = None  # box scenes: the one box the boxes are classified against


# ---------------------------------------------------------------- validation

_TOP_KEYS = ("camera", "segment", "boxes", "rays", "triangles", "frustum_camera",
             "spheres", "query_box")
_CAMERA_KEYS = ("target", "distance", "yaw", "pitch", "fov")


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {json.dumps(value)}"
    if isinstance(value, str):
        return f"string {json.dumps(value)[:40]}"
    if value is None:
        return "null"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return repr(value)


class _Checker:
    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, problem: str) -> SceneError:
        return SceneError(
            f"{self.source}: {path}: {problem}" if path else f"{self.source}: {problem}"
        )

    def obj(self, value: Any, path: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
            ) -> dict:
        if not isinstance(value, dict):
            raise self.fail(path or "(top level)", f"expected an object, got {_describe(value)}")
        for key in value:
            if key not in allowed:
                raise self.fail(f"{path}.{key}" if path else key,
                                f"unknown key {key!r} (allowed: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                raise self.fail(path or "(top level)", f"missing key {key!r}")
        return value

    def number(self, value: Any, path: str, lo: float = -math.inf, hi: float = math.inf) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(path, f"expected a number, got {_describe(value)}")
        x = float(value)
        if not math.isfinite(x):
            raise self.fail(path, f"expected a finite number, got {value!r}")
        if not lo <= x <= hi:
            raise self.fail(path, f"expected a number in [{lo:g}, {hi:g}], got {x:g}")
        return x

    def vec3(self, value: Any, path: str) -> np.ndarray:
        if not isinstance(value, list) or len(value) != 3:
            got = f"{len(value)}" if isinstance(value, list) else _describe(value)
            raise self.fail(path, f"expected 3 numbers [x, y, z], got {got}")
        return np.array([self.number(v, f"{path}[{i}]", -DRAWABLE_MAX, DRAWABLE_MAX)
                         for i, v in enumerate(value)])

    def items(self, value: Any, path: str) -> list:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, got {_describe(value)}")
        return value


def _camera(ck: _Checker, value: Any, path: str) -> CameraSpec:
    """A camera object (``camera`` or ``frustum_camera``): the defaults of :class:`CameraSpec`
    for the keys it leaves out."""
    camera = CameraSpec()
    cam = ck.obj(value, path, _CAMERA_KEYS)
    if "target" in cam:
        camera.target = tuple(ck.vec3(cam["target"], f"{path}.target"))
    if "distance" in cam:
        camera.distance = ck.number(cam["distance"], f"{path}.distance", 0.01, 1e6)
    if "yaw" in cam:
        camera.yaw = ck.number(cam["yaw"], f"{path}.yaw")
    if "pitch" in cam:
        camera.pitch = ck.number(cam["pitch"], f"{path}.pitch", -85.0, 85.0)
    if "fov" in cam:
        camera.fov = ck.number(cam["fov"], f"{path}.fov", 5.0, 150.0)
    return camera


def _box(ck: _Checker, box: Any, path: str, aabbs: list, obbs: list, order: list) -> None:
    """Validate one box object (min/max, or center/half_size/rotation) and append it to
    ``aabbs`` or ``obbs`` and its kind to ``order``."""
    if isinstance(box, dict) and ("min" in box or "max" in box):
        ck.obj(box, path, ("min", "max"), required=("min", "max"))
        lo, hi = ck.vec3(box["min"], f"{path}.min"), ck.vec3(box["max"], f"{path}.max")
        for axis, a, b in zip("xyz", lo, hi, strict=True):
            if a > b:
                raise ck.fail(f"{path}.min", f"min > max on axis {axis} ({a:g} > {b:g})")
        aabbs.append((lo, hi))
        order.append(False)
    else:
        ck.obj(box, path, ("center", "half_size", "rotation"), required=("center", "half_size"))
        c = ck.vec3(box["center"], f"{path}.center")
        h = ck.vec3(box["half_size"], f"{path}.half_size")
        if (h < 0).any():
            raise ck.fail(f"{path}.half_size", f"expected sizes >= 0, got {h.tolist()}")
        r = ck.vec3(box["rotation"], f"{path}.rotation") if "rotation" in box else np.zeros(3)
        obbs.append((c, h, r))
        order.append(True)


def parse_scene(data: Any, source: str = "<scene>", name: str = "scene") -> Scene:
    """Validate decoded JSON and build a :class:`Scene`; raises :class:`SceneError`."""
    ck = _Checker(source)
    top = ck.obj(data, "", _TOP_KEYS, required=("boxes",))

    camera = _camera(ck, top["camera"], "camera") if "camera" in top else CameraSpec()
    scene = Scene(name=name, boxes=Boxes.build(), camera=camera)
    if "frustum_camera" in top:
        scene.frustum_camera = _camera(ck, top["frustum_camera"], "frustum_camera")
    if "segment" in top:
        seg = ck.obj(top["segment"], "segment", ("start", "end"), required=("start", "end"))
        scene.segment_start = ck.vec3(seg["start"], "segment.start")
        scene.segment_end = ck.vec3(seg["end"], "segment.end")

    aabbs: list = []
    obbs: list = []
    order: list[bool] = []
    for i, box in enumerate(ck.items(top["boxes"], "boxes")):
        _box(ck, box, f"boxes[{i}]", aabbs, obbs, order)
    scene.boxes = Boxes.build(aabbs, obbs, order)
    if "query_box" in top:
        query: tuple[list, list, list] = ([], [], [])
        _box(ck, top["query_box"], "query_box", *query)
        scene.query_box = Boxes.build(*query)

    origins, directions = [], []
    for i, ray in enumerate(ck.items(top.get("rays", []), "rays")):
        path = f"rays[{i}]"
        ck.obj(ray, path, ("origin", "direction"), required=("origin", "direction"))
        origins.append(ck.vec3(ray["origin"], f"{path}.origin"))
        d = ck.vec3(ray["direction"], f"{path}.direction")
        if not d.any():
            raise ck.fail(f"{path}.direction", "expected a non-zero direction, got [0, 0, 0]")
        directions.append(d)
    if origins:
        scene.ray_origins, scene.ray_directions = np.array(origins), np.array(directions)

    tris = []
    for i, tri in enumerate(ck.items(top.get("triangles", []), "triangles")):
        path = f"triangles[{i}]"
        ck.obj(tri, path, ("vertices",), required=("vertices",))
        verts = ck.items(tri["vertices"], f"{path}.vertices")
        if len(verts) != 3:
            raise ck.fail(f"{path}.vertices", f"expected 3 vertices, got {len(verts)}")
        tris.append([ck.vec3(v, f"{path}.vertices[{j}]") for j, v in enumerate(verts)])
    if tris:
        scene.triangles = np.array(tris)

    centers, radii = [], []
    for i, sphere in enumerate(ck.items(top.get("spheres", []), "spheres")):
        path = f"spheres[{i}]"
        ck.obj(sphere, path, ("center", "radius"), required=("center", "radius"))
        centers.append(ck.vec3(sphere["center"], f"{path}.center"))
        radius = sphere["radius"]
        if isinstance(radius, bool) or not isinstance(radius, (int, float)) or not (
                0 <= radius <= DRAWABLE_MAX):
            raise ck.fail(f"{path}.radius", f"expected a number >= 0, got {_describe(radius)}")
        radii.append(float(radius))
    if centers:
        scene.sphere_centers, scene.sphere_radii = np.array(centers), np.array(radii)
    return scene


def load_scene_file(path: str | Path) -> Scene:
    """Read and validate one scene file; raises :class:`SceneError` naming the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SceneError(f"{path}: cannot read scene file: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SceneError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: "
                         f"{exc.msg}") from None
    return parse_scene(data, source=str(path), name=path.stem)


def preset_names() -> list[str]:
    """Names of the scene files shipped under ``assets/scenes/`` (sorted)."""
    return sorted(p.stem for p in SCENES_DIR.glob("*.json"))


def resolve_scene(name_or_path: str) -> Scene:
    """``--scene``: a preset name (``blog``) or a path to a JSON file."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".json" or candidate.exists() or "/" in name_or_path:
        return load_scene_file(candidate)
    preset = SCENES_DIR / f"{name_or_path}.json"
    if preset.exists():
        return load_scene_file(preset)
    raise SceneError(f"{name_or_path}: no such scene preset (presets: "
                     f"{', '.join(preset_names())}; or give a path to a .json file)")
