"""Triangle vs axis-aligned box overlap by separating axes.

Reference: Akenine-Möller, "Fast 3D triangle-box overlap testing", JGT 2001. Thirteen candidate
axes: the three box normals, the triangle's normal and the nine cross products of a box axis with
a triangle edge. A zero axis (a degenerate triangle's normal, an edge parallel to a box axis, a
zero-length edge) projects everything to 0 and separates nothing; for a degenerate triangle the
remaining axes are those of segment-vs-box (or point-vs-box), so the test stays complete.

``_filter`` runs the test in float64, each axis's margin against a certified bound
(``_tolerances``), after clamping the box to the triangle's bounding box (exact);
``_exact`` runs it in integers on the floats' exact values for the items the filter doubts.
The engine (``_engine``) runs the filter once for one item and in a compiled loop for many.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import BOOL, Query
from ._exact import scaled
from ._sat import larger, max_abs3, smaller, triangle_box_exact, triangle_box_sat
from ._validate import BOX_MAX, BOX_MIN, POINT

__all__ = ["triangle_overlaps_aabb"]


# --- the kernel: float filter and exact pass -----------------------------------------------

_INF = float("inf")


def _filter(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float, cy: float,
            cz: float, lx: float, ly: float, lz: float, hx: float, hy: float, hz: float
            ) -> tuple[bool, bool]:
    """``(overlap, doubt)`` for the triangle ``a, b, c`` and the closed box ``[l, h]``.

    The box is first clamped to the triangle's bounding box (exact: max and min round nothing).
    The triangle lies in its bounding box, so it meets the box iff it meets the clamped box;
    this decides the box-normal axes exactly (they are not tested again), rejects empty boxes
    (their infinities included), and bounds every coordinate the axes use by the triangle's
    own. A value that is not valid (a NaN, an infinite vertex, -inf in ``l`` or +inf in ``h``)
    is doubt.
    """
    total = ax + ay + az + bx + by + bz + cx + cy + cz
    bad = not ((total - total == 0.0) & (lx > -_INF) & (ly > -_INF) & (lz > -_INF)
               & (hx < _INF) & (hy < _INF) & (hz < _INF))  # (an overflowing sum is doubt too)
    t = smaller(ax, bx)
    t = smaller(t, cx)
    lx = larger(lx, t)
    t = smaller(ay, by)
    t = smaller(t, cy)
    ly = larger(ly, t)
    t = smaller(az, bz)
    t = smaller(t, cz)
    lz = larger(lz, t)
    t = larger(ax, bx)
    t = larger(t, cx)
    hx = smaller(hx, t)
    t = larger(ay, by)
    t = larger(t, cy)
    hy = smaller(hy, t)
    t = larger(az, bz)
    t = larger(t, cz)
    hz = smaller(hz, t)
    empty = not ((lx <= hx) & (ly <= hy) & (lz <= hz))
    # a clamped box that is not empty lies in the triangle's bounding box: the vertices bound
    # every coordinate (one scale for all boxes, computed once in a loop over boxes)
    big = larger(larger(max_abs3(ax, ay, az), max_abs3(bx, by, bz)), max_abs3(cx, cy, cz))
    # twice its centre and its half extent, each within 2 u big of the exact one
    kx, ky, kz = lx + hx, ly + hy, lz + hz
    rx, ry, rz = hx - lx, hy - ly, hz - lz
    overlap, unsure = triangle_box_sat(ax, ay, az, bx, by, bz, cx, cy, cz, kx, ky, kz, rx, ry,
                                       rz, 0.0, big, True, False, False)
    return overlap & (not empty) & (not bad), bad | (unsure & (not empty))


def _exact(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
           cy: float, cz: float, lx: float, ly: float, lz: float, hx: float, hy: float,
           hz: float) -> bool:
    """The exact overlap of the triangle ``a, b, c`` and the closed box ``[l, h]``, at every
    magnitude (integers on the floats' exact values)."""
    if not (lx <= hx and ly <= hy and lz <= hz):  # empty (the infinities of AABB.empty())
        return False
    _, v = scaled(ax, ay, az, bx, by, bz, cx, cy, cz, lx, ly, lz, hx, hy, hz)
    return triangle_box_exact(v[0:3], v[3:6], v[6:9], v[9:12], v[12:15])


_QUERY = Query(_filter, _exact,
               args=[("v0", POINT), ("v1", POINT), ("v2", POINT), ("box_min", BOX_MIN),
                     ("box_max", BOX_MAX)],
               outputs=[BOOL], contract=True)


@dask_aware
def triangle_overlaps_aabb(
    v0: ArrayLike, v1: ArrayLike, v2: ArrayLike, box_min: ArrayLike, box_max: ArrayLike, *,
    out: np.ndarray | None = None,
) -> bool | np.ndarray:
    """True for each box that shares at least one point with the triangle (touching counts).

    The triangle is the closed convex hull of ``v0, v1, v2`` and the box the closed set
    ``{box_min <= p <= box_max}``. A degenerate triangle (collinear or coincident vertices) is the
    segment or point it spans and is tested as such. A flat box (``min == max`` on an axis) is a
    rectangle, segment or point; an empty box (``min > max`` on an axis, ``AABB.empty()``) never
    overlaps. Exact for the floats given, at every magnitude: a float filter with certified
    error bounds, and integer arithmetic where it is in doubt (Akenine-Möller 2001's thirteen
    separating axes).

    Parameters
    ----------
    v0, v1, v2 : (3,) or (N, 3) array_like
        The triangles' vertices.
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners (``+inf`` / ``-inf`` as in ``AABB.empty()`` mean an empty box).
    out : (N,) bool ndarray, optional
        Written with the answers and returned (shape: the arguments' broadcast leading shape).

    Returns
    -------
    bool or (N,) bool ndarray
        A Python bool when every argument is a single item.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), shapes that do not
        broadcast, or an integer float64 cannot hold exactly; the message names the argument.
    """
    overlap: bool | np.ndarray = _QUERY(v0, v1, v2, box_min, box_max, out=out)
    return overlap
