"""Axis-aligned box vs oriented box: NONE, INTERSECT or INCLUDE (fifteen separating axes).

The query is the AABB ``{min <= p <= max}``, the box ``{p : |axes[i] . (p - center)| <=
half_size_i}`` for the floats given (SEMANTICS.md). ``_filter`` works in the box's frame about
its centre, where the box is ``[-half_size, half_size]`` and the AABB's edges are the columns
of ``axes`` exactly, so an edge x edge axis the filter computes as zero is zero (skipped); the
AABB's centre and half extent there are rounded only within the certified bound, never handed
on. The fifteen axes are ``_box_sat``'s (Gottschalk et al. 1996; Ericson, RTCD 4.4.1); ``_exact``
runs them in integers with the AABB's exact midpoint and half extent.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._box_sat import (
    aabb_ints,
    axes_defect,
    box_bound,
    box_class,
    box_margins,
    classify_boxes_exact,
    obb_ints,
)
from ._dask import dask_aware
from ._engine import CLASS, Query
from ._exact import scaled
from ._frame import rotate
from ._validate import AXES, BOX_MAX, BOX_MIN, POINT
from .results import IntersectionType

__all__ = ["classify_aabb_obb"]

_INF = float("inf")


def _filter(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, dx: float,
            dy: float, dz: float, b00: float, b01: float, b02: float, b10: float, b11: float,
            b12: float, b20: float, b21: float, b22: float, g0: float, g1: float, g2: float
            ) -> tuple[int, bool]:
    """``(code, doubt)`` of the AABB ``[l, h]`` against the OBB (``d, b, g``), in the box's
    frame about its centre: the box is ``[-g, g]`` and the AABB the parallelepiped with centre
    ``b @ ((l + h) / 2 - d)``, half sizes ``(h - l) / 2`` and edges the columns of ``b``. A
    value that is not valid (NaN, an infinity but an empty AABB's) or rows that are not
    orthonormal are doubt."""
    valid = (lx > -_INF) & (ly > -_INF) & (lz > -_INF) & (hx < _INF) & (hy < _INF) \
        & (hz < _INF)
    total = dx + dy + dz + g0 + g1 + g2
    ok, defect = axes_defect(b00, b01, b02, b10, b11, b12, b20, b21, b22)
    bad = (not valid) | (not total - total == 0.0) | (not ok)
    empty = not ((lx <= hx) & (ly <= hy) & (lz <= hz) & (g0 >= 0.0) & (g1 >= 0.0)
                 & (g2 >= 0.0))
    l0, l1, l2, u0, u1, u2 = lx - dx, ly - dy, lz - dz, hx - dx, hy - dy, hz - dz
    reach = abs(l0) + abs(l1) + abs(l2) + abs(u0) + abs(u1) + abs(u2)
    q0, q1, q2 = (hx - lx) * 0.5, (hy - ly) * 0.5, (hz - lz) * 0.5
    t0, t1, t2, _ = rotate((l0 + u0) * 0.5, (l1 + u1) * 0.5, (l2 + u2) * 0.5, b00, b01, b02,
                           b10, b11, b12, b20, b21, b22)
    separation, _, inside = box_margins(t0, t1, t2, g0, g1, g2, q0, q1, q2, b00, b01, b02, b10,
                                        b11, b12, b20, b21, b22, True)
    bound, far = box_bound(reach, t0, t1, t2, g0, g1, g2, q0, q1, q2, defect)
    return box_class(separation, inside, (g0 > 0.0) & (g1 > 0.0) & (g2 > 0.0), bound, empty,
                     bad, far)


def _exact(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, dx: float,
           dy: float, dz: float, b00: float, b01: float, b02: float, b10: float, b11: float,
           b12: float, b20: float, b21: float, b22: float, g0: float, g1: float, g2: float) -> int:
    """The class of the AABB against the OBB, exactly (the empty-box infinities allowed)."""
    if lx > hx or ly > hy or lz > hz or min(g0, g1, g2) < 0.0:
        return 0
    _, coords = scaled(lx, ly, lz, hx, hy, hz, dx, dy, dz, g0, g1, g2)
    return classify_boxes_exact(
        aabb_ints(coords, 0), obb_ints((b00, b01, b02, b10, b11, b12, b20, b21, b22), coords, 6))


_QUERY = Query(_filter, _exact,
               args=[("min", BOX_MIN), ("max", BOX_MAX), ("box_center", POINT),
                     ("box_axes", AXES), ("box_half_size", POINT)],
               outputs=[CLASS], contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_aabb_obb(
    min: ArrayLike, max: ArrayLike, box_center: ArrayLike, box_axes: ArrayLike,  # noqa: A002
    box_half_size: ArrayLike, *, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each oriented box against the query AABB ``[min, max]``: NONE, INTERSECT or
    INCLUDE.

    As :func:`classify_obb_obb` (closed boxes; INCLUDE: the query in the box's open interior;
    the fifteen separating axes, exact where edges are parallel or nearly so) for the query
    ``{min <= p <= max}``. An empty query (``min > max`` on an axis, e.g. ``AABB.empty()``) or
    box (a negative half size) gives NONE; a flat box is never INCLUDE.

    Parameters
    ----------
    min, max : (3,) or (N, 3) array_like
        The query boxes' corners; ``+inf`` in ``min`` / ``-inf`` in ``max`` mean an empty box.
    box_center, box_half_size : (3,) or (N, 3) array_like
    box_axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    out : (N,) int8 ndarray, optional

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item.
    """
    codes = _QUERY(min, max, box_center, box_axes, box_half_size, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
