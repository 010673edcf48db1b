"""Triangle vs oriented box overlap by separating axes in the box's frame.

The box is ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the floats given (SEMANTICS.md);
a negative half size makes it empty. ``_filter`` rotates the triangle and the box into the box's
frame about the first vertex (``_frame``), where the box is axis-aligned, and tests
Akenine-Möller's thirteen separating axes (JGT 2001; ``_sat``), each margin against a certified
bound that includes the rotation's rounding. ``_exact`` runs the same test in integers in the
centred frame, on the floats' exact values.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import BOOL, Query
from ._floats import axes_doubt
from ._frame import local_ints, rotate
from ._sat import box_normals, larger, max_abs3, triangle_box_exact, triangle_box_sat
from ._tolerances import FILTER_SCALE_MAX, FILTER_SCALE_MIN, FILTER_UNIT, OBB_FRAME_BOUND
from ._validate import AXES, POINT

__all__ = ["triangle_overlaps_obb"]


def _filter(v0x: float, v0y: float, v0z: float, v1x: float, v1y: float, v1z: float,
            v2x: float, v2y: float, v2z: float, cx: float, cy: float, cz: float,
            a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
            a20: float, a21: float, a22: float, h0: float, h1: float, h2: float
            ) -> tuple[bool, bool]:
    """``(overlap, doubt)``: the triangle against the OBB, by the thirteen separating axes in
    the box's frame about the first vertex, ``x' = axes @ (x - v0)``: there the OBB is the
    axis-aligned box ``[k - half_size, k + half_size]``, ``k = axes @ (center - v0)``, and the
    triangle is ``0, v1', v2'``, all known within the frame error. With one triangle and one
    frame for all boxes, the vertices, edges and every other triangle-only term are constants
    of the loop, and a box costs one rotation. (About the origin instead, coordinates far from
    it, as in georeferenced data, would leave bounds of their size, and the boxes near the
    triangle in doubt; in the centred frame, ``axes @ (x - center)``, a box would cost three
    rotations.) A value that is not finite is doubt."""
    # (a centre that is not finite makes pk, and so ``reach``, not finite: ``far``)
    total = v0x + v0y + v0z + v1x + v1y + v1z + v2x + v2y + v2z + h0 + h1 + h2
    bad = (not total - total == 0.0) | axes_doubt(a00, a01, a02, a10, a11, a12, a20, a21, a22)
    empty = not ((h0 >= 0.0) & (h1 >= 0.0) & (h2 >= 0.0))
    bx, by, bz, pb = rotate(v1x - v0x, v1y - v0y, v1z - v0z, a00, a01, a02, a10, a11, a12, a20,
                            a21, a22)
    qx, qy, qz, pc = rotate(v2x - v0x, v2y - v0y, v2z - v0z, a00, a01, a02, a10, a11, a12, a20,
                            a21, a22)
    kx, ky, kz, pk = rotate(cx - v0x, cy - v0y, cz - v0z, a00, a01, a02, a10, a11, a12, a20,
                            a21, a22)
    lx, ly, lz = kx - h0, ky - h1, kz - h2
    hx, hy, hz = kx + h0, ky + h1, kz + h2
    reach = larger(pb, pc) + pk
    far = not ((FILTER_SCALE_MIN <= reach) & (reach <= FILTER_SCALE_MAX))
    # (|k| + h >= |k -+ h|, the bounds, rounded alike; and >= |k|, h, for a box that is not
    # empty)
    big = larger(larger(max_abs3(bx, by, bz), max_abs3(qx, qy, qz)),
                 larger(larger(abs(kx) + h0, abs(ky) + h1), abs(kz) + h2))
    # a vertex errs by at most OBB_FRAME_BOUND u |v - v0|_1 (the frame change, _tolerances), the
    # box's bounds by that of k plus the rounding of k +- half_size (u |bound| <= u big): moved
    # onto the vertices, every coordinate the axes compare is within ``err``
    err = OBB_FRAME_BOUND * FILTER_UNIT * (reach + big)
    on_box, unsure = box_normals(0.0, 0.0, 0.0, bx, by, bz, qx, qy, qz, lx, ly, lz, hx, hy, hz,
                                 err + err)
    # (the box as twice its centre and half extent, exactly)
    overlap, unsure = triangle_box_sat(0.0, 0.0, 0.0, bx, by, bz, qx, qy, qz, kx + kx, ky + ky,
                                       kz + kz, h0 + h0, h1 + h1, h2 + h2, err, big, False,
                                       on_box, unsure)
    return (overlap & (not empty) & (not bad) & (not far),
            bad | ((not empty) & (far | unsure)))


def _exact(v0x: float, v0y: float, v0z: float, v1x: float, v1y: float, v1z: float,
           v2x: float, v2y: float, v2z: float, cx: float, cy: float, cz: float,
           a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
           a20: float, a21: float, a22: float, h0: float, h1: float, h2: float) -> bool:
    """The exact overlap of the triangle and the OBB the floats describe."""
    if not (h0 >= 0.0 and h1 >= 0.0 and h2 >= 0.0):
        return False
    (a, b, c), h = local_ints(((v0x, v0y, v0z), (v1x, v1y, v1z), (v2x, v2y, v2z)),
                              (cx, cy, cz), (a00, a01, a02, a10, a11, a12, a20, a21, a22),
                              (h0, h1, h2))
    return triangle_box_exact(a, b, c, [-x for x in h], h)


_QUERY = Query(_filter, _exact,
               args=[("v0", POINT), ("v1", POINT), ("v2", POINT), ("center", POINT),
                     ("axes", AXES), ("half_size", POINT)],
               outputs=[BOOL], contract=True)


@dask_aware
def triangle_overlaps_obb(
    v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, center: ArrayLike, axes: ArrayLike,
    half_size: ArrayLike, *, out: np.ndarray | None = None,
) -> bool | np.ndarray:
    """True for each oriented box that shares at least one point with the triangle.

    Semantics as :func:`triangle_overlaps_aabb` (closed triangle, closed box, touching counts,
    degenerate triangles are their segment or point), for the box ``{p : |axes[i] . (p -
    center)| <= half_size_i}``; a negative ``half_size`` makes the box empty (False). The
    triangle is mapped into the box's frame and tested there by the thirteen separating axes
    (Akenine-Möller 2001), exactly where the frame change's rounding leaves doubt.

    Parameters
    ----------
    v0, v1, v2 : (3,) or (N, 3) array_like
        The triangles' vertices.
    center, half_size : (3,) or (N, 3) array_like
    axes : (3, 3) or (N, 3, 3) array_like
        Rows orthonormal within 1e-6, else ``ValueError``.
    out : (N,) bool ndarray, optional

    Returns
    -------
    bool or (N,) bool ndarray
        A Python bool when every argument is a single item.
    """
    overlap: bool | np.ndarray = _QUERY(v0, v1, v2, center, axes, half_size, out=out)
    return overlap
