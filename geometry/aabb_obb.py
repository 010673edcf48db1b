"""Axis-aligned box vs oriented box: NONE, INTERSECT or INCLUDE (fifteen separating axes).

The query is the AABB ``{min <= p <= max}``, the box ``{p : |axes[i] . (p - center)| <=
half_size_i}`` for the floats given (SEMANTICS.md). The filter (``_box_sat.aabb_obb_class``)
works in the box's frame about its centre, where the box is ``[-half_size, half_size]`` and the
AABB's edges are the columns of ``axes`` exactly, so an edge x edge axis the filter computes as
zero is zero (skipped); the AABB's centre and half extent there are rounded only within the
certified bound, never handed on. The fifteen axes are ``_box_sat``'s (Gottschalk et al. 1996;
Ericson, RTCD 4.4.1); ``_exact`` runs them in integers with the AABB's exact midpoint and half
extent.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._box_sat import aabb_obb_class, aabb_obb_exact
from ._dask import dask_aware
from ._engine import CLASS, Query
from ._validate import AXES, BOX_MAX, BOX_MIN, POINT
from .results import IntersectionType

__all__ = ["classify_aabb_obb"]


def _filter(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, dx: float,
            dy: float, dz: float, b00: float, b01: float, b02: float, b10: float, b11: float,
            b12: float, b20: float, b21: float, b22: float, g0: float, g1: float, g2: float,
            first_pass: bool) -> tuple[int, bool]:
    """``(code, doubt)`` of the AABB ``[l, h]`` against the OBB (``d, b, g``)."""
    return aabb_obb_class(lx, ly, lz, hx, hy, hz, dx, dy, dz, b00, b01, b02, b10, b11, b12, b20,
                          b21, b22, g0, g1, g2, True, first_pass)


def _exact(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, dx: float,
           dy: float, dz: float, b00: float, b01: float, b02: float, b10: float, b11: float,
           b12: float, b20: float, b21: float, b22: float, g0: float, g1: float, g2: float) -> int:
    """The class of the AABB against the OBB, exactly."""
    return aabb_obb_exact(lx, ly, lz, hx, hy, hz, dx, dy, dz,
                          (b00, b01, b02, b10, b11, b12, b20, b21, b22), g0, g1, g2, True)


_QUERY = Query(_filter, _exact,
               args=[("min", BOX_MIN), ("max", BOX_MAX), ("box_center", POINT),
                     ("box_axes", AXES), ("box_half_size", POINT)],
               outputs=[CLASS], second_pass=True, contract=True)
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
