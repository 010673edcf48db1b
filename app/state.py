"""What the demo shows, without any OpenGL: the segment, the (animated) boxes, their classes,
the selection, the toggles. Every answer about intersection comes from ``geometry``.

The input controller (:mod:`app.controller`) turns events into calls on :class:`DemoState`;
renderers read it and upload only what changed (``take_moved()`` / ``take_recoloured()``).
Tests can drive it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import geometry
from app.frustum import cull, view_projection
from app.query_box import classify_query, query_pose
from app.scene import Boxes, CameraSpec, Scene
from app.spheres import box_distance, classify_spheres

SEGMENT_PARTS = ("start", "end", "both")
#: Scenes with this many boxes or more pick through :class:`PickingTrees` (built on demand)
TREE_PICKING = 10**5
#: The most rotated boxes moved at once that :class:`PickingTrees` refits its OBB tree for
OBB_REFIT_MOST = 1000


@dataclass
class RayResult:
    """Nearest hit of every scene ray: ``box`` is -1 on a miss (then ``t`` is +inf)."""

    box: np.ndarray  # (R,) int
    t: np.ndarray  # (R,) float


def _rotated(boxes: Boxes) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(center, axes, half_size)`` of the rotated boxes (in ``np.flatnonzero(is_obb)``
    order), or None when there are none; integer ``take`` copies, several times faster than
    boolean-mask indexing of (N, 3, 3) arrays."""
    index = np.flatnonzero(boxes.is_obb)
    if len(index) == 0:
        return None
    if len(index) == len(boxes):
        return boxes.center, boxes.axes, boxes.half_size
    return (boxes.center.take(index, axis=0), boxes.axes.take(index, axis=0),
            boxes.half_size.take(index, axis=0))


def classify_boxes(start: np.ndarray, end: np.ndarray, boxes: Boxes) -> np.ndarray:
    """(N,) int8 class codes of ``boxes`` against the segment, from geometry (AABBs with
    ``classify_segment_aabb`` on their exact min/max, rotated ones with ``classify_segment_obb``).

    All rows go through the AABB test (no copies; a rotated box's row holds its bounding box),
    then the rotated boxes' rows are replaced by their OBB answer."""
    classes = np.zeros(len(boxes), dtype=np.int8)
    if len(boxes) and not boxes.is_obb.all():
        classes[:] = geometry.classify_segment_aabb(start, end, boxes.box_min, boxes.box_max)
    rotated = _rotated(boxes)
    if rotated is not None:
        classes[boxes.is_obb] = geometry.classify_segment_obb(start, end, *rotated)
    return classes


def intersect_ray_boxes(origin, direction, boxes: Boxes) -> tuple[np.ndarray, np.ndarray]:
    """``(hit, t_enter)`` of one ray against every box, each (N,), from geometry (rows of
    rotated boxes as in :func:`classify_boxes`)."""
    hit = np.zeros(len(boxes), dtype=bool)
    t = np.full(len(boxes), np.inf)
    if len(boxes) and not boxes.is_obb.all():
        hit[:], t[:] = geometry.intersect_ray_aabb(origin, direction, boxes.box_min,
                                                   boxes.box_max)[:2]
    rotated = _rotated(boxes)
    if rotated is not None:
        r = geometry.intersect_ray_obb(origin, direction, *rotated)
        hit[boxes.is_obb], t[boxes.is_obb] = r.hit, r.t_enter
    return hit, t


def first_hit(origin, direction, boxes: Boxes) -> tuple[int | None, float]:
    """The box the ray hits first (smallest t_enter) and that t; ``(None, inf)`` on a miss."""
    if len(boxes) == 0:
        return None, float("inf")
    hit, t = intersect_ray_boxes(origin, direction, boxes)
    if not hit.any():
        return None, float("inf")
    t = np.where(hit, t, np.inf)
    i = int(np.argmin(t))
    return i, float(t[i])


