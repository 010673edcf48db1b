"""Float building blocks of the box vs frustum filters: a plane against a box, and the
separating axes that the planes leave (the engine's second pass), each with its certified bound."""

from __future__ import annotations

import numpy as np

from ._floats import jitable
from ._tolerances import CROSS_BOUND, FILTER_UNIT, OBB_DEFECT_BOUND, PLANE_ABSOLUTE, PLANE_BOUND

__all__ = ["aabb_cross_axes", "aabb_plane", "aabb_planes", "obb_axes", "obb_plane"]


@jitable
def aabb_plane(nx: float, ny: float, nz: float, o: float, cx: float, cy: float, cz: float,
               ex: float, ey: float, ez: float, big: float
               ) -> tuple[float, float, float, float]:
    """``(far, near, middle, bound)``: ``n . p - o`` at the box's corners farthest along ``n``
    and against it and at its centre ``c`` (half sizes ``e``), and the certified bound on the
    error of each (twice ``_tolerances.PLANE_BOUND``: ``n`` and ``o`` rounded once from the
    exact plane, ``c`` and ``e`` once from the box's corners; ``big`` at least the largest
    |coordinate| of the box)."""
    middle = (nx * cx + ny * cy + nz * cz) - o
    r = abs(nx) * ex + abs(ny) * ey + abs(nz) * ez
    bound = 2.0 * PLANE_BOUND * FILTER_UNIT * ((abs(nx) + abs(ny) + abs(nz)) * big + abs(o)) \
        + PLANE_ABSOLUTE
    return middle + r, middle - r, middle, bound


@jitable
def aabb_planes(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, n0x: float,
                n0y: float, n0z: float, o0: float, n1x: float, n1y: float, n1z: float, o1: float,
                n2x: float, n2y: float, n2z: float, o2: float, n3x: float, n3y: float,
                n3z: float, o3: float, n4x: float, n4y: float, n4z: float, o4: float,
                n5x: float, n5y: float, n5z: float, o5: float
                ) -> tuple[bool, bool, bool, bool, bool, bool, float]:
    """The box ``[l, h]`` against the six planes (:func:`aabb_plane` each), surely:
    ``(behind, inside, ahead, cut, centred, huge, big)``: behind one plane wholly, inside every
    plane strictly, ahead of every plane with its farthest corner, cut into by a plane (its
    nearest corner behind it), its centre inside every plane; ``huge`` where a bound overflowed
    (then no comparison holds); ``big`` the box's size bound the cross axes take too."""
    cx, cy, cz = (lx + hx) * 0.5, (ly + hy) * 0.5, (lz + hz) * 0.5
    ex, ey, ez = (hx - lx) * 0.5, (hy - ly) * 0.5, (hz - lz) * 0.5
    big = max(max(abs(cx), abs(cy)), abs(cz)) + max(max(ex, ey), ez)
    far0, near0, mid0, b0 = aabb_plane(n0x, n0y, n0z, o0, cx, cy, cz, ex, ey, ez, big)
    far1, near1, mid1, b1 = aabb_plane(n1x, n1y, n1z, o1, cx, cy, cz, ex, ey, ez, big)
    far2, near2, mid2, b2 = aabb_plane(n2x, n2y, n2z, o2, cx, cy, cz, ex, ey, ez, big)
    far3, near3, mid3, b3 = aabb_plane(n3x, n3y, n3z, o3, cx, cy, cz, ex, ey, ez, big)
    far4, near4, mid4, b4 = aabb_plane(n4x, n4y, n4z, o4, cx, cy, cz, ex, ey, ez, big)
    far5, near5, mid5, b5 = aabb_plane(n5x, n5y, n5z, o5, cx, cy, cz, ex, ey, ez, big)
    behind = (far0 < -b0) | (far1 < -b1) | (far2 < -b2) | (far3 < -b3) | (far4 < -b4) \
        | (far5 < -b5)
    inside = (near0 > b0) & (near1 > b1) & (near2 > b2) & (near3 > b3) & (near4 > b4) \
        & (near5 > b5)
    ahead = (far0 > b0) & (far1 > b1) & (far2 > b2) & (far3 > b3) & (far4 > b4) & (far5 > b5)
    cut = (near0 < -b0) | (near1 < -b1) | (near2 < -b2) | (near3 < -b3) | (near4 < -b4) \
        | (near5 < -b5)
    centred = (mid0 > b0) & (mid1 > b1) & (mid2 > b2) & (mid3 > b3) & (mid4 > b4) & (mid5 > b5)
    huge = not (b0 + b1 + b2 + b3 + b4 + b5 < np.inf)
    return behind, inside, ahead, cut, centred, huge, big


