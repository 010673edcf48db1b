"""Axis-aligned box vs axis-aligned box: NONE, INTERSECT or INCLUDE (interval overlap per axis).

Two closed boxes share a point iff their intervals overlap on every axis (the separating axis
theorem with the three coordinate axes; Ericson, Real-Time Collision Detection 4.2.1); the
query lies in the box's open interior iff it is strictly inside on every axis. Both are
comparisons of the floats given, so ``_filter`` is exact: it doubts only an invalid value, and
``_exact``, the same comparisons, answers the engine's check of it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._validate import BOX_MAX, BOX_MIN
from .results import IntersectionType

__all__ = ["classify_aabb_aabb"]

_INF = float("inf")


def _filter(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, bx: float,
            by: float, bz: float, cx: float, cy: float, cz: float) -> tuple[int, bool]:
    """``(class, doubt)`` of the box ``[l, h]`` against the box ``[b, c]``.

    NONE where either box is empty (``min > max`` on an axis; the ``AABB.empty()`` infinities
    are such values) or an interval lies wholly beyond the other's on some axis; INCLUDE where
    ``b < l`` and ``h < c`` on every axis; INTERSECT otherwise. Comparisons round nothing: doubt
    only for a value that is not valid (NaN, ``-inf`` in a min, ``+inf`` in a max).
    """
    valid = (lx > -_INF) & (ly > -_INF) & (lz > -_INF) & (bx > -_INF) & (by > -_INF) \
        & (bz > -_INF) & (hx < _INF) & (hy < _INF) & (hz < _INF) & (cx < _INF) & (cy < _INF) \
        & (cz < _INF)
    meet = (lx <= hx) & (ly <= hy) & (lz <= hz) & (bx <= cx) & (by <= cy) & (bz <= cz) \
        & (lx <= cx) & (bx <= hx) & (ly <= cy) & (by <= hy) & (lz <= cz) & (bz <= hz)
    inside = (bx < lx) & (hx < cx) & (by < ly) & (hy < cy) & (bz < lz) & (hz < cz)
    code = (2 if inside else 1) if meet else 0
    return code, not valid


def _exact(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, bx: float,
           by: float, bz: float, cx: float, cy: float, cz: float) -> int:
    """The class of ``[l, h]`` against ``[b, c]`` (valid values: the filter's comparisons are
    exact, so they are the exact answer)."""
    code, _ = _filter(lx, ly, lz, hx, hy, hz, bx, by, bz, cx, cy, cz)
    return code


_QUERY = Query(_filter, _exact,
               args=[("min", BOX_MIN), ("max", BOX_MAX), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX)],
               outputs=[CLASS])
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_aabb_aabb(
    min: ArrayLike, max: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,  # noqa: A002
    out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each box against the query box ``[min, max]``: NONE, INTERSECT or INCLUDE.

    Both are closed boxes ``{min <= p <= max}``. ``NONE``: they share no point. ``INCLUDE``: the
    query lies in the box's open interior (``box_min < min`` and ``max < box_max`` on every
    axis). ``INTERSECT``: otherwise (the boxes overlap, or touch at a face, an edge or a corner,
    or the query pokes out). Interval overlap per axis (Ericson, RTCD 4.2.1).

    Boundary cases: boxes touching only at a face, edge or corner are INTERSECT; a query
    sharing a face plane with the box from inside is INTERSECT, not INCLUDE; a flat box
    (``box_min == box_max`` on an axis) is never INCLUDE; an empty query or box (``min > max``
    on an axis, e.g. ``AABB.empty()``) is always NONE. Pure comparisons of the floats given:
    exact at every magnitude.

    Parameters
    ----------
    min, max : (3,) or (N, 3) array_like
        The query boxes' corners.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in a min / ``-inf`` in a max (either box) mean an empty box.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned (shape: the arguments' broadcast leading shape).

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item, else the codes broadcast over the leading
        dimensions.

    Raises
    ------
    ValueError
        For NaN or an infinity other than an empty box's, a shape that is not (..., 3), shapes
        that do not broadcast, or an integer float64 cannot hold exactly; the message names the
        argument.
    """
    codes = _QUERY(min, max, box_min, box_max, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
