"""Oriented box vs view frustum: NONE, INTERSECT or INCLUDE, exactly.

The OBB is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given (SEMANTICS.md),
a parallelepiped; against the frustum's planes it spans ``n . center +- sum_i h_i |n . b_i|``
(``b_i`` its edges, the rows within the orthonormality defect). ``_filter`` runs the six plane
tests in float64 with a certified bound (``_tolerances.PLANE_BOUND``, ``OBB_DEFECT_BOUND``), and
in the engine's second pass the box's face normals and the cross axes (``CROSS_BOUND`` and the
defect); what they leave undecided, ``_exact`` decides by every separating axis of the two
polytopes in rationals (:mod:`._frustum_exact`), as :mod:`.aabb_frustum` does.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._floats import axes_residuals
from ._frustum_exact import box_of_obb, classify_obb, plane_extremes, registered
from ._frustum_filter import obb_axes, obb_plane
from ._tolerances import ORTHONORMAL_ATOL
from ._validate import AXES, FRUSTUM_AXES, FRUSTUM_PLANES, POINT, SCALAR
from .frustum import Frustum
from .results import IntersectionType

__all__ = ["classify_obb_frustum"]


def _filter(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
            a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
            h2: float, n0x: float, n0y: float, n0z: float, o0: float, n1x: float, n1y: float,
            n1z: float, o1: float, n2x: float, n2y: float, n2z: float, o2: float, n3x: float,
            n3y: float, n3z: float, o3: float, n4x: float, n4y: float, n4z: float, o4: float,
            n5x: float, n5y: float, n5z: float, o5: float, fx: float, fy: float, fz: float,
            gx: float, gy: float, gz: float, trust: float, key: float, c0x: float, c0y: float,
            c0z: float, c1x: float, c1y: float, c1z: float, c2x: float, c2y: float, c2z: float,
            c3x: float, c3y: float, c3z: float, c4x: float, c4y: float, c4z: float, c5x: float,
            c5y: float, c5z: float, c6x: float, c6y: float, c6z: float, c7x: float, c7y: float,
            c7z: float, d0x: float, d0y: float, d0z: float, d1x: float, d1y: float, d1z: float,
            d2x: float, d2y: float, d2z: float, d3x: float, d3y: float, d3z: float, d4x: float,
            d4y: float, d4z: float, d5x: float, d5y: float, d5z: float, d6x: float, d6y: float,
            d6z: float, d7x: float, d7y: float, d7z: float, d8x: float, d8y: float, d8z: float,
            d9x: float, d9y: float, d9z: float, d10x: float, d10y: float, d10z: float,
            d11x: float, d11y: float, d11z: float, reach: float, conservative: float,
            first_pass: bool) -> tuple[int, bool]:
    """``(class, doubt)`` of one OBB against the frustum (the scalars of ``Frustum``, see
    :func:`.aabb_frustum._filter`): NONE behind a plane, INCLUDE strictly inside all, and
    INTERSECT for sure where a plane cuts into the box and the centre is strictly inside every
    plane (or, ``conservative`` 1,
    where no plane can have the box behind it and one cuts it). The rest (few boxes) is left
    by the engine's first pass to its second (``first_pass`` False), which tests the box's face
    normals and the cross axes (:func:`._frustum_filter.obb_axes`): NONE where one
    separates, INTERSECT where none can and no plane can, and the box is across a plane; doubt
    else, for the exact pass. Doubt also for non-finite values and axes that are not
    orthonormal within ORTHONORMAL_ATOL. A negative half size is an empty box (NONE)."""
    total = cx + cy + cz + h0 + h1 + h2
    r0, r1, r2, r3, r4, r5 = axes_residuals(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    defect = max(max(max(abs(r0), abs(r1)), max(abs(r2), abs(r3))), max(abs(r4), abs(r5)))
    bad = (not total - total == 0.0) | (not trust == 1.0) | (not defect <= ORTHONORMAL_ATOL)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    spread = abs(h0) + abs(h1) + abs(h2)
    big = max(max(abs(cx), abs(cy)), abs(cz)) + spread
    m0, e0, b0 = obb_plane(n0x, n0y, n0z, o0, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                           a21, a22, h0, h1, h2, big, spread, defect)
    m1, e1, b1 = obb_plane(n1x, n1y, n1z, o1, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                           a21, a22, h0, h1, h2, big, spread, defect)
    m2, e2, b2 = obb_plane(n2x, n2y, n2z, o2, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                           a21, a22, h0, h1, h2, big, spread, defect)
    m3, e3, b3 = obb_plane(n3x, n3y, n3z, o3, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                           a21, a22, h0, h1, h2, big, spread, defect)
    m4, e4, b4 = obb_plane(n4x, n4y, n4z, o4, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                           a21, a22, h0, h1, h2, big, spread, defect)
    m5, e5, b5 = obb_plane(n5x, n5y, n5z, o5, cx, cy, cz, a00, a01, a02, a10, a11, a12, a20,
                           a21, a22, h0, h1, h2, big, spread, defect)
    behind = (m0 + e0 < -b0) | (m1 + e1 < -b1) | (m2 + e2 < -b2) | (m3 + e3 < -b3) \
        | (m4 + e4 < -b4) | (m5 + e5 < -b5)
    inside = (m0 - e0 > b0) & (m1 - e1 > b1) & (m2 - e2 > b2) & (m3 - e3 > b3) \
        & (m4 - e4 > b4) & (m5 - e5 > b5)
    centred = (m0 > b0) & (m1 > b1) & (m2 > b2) & (m3 > b3) & (m4 > b4) & (m5 > b5)
    ahead = (m0 + e0 > b0) & (m1 + e1 > b1) & (m2 + e2 > b2) & (m3 + e3 > b3) \
        & (m4 + e4 > b4) & (m5 + e5 > b5)
    cut = (m0 - e0 < -b0) | (m1 - e1 < -b1) | (m2 - e2 < -b2) | (m3 - e3 < -b3) \
        | (m4 - e4 < -b4) | (m5 - e5 < -b5)
    huge = not (b0 + b1 + b2 + b3 + b4 + b5 < np.inf)
    code = 0 if behind | empty else (2 if inside else 1)
    planes_only = conservative == 1.0
    sure = behind | inside | (centred & cut & (not planes_only)) | (ahead & cut & planes_only)
    if (not first_pass) & (not sure) & (not planes_only):
        separated, overlapping = obb_axes(
            cx, cy, cz, a00, a01, a02, a10, a11, a12, a20, a21, a22, h0, h1, h2, big, spread,
            defect,
            (c0x, c0y, c0z, c1x, c1y, c1z, c2x, c2y, c2z, c3x, c3y, c3z, c4x, c4y, c4z, c5x,
             c5y, c5z, c6x, c6y, c6z, c7x, c7y, c7z),
            (d0x, d0y, d0z, d1x, d1y, d1z, d2x, d2y, d2z, d3x, d3y, d3z, d4x, d4y, d4z, d5x,
             d5y, d5z, d6x, d6y, d6z, d7x, d7y, d7z, d8x, d8y, d8z, d9x, d9y, d9z, d10x, d10y,
             d10z, d11x, d11y, d11z), reach)
        sure = separated | (overlapping & ahead & cut)
        code = 0 if separated else code
    return code, bad | huge | ((not empty) & (not sure))


def _exact(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
           a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
           h2: float, *frustum: float) -> int:
    """The class of one OBB, exactly: by every separating axis, or (the last scalar true) by
    the planes alone."""
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0):
        return 0
    axes = (a00, a01, a02, a10, a11, a12, a20, a21, a22)
    poly = registered(frustum[31])
    if not frustum[-1]:
        return classify_obb((cx, cy, cz), axes, (h0, h1, h2), poly)
    box = box_of_obb((cx, cy, cz), axes, (h0, h1, h2))
    extremes = [plane_extremes(box, plane) for plane in poly.planes]
    if any(far < 0 for _, far in extremes):
        return 0
    return 2 if all(near > 0 for near, _ in extremes) else 1


_QUERY = Query(_filter, _exact,
               args=[("box_center", POINT), ("box_axes", AXES), ("box_half_size", POINT)]
               + [("frustum", FRUSTUM_PLANES), ("frustum", FRUSTUM_AXES),
                  ("conservative", SCALAR)],
               outputs=[CLASS], second_pass=True, contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_obb_frustum(
    box_center: ArrayLike, box_axes: ArrayLike, box_half_size: ArrayLike, frustum: Frustum, *,
    conservative: bool = False, out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each oriented box against the frustum: NONE, INTERSECT or INCLUDE.

    Semantics as :func:`classify_aabb_frustum` (exact by the separating axes; NONE: no common
    point, INCLUDE: in the frustum's open interior; ``conservative=True`` the plane-only test),
    for the box ``{p : |box_axes[i] . (p - box_center)| <= box_half_size_i}``; a negative half
    size makes it empty (NONE).

    Parameters
    ----------
    box_center, box_half_size : (3,) or (N, 3) array_like
    box_axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    frustum : Frustum
    conservative : bool, optional
    out : (N,) int8 ndarray, optional

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
    """
    if not isinstance(frustum, Frustum):
        raise ValueError(f"frustum must be a Frustum, got {type(frustum).__name__}")
    codes = _QUERY(box_center, box_axes, box_half_size, frustum._constants,
                   frustum._sat_constants,
                   1.0 if conservative else 0.0, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
