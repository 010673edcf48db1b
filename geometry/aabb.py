"""The AABB toolbox: an immutable axis-aligned box value and what you do with one."""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_finite_points, as_matrix44, as_points, check_box_bounds

__all__ = ["AABB"]


def _frozen(values: ArrayLike) -> np.ndarray:
    arr = np.array(values, dtype=np.float64)
    arr.flags.writeable = False
    return arr


class AABB:
    """An axis-aligned box: the closed set ``{p : min <= p <= max}``, immutable.

    ``min > max`` on any axis is the empty box; ``AABB.empty()`` (min = +inf, max = -inf) is the
    identity for :meth:`add_points` and :meth:`add_box`. ``min == max`` on an axis is a flat box:
    it has points but no interior. Coordinates are float64; NaN and other infinities are a
    ``ValueError``.
    """

    __slots__ = ("_min", "_max")

    def __init__(self, min: ArrayLike, max: ArrayLike) -> None:  # noqa: A002 - the issue's names
        lo, hi = as_points("min", min), as_points("max", max)
        for name, arr in (("min", lo), ("max", hi)):
            if arr.shape != (3,):
                raise ValueError(f"{name} must have shape (3,), got {arr.shape}")
        check_box_bounds("min", lo, "max", hi)  # +inf in min / -inf in max: an empty box
        object.__setattr__(self, "_min", _frozen(lo))
        object.__setattr__(self, "_max", _frozen(hi))

    def __setattr__(self, name, value):
        raise AttributeError("AABB is immutable; add_points/add_box/transformed return new boxes")

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def empty(cls) -> "AABB":
        """The empty box, min = +inf and max = -inf: the identity for growing by points/boxes."""
        return cls(np.full(3, np.inf), np.full(3, -np.inf))

    @classmethod
    def from_points(cls, points: ArrayLike) -> "AABB":
        """The tightest box around ``points`` ((3,) or (N, 3)); the empty box for N = 0."""
        return cls.empty().add_points(points)

    # -- properties ---------------------------------------------------------------------------
    @property
    def min(self) -> np.ndarray:
        """The min corner, a read-only (3,) float64 array."""
        return self._min

    @property
    def max(self) -> np.ndarray:
        """The max corner, a read-only (3,) float64 array."""
        return self._max

    @property
    def is_empty(self) -> bool:
        """True when ``min > max`` on some axis (the box contains nothing)."""
        return bool(np.any(self._min > self._max))

    @property
    def center(self) -> np.ndarray:
        """``(min + max) / 2``; zeros for an empty box (as three.js does), never NaN."""
        if self.is_empty:
            return np.zeros(3)
        return self._min + (self._max - self._min) / 2

    @property
    def size(self) -> np.ndarray:
        """``max - min``; zeros for an empty box."""
        return np.zeros(3) if self.is_empty else self._max - self._min

    @property
    def half_size(self) -> np.ndarray:
        """``(max - min) / 2``; zeros for an empty box."""
        return self.size / 2

    def corner(self, i: int) -> np.ndarray:
        """Corner ``i`` in 0..7: bit 0 of ``i`` picks min/max x, bit 1 y, bit 2 z."""
        if not isinstance(i, (int, np.integer)) or not 0 <= i <= 7:
            raise ValueError(f"i must be an integer in 0..7, got {i!r}")
        self._require_nonempty("corner")
        bits = np.array([(i >> k) & 1 for k in range(3)], dtype=bool)
        return np.where(bits, self._max, self._min)

    def corners(self) -> np.ndarray:
        """The 8 corners as an (8, 3) array, row i = :meth:`corner` (i)."""
        self._require_nonempty("corners")
        bits = ((np.arange(8)[:, None] >> np.arange(3)) & 1).astype(bool)
        return np.where(bits, self._max, self._min)

    # -- queries ------------------------------------------------------------------------------
    def contains(self, point: ArrayLike) -> Union[bool, np.ndarray]:
        """True for each point in the closed box (on the boundary counts); never for an empty box.

        ``point`` is (3,) -> bool, or (N, 3) -> (N,) bool.
        """
        p = as_finite_points("point", point)
        inside = np.all((self._min <= p) & (p <= self._max), axis=-1)
        return bool(inside) if inside.ndim == 0 else inside

    def closest_point(self, point: ArrayLike) -> np.ndarray:
        """The point of the closed box nearest to each ``point`` (the point itself if inside).

        Per axis this is ``clip(p, min, max)`` (Ericson, RTCD 5.1.3). An empty box has no points:
        ``ValueError``.
        """
        p = as_finite_points("point", point)
        self._require_nonempty("closest_point")
        return np.clip(p, self._min, self._max)

    def add_points(self, points: ArrayLike) -> "AABB":
        """A new box that also contains ``points`` ((3,) or (N, 3); N may be 0)."""
        p = as_finite_points("points", points).reshape(-1, 3)
        if len(p) == 0:
            return self
        if self.is_empty:
            return AABB(p.min(axis=0), p.max(axis=0))
        return AABB(np.minimum(self._min, p.min(axis=0)), np.maximum(self._max, p.max(axis=0)))

    def add_box(self, other: "AABB") -> "AABB":
        """A new box that also contains ``other`` (adding an empty box changes nothing)."""
        if not isinstance(other, AABB):
            raise ValueError(f"other must be an AABB, got {type(other).__name__}")
        if other.is_empty:
            return self
        if self.is_empty:
            return other
        return AABB(np.minimum(self._min, other._min), np.maximum(self._max, other._max))

    def transformed(self, matrix: ArrayLike) -> "AABB":
        """The tightest AABB of this box under an affine 4x4 ``matrix`` (pyrr convention).

        Arvo's method (Graphics Gems, 1990): each output axis j takes, from each input axis i,
        the smaller/larger of ``M[i, j] * min_i`` and ``M[i, j] * max_i``, plus the translation
        ``M[3, j]`` -- the same bounds as transforming the 8 corners, at a fraction of the work.
        Row vectors: ``p' = [p, 1] @ M``, translation in the last row; a projective matrix (last
        column not (0, 0, 0, 1)) is a ``ValueError``. The empty box stays empty.
        """
        m = as_matrix44("matrix", matrix)
        if self.is_empty:
            return self
        a = self._min[:, None] * m[:3, :3]  # a[i, j] = min_i * M[i, j]
        b = self._max[:, None] * m[:3, :3]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        # Summed in row order with the translation last, as [p, 1] @ M adds its terms.
        return AABB(lo[0] + lo[1] + lo[2] + m[3, :3], hi[0] + hi[1] + hi[2] + m[3, :3])

    def classify(self, segment) -> "IntersectionType":  # noqa: F821 - see results
        """This box against a :class:`~geometry.Segment` (see ``classify_segment_aabb``)."""
        from .segment_box import classify_segment_aabb

        return classify_segment_aabb(segment.start, segment.end, self._min, self._max)

    def intersect(self, ray) -> "RayHit":  # noqa: F821 - see results
        """A :class:`~geometry.Ray` against this box (see ``intersect_ray_aabb``)."""
        from .ray_box import intersect_ray_aabb

        return intersect_ray_aabb(ray.origin, ray.direction, self._min, self._max, ray.t_min, ray.t_max)

    def overlaps(self, triangle) -> bool:
        """Whether a :class:`~geometry.Triangle` overlaps this box (see ``triangle_overlaps_aabb``)."""
        from .triangle_box import triangle_overlaps_aabb

        return triangle_overlaps_aabb(triangle.v0, triangle.v1, triangle.v2, self._min, self._max)

    # -- value semantics ----------------------------------------------------------------------
    def _require_nonempty(self, what: str) -> None:
        if self.is_empty:
            raise ValueError(f"{what} of an empty AABB is undefined (min > max on some axis)")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AABB):
            return NotImplemented
        if self.is_empty and other.is_empty:
            return True
        return bool(np.array_equal(self._min, other._min) and np.array_equal(self._max, other._max))

    def __hash__(self) -> int:
        if self.is_empty:
            return hash(("AABB", "empty"))
        return hash((tuple(self._min.tolist()), tuple(self._max.tolist())))

    def __repr__(self) -> str:
        if self.is_empty and np.isinf(self._min).all():
            return "AABB.empty()"
        return f"AABB(min={self._min.tolist()}, max={self._max.tolist()})"
