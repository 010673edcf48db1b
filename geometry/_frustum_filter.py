"""Float building blocks of the box vs frustum filters: a plane against a box, and the
separating axes that the planes leave (the engine's second pass), each with its certified bound."""

from __future__ import annotations

import numpy as np

from ._floats import jitable
from ._tolerances import CROSS_BOUND, FILTER_UNIT, OBB_DEFECT_BOUND, PLANE_ABSOLUTE, PLANE_BOUND

__all__ = ["aabb_cross_axes", "aabb_plane", "aabb_planes", "aabb_witness", "obb_axes", "obb_plane"]


@jitable
def aabb_plane(nx: float, ny: float, nz: float, o: float, cx: float, cy: float, cz: float,
               ex: float, ey: float, ez: float) -> tuple[float, float]:
    """``(far, near)``: ``n . p - o`` at the box's corners farthest along ``n`` and against
    it (centre ``c``, half sizes ``e``), each within the bound of :func:`aabb_planes` (``o``
    the offset's double where ``c`` and ``e`` are doubled)."""
    middle = nx * cx + (ny * cy + (nz * cz - o))
    r = abs(nx) * ex + abs(ny) * ey + abs(nz) * ez
    return middle + r, middle - r


@jitable
def aabb_planes(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, n0x: float,
                n0y: float, n0z: float, o0: float, n1x: float, n1y: float, n1z: float, o1: float,
                n2x: float, n2y: float, n2z: float, o2: float, n3x: float, n3y: float,
                n3z: float, o3: float, n4x: float, n4y: float, n4z: float, o4: float,
                n5x: float, n5y: float, n5z: float, o5: float
                ) -> tuple[float, float, float, float, float]:
    """The box ``[l, h]`` against the six planes (:func:`aabb_plane` each), in units of half
    its own: ``(far, near, second, bound, big)``, twice the least over the planes of the value
    at the box's farthest corner, the least and the second least of the values at its nearest
    corner, each within ``bound`` of that of the exact values (an order statistic moves by at
    most the largest of its terms' errors); and ``big``, at least the box's largest
    |coordinate| (for the cross axes). So the box is wholly behind a plane surely where
    ``far < -bound``, strictly inside every plane where ``near > bound``, strictly inside five
    of them where ``second > bound``, ahead of every plane with its farthest corner where
    ``far > bound``, cut into by a plane (its nearest corner behind it) where
    ``near < -bound``; a bound that overflowed (inf) makes none of these hold.

    Doubled, the centre and half sizes are ``l + h`` and ``h - l``, each rounded once (no
    halving), and the offsets ``2 o`` exactly. ``bound`` is one for all six planes: twice
    ``_tolerances.PLANE_BOUND`` (``n`` and ``o`` rounded once from the exact plane, the
    centre and half sizes once from the box's corners) for the largest ``|n|_1`` and ``|o|``
    of the six, with ``M`` the largest doubled |centre coordinate| plus half size: at least
    each plane's own, doubled."""
    cx, cy, cz = lx + hx, ly + hy, lz + hz
    ex, ey, ez = hx - lx, hy - ly, hz - lz
    big = max(max(abs(cx), abs(cy)), abs(cz)) + max(max(ex, ey), ez)
    far0, near0 = aabb_plane(n0x, n0y, n0z, 2.0 * o0, cx, cy, cz, ex, ey, ez)
    far1, near1 = aabb_plane(n1x, n1y, n1z, 2.0 * o1, cx, cy, cz, ex, ey, ez)
    far2, near2 = aabb_plane(n2x, n2y, n2z, 2.0 * o2, cx, cy, cz, ex, ey, ez)
    far3, near3 = aabb_plane(n3x, n3y, n3z, 2.0 * o3, cx, cy, cz, ex, ey, ez)
    far4, near4 = aabb_plane(n4x, n4y, n4z, 2.0 * o4, cx, cy, cz, ex, ey, ez)
    far5, near5 = aabb_plane(n5x, n5y, n5z, 2.0 * o5, cx, cy, cz, ex, ey, ez)
    # (constants of a compiled loop: computed once, not per box)
    n1 = max(max(max(abs(n0x) + abs(n0y) + abs(n0z), abs(n1x) + abs(n1y) + abs(n1z)),
                 max(abs(n2x) + abs(n2y) + abs(n2z), abs(n3x) + abs(n3y) + abs(n3z))),
             max(abs(n4x) + abs(n4y) + abs(n4z), abs(n5x) + abs(n5y) + abs(n5z)))
    offset = max(max(max(abs(o0), abs(o1)), max(abs(o2), abs(o3))), max(abs(o4), abs(o5)))
    bound = 2.0 * PLANE_BOUND * FILTER_UNIT * (n1 * big + 2.0 * offset) + PLANE_ABSOLUTE
    far = min(min(min(far0, far1), min(far2, far3)), min(far4, far5))
    least01, most01 = min(near0, near1), max(near0, near1)
    least23, most23 = min(near2, near3), max(near2, near3)
    least45, most45 = min(near4, near5), max(near4, near5)
    near = min(min(least01, least23), least45)
    # the second least: the least one's partner or the middle one of the pairs' least
    second = min(min(most01, most23), min(most45, max(
        min(least01, least23), min(max(least01, least23), least45))))
    return far, near, second, bound, big


