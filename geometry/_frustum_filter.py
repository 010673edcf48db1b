"""Float building blocks of the box vs frustum filters: a plane against a box, and the
separating axes that the planes leave (the engine's second pass), each with its certified bound."""

from __future__ import annotations

import numpy as np

from ._floats import jitable
from ._tolerances import CROSS_BOUND, FILTER_UNIT, OBB_DEFECT_BOUND, PLANE_ABSOLUTE, PLANE_BOUND

__all__ = ["aabb_cross_axes", "aabb_plane", "obb_axes", "obb_plane"]


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
