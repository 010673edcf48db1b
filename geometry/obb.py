"""The oriented box value, OBB.

``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given (SEMANTICS.md), the axes
as the rows of a 3x3 array; a negative half size is an empty box. Its methods answer for those
floats exactly: ``contains`` and ``closest_point`` by the float frame change where its error
bound allows and in rationals near the boundary, ``corners`` and ``aabb`` from the box solved
exactly and rounded once. The queries against oriented boxes are in ``segment_obb``,
``ray_obb``, ``triangle_obb`` and the box vs box modules (:meth:`OBB.classify` calls them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._exact import rational, scaled, to_float, to_frame_rational
from ._tolerances import UNDERFLOW_SLACK, UNIT_ROUNDOFF
from ._validate import (
    as_axes,
    as_finite_points,
    as_matrix44,
    check_finite,
    check_orthonormal,
)
from ._value import Value
from .aabb import AABB
from .obb_aabb import classify_obb_aabb
from .obb_obb import classify_obb_obb
from .point_obb import distance_point_obb
from .results import IntersectionType

__all__ = ["OBB"]


def _obb_arguments(center: ArrayLike, axes: ArrayLike,
                   half_size: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    center = as_finite_points("center", center)
    axes = as_axes("axes", axes)
    check_finite("axes", axes)
    check_orthonormal("axes", axes)
    half_size = as_finite_points("half_size", half_size)
    return center, axes, half_size


def _frame_error(
    dtype: type[np.floating[Any]], axes: np.ndarray, *offsets: np.ndarray
) -> np.ndarray:
    """Per item and axis, a bound on |computed - exact| of ``axes @ offset`` for each of the
    ``offsets`` (computed ``p - center``, or directions): one rounding of the offset, three of
    the dot product (a first-order count of 4 units times ``|axes| @ |offset|``; 8 allowed)."""
    unit, slack = UNIT_ROUNDOFF[dtype], UNDERFLOW_SLACK[dtype]
    magnitude = np.abs(axes)
    err = np.zeros(())
    for offset in offsets:
        err = np.maximum(err, np.einsum("...ij,...j->...i", magnitude, np.abs(offset)))
    return 8 * unit * err + slack


def _bracket(half_size: np.ndarray, err: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(shrunk, grown)`` half sizes, rounded outwards so the bracket is never narrower."""
    with np.errstate(over="ignore"):
        half = np.asarray(half_size, dtype=np.float64)
        big = np.finfo(np.float64).max
        err = np.minimum(err, big)  # an unbounded error: the grown box is as large as floats go
        shrunk = np.maximum(np.nextafter(half - err, -np.inf), -big)
        return shrunk, np.minimum(np.nextafter(half + err, np.inf), big)