@jitable
def aabb_witness(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, n0x: float,
                 n0y: float, n0z: float, o0: float, n1x: float, n1y: float, n1z: float,
                 o1: float, n2x: float, n2y: float, n2z: float, o2: float, n3x: float,
                 n3y: float, n3z: float, o3: float, n4x: float, n4y: float, n4z: float,
                 o4: float, n5x: float, n5y: float, n5z: float, o5: float, bound: float
                 ) -> bool:
    """Whether the box's corner farthest along the plane that its centre lies least inside
    (or most outside) is strictly inside every plane, surely: a point of the box in the
    frustum's interior. That corner's coordinates are the box's own (exact), so each plane's
    value there is within half of ``bound`` (:func:`aabb_planes`, in doubled units, which
    allows for a rounded centre and half sizes besides)."""
    cx, cy, cz = lx + hx, ly + hy, lz + hz  # (doubled: only the order of the six matters)
    m0 = n0x * cx + (n0y * cy + (n0z * cz - 2.0 * o0))
    m1 = n1x * cx + (n1y * cy + (n1z * cz - 2.0 * o1))
    m2 = n2x * cx + (n2y * cy + (n2z * cz - 2.0 * o2))
    m3 = n3x * cx + (n3y * cy + (n3z * cz - 2.0 * o3))
    m4 = n4x * cx + (n4y * cy + (n4z * cz - 2.0 * o4))
    m5 = n5x * cx + (n5y * cy + (n5z * cz - 2.0 * o5))
    least, wx, wy, wz = m0, n0x, n0y, n0z
    least, wx, wy, wz = (m1, n1x, n1y, n1z) if m1 < least else (least, wx, wy, wz)
    least, wx, wy, wz = (m2, n2x, n2y, n2z) if m2 < least else (least, wx, wy, wz)
    least, wx, wy, wz = (m3, n3x, n3y, n3z) if m3 < least else (least, wx, wy, wz)
    least, wx, wy, wz = (m4, n4x, n4y, n4z) if m4 < least else (least, wx, wy, wz)
    least, wx, wy, wz = (m5, n5x, n5y, n5z) if m5 < least else (least, wx, wy, wz)
    px, py, pz = hx if wx > 0.0 else lx, hy if wy > 0.0 else ly, hz if wz > 0.0 else lz
    return (n0x * px + (n0y * py + (n0z * pz - o0)) > bound) \
        & (n1x * px + (n1y * py + (n1z * pz - o1)) > bound) \
        & (n2x * px + (n2y * py + (n2z * pz - o2)) > bound) \
        & (n3x * px + (n3y * py + (n3z * pz - o3)) > bound) \
        & (n4x * px + (n4y * py + (n4z * pz - o4)) > bound) \
        & (n5x * px + (n5y * py + (n5z * pz - o5)) > bound)


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
