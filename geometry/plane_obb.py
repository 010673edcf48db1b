"""Plane vs oriented box: which side of the plane the box lies on.

The OBB is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given (SEMANTICS.md),
the parallelepiped ``center + sum_i u_i b_i`` (``|u_i| <= half_size_i``, ``b_i`` the columns of
the rows' inverse, which are the rows within the orthonormality defect). Along the normal it
spans ``normal . center +- sum_i half_size_i |normal . b_i|`` (the projection of a box onto an
axis, Gottschalk et al. 1996). ``_filter`` takes the rows for ``b_i`` and bounds the defect
(``_tolerances.OBB_DEFECT_BOUND``) with the rounding (``PLANE_BOUND``); ``_exact`` works in
rational arithmetic on the floats' exact values.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._floats import axes_residuals
from ._frustum_exact import Plane, box_of_obb, plane_extremes
from ._tolerances import (
    FILTER_UNIT,
    OBB_DEFECT_BOUND,
    ORTHONORMAL_ATOL,
    PLANE_ABSOLUTE,
    PLANE_BOUND,
)
from ._validate import AXES, DIRECTION, POINT, SCALAR

__all__ = ["plane_side_obb"]


def _filter(nx: float, ny: float, nz: float, offset: float, cx: float, cy: float, cz: float,
            a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
            a20: float, a21: float, a22: float, h0: float, h1: float, h2: float
            ) -> tuple[int, bool]:
    """``(side, doubt)``: ``middle = normal . center - offset`` and the box's half extent
    along the normal, ``r = sum_i h_i |normal . axes[i]|``; far = middle + r, near = middle - r,
    each sure of its sign beyond the rounding and orthonormality bounds. A negative half size
    is an empty box (-1). Doubt for any non-finite value, a zero normal and axes that are not
    orthonormal within ORTHONORMAL_ATOL."""
    total = nx + ny + nz + offset + cx + cy + cz + h0 + h1 + h2
    r0, r1, r2, r3, r4, r5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    defect = max(max(max(abs(r0), abs(r1)), max(abs(r2), abs(r3))), max(abs(r4), abs(r5)))
    bad = (not total - total == 0.0) | ((nx == 0.0) & (ny == 0.0) & (nz == 0.0)) \
        | (not defect <= ORTHONORMAL_ATOL)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    middle = (nx * cx + ny * cy + nz * cz) - offset
    r = (h0 * abs(nx * a00 + ny * a01 + nz * a02) + h1 * abs(nx * a10 + ny * a11 + nz * a12)
         + h2 * abs(nx * a20 + ny * a21 + nz * a22))
    far, near = middle + r, middle - r
    n1 = abs(nx) + abs(ny) + abs(nz)
    spread = abs(h0) + abs(h1) + abs(h2)
    big = max(max(abs(cx), abs(cy)), abs(cz)) + spread
    bound = 2.0 * PLANE_BOUND * FILTER_UNIT * (n1 * big + abs(offset)) \
        + OBB_DEFECT_BOUND * defect * n1 * spread + PLANE_ABSOLUTE
    bad = bad | (not (far - far == 0.0)) | (not (near - near == 0.0)) | (not bound < np.inf)
    sure = (far < -bound) | (near > bound) | ((far > bound) & (near < -bound))
    side = -1 if (far < 0.0) | empty else (1 if near > 0.0 else 0)
    return side, bad | ((not empty) & (not sure))


def _exact(nx: float, ny: float, nz: float, offset: float, cx: float, cy: float, cz: float,
           a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
           a20: float, a21: float, a22: float, h0: float, h1: float, h2: float) -> int:
    """The side of one OBB, exactly."""
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0):
        return -1
    box = box_of_obb((cx, cy, cz), (a00, a01, a02, a10, a11, a12, a20, a21, a22), (h0, h1, h2))
    plane = Plane((Fraction(nx), Fraction(ny), Fraction(nz)), Fraction(offset))
    near, far = plane_extremes(box, plane)
    return -1 if far < 0 else (1 if near > 0 else 0)


_QUERY = Query(_filter, _exact,
               args=[("normal", DIRECTION), ("offset", SCALAR), ("box_center", POINT),
                     ("box_axes", AXES), ("box_half_size", POINT)],
               outputs=[CLASS], contract=True)


@dask_aware
def plane_side_obb(
    normal: ArrayLike, offset: ArrayLike, box_center: ArrayLike, box_axes: ArrayLike,
    box_half_size: ArrayLike, *, out: np.ndarray | None = None,
) -> int | np.ndarray:
    """The side of the plane ``normal . p = offset`` each oriented box lies on: -1, 0 or +1.

    Semantics as :func:`plane_side_aabb` (``-1``: the closed box in ``normal . p < offset``,
    ``+1``: in ``normal . p > offset``, ``0``: the plane meets it), for the box
    ``{p : |box_axes[i] . (p - box_center)| <= box_half_size_i}``; a negative half size makes it
    empty (-1). Exact for the floats given (the box as its float axes describe it).

    Parameters
    ----------
    normal : (3,) or (N, 3) array_like
        Non-zero, finite.
    offset : float or (N,) array_like
    box_center, box_half_size : (3,) or (N, 3) array_like
    box_axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    out : (N,) int8 ndarray, optional

    Returns
    -------
    int or (N,) int8 ndarray
    """
    side: int | np.ndarray = _QUERY(normal, offset, box_center, box_axes, box_half_size, out=out)
    return side
