"""The query primitives as values: Segment, Ray, Triangle, Sphere.

Each holds validated float64 arrays, (3,) for one item or (N, 3) for many (``_value.Value``),
and asks its query of a box, ``segment.classify(box)``, ``ray.intersect(box)``,
``triangle.overlaps(box)``, ``sphere.classify(box)``, through the query functions: one
implementation of each test.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validate import RADIUS, as_finite_points, as_scalars, check_elements, check_nonzero_direction
from ._value import Value
from .aabb import AABB
from .obb import OBB
from .ray_aabb import intersect_ray_aabb
from .ray_obb import intersect_ray_obb
from .results import IntersectionType, RayHit
from .segment_aabb import classify_segment_aabb
from .segment_obb import classify_segment_obb
from .sphere_aabb import classify_sphere_aabb
from .sphere_obb import classify_sphere_obb
from .triangle_aabb import triangle_overlaps_aabb
from .triangle_obb import triangle_overlaps_obb

__all__ = ["Segment", "Ray", "Triangle", "Sphere"]


class Segment(Value):
    """The segment ``{start + t (end - start) : 0 <= t <= 1}``; ``start == end`` is a point."""

    __slots__ = ("_start", "_end")
    _start: np.ndarray
    _end: np.ndarray
    _fields = ("start", "end")

    def __init__(self, start: ArrayLike, end: ArrayLike) -> None:
        self._freeze(start=as_finite_points("start", start), end=as_finite_points("end", end))

    @property
    def start(self) -> np.ndarray:
        return self._start

    @property
    def end(self) -> np.ndarray:
        return self._end

    def reversed(self) -> Segment:
        """The same point set walked the other way (its class against any box is the same)."""
        return Segment(self._end, self._start)

    def classify(self, box: AABB | OBB) -> IntersectionType | np.ndarray:
        """NONE, INTERSECT or INCLUDE against an :class:`AABB` or :class:`OBB`."""
        if isinstance(box, AABB):
            return classify_segment_aabb(self._start, self._end, box.min, box.max)
        if isinstance(box, OBB):
            return classify_segment_obb(self._start, self._end, box.center, box.axes, box.half_size)
        raise ValueError(f"box must be an AABB or an OBB, got {type(box).__name__}")


class Ray(Value):
    """The ray ``{origin + t direction : t_min <= t <= t_max}``; t in units of ``direction``.

    ``direction`` need not be unit length; a zero direction is a ``ValueError``.
    """

    __slots__ = ("_origin", "_direction", "_t_min", "_t_max")
    _origin: np.ndarray
    _direction: np.ndarray
    _t_min: np.ndarray
    _t_max: np.ndarray
    _fields = ("origin", "direction", "t_min", "t_max")

    def __init__(
        self,
        origin: ArrayLike,
        direction: ArrayLike,
        t_min: ArrayLike = 0.0,
        t_max: ArrayLike = np.inf,
    ) -> None:
        direction = as_finite_points("direction", direction)
        check_nonzero_direction("direction", direction)
        self._freeze(
            origin=as_finite_points("origin", origin),
            direction=direction,
            t_min=as_scalars("t_min", t_min, allow="-"),
            t_max=as_scalars("t_max", t_max, allow="+"),
        )

    @property
    def origin(self) -> np.ndarray:
        return self._origin

    @property
    def direction(self) -> np.ndarray:
        return self._direction

    @property
    def t_min(self) -> float | np.ndarray:
        return float(self._t_min) if self._t_min.ndim == 0 else self._t_min

    @property
    def t_max(self) -> float | np.ndarray:
        return float(self._t_max) if self._t_max.ndim == 0 else self._t_max

    def at(self, t: ArrayLike) -> np.ndarray:
        """The point ``origin + t direction`` ((3,) for a scalar t, (N, 3) for (N,) t).

        ``t`` must be finite (a miss's ``t_enter`` is ``inf``: there is no point to give), and a
        point beyond float64 is a ``ValueError``."""
        t = as_scalars("t", t)
        with np.errstate(over="ignore", invalid="ignore"):
            point: np.ndarray = self._origin + t[..., None] * self._direction
        if not np.isfinite(point).all():
            raise ValueError("the point origin + t direction is beyond float64")
        return point

    def intersect(self, box: AABB | OBB) -> RayHit:
        """``(hit, t_enter, t_exit)`` against an :class:`AABB` or :class:`OBB`."""
        if isinstance(box, AABB):
            return intersect_ray_aabb(
                self._origin, self._direction, box.min, box.max, self._t_min, self._t_max
            )
        if isinstance(box, OBB):
            return intersect_ray_obb(
                self._origin,
                self._direction,
                box.center,
                box.axes,
                box.half_size,
                self._t_min,
                self._t_max,
            )
        raise ValueError(f"box must be an AABB or an OBB, got {type(box).__name__}")


class Triangle(Value):
    """The closed triangle with vertices ``v0, v1, v2``; degenerate ones are segments or points."""

    __slots__ = ("_v0", "_v1", "_v2")
    _v0: np.ndarray
    _v1: np.ndarray
    _v2: np.ndarray
    _fields = ("v0", "v1", "v2")

    def __init__(self, v0: ArrayLike, v1: ArrayLike, v2: ArrayLike) -> None:
        self._freeze(
            v0=as_finite_points("v0", v0),
            v1=as_finite_points("v1", v1),
            v2=as_finite_points("v2", v2),
        )

    @property
    def v0(self) -> np.ndarray:
        return self._v0

    @property
    def v1(self) -> np.ndarray:
        return self._v1

    @property
    def v2(self) -> np.ndarray:
        return self._v2

    def overlaps(self, box: AABB | OBB) -> bool | np.ndarray:
        """Whether the triangle shares a point with an :class:`AABB` or :class:`OBB`."""
        if isinstance(box, AABB):
            return triangle_overlaps_aabb(self._v0, self._v1, self._v2, box.min, box.max)
        if isinstance(box, OBB):
            return triangle_overlaps_obb(self._v0, self._v1, self._v2, box.center, box.axes,
                                         box.half_size)
        raise ValueError(f"box must be an AABB or an OBB, got {type(box).__name__}")


class Sphere(Value):
    """The closed ball ``{p : |p - center| <= radius}``; ``radius`` 0 is a point.

    ``center`` is (3,) or (N, 3), ``radius`` a scalar or one per centre; a negative or
    non-finite radius is a ``ValueError`` naming ``radius``.
    """

    __slots__ = ("_center", "_radius")
    _center: np.ndarray
    _radius: np.ndarray
    _fields = ("center", "radius")

    def __init__(self, center: ArrayLike, radius: ArrayLike) -> None:
        r = as_scalars("radius", radius)
        check_elements("radius", r, RADIUS)
        self._freeze(center=as_finite_points("center", center), radius=r)

    @property
    def center(self) -> np.ndarray:
        return self._center

    @property
    def radius(self) -> float | np.ndarray:
        return float(self._radius) if self._radius.ndim == 0 else self._radius

    def classify(self, box: AABB | OBB) -> IntersectionType | np.ndarray:
        """NONE (no common point), INCLUDE (the ball lies in the box's open interior) or
        INTERSECT, against an :class:`AABB` or :class:`OBB`: :func:`classify_sphere_aabb`,
        :func:`classify_sphere_obb`."""
        if isinstance(box, AABB):
            return classify_sphere_aabb(self._center, self._radius, box.min, box.max)
        if isinstance(box, OBB):
            return classify_sphere_obb(self._center, self._radius, box.center, box.axes,
                                       box.half_size)
        raise ValueError(f"box must be an AABB or an OBB, got {type(box).__name__}")
