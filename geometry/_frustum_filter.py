"""Float building blocks of the box vs frustum filters: one plane against a box's extremes."""

from __future__ import annotations

from ._floats import jitable
from ._tolerances import FILTER_UNIT, OBB_DEFECT_BOUND, PLANE_ABSOLUTE, PLANE_BOUND

__all__ = ["aabb_plane", "obb_plane"]


@jitable
def aabb_plane(nx: float, ny: float, nz: float, o: float, lx: float, ly: float, lz: float,
               hx: float, hy: float, hz: float, big: float) -> tuple[float, float, float]:
    """``(far, near, bound)``: ``n . p - o`` at the box's corners farthest along ``n`` and
    against it, and the certified bound on their error (``_tolerances.PLANE_BOUND``: ``n`` and
    ``o`` rounded once from the exact plane, ``big`` the largest |coordinate| of the box)."""
    far = (nx * (hx if nx > 0.0 else lx) + ny * (hy if ny > 0.0 else ly)
           + nz * (hz if nz > 0.0 else lz)) - o
    near = (nx * (lx if nx > 0.0 else hx) + ny * (ly if ny > 0.0 else hy)
            + nz * (lz if nz > 0.0 else hz)) - o
    bound = PLANE_BOUND * FILTER_UNIT * ((abs(nx) + abs(ny) + abs(nz)) * big + abs(o)) \
        + PLANE_ABSOLUTE
    return far, near, bound


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
