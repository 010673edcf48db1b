"""Oriented boxes: the OBB value, and segment/ray/triangle queries against OBBs.

An OBB query moves the segment, ray or triangle into the box's own frame, where the box is the
AABB ``[-half_size, half_size]``, and runs the AABB test there: one implementation of each test.
The frame change is a rotation, so ray parameters t are the same in both frames.

The frame change rounds. The answers are still exact (for the box frame ``u = axes @ (p -
center)`` of the float inputs, as SEMANTICS.md defines the box): every answer is monotone in
the box, so the answers for the box shrunk and grown by the frame change's error bound bracket
the exact one, and the rare items the bracket leaves open are decided in rationals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from ._batch import broadcast_leading
from ._dask import dask_aware
from ._exact import (classify_segment_rational, rational, ray_hit_rational, to_frame_rational,
                     triangle_overlaps_rational)
from ._tolerances import (FILTER_SCALE_MAX, FILTER_SCALE_MIN, FILTER_UNIT, OBB_FRAME_BOUND,
                          RAY_DD_BOUND, RAY_DIVISION_BOUND, RAY_T_MAX, RAY_T_MIN,
                          RAY_UNDERFLOW_SLACK, TRIANGLE_EDGE_BOUND, UNDERFLOW_SLACK,
                          UNIT_ROUNDOFF)
from ._validate import (
    as_axes,
    as_finite_points,
    as_matrix44,
    check_finite,
    check_orthonormal,
    compute_dtype,
)
from ._value import Value
from .aabb import AABB
from .ray_box import intersect_checked, ray_arguments
from .results import IntersectionType, RayHit
from .segment_box import classify_checked
from .triangle_box import (_edge_axis_margin, _integers, _jitable, _larger, _max_abs3, _smaller,
                           _triangle_box_exact, _triangle_box_sat, overlaps_checked)

__all__ = ["OBB", "classify_segment_obb", "intersect_ray_obb", "triangle_overlaps_obb"]


def _obb_arguments(center: ArrayLike, axes: ArrayLike, half_size: ArrayLike):
    center = as_finite_points("center", center)
    axes = as_axes("axes", axes)
    check_finite("axes", axes)
    check_orthonormal("axes", axes)
    half_size = as_finite_points("half_size", half_size)
    return center, axes, half_size


def _to_box_frame(offset: np.ndarray, axes: np.ndarray, dtype) -> np.ndarray:
    """``axes @ offset`` per item: ``offset`` is ``p - center`` for a point, or a direction."""
    return np.einsum("...ij,...j->...i", axes, offset).astype(dtype, copy=False)


def _local_box(half_size: np.ndarray):
    return -half_size, half_size


# --- exactness -------------------------------------------------------------------------------
# The frame change rounds: the local coordinates are off by at most ``_frame_error``. Every OBB
# answer is monotone in the box (a larger box meets more and contains more), so the answers
# for the box shrunk and grown by that error bracket the exact one: where they agree that is
# the exact answer, and the rare items where they do not are decided in rationals.


def _frame_error(dtype, axes: np.ndarray, *offsets: np.ndarray) -> np.ndarray:
    """Per item and axis, a bound on |computed - exact| of ``axes @ offset`` for each of the
    ``offsets`` (computed ``p - center``, or directions): one rounding of the offset, three of
    the dot product (a first-order count of 4 units times ``|axes| @ |offset|``; 8 allowed)."""
    unit, slack = UNIT_ROUNDOFF[dtype], UNDERFLOW_SLACK[dtype]
    magnitude = np.abs(axes)
    err = 0.0
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


def _bracketed(query, local_items, half_size, err, dtype):
    """``(answer, doubt)``: ``query(*local_items, lo, hi)`` for the box grown by ``err``, and the
    indices (``np.argwhere``) where the shrunk box answers otherwise, so the exact answer is open.

    ``query`` answers 0 / False for a miss, and a miss of the grown box is a miss for sure (most
    boxes, usually): only the others are asked again for the shrunk box.
    """
    shrunk, grown = _bracket(half_size, err)
    out = np.array(query(*local_items, *_local_box(grown)), dtype=dtype)
    maybe = out != 0
    doubt = np.zeros(out.shape, dtype=bool)
    if maybe.any():
        sub = lambda x: np.broadcast_to(x, out.shape + (3,))[maybe]  # noqa: E731
        low = query(*(sub(x) for x in local_items), *_local_box(sub(shrunk)))
        doubt[maybe] = low != out[maybe]
    return out, np.argwhere(doubt)


def _items(lead: tuple, **arrays) -> dict:
    """Each argument broadcast to the leading shape ``lead`` (for per-item rational fallbacks)."""
    tails = {"axes": (3, 3)}
    return {k: np.broadcast_to(v, lead + tails.get(k, (3,) if np.ndim(v) else ())) for k, v in arrays.items()}


def _point_query(points: dict, center, axes, half_size, query, exact, result_dtype) -> np.ndarray:
    """A query on points (a segment's ends, a triangle's vertices) against oriented boxes.

    The points are moved into each box's frame and asked ``query(*local_points, lo, hi)``, the
    AABB kernel, bracketed against the rounding of that frame change (:func:`_bracketed`); the
    items the bracket leaves open are decided by ``exact(*points_in_frame, lo, hi)`` in
    rationals. Returns the answers over the broadcast leading dimensions (0-d for one item).
    """
    shapes = {**{name: p.shape for name, p in points.items()}, "center": center.shape,
              "axes": axes.shape, "half_size": half_size.shape}
    broadcast_leading(shapes, {name: 2 if name == "axes" else 1 for name in shapes})
    dtype = compute_dtype(*points.values(), center, axes, half_size)
    with np.errstate(over="ignore", under="ignore"):  # overflow/underflow keep the order of values
        offsets = [p - center for p in points.values()]
        local = tuple(_to_box_frame(x, axes, dtype) for x in offsets)
        err = _frame_error(dtype, axes, *offsets)
    out, doubt = _bracketed(query, local, half_size, err, result_dtype)
    if len(doubt):
        it = _items(out.shape, center=center, axes=axes, half_size=half_size, **points)
        for index in map(tuple, doubt):
            c, a, h = it["center"][index], it["axes"][index], it["half_size"][index]
            out[index] = exact(*(to_frame_rational(it[name][index], c, a) for name in points),
                               [-rational(x) for x in h], h)
    return out


@dask_aware
def classify_segment_obb(
    start: ArrayLike, end: ArrayLike, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike
) -> Union[IntersectionType, np.ndarray]:
    """Classify each oriented box against the segment: NONE, INTERSECT or INCLUDE.

    The box is ``{center + axes.T @ u : |u_i| <= half_size_i}`` (``axes``' rows are its unit
    axes); the classes and boundary cases are those of :func:`classify_segment_aabb`, which runs
    on the segment expressed in the box's frame. A negative ``half_size`` makes the box empty
    (NONE). The answer is exact for the float inputs, also for segments grazing the box within
    rounding of the frame change. With identity axes it equals the AABB test on ``center -+
    half_size`` whenever those are computed exactly (e.g. dyadic coordinates); otherwise the two
    answer for slightly different boxes.

    Parameters
    ----------
    start, end : (3,) or (N, 3) array_like
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
    """
    start = as_finite_points("start", start)
    end = as_finite_points("end", end)
    center, axes, half_size = _obb_arguments(center, axes, half_size)
    out = _point_query({"start": start, "end": end}, center, axes, half_size, classify_checked,
                       classify_segment_rational, np.int8)
    return IntersectionType(int(out)) if out.ndim == 0 else out


@dask_aware
def intersect_ray_obb(
    origin: ArrayLike,
    direction: ArrayLike,
    center: ArrayLike,
    axes: ArrayLike,
    half_size: ArrayLike,
    t_min: ArrayLike = 0.0,
    t_max: ArrayLike = np.inf,
) -> RayHit:
    """Intersect each ray with each closed oriented box: ``(hit, t_enter, t_exit)``.

    Semantics as :func:`intersect_ray_aabb` (t in units of ``direction``, ``t_enter == t_min``
    for a ray starting inside, ``+inf`` on a miss), for the box ``{center + axes.T @ u :
    |u_i| <= half_size_i}``. The ray is rotated into the box's frame, which leaves t unchanged.

    Parameters
    ----------
    origin, direction : (3,) or (N, 3) array_like
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
    t_min, t_max : float or (N,) array_like

    Returns
    -------
    RayHit
    """
    origin, direction, t_min, t_max = ray_arguments(origin, direction, t_min, t_max)
    center, axes, half_size = _obb_arguments(center, axes, half_size)
    broadcast_leading(
        {"origin": origin.shape, "direction": direction.shape, "center": center.shape,
         "axes": axes.shape, "half_size": half_size.shape, "t_min": t_min.shape, "t_max": t_max.shape},
        {"origin": 1, "direction": 1, "center": 1, "axes": 2, "half_size": 1},
    )
    dtype = compute_dtype(origin, direction, center, axes, half_size)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        offset = origin - center
        local_origin = _to_box_frame(offset, axes, dtype)
        local_direction = _to_box_frame(direction, axes, dtype)
        err_o = _frame_error(dtype, axes, offset)
        err_d = _frame_error(dtype, axes, direction)
        # A hit of the true or of the computed ray is at |t| <= reach: along the axis where the
        # local direction is largest, the box is crossed within (half + |origin| + err) / |d|.
        parts = (local_origin, local_direction, err_o, err_d, half_size)
        shape = np.broadcast_shapes(*(np.shape(x) for x in parts))
        lo_o, lo_d, e_o, e_d, half = (np.broadcast_to(x, shape) for x in parts)
        k = np.argmax(np.abs(lo_d), axis=-1)[..., None]
        pick = lambda x: np.take_along_axis(x, k, axis=-1)[..., 0]  # noqa: E731
        speed = np.abs(pick(lo_d)) - pick(e_d)
        reach = (np.abs(pick(half)) + np.abs(pick(lo_o)) + pick(e_o)) / speed
        reach = np.where(speed > 0, reach, np.inf)
        reach = np.minimum(reach, np.maximum(np.abs(t_min), np.abs(t_max)))
        err = err_o + reach[..., None] * err_d
    shrunk, grown = _bracket(half_size, err)
    # a miss of the grown box is a miss for sure (most boxes, usually): bracket only the others
    high = np.asarray(intersect_checked(local_origin, local_direction, *_local_box(grown), t_min,
                                        t_max).hit)
    hit = np.zeros(high.shape, dtype=bool)
    t_enter = np.full(high.shape, np.inf, dtype=dtype)
    t_exit = np.full(high.shape, np.inf, dtype=dtype)
    doubt = np.zeros(high.shape, dtype=bool)
    if high.any():
        sub = lambda x, tail=(3,): np.broadcast_to(x, high.shape + tail)[high]  # noqa: E731
        args = (sub(local_origin), sub(local_direction))
        limits = (sub(t_min, ()), sub(t_max, ()))
        nominal = intersect_checked(*args, *_local_box(sub(half_size)), *limits)
        hit[high], t_enter[high], t_exit[high] = nominal
        doubt[high] = ~intersect_checked(*args, *_local_box(sub(shrunk)), *limits).hit
    doubt = np.argwhere(doubt)
    if len(doubt):
        it = _items(hit.shape, origin=origin, direction=direction, center=center, axes=axes,
                    half_size=half_size, t_min=t_min, t_max=t_max)
        for index in map(tuple, doubt):
            h = it["half_size"][index]
            hit[index], t_enter[index], t_exit[index] = ray_hit_rational(
                to_frame_rational(it["origin"][index], it["center"][index], it["axes"][index]),
                to_frame_rational(it["direction"][index], None, it["axes"][index]),
                [-rational(x) for x in h], h, float(it["t_min"][index]), float(it["t_max"][index]))
    if hit.ndim == 0:
        return RayHit(bool(hit), float(t_enter), float(t_exit))
    return RayHit(hit, t_enter, t_exit)


@dask_aware
def triangle_overlaps_obb(
    v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, center: ArrayLike, axes: ArrayLike,
    half_size: ArrayLike,
) -> Union[bool, np.ndarray]:
    """True for each oriented box that shares at least one point with the triangle.

    Semantics as :func:`triangle_overlaps_aabb` (closed triangle, closed box, touching counts,
    degenerate triangles are their segment or point), for the box ``{center + axes.T @ u :
    |u_i| <= half_size_i}``; a negative ``half_size`` makes the box empty (False). The triangle
    is moved into the box's frame (the image of a triangle under that affine map is the triangle
    of the images) and tested there. Exact for the float inputs, also for triangles touching the
    box within rounding of the frame change.

    Parameters
    ----------
    v0, v1, v2 : (3,) or (N, 3) array_like
        The triangles' vertices.
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.

    Returns
    -------
    bool or (N,) bool ndarray
        A Python bool when every argument is a single item.
    """
    vertices = {name: as_finite_points(name, v) for name, v in (("v0", v0), ("v1", v1), ("v2", v2))}
    center, axes, half_size = _obb_arguments(center, axes, half_size)
    out = _point_query(vertices, center, axes, half_size, overlaps_checked,
                       triangle_overlaps_rational, bool)
    return bool(out) if out.ndim == 0 else out


class OBB(Value):
    """An oriented box ``{center + axes.T @ u : |u_i| <= half_size_i}``, immutable.

    ``axes`` is a 3x3 array whose ROWS are the box's orthonormal unit axes (within 1e-6, else
    ``ValueError``); coordinates are float64.
    """

    __slots__ = ("_center", "_axes", "_half_size")
    _fields = ("center", "axes", "half_size")

    def __init__(self, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike) -> None:
        center, axes, half_size = _obb_arguments(center, axes, half_size)
        for name, arr, shape in (("center", center, (3,)), ("axes", axes, (3, 3)), ("half_size", half_size, (3,))):
            if arr.shape != shape:
                raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
        self._freeze(center=center.astype(np.float64), axes=axes.astype(np.float64),
                     half_size=half_size.astype(np.float64))

    @classmethod
    def from_aabb(cls, box: AABB, matrix: ArrayLike) -> "OBB":
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
            raise ValueError(f"matrix must be rigid (rotation and translation only): {exc}") from None
        return cls(box.center @ m[:3, :3] + m[3, :3], m[:3, :3], box.half_size)

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

    def _local(self, point: ArrayLike) -> np.ndarray:
        return (as_finite_points("point", point) - self._center) @ self._axes.T

    def contains(self, point: ArrayLike) -> Union[bool, np.ndarray]:
        """True for each point in the closed box (exactly: ``|axes @ (p - center)| <=
        half_size``); ``point`` (3,) -> bool, (N, 3) -> (N,) bool."""
        point = as_finite_points("point", point)
        with np.errstate(over="ignore", under="ignore"):
            offset = point - self._center
            local = np.abs(offset @ self._axes.T)
            shrunk, grown = _bracket(self._half_size, _frame_error(np.float64, self._axes, offset))
        inside = np.array(np.all(local <= shrunk, axis=-1))
        unsure = ~inside & np.all(local <= grown, axis=-1)
        for index in map(tuple, np.argwhere(unsure)):
            u = to_frame_rational(point[index], self._center, self._axes)
            inside[index] = all(abs(x) <= rational(h) for x, h in zip(u, self._half_size))
        return bool(inside) if inside.ndim == 0 else inside

    def closest_point(self, point: ArrayLike) -> np.ndarray:
        """The point of the closed box nearest to each ``point`` (Ericson, RTCD 5.1.4)."""
        if np.any(self._half_size < 0):
            raise ValueError("closest_point of an empty OBB (negative half_size) is undefined")
        local = np.clip(self._local(point), -self._half_size, self._half_size)
        return self._center + local @ self._axes

    def corners(self) -> np.ndarray:
        """The 8 corners, (8, 3); bit k of the row index picks -/+ half_size along axis k."""
        bits = (np.arange(8)[:, None] >> np.arange(3)) & 1
        return self._center + ((2 * bits - 1) * self._half_size) @ self._axes

    def aabb(self) -> AABB:
        """The tightest AABB around the box: ``center -+ |axes|.T @ half_size``."""
        extent = np.abs(self._axes).T @ self._half_size
        return AABB(self._center - extent, self._center + extent)