def triangle_overlaps(triangles: np.ndarray, boxes: Boxes) -> np.ndarray:
    """(N,) bool: box overlaps at least one triangle (``geometry.triangle_overlaps_aabb``, and
    ``geometry.triangle_overlaps_obb`` for the rotated boxes)."""
    out = np.zeros(len(boxes), dtype=bool)
    if len(triangles) == 0 or len(boxes) == 0:
        return out
    aabb = ~boxes.is_obb
    rotated = _rotated(boxes)  # taken once, not per triangle
    for v0, v1, v2 in triangles:
        if aabb.any():
            out[aabb] |= np.asarray(geometry.triangle_overlaps_aabb(
                v0, v1, v2, boxes.box_min[aabb], boxes.box_max[aabb]))
        if rotated is not None:
            out[boxes.is_obb] |= np.asarray(geometry.triangle_overlaps_obb(v0, v1, v2, *rotated))
    return out


class PickingTrees:
    """The trees large scenes pick through: a ``geometry.BoxTree`` over the axis-aligned boxes'
    exact min/max and a ``BoxTree.from_obbs`` over the rotated boxes, so that every hit and
    ``t`` is the per-box function's own (as :func:`first_hit` scans). Refitted, not rebuilt,
    when boxes move: the moves of a drag or the animation keep the trees' grouping good
    enough. An OBB tree's refit solves the bounds again, exactly, for the boxes that moved
    only, some 65 µs a box: when more than :data:`OBB_REFIT_MOST` rotated boxes moved at once
    (the animation) the OBB tree is dropped and the rotated boxes are scanned instead (one
    ``intersect_ray_obb`` call, a few ms at 10^5 boxes)."""

    def __init__(self, boxes: Boxes):
        self.aabb_index = np.flatnonzero(~boxes.is_obb)
        self.obb_index = np.flatnonzero(boxes.is_obb)
        self.aabb = (geometry.BoxTree(*self._aabbs(boxes)) if len(self.aabb_index) else None)
        self.rotated = self._obbs(boxes)  # the poses the OBB tree (or the scan) answers for
        self.obb: Any = (geometry.BoxTree.from_obbs(*self.rotated) if len(self.obb_index)
                         else None)  # its refit takes (center, axes, half_size)

    def _aabbs(self, boxes: Boxes) -> tuple[np.ndarray, np.ndarray]:
        i = self.aabb_index
        return boxes.box_min.take(i, axis=0), boxes.box_max.take(i, axis=0)

    def _obbs(self, boxes: Boxes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        i = self.obb_index
        return (boxes.center.take(i, axis=0), boxes.axes.take(i, axis=0),
                boxes.half_size.take(i, axis=0))

    def refit(self, boxes: Boxes) -> None:
        """The same boxes (which are rotated unchanged) at their new poses."""
        if self.aabb is not None:
            self.aabb.refit(*self._aabbs(boxes))
        rotated, self.rotated = self.rotated, self._obbs(boxes)
        if self.obb is not None:
            moved = np.zeros(len(self.obb_index), dtype=bool)
            for old, new in zip(rotated, self.rotated, strict=True):
                moved |= (old != new).reshape(len(moved), -1).any(axis=1)
            if np.count_nonzero(moved) > OBB_REFIT_MOST:
                self.obb = None
            else:
                self.obb.refit(*self.rotated)

    def hits(self, origin, direction) -> tuple[np.ndarray, np.ndarray]:
        """``(box, t_enter)`` of every box the ray hits (``intersect_ray_aabb`` /
        ``intersect_ray_obb``), box indices ascending."""
        found = [(index[r.box_index], r.t_enter)
                 for tree, index in ((self.aabb, self.aabb_index), (self.obb, self.obb_index))
                 if tree is not None
                 for r in [tree.ray_pairs(origin, direction)]]
        if self.obb is None and len(self.obb_index):
            hit, t_enter = geometry.intersect_ray_obb(origin, direction, *self.rotated)[:2]
            found.append((self.obb_index[hit], np.asarray(t_enter)[hit]))
        box = np.concatenate([b for b, _ in found])
        t = np.concatenate([t for _, t in found]).astype(np.float64)
        order = np.argsort(box, kind="stable")
        return box[order], t[order]


def animate_boxes(base: Boxes, t: float) -> Boxes:
    """The boxes at animation time ``t`` (seconds): a deterministic bob/sway; rotated boxes also
    spin about their y axis. Axis-aligned boxes stay axis-aligned (only translated)."""
    out = base.copy()
    n = len(base)
    if n == 0 or t == 0.0:
        return out
    phase = np.arange(n) * 0.73
    offset = np.stack([0.6 * np.sin(0.7 * t + phase),
                       0.3 * np.sin(1.3 * t + 1.7 * phase),
                       0.6 * np.cos(0.5 * t + 1.3 * phase)], axis=-1)
    out.box_min += offset
    out.box_max += offset
    out.center += offset
    out.rotation[base.is_obb, 1] += 35.0 * t
    out.refresh_bounds()
    return out


class DemoState:
    """The demo's model: a scene plus what the user did to it."""

    def __init__(self, scene: Scene):
        self.explain = False
        #: explain mode's lesson: the step shown (None: live, everything at once) and the scene
        #: triangle explained against the selected box (None: the segment)
        self.lesson_step: int | None = None
        self.lesson_triangle: int | None = None
        self.show_help = False
        self.highlight_triangles = True
        self.show_none = True  # NONE (green) boxes drawn; hidden, picking skips them too
        self.playing = False
        self.load(scene)

    # ------------------------------------------------------------------ scene
    def load(self, scene: Scene) -> None:
        self.scene = scene
        self.base_boxes = scene.boxes.copy()
        self.boxes = scene.boxes.copy()
        self._tree: PickingTrees | None = None  # for picking, built on first use
        self._tree_stale = False  # boxes moved since the tree was built or refitted
        self.start = np.array(scene.segment_start, dtype=np.float64)
        self.end = np.array(scene.segment_end, dtype=np.float64)
        self.anim_time = 0.0
        self.part = "both"  # which segment end the keyboard moves (Tab)
        self.selected: int | None = None
        self.hovered: int | None = None
        self.lesson_step = self.lesson_triangle = None
        #: frustum culling scenes: the camera whose frustum classifies the boxes (else None),
        #: and the boxes outside it that the plane-only test keeps (its false positives)
        self.frustum_camera = (None if scene.frustum_camera is None
                               else replace(scene.frustum_camera))
        self._frustum: tuple[tuple, geometry.Frustum] | None = None  # (camera key, frustum)
        self.false_positive = np.zeros(len(self.boxes), dtype=bool)
        #: sphere scenes: the spheres the boxes are classified against (else none), and the one
        #: the mouse last grabbed (Shift+wheel resizes it, the HUD measures from its centre)
        self.sphere_centers = scene.sphere_centers.copy()
        self.sphere_radii = scene.sphere_radii.copy()
        self.active_sphere = 0
        #: box scenes: the query box the boxes are classified against (else None), and its
        #: rotation, kept while it is axis-aligned so that B switches back to the same OBB
        self.query = None if scene.query_box is None else scene.query_box.copy()
        self.query_rotation = (np.zeros(3) if self.query is None
                               else self.query.rotation[0].copy())
        self.classes, self.false_positive = self._classify(self.boxes)
        self._moved = np.ones(len(self.boxes), dtype=bool)  # everything needs uploading
        self._recoloured = np.ones(len(self.boxes), dtype=bool)
        self.overlaps = triangle_overlaps(scene.triangles, self.boxes)
        self.rays = self._trace_rays()
        self.version = getattr(self, "version", 0) + 1

    # ---------------------------------------------------------------- updates
    def frustum(self) -> geometry.Frustum | None:
        """The frustum culling scene's frustum (of ``frustum_camera``), or None."""
        spec = self.frustum_camera
        if spec is None:
            return None
        key = (tuple(spec.target), spec.distance, spec.yaw, spec.pitch, spec.fov)
        if self._frustum is None or self._frustum[0] != key:  # its exact set-up takes a while
            self._frustum = key, geometry.Frustum.from_matrix(view_projection(spec))
        return self._frustum[1]

    def shows_segment(self) -> bool:
        """Whether the scene classifies by its segment (not a frustum, sphere or box scene)."""
        return self.frustum_camera is None and not len(self.sphere_radii) and self.query is None

    def _classify(self, boxes: Boxes) -> tuple[np.ndarray, np.ndarray]:
        """``(classes, false_positive)`` of ``boxes``: against the frustum in a frustum culling
        scene, the spheres in a sphere scene, else the segment (no false positives)."""
        frustum = self.frustum()
        if frustum is None:
            if len(self.sphere_radii):
                classes = classify_spheres(self.sphere_centers, self.sphere_radii, boxes)
            elif self.query is not None:
                classes = classify_query(self.query, boxes)
            else:
                classes = classify_boxes(self.start, self.end, boxes)
            return classes, np.zeros(len(boxes), dtype=bool)
        culled = cull(boxes, frustum)
        return culled.classes, culled.false_positive

    def _reclassify(self) -> None:
        """Recompute all classes (one vectorised call per box kind); remember which changed.
        The scene's rays do not depend on the segment, so they are left alone."""
        new, fp = self._classify(self.boxes)
        self._recoloured |= (new != self.classes) | (fp != self.false_positive)
        self.classes, self.false_positive = new, fp
        self.version += 1

    def set_frustum_camera(self, spec: CameraSpec) -> None:
        """Move the frustum culling scene's camera to ``spec``; the boxes are classified again."""
        self.frustum_camera = replace(spec)
        self._reclassify()

    def move_sphere(self, index: int, delta) -> None:
        """Translate sphere ``index``; the boxes are classified again."""
        self.sphere_centers[index] += np.asarray(delta, dtype=np.float64)
        self.active_sphere = index
        self._reclassify()

    def scale_sphere(self, factor: float) -> None:
        """Scale the active sphere's radius by ``factor``; the boxes are classified again."""
        self.sphere_radii[self.active_sphere] *= factor
        self._reclassify()

    def set_query(self, delta=(0.0, 0.0, 0.0), *, is_obb: bool | None = None,
                  turn=(0.0, 0.0, 0.0)) -> None:
        """Move the query box by ``delta``, make it oriented or axis-aligned (``is_obb``; None
        keeps it) and turn it by ``turn`` (degrees about x, y, z; an axis-aligned box becomes
        oriented); the boxes are classified again."""
        q = self.query
        assert q is not None, "set_query needs a box scene"
        turn = np.asarray(turn, dtype=np.float64)
        obb = bool(q.is_obb[0]) if is_obb is None else is_obb
        obb = obb or bool(turn.any())
        self.query_rotation = self.query_rotation + turn
        self.query = query_pose(q.center[0] + np.asarray(delta, dtype=np.float64),
                                q.half_size[0], self.query_rotation, obb)
        self._reclassify()

    def sphere_distance(self) -> float | None:
        """Distance from the active sphere's centre to the selected box (None without
        either)."""
        if not len(self.sphere_radii) or self.selected is None:
            return None
        return box_distance(self.sphere_centers[self.active_sphere], self.boxes, self.selected)

    def drawn_classes(self) -> np.ndarray:
        """(N,) what the box shader draws per box: its class, or 3 (app.colors.FALSE_POSITIVE)
        for a false positive of the frustum's plane-only test."""
        if self.frustum_camera is None:
            return self.classes
        return np.where(self.false_positive, np.int8(3), self.classes)

    def _boxes_changed(self, which: np.ndarray | None = None) -> None:
        """Boxes ``which`` (indices; None: all) moved: their classes and triangle overlaps are
        recomputed, the scene's rays traced again, the picking tree refitted when next used."""
        self._tree_stale = True
        self.rays = self._trace_rays()
        if which is None:
            self._moved[:] = True
            self.overlaps = triangle_overlaps(self.scene.triangles, self.boxes)
            self._reclassify()
            return
        self._moved[which] = True
        moved = self.boxes.subset(which)
        self.overlaps[which] = triangle_overlaps(self.scene.triangles, moved)
        new, fp = self._classify(moved)
        self._recoloured[which] |= (new != self.classes[which]) | (fp != self.false_positive[which])
        self.classes[which], self.false_positive[which] = new, fp
        self.version += 1

    def set_segment(self, start=None, end=None) -> None:
        if start is not None:
            self.start = np.array(start, dtype=np.float64)
        if end is not None:
            self.end = np.array(end, dtype=np.float64)
        self._reclassify()

    def move_segment(self, delta, part: str | None = None) -> None:
        """Move ``part`` ("start", "end" or "both"; default: the Tab choice) by ``delta``."""
        part = part or self.part
        delta = np.asarray(delta, dtype=np.float64)
        self.set_segment(self.start + delta if part in ("start", "both") else None,
                         self.end + delta if part in ("end", "both") else None)

    def set_explain(self, on: bool) -> None:
        """Explain mode on or off. On, it needs a box: with none selected, the first non-green
        one (else box 0) is selected."""
        self.explain = on
        if on and self.selected is None and len(self.boxes):
            self.selected = int(np.argmax(self.classes > 0)) if self.classes.any() else 0

    def cycle_part(self) -> str:
        self.part = SEGMENT_PARTS[(SEGMENT_PARTS.index(self.part) + 1) % len(SEGMENT_PARTS)]
        return self.part

    def move_box(self, index: int, delta) -> None:
        """Translate one box (its un-animated pose too, so animation keeps the move)."""
        delta = np.asarray(delta, dtype=np.float64)
        for b in (self.base_boxes, self.boxes):
            b.box_min[index] += delta
            b.box_max[index] += delta
            b.center[index] += delta
        self._boxes_changed(np.array([index]))

    def step(self, dt: float) -> None:
        """Advance the animation clock by ``dt`` seconds if playing (tests pass fixed dt)."""
        if not self.playing or dt <= 0 or len(self.boxes) == 0:
            return
        self.anim_time += dt
        self.boxes = animate_boxes(self.base_boxes, self.anim_time)
        self._boxes_changed()

    # ----------------------------------------------------------------- queries
    def _trace_rays(self) -> RayResult:
        origins, dirs = self.scene.ray_origins, self.scene.ray_directions
        box = np.full(len(origins), -1)
        t = np.full(len(origins), np.inf)
        for r, (o, d) in enumerate(zip(origins, dirs, strict=True)):
            i, ti = first_hit(o, d, self.boxes)
            if i is not None:
                box[r], t[r] = i, ti
        return RayResult(box, t)

    def pick(self, origin, direction) -> tuple[int | None, float]:
        """The box under a picking ray (the first one it hits), among the boxes shown: NONE
        boxes do not count while they are hidden (``show_none`` False). Large scenes pick
        through :class:`PickingTrees`, refitted after boxes moved."""
        if len(self.boxes) < TREE_PICKING:
            if self.show_none:
                return first_hit(origin, direction, self.boxes)
            candidates = np.flatnonzero(self.classes != 0)
            i, t = first_hit(origin, direction, self.boxes.subset(candidates))
            return (None, t) if i is None else (int(candidates[i]), t)
        if self._tree is None:
            self._tree = PickingTrees(self.boxes)
        elif self._tree_stale:
            self._tree.refit(self.boxes)
        self._tree_stale = False
        box, t_enter = self._tree.hits(origin, direction)
        if not self.show_none:
            shown = self.classes[box] != 0
            box, t_enter = box[shown], t_enter[shown]
        if len(box) == 0:
            return None, float("inf")
        i = int(np.argmin(t_enter))  # the lowest index of the nearest, as first_hit
        return int(box[i]), float(t_enter[i])

    def counts(self) -> tuple[int, int, int]:
        """Number of green (NONE), blue (INTERSECT), red (INCLUDE) boxes."""
        c = np.bincount(self.classes.astype(np.intp), minlength=3)
        return int(c[0]), int(c[1]), int(c[2])

    def false_positives(self) -> int:
        """Number of boxes outside the frustum that its plane-only test keeps (drawn orange)."""
        return int(self.false_positive.sum())

    def take_moved(self) -> np.ndarray:
        """Indices of boxes whose pose changed since the last call (for the instance buffer)."""
        idx = np.flatnonzero(self._moved)
        self._moved[:] = False
        return idx

    def take_recoloured(self) -> np.ndarray:
        """Indices of boxes whose class changed since the last call (for the colour buffer)."""
        idx = np.flatnonzero(self._recoloured)
        self._recoloured[:] = False
        return idx
