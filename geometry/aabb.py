"""The AABB toolbox: an immutable axis-aligned box value and what you do with one."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._exact import scaled, to_float
from ._validate import as_finite_points, as_matrix44, as_points, check_box_bounds
from ._value import Value
from .aabb_aabb import classify_aabb_aabb
from .aabb_obb import classify_aabb_obb
from .point_aabb import distance_point_aabb
from .results import IntersectionType

__all__ = ["AABB"]


class AABB(Value):
    """An axis-aligned box: the closed set ``{p : min <= p <= max}``, immutable.

    ``min > max`` on any axis is the empty box; ``AABB.empty()`` (min = +inf, max = -inf) is the
    identity for :meth:`add_points` and :meth:`add_box`. ``min == max`` on an axis is a flat box:
    it has points but no interior. Coordinates are float64; NaN and other infinities are a
    ``ValueError``.
    """

    __slots__ = ("_min", "_max")
    _fields = ("min", "max")
    _min: np.ndarray
    _max: np.ndarray

    def __init__(self, min: ArrayLike, max: ArrayLike) -> None:  # noqa: A002 - the issue's names
        lo, hi = as_points("min", min), as_points("max", max)
        for name, arr in (("min", lo), ("max", hi)):
            if arr.shape != (3,):
                raise ValueError(f"{name} must have shape (3,), got {arr.shape}")
        check_box_bounds("min", lo, "max", hi)  # +inf in min / -inf in max: an empty box
        self._freeze(min=lo.astype(np.float64), max=hi.astype(np.float64))

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def empty(cls) -> AABB:
        """The empty box, min = +inf and max = -inf: the identity for growing by points/boxes."""
        return cls(np.full(3, np.inf), np.full(3, -np.inf))

    @classmethod
    def from_points(cls, points: ArrayLike) -> AABB:
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
        """``(min + max) / 2``; zeros for an empty box (as three.js does), never NaN or inf.

        ``min + (max - min) / 2`` (one rounding, exact for dyadic boxes), or ``min / 2 + max / 2``
        on axes where ``max - min`` overflows."""
        if self.is_empty:
            return np.zeros(3)
        with np.errstate(over="ignore"):
            size = self._max - self._min
            return np.where(np.isfinite(size), self._min + size / 2,
                            self._min / 2 + self._max / 2)

    @property
    def size(self) -> np.ndarray:
        """``max - min``; zeros for an empty box. ``ValueError`` where it exceeds float64."""
        if self.is_empty:
            return np.zeros(3)
        with np.errstate(over="ignore"):
            size = self._max - self._min
        if not np.isfinite(size).all():
            raise ValueError(f"size of {self!r} exceeds float64 on some axis; half_size and "
                             "center are finite")
        return np.asarray(size)

    @property
    def half_size(self) -> np.ndarray:
        """``(max - min) / 2``; zeros for an empty box (``max / 2 - min / 2`` on axes where
        ``max - min`` overflows)."""
        if self.is_empty:
            return np.zeros(3)
        with np.errstate(over="ignore"):
            size = self._max - self._min
            return np.where(np.isfinite(size), size / 2, self._max / 2 - self._min / 2)

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
    def contains(self, point: ArrayLike) -> bool | np.ndarray:
        """True for each point in the closed box (on the boundary counts); never for an empty box.

        ``point`` is (3,) -> bool, or (N, 3) -> (N,) bool.
        """
        p = as_finite_points("point", point)
        inside = np.all((self._min <= p) & (p <= self._max), axis=-1)
        return bool(inside) if inside.ndim == 0 else inside

    def classify(self, other: Value) -> IntersectionType:
        """This box against ``other``, an AABB or an OBB: NONE (no common point), INCLUDE (this
        box lies in ``other``'s open interior) or INTERSECT; :func:`classify_aabb_aabb`,
        :func:`classify_aabb_obb`."""
        if isinstance(other, AABB):
            return classify_aabb_aabb(self._min, self._max, other._min,  # type: ignore[return-value]
                                      other._max)
        # an OBB, known by its fields (the obb module imports this one)
        if isinstance(other, Value) and other._fields == ("center", "axes", "half_size"):
            return classify_aabb_obb(self._min, self._max,  # type: ignore[return-value]
                                     *other._values())
        raise ValueError(f"other must be an AABB or an OBB, got {type(other).__name__}")

    def distance(self, point: ArrayLike) -> float | np.ndarray:
        """The distance from each point to the box, faithfully rounded (0 inside or on it,
        ``inf`` for an empty box): :func:`distance_point_aabb`, ``point`` (3,) -> float,
        (N, 3) -> (N,)."""
        return distance_point_aabb(point, self._min, self._max)

    def closest_point(self, point: ArrayLike) -> np.ndarray:
        """The point of the closed box nearest to each ``point`` (the point itself if inside).

        Per axis this is ``clip(p, min, max)`` (Ericson, RTCD 5.1.3). An empty box has no points:
        ``ValueError``.
        """
        p = as_finite_points("point", point)
        self._require_nonempty("closest_point")
        closest: np.ndarray = np.clip(p, self._min, self._max)
        return closest

    def add_points(self, points: ArrayLike) -> AABB:
        """A new box that also contains ``points`` ((3,) or (N, 3); N may be 0)."""
        p = as_finite_points("points", points).reshape(-1, 3)
        if len(p) == 0:
            return self
        if self.is_empty:
            return AABB(p.min(axis=0), p.max(axis=0))
        return AABB(np.minimum(self._min, p.min(axis=0)), np.maximum(self._max, p.max(axis=0)))

    def add_box(self, other: AABB) -> AABB:
        """A new box that also contains ``other`` (adding an empty box changes nothing)."""
        if not isinstance(other, AABB):
            raise ValueError(f"other must be an AABB, got {type(other).__name__}")
        if other.is_empty:
            return self
        if self.is_empty:
            return other
        return AABB(np.minimum(self._min, other._min), np.maximum(self._max, other._max))

    def transformed(self, matrix: ArrayLike) -> AABB:
        """The smallest AABB that holds this box moved by an affine 4x4 ``matrix`` (pyrr
        convention): the exact bounds, the min rounded down and the max rounded up, so that no
        moved point is outside it, and exactly the moved corners' box wherever that is made of
        floats.

        Arvo's method (Graphics Gems, 1990), in exact arithmetic: each output axis j takes,
        from each input axis i, the smaller/larger of ``M[i, j] * min_i`` and ``M[i, j] * max_i``,
        plus the translation ``M[3, j]`` -- the same bounds as moving the 8 corners. Row vectors:
        ``p' = [p, 1] @ M``, translation in the last row; a projective matrix (last column not
        (0, 0, 0, 1)) is a ``ValueError``, and so is an image beyond float64. The empty box stays
        empty.
        """
        m = as_matrix44("matrix", matrix)
        if self.is_empty:
            return self
        # in integers on one scale (exact): M[i, j] * min_i on unit**2, the translation lifted to it
        unit, ints = scaled(*m[:, :3].ravel().tolist(), *self._min.tolist(), *self._max.tolist())
        lo, hi = [], []
        for j in range(3):
            low = high = ints[9 + j] * unit
            for i in range(3):
                a, b = ints[3 * i + j] * ints[12 + i], ints[3 * i + j] * ints[15 + i]
                low, high = low + min(a, b), high + max(a, b)
            lo.append(to_float(low, -1, unit * unit))
            hi.append(to_float(high, 1, unit * unit))
        if not np.isfinite(lo + hi).all():
            raise ValueError(f"{self!r} moved by matrix reaches beyond float64")
        return AABB(lo, hi)

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
