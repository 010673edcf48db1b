"""Oriented box vs axis-aligned box: NONE, INTERSECT or INCLUDE (fifteen separating axes).

The query is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given
(SEMANTICS.md), the box the AABB ``{box_min <= p <= box_max}``. The filter
(``_box_sat.aabb_obb_class``) works in the query's frame about its centre, where the query is
``[-half_size, half_size]`` and the AABB's edges are the columns of ``axes`` exactly (so with
one query every box costs one rotation of its centre, and an edge x edge axis computed as zero
is zero, skipped); the AABB's centre and half extent there are rounded only within the certified
bound. The fifteen axes are ``_box_sat``'s (Gottschalk et al. 1996; Ericson, RTCD 4.4.1);
``_exact`` runs them in integers with the AABB's exact midpoint and half extent.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._box_sat import aabb_obb_class, aabb_obb_exact
from ._dask import dask_aware
from ._engine import CLASS, Query
from ._validate import AXES, BOX_MAX, BOX_MIN, POINT
from .results import IntersectionType

__all__ = ["classify_obb_aabb"]


def _filter(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
            a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
            h2: float, lx: float, ly: float, lz: float, ux: float, uy: float, uz: float,
            first_pass: bool) -> tuple[int, bool]:
    """``(code, doubt)`` of the OBB (``c, a, h``) against the AABB ``[l, u]``."""
    return aabb_obb_class(lx, ly, lz, ux, uy, uz, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                          a21, a22, h0, h1, h2, False, first_pass)


def _exact(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
           a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
           h2: float, lx: float, ly: float, lz: float, ux: float, uy: float, uz: float) -> int:
    """The class of the OBB against the AABB, exactly."""
    return aabb_obb_exact(lx, ly, lz, ux, uy, uz, cx, cy, cz,
                          (a00, a01, a02, a10, a11, a12, a20, a21, a22), h0, h1, h2, False)


_QUERY = Query(_filter, _exact,
               args=[("center", POINT), ("axes", AXES), ("half_size", POINT),
                     ("box_min", BOX_MIN), ("box_max", BOX_MAX)],
               outputs=[CLASS], second_pass=True, contract=True)
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
