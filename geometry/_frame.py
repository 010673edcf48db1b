"""The oriented box's frame, where the OBB queries answer.

SEMANTICS.md defines the box as ``{p : |axes[i] . (p - center)| <= half_size_i}`` for the given
floats. An affine map takes a segment, ray or triangle to the segment, ray or triangle of the
mapped points, and keeps ray parameters t, so each OBB query maps its points into the box's
frame and answers there. The segment and triangle filters rotate about a point of the query
``q`` (a segment's start, a triangle's first vertex), ``x' = axes @ (x - q)`` (``rotate``), where
the box is ``[k - half_size, k + half_size]``, ``k = axes @ (center - q)``, so that with one frame
for all boxes the query's own points are rotated once, and coordinates are as small as the
distance from the query. The ray's filter and the exact passes work in the centred frame,
``u = axes @ (p - center)``, where the box is ``[-half_size, half_size]`` exactly as SEMANTICS.md
defines it: the ray's origin there in double-double (``_double_double``), which its t needs; the
exact passes in integers (``local_ints``) or Fractions on the floats' exact values. The filters
bound what the map rounds (``_tolerances.OBB_FRAME_BOUND``) in every margin they test. A
negative half size is an empty box.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._exact import scaled
from ._floats import jitable

__all__ = ["local_ints", "rotate"]


@jitable
def rotate(x: float, y: float, z: float, a00: float, a01: float, a02: float, a10: float,
           a11: float, a12: float, a20: float, a21: float, a22: float
           ) -> tuple[float, float, float, float]:
    """``(u0, u1, u2, p)``: ``axes @ (x, y, z)`` and ``p = |(x, y, z)|_1``. Each ``u_i`` rounds
    a dot product of three, within OBB_FRAME_BOUND * u * p of the exact one."""
    return (a00 * x + a01 * y + a02 * z, a10 * x + a11 * y + a12 * z,
            a20 * x + a21 * y + a22 * z, abs(x) + abs(y) + abs(z))


def local_ints(points: Sequence[Sequence[float]], center: Sequence[float],
               axes: Sequence[float], half: Sequence[float]
               ) -> tuple[list[list[int]], list[int]]:
    """Box-frame coordinates of ``points`` and the half sizes, exactly, as integers on one
    scale: the axes and the coordinates each on their own integer scale (``_exact.scaled``), so
    ``u = axes @ (p - center)`` and ``half_size`` (times the axes' scale) compare exactly."""
    _, coords = scaled(*[x for p in points for x in p], *center, *half)
    unit, rows = scaled(*axes)
    n = len(points)
    c = coords[3 * n:3 * n + 3]
    h = [x * unit for x in coords[3 * n + 3:]]
    local = []
    for k in range(n):
        q = [coords[3 * k + j] - c[j] for j in range(3)]
        local.append([rows[3 * i] * q[0] + rows[3 * i + 1] * q[1] + rows[3 * i + 2] * q[2]
                      for i in range(3)])
    return local, h