@jitable
def obb_plane(nx: float, ny: float, nz: float, o: float, cx: float, cy: float, cz: float,
              a00: float, a01: float, a02: float, a10: float, a11: float, a12: float,
              a20: float, a21: float, a22: float, h0: float, h1: float, h2: float, big: float,
              spread: float, defect: float) -> tuple[float, float, float]:
    """``(middle, r, bound)``: ``n . center - o``, the box's half extent along ``n`` by its
    rows, and the certified bound on the error of ``middle +- r`` (twice ``PLANE_BOUND``, and
    ``OBB_DEFECT_BOUND`` for rows orthonormal within ``defect``; ``big`` the largest |centre
    coordinate| plus ``spread``, the sum of the half sizes)."""
    middle = (nx * cx + ny * cy + nz * cz) - o
    r = (h0 * abs(nx * a00 + ny * a01 + nz * a02) + h1 * abs(nx * a10 + ny * a11 + nz * a12)
         + h2 * abs(nx * a20 + ny * a21 + nz * a22))
    n1 = abs(nx) + abs(ny) + abs(nz)
    bound = 2.0 * PLANE_BOUND * FILTER_UNIT * (n1 * big + abs(o)) \
        + OBB_DEFECT_BOUND * defect * n1 * spread + PLANE_ABSOLUTE
    return middle, r, bound


@jitable
def aabb_cross_axes(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float,
                    big: float, directions: tuple[float, ...], intervals: tuple[float, ...],
                    reach: float) -> tuple[bool, bool]:
    """``(separated, overlapping)``: whether one of the axes ``e_k x d`` (``e_k`` a box edge,
    ``d`` one of the 12 frustum edge directions) separates the box from the frustum for sure,
    and whether the projections overlap for sure on every one of them; ``intervals`` holds
    the frustum's 8 corners' projections on each axis, ``[low, high]``, as rounded in floats.

    Any axis that separates, the float one included, proves the two apart; an overlap proves
    nothing unless on the exact axis, and the float axis and corners are the exact ones rounded
    (to nearest, each within u): the bound (``_tolerances.CROSS_BOUND``, ``big`` and ``reach``
    the largest |coordinate| of the box and of the frustum) covers that too. An axis that is
    zero (``d`` along ``e_k``) is no axis."""
    separated = False
    overlapping = True
    for j in range(12):
        dx, dy, dz = directions[3 * j], directions[3 * j + 1], directions[3 * j + 2]
        for k in range(3):
            ax = 0.0 if k == 0 else (dz if k == 1 else -dy)
            ay = -dz if k == 0 else (0.0 if k == 1 else dx)
            az = dy if k == 0 else (-dx if k == 1 else 0.0)
            n1 = abs(ax) + abs(ay) + abs(az)
            top = ax * (hx if ax > 0.0 else lx) + ay * (hy if ay > 0.0 else ly) \
                + az * (hz if az > 0.0 else lz)
            bottom = ax * (lx if ax > 0.0 else hx) + ay * (ly if ay > 0.0 else hy) \
                + az * (lz if az > 0.0 else hz)
            low, high = intervals[6 * j + 2 * k], intervals[6 * j + 2 * k + 1]
            bound = CROSS_BOUND * FILTER_UNIT * n1 * (big + reach) + PLANE_ABSOLUTE
            below, above = top - low, high - bottom  # both >= 0: the projections overlap
            separated = separated | ((below < -bound) | (above < -bound)) & (n1 > 0.0)
            overlapping = overlapping & (((below > bound) & (above > bound)) | (n1 == 0.0))
    return separated, overlapping


