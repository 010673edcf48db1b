"""Oriented box vs axis-aligned box: NONE, INTERSECT or INCLUDE (fifteen separating axes).

The query is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given
(SEMANTICS.md), the box the AABB ``{box_min <= p <= box_max}``. ``_filter`` works in the
query's frame about its centre, where the query is ``[-half_size, half_size]`` and the AABB's
edges are the columns of ``axes`` exactly (so with one query every box costs one rotation of
its centre, and an edge x edge axis computed as zero is zero, skipped); the AABB's centre and
half extent there are rounded only within the certified bound. The fifteen axes are
``_box_sat``'s (Gottschalk et al. 1996; Ericson, RTCD 4.4.1); ``_exact`` runs them in integers
with the AABB's exact midpoint and half extent.
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

__all__ = ["classify_obb_aabb"]

_INF = float("inf")


def _filter(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
            a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
            h2: float, lx: float, ly: float, lz: float, ux: float, uy: float, uz: float
            ) -> tuple[int, bool]:
    """``(code, doubt)`` of the OBB (``c, a, h``) against the AABB ``[l, u]``, in the OBB's
    frame about its centre: the OBB is ``[-h, h]`` and the AABB the parallelepiped with centre
    ``a @ ((l + u) / 2 - c)``, half sizes ``(u - l) / 2`` and edges the columns of ``a``. A
    value that is not valid (NaN, an infinity but an empty AABB's) or rows that are not
    orthonormal are doubt."""
    valid = (lx > -_INF) & (ly > -_INF) & (lz > -_INF) & (ux < _INF) & (uy < _INF) \
        & (uz < _INF)
    total = cx + cy + cz + h0 + h1 + h2
    ok, defect = axes_defect(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    bad = (not valid) | (not total - total == 0.0) | (not ok)
    empty = not ((lx <= ux) & (ly <= uy) & (lz <= uz) & (h0 >= 0.0) & (h1 >= 0.0)
                 & (h2 >= 0.0))
    l0, l1, l2, u0, u1, u2 = lx - cx, ly - cy, lz - cz, ux - cx, uy - cy, uz - cz
    reach = abs(l0) + abs(l1) + abs(l2) + abs(u0) + abs(u1) + abs(u2)
    q0, q1, q2 = (ux - lx) * 0.5, (uy - ly) * 0.5, (uz - lz) * 0.5
    t0, t1, t2, _ = rotate((l0 + u0) * 0.5, (l1 + u1) * 0.5, (l2 + u2) * 0.5, a00, a01, a02,
                           a10, a11, a12, a20, a21, a22)
    separation, inside, _ = box_margins(t0, t1, t2, h0, h1, h2, q0, q1, q2, a00, a01, a02, a10,
                                        a11, a12, a20, a21, a22, True)
    bound, far = box_bound(reach, t0, t1, t2, h0, h1, h2, q0, q1, q2, defect)
    return box_class(separation, inside, (lx < ux) & (ly < uy) & (lz < uz), bound, empty, bad,
                     far)


def _exact(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
           a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
           h2: float, lx: float, ly: float, lz: float, ux: float, uy: float, uz: float) -> int:
    """The class of the OBB against the AABB, exactly (the empty-box infinities allowed)."""
    if lx > ux or ly > uy or lz > uz or min(h0, h1, h2) < 0.0:
        return 0
    _, coords = scaled(cx, cy, cz, h0, h1, h2, lx, ly, lz, ux, uy, uz)
    return classify_boxes_exact(
        obb_ints((a00, a01, a02, a10, a11, a12, a20, a21, a22), coords, 0), aabb_ints(coords, 6))


_QUERY = Query(_filter, _exact,
               args=[("center", POINT), ("axes", AXES), ("half_size", POINT),
                     ("box_min", BOX_MIN), ("box_max", BOX_MAX)],
               outputs=[CLASS], contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_obb_aabb(
    center: ArrayLike, axes: ArrayLike, half_size: ArrayLike, box_min: ArrayLike,
    box_max: ArrayLike, *, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each AABB against the query oriented box: NONE, INTERSECT or INCLUDE.

    As :func:`classify_obb_obb` (closed boxes; INCLUDE: the query in the box's open interior;
    the fifteen separating axes, exact where edges are parallel or nearly so) for the boxes
    ``{box_min <= p <= box_max}``. An empty query (a negative half size) or box (``box_min >
    box_max`` on an axis, e.g. ``AABB.empty()``) gives NONE; a flat box is never INCLUDE.

    Parameters
    ----------
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        The query boxes; rows orthonormal within 1e-6, else ``ValueError``.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners; ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.
    out : (N,) int8 ndarray, optional

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when every argument is a single item.
    """
    codes = _QUERY(center, axes, half_size, box_min, box_max, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
