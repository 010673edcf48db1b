"""Explain mode in a sphere scene: why the selected box has its class, against the sphere that
gives it (the active one where it does). The point of the box nearest the sphere's centre
(``geometry.AABB.closest_point`` / ``OBB.closest_point``), the segment from the centre to it,
and a number line comparing its length (``geometry.distance_point_aabb`` /
``distance_point_obb``) with the radius; the class is
``geometry.classify_sphere_aabb`` / ``classify_sphere_obb``'s. One step: there is nothing to
take in order.
"""

from __future__ import annotations

import numpy as np

import geometry
from app import colors
from app.hud import fmt_number
from app.lesson_layout import FONT, ROW, TEXT, Lesson, NumberLine, finish_panel, rgba
from app.spheres import box_distance
from app.state import DemoState

SPHERE_STEPS = 1
DISTANCE_COLOR = (0.2, 0.95, 0.9)  # the centre-to-box segment and its bar (teal: no class)
RADIUS_COLOR = colors.SPHERE
RULE_TEXT = {
    geometry.IntersectionType.NONE: "distance > radius: no common point, NONE",
    geometry.IntersectionType.INTERSECT: "distance <= radius: the ball reaches the box, INTERSECT",
    geometry.IntersectionType.INCLUDE: "the ball lies in the box's open interior: INCLUDE",
}


def closest_point(state: DemoState, index: int, point: np.ndarray) -> np.ndarray:
    """The point of box ``index`` nearest ``point`` (geometry's ``closest_point``)."""
    b = state.boxes
    if b.is_obb[index]:
        return geometry.OBB(b.center[index], b.axes[index], b.half_size[index]).closest_point(point)
    return geometry.AABB(b.box_min[index], b.box_max[index]).closest_point(point)


def sphere_class(state: DemoState, index: int, sphere: int) -> geometry.IntersectionType:
    """Box ``index``'s class against sphere ``sphere`` alone."""
    b, c, r = state.boxes, state.sphere_centers[sphere], state.sphere_radii[sphere]
    if b.is_obb[index]:
        kind = geometry.classify_sphere_obb(c, r, b.center[index], b.axes[index],
                                            b.half_size[index])
    else:
        kind = geometry.classify_sphere_aabb(c, r, b.box_min[index], b.box_max[index])
    return geometry.IntersectionType(int(kind))


def sphere_lesson(state: DemoState, index: int, origin: tuple[float, float],
                  char_w: float) -> Lesson:
    """The distance view for box ``index`` and the sphere that gives it its class (the
    highest class over the spheres): the active sphere if it does, else the first that does."""
    order = [state.active_sphere, *range(len(state.sphere_radii))]
    sphere = next(s for s in order if sphere_class(state, index, s) == state.classes[index])
    center, radius = state.sphere_centers[sphere], float(state.sphere_radii[sphere])
    nearest = closest_point(state, index, center)
    distance = box_distance(center, state.boxes, index)
    kind = sphere_class(state, index, sphere)
    title = f"distance, sphere #{sphere}'s centre to box #{index}"
    les = Lesson(title, SPHERE_STEPS, None)
    x, y = origin
    les.texts.append((x, y, title, TEXT, FONT))
    les.thick.append((center, nearest, rgba(DISTANCE_COLOR, 0.95)))
    les.points.append((center, rgba(RADIUS_COLOR), 9.0))
    les.points.append((nearest, rgba(DISTANCE_COLOR), 10.0))
    line = NumberLine(les, x, y + ROW * 1.2, [distance, radius], char_w)
    top = max(distance, radius, 1e-9)
    line.t_lo, line.t_hi = -0.05 * top, 1.1 * top  # 0 inside the view: no clipped-end label
    where = ", ".join(f"{v:.3g}" for v in nearest)
    line.row("closest", f"closest point ({where})", TEXT)
    line.row("distance", f"distance {fmt_number(distance)}", rgba(DISTANCE_COLOR), 0.0, distance)
    line.row("radius", f"radius {fmt_number(radius)}", rgba(RADIUS_COLOR), 0.0, radius)
    finish_panel(les, line, origin, RULE_TEXT[kind], colors.CLASS_RGB[kind])
    return les