@jitable
def obb_axes(cx: float, cy: float, cz: float, a00: float, a01: float, a02: float, a10: float,
             a11: float, a12: float, a20: float, a21: float, a22: float, h0: float, h1: float,
             h2: float, big: float, spread: float, defect: float, corners: tuple[float, ...],
             directions: tuple[float, ...], reach: float) -> tuple[bool, bool]:
    """``(separated, overlapping)`` as :func:`aabb_cross_axes`, for the OBB's face normals (its
    rows: on ``axes[k]`` the box spans exactly ``axes[k] . center +- h_k``) and the axes
    ``b_k x d`` (``b_k`` its edges, the rows within the orthonormality ``defect``), taken as
    ``axes[k] x d`` in floats. The bound adds, to ``CROSS_BOUND``'s rounding, what the rows
    and the rounded cross product may differ from the exact axis: per component at most
    ``delta = (18.2 defect + 8 u) |d|_max`` (``_tolerances.OBB_DEFECT_BOUND``: entries of the
    edges within 9.1 defect of the rows'; d rounded, and the cross product), which moves the
    centre's and a corner's projections by ``3 delta`` times the largest coordinate and the
    half extent by ``3.01 delta spread``, plus ``9.1 defect |axis|_1 spread`` for the rows
    taken as edges: within ``7 delta (big + reach) + 9.2 defect |axis|_1 spread``."""
    separated = False
    overlapping = True
    for j in range(13):
        dx = directions[3 * j - 3] if j > 0 else 0.0
        dy = directions[3 * j - 2] if j > 0 else 0.0
        dz = directions[3 * j - 1] if j > 0 else 0.0
        dmax = max(max(abs(dx), abs(dy)), abs(dz))
        for k in range(3):
            ex = a00 if k == 0 else (a10 if k == 1 else a20)
            ey = a01 if k == 0 else (a11 if k == 1 else a21)
            ez = a02 if k == 0 else (a12 if k == 1 else a22)
            # j == 0: the face normal axes[k] itself, else axes[k] x d
            ax = ex if j == 0 else ey * dz - ez * dy
            ay = ey if j == 0 else ez * dx - ex * dz
            az = ez if j == 0 else ex * dy - ey * dx
            n1 = abs(ax) + abs(ay) + abs(az)
            middle = ax * cx + ay * cy + az * cz
            r = (h0 * abs(ax * a00 + ay * a01 + az * a02) + h1 * abs(ax * a10 + ay * a11 + az * a12)
                 + h2 * abs(ax * a20 + ay * a21 + az * a22))
            r = r if j > 0 else (h0 if k == 0 else (h1 if k == 1 else h2))
            low = np.inf
            high = -np.inf
            for v in range(8):
                p = ax * corners[3 * v] + ay * corners[3 * v + 1] + az * corners[3 * v + 2]
                low = min(low, p)
                high = max(high, p)
            delta = (18.2 * defect + 8.0 * FILTER_UNIT) * dmax if j > 0 else 0.0
            bound = CROSS_BOUND * FILTER_UNIT * n1 * (big + reach) \
                + 7.0 * delta * (big + reach) + 9.2 * defect * n1 * spread + PLANE_ABSOLUTE
            below, above = (middle + r) - low, high - (middle - r)
            separated = separated | ((below < -bound) | (above < -bound))
            overlapping = overlapping & (below > bound) & (above > bound)
    return separated, overlapping
