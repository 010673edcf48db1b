"""Plane vs axis-aligned box: which side of the plane the box lies on.

The plane ``normal . p = offset`` meets the closed box iff the box's corners nearest and
farthest along the normal lie on either side (or on it): the corner that maximises
``normal . p`` takes ``box_max`` where the normal's component is positive and ``box_min``
elsewhere (the p-vertex / n-vertex test, Greene 1994; Akenine-Möller et al., Real-Time
Rendering, 22.10). ``_filter`` evaluates both corners in float64 (the box's centre plus and minus
its radius along the normal) with a certified bound (``_tolerances.PLANE_BOUND``), ``_exact`` in
integers for the rest.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._exact import scaled
from ._tolerances import FILTER_UNIT, PLANE_ABSOLUTE, PLANE_BOUND
from ._validate import BOX_MAX, BOX_MIN, DIRECTION, SCALAR

__all__ = ["plane_side_aabb"]


def _filter(nx: float, ny: float, nz: float, offset: float, lx: float, ly: float, lz: float,
            hx: float, hy: float, hz: float) -> tuple[int, bool]:
    """``(side, doubt)`` of one box against one plane, in float64: ``far`` and ``near`` are
    twice ``normal . p - offset`` at the corners farthest along the normal and against it,
    ``m +- r`` from the box's doubled centre ``l + h`` and half sizes ``h - l`` (each rounded
    once: twice ``_tolerances.PLANE_BOUND``, as the AABB vs frustum filter, doubled with them),
    each sure of its sign beyond the certified bound. An empty box (min > max) is -1. Doubt for
    any non-finite value (bad input, the empty-box infinities, an overflow) and a zero
    normal."""
    cx, cy, cz = lx + hx, ly + hy, lz + hz
    ex, ey, ez = hx - lx, hy - ly, hz - lz
    # a sum of these is finite iff they all are (or it overflowed: doubt either way); every
    # input enters one of them
    total = (nx + ny + nz + offset) + ((cx + ex) + (cy + ey) + (cz + ez))
    empty = (lx > hx) | (ly > hy) | (lz > hz)
    middle = nx * cx + (ny * cy + (nz * cz - 2.0 * offset))
    r = abs(nx) * ex + abs(ny) * ey + abs(nz) * ez
    far, near = middle + r, middle - r
    big = max(max(abs(cx), abs(cy)), abs(cz)) + max(max(ex, ey), ez)
    bound = 2.0 * PLANE_BOUND * FILTER_UNIT * ((abs(nx) + abs(ny) + abs(nz)) * big
                                               + 2.0 * abs(offset)) + PLANE_ABSOLUTE
    # the bound is 2**-49 of the sum's magnitude: below 2**970, no sum above overflows
    bad = (not total - total == 0.0) | ((nx == 0.0) & (ny == 0.0) & (nz == 0.0)) \
        | (not bound < 2.0**970)
    sure = (far < -bound) | (near > bound) | ((far > bound) & (near < -bound))
    side = -1 if (far < 0.0) | empty else (1 if near > 0.0 else 0)
    return side, bad | ((not empty) & (not sure))


def _exact(nx: float, ny: float, nz: float, offset: float, lx: float, ly: float, lz: float,
           hx: float, hy: float, hz: float) -> int:
    """The side of one box, exactly (any finite floats; the empty-box infinities allowed)."""
    if not (lx <= hx and ly <= hy and lz <= hz):
        return -1
    _, (o, *box) = scaled(offset, lx, ly, lz, hx, hy, hz)
    scale, n = scaled(nx, ny, nz)  # normal = n / scale: compare n . x with offset * scale
    o *= scale
    far = sum(n[i] * (box[3 + i] if n[i] > 0 else box[i]) for i in range(3))
    near = sum(n[i] * (box[i] if n[i] > 0 else box[3 + i]) for i in range(3))
    return -1 if far < o else (1 if near > o else 0)


_QUERY = Query(_filter, _exact,
               args=[("normal", DIRECTION), ("offset", SCALAR), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX)],
               outputs=[CLASS], contract=True)


@dask_aware
def plane_side_aabb(
    normal: ArrayLike, offset: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,
    out: np.ndarray | None = None,
) -> int | np.ndarray:
    """The side of the plane ``normal . p = offset`` each box lies on: -1, 0 or +1.

    ``-1``: the closed box lies in ``normal . p < offset``; ``+1``: in ``normal . p > offset``;
    ``0``: the plane meets the box (touching a face, an edge or a corner counts). The normal is
    any non-zero finite vector, not necessarily of unit length. An empty box (``min > max`` on
    an axis, e.g. ``AABB.empty()``) is -1, as a frustum's ``classify_aabb_frustum`` calls it
    NONE. Exact for the floats given, at every magnitude: the corners nearest and farthest
    along the normal (Greene 1994) in float64 with a certified error bound, in integers where
    it is in doubt.

    Parameters
    ----------
    normal : (3,) or (N, 3) array_like
        Non-zero, finite.
    offset : float or (N,) array_like
        Finite.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.
    out : (N,) int8 ndarray, optional
        Written with the sides and returned.

    Returns
    -------
    int or (N,) int8 ndarray
        A Python int when every argument is a single item.

    Raises
    ------
    ValueError
        For a zero or non-finite normal, a non-finite offset or coordinate, or shapes that do
        not broadcast; the message names the argument.
    """
    side: int | np.ndarray = _QUERY(normal, offset, box_min, box_max, out=out)
    return side