class OBB(Value):
    """An oriented box ``{p : |axes[i] . (p - center)| <= half_size_i for each i}`` (SEMANTICS.md),
    immutable; for exactly orthonormal axes, ``{center + axes.T @ u : |u_i| <= half_size_i}``.

    ``axes`` is a 3x3 array whose ROWS are the box's orthonormal unit axes (within 1e-6, else
    ``ValueError``); coordinates are float64. A negative half size is an empty box. ``contains``,
    ``corners`` and ``aabb`` hold for the box of the floats given, axes as they are.
    """

    __slots__ = ("_center", "_axes", "_half_size")
    _fields = ("center", "axes", "half_size")
    _center: np.ndarray
    _axes: np.ndarray
    _half_size: np.ndarray

    def __init__(self, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike) -> None:
        center, axes, half_size = _obb_arguments(center, axes, half_size)
        for name, arr, shape in (("center", center, (3,)), ("axes", axes, (3, 3)),
                                 ("half_size", half_size, (3,))):
            if arr.shape != shape:
                raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
        self._freeze(center=center.astype(np.float64), axes=axes.astype(np.float64),
                     half_size=half_size.astype(np.float64))

    @classmethod
    def from_aabb(cls, box: AABB, matrix: ArrayLike) -> OBB:
        """The image of ``box`` under a rigid 4x4 ``matrix`` (pyrr convention: ``[p, 1] @ M``).

        The rotation part's rows become the axes (``[1, 0, 0] @ R`` is R's row 0), the box's centre
        is transformed, the half sizes are kept. A matrix that scales, shears or projects is a
        ``ValueError``, and so is an empty box.
        """
        if not isinstance(box, AABB):
            raise ValueError(f"box must be an AABB, got {type(box).__name__}")
        if box.is_empty:
            raise ValueError("box is empty: an empty AABB has no oriented image")
        m = as_matrix44("matrix", matrix)
        try:
            check_orthonormal("matrix", m[:3, :3])
        except ValueError as exc:
            raise ValueError(
                f"matrix must be rigid (rotation and translation only): {exc}") from None
        with np.errstate(over="ignore", invalid="ignore"):
            center = box.center @ m[:3, :3] + m[3, :3]
        if not np.isfinite(center).all():
            raise ValueError(f"{box!r} moved by matrix has its centre beyond float64")
        return cls(center, m[:3, :3], box.half_size)

    @property
    def center(self) -> np.ndarray:
        """The centre, a read-only (3,) array."""
        return self._center

    @property
    def axes(self) -> np.ndarray:
        """The unit axes as the ROWS of a read-only (3, 3) array."""
        return self._axes

    @property
    def half_size(self) -> np.ndarray:
        """Half the extent along each axis, a read-only (3,) array."""
        return self._half_size

    def contains(self, point: ArrayLike) -> bool | np.ndarray:
        """True for each point in the closed box (exactly: ``|axes @ (p - center)| <=
        half_size``); ``point`` (3,) -> bool, (N, 3) -> (N,) bool."""
        point = as_finite_points("point", point)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            offset = point - self._center
            inside = self._holds(point, offset, offset @ self._axes.T)
        return bool(inside) if inside.ndim == 0 else inside

    def classify(self, other: AABB | OBB) -> IntersectionType:
        """This box against ``other``, an AABB or an OBB: NONE (no common point), INCLUDE (this
        box lies in ``other``'s open interior) or INTERSECT; :func:`classify_obb_aabb`,
        :func:`classify_obb_obb`."""
        if isinstance(other, AABB):
            return classify_obb_aabb(self._center, self._axes,  # type: ignore[return-value]
                                     self._half_size, other.min, other.max)
        if isinstance(other, OBB):
            return classify_obb_obb(self._center, self._axes,  # type: ignore[return-value]
                                    self._half_size, other._center, other._axes,
                                    other._half_size)
        raise ValueError(f"other must be an AABB or an OBB, got {type(other).__name__}")

    def distance(self, point: ArrayLike) -> float | np.ndarray:
        """The distance from each point to the box as evaluated, faithfully rounded (0 inside
        or on it, ``inf`` for an empty box): :func:`distance_point_obb`, ``point`` (3,) ->
        float, (N, 3) -> (N,)."""
        return distance_point_obb(point, self._center, self._axes, self._half_size)

    def _holds(self, point: np.ndarray, offset: np.ndarray, local: np.ndarray) -> np.ndarray:
        """Per point, whether the box holds it, exactly: ``local = offset @ axes.T`` computed
        in floats (``offset = point - center``) decides where its error bound allows; near the
        boundary, or where the float frame change overflowed, the exact frame decides."""
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            local = np.abs(local)
            shrunk, grown = _bracket(self._half_size, _frame_error(np.float64, self._axes, offset))
        inside = np.array(np.all(local <= shrunk, axis=-1))
        unsure = ~inside & (np.all(local <= grown, axis=-1) | ~np.all(np.isfinite(local), axis=-1))
        for index in map(tuple, np.argwhere(unsure)):
            u = to_frame_rational(point[index], self._center, self._axes)
            inside[index] = all(abs(x) <= rational(h)
                                for x, h in zip(u, self._half_size, strict=True))
        return inside

    def closest_point(self, point: ArrayLike) -> np.ndarray:
        """The point of the closed box nearest to each ``point``: the point itself if the box
        holds it (:meth:`contains`), else (Ericson, RTCD 5.1.4)
        ``center + axes.T @ clip(axes @ (point - center), -half_size, half_size)``, in floats;
        where those overflow, evaluated exactly and rounded to nearest (a ``ValueError`` if the
        point is beyond float64). An empty box (a negative half size) is a ``ValueError``."""
        point = as_finite_points("point", point)
        if np.any(self._half_size < 0):
            raise ValueError("closest_point of an empty OBB (negative half_size) is undefined")
        with np.errstate(over="ignore", invalid="ignore"):
            offset = point - self._center
            local = offset @ self._axes.T
            clipped = np.clip(local, -self._half_size, self._half_size)
            nearest: np.ndarray = np.array(self._center + clipped @ self._axes)
        inside = self._holds(point, offset, local)
        nearest[inside] = point[inside]
        for index in map(tuple, np.argwhere(~np.all(np.isfinite(nearest), axis=-1))):
            u = to_frame_rational(point[index], self._center, self._axes)
            clipped = [max(-rational(h), min(rational(h), x))
                       for x, h in zip(u, self._half_size, strict=True)]
            nearest[index] = [to_float(rational(self._center[j])
                                       + sum(rational(self._axes[i, j]) * clipped[i]
                                             for i in range(3))) for j in range(3)]
            if not np.isfinite(nearest[index]).all():
                raise ValueError(f"closest_point of {self!r} to {point[index].tolist()} is "
                                 "beyond float64")
        return nearest

    def corners(self) -> np.ndarray:
        """The 8 corners, (8, 3): bit k of the row index picks ``-/+ half_size`` along axis k.

        Each corner is the box's exact corner (the point whose frame coordinates are
        ``+-half_size``, solved exactly for the axes given) rounded to nearest; a ``ValueError``
        for a corner beyond float64, and for an empty box (a negative half size)."""
        if np.any(self._half_size < 0):
            raise ValueError("corners of an empty OBB (negative half_size) are undefined")
        unit, center, edges, det, half = self._exact_edges()
        # corner = center + edges @ (+-half) / det, on the scale unit * det
        out = np.empty((8, 3))
        for bits in range(8):
            u = [half[i] if (bits >> i) & 1 else -half[i] for i in range(3)]
            for j in range(3):
                num = center[j] * det + unit * sum(edges[j][i] * u[i] for i in range(3))
                out[bits, j] = to_float(num, 0, unit * det)
        if not np.isfinite(out).all():
            raise ValueError(f"corners of {self!r} reach beyond float64")
        return out

    def aabb(self) -> AABB:
        """The smallest AABB that holds the box: per axis, the exact extent of the box (solved
        exactly for the axes given), its min rounded down and its max rounded up, so that no
        point of the box is outside it. ``AABB.empty()`` for an empty box (a negative half size);
        a ``ValueError`` where the box reaches beyond float64."""
        if np.any(self._half_size < 0):
            return AABB.empty()
        unit, center, edges, det, half = self._exact_edges()
        det = abs(det)
        lo, hi = [], []
        for j in range(3):
            extent = unit * sum(abs(edges[j][i]) * half[i] for i in range(3))
            lo.append(to_float(center[j] * det - extent, -1, unit * det))
            hi.append(to_float(center[j] * det + extent, 1, unit * det))
        if not np.isfinite(lo + hi).all():
            raise ValueError(f"aabb of {self!r} reaches beyond float64")
        return AABB(lo, hi)

    def _exact_edges(self) -> tuple[int, list[int], list[list[int]], int, list[int]]:
        """``(unit, center, edges, det, half)``: the box in integers on one scale (values are
        ``x / unit``, :func:`scaled`), with the exact inverse of the axes (as given, so
        orthonormal only within rounding) as ``edges * unit / det``: column i of ``edges`` is
        the box's i-th edge direction, ``p = center + edges @ u * unit / det`` for frame
        coordinates ``u``."""
        unit, ints = scaled(*self._center.tolist(), *self._axes.ravel().tolist(),
                            *self._half_size.tolist())
        a = [ints[3:6], ints[6:9], ints[9:12]]
        cof = [[a[(i + 1) % 3][(j + 1) % 3] * a[(i + 2) % 3][(j + 2) % 3]
                - a[(i + 1) % 3][(j + 2) % 3] * a[(i + 2) % 3][(j + 1) % 3] for j in range(3)]
               for i in range(3)]
        det = sum(a[0][j] * cof[0][j] for j in range(3))  # near +-unit**3: orthonormal rows
        return unit, ints[:3], [[cof[i][j] for i in range(3)] for j in range(3)], det, ints[12:]
