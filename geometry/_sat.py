"""Separating axes of a triangle (or a segment) and an axis-aligned box, for the triangle and
OBB queries.

Akenine-Möller, "Fast 3D triangle-box overlap testing", JGT 2001: the three box normals
(``box_normals``), the triangle's normal and the nine cross products of a box axis with a
triangle edge (``triangle_box_sat``; one such axis alone: ``edge_axis_margin``), each margin in
float64 against a certified bound (``_tolerances``), and ``triangle_box_exact``, the same test in
integers for the exact passes. Triangle vs AABB runs them on the box as given; triangle vs OBB
and segment vs OBB in the box's frame (``_frame``), where the box is axis-aligned. ``larger``,
``smaller`` and ``max_abs3`` are the selects (branch-free max and min) the filters share.
"""

from __future__ import annotations

from ._floats import jitable
from ._tolerances import (
    FILTER_SCALE_MAX,
    FILTER_SCALE_MIN,
    FILTER_UNIT,
    TRIANGLE_EDGE_BOUND,
    TRIANGLE_PLANE_BOUND,
)

__all__ = ["box_normals", "edge_axis_margin", "larger", "max_abs3", "smaller",
           "triangle_box_exact", "triangle_box_sat"]

_INF = float("inf")


@jitable
def larger(a: float, b: float) -> float:
    return a if a > b else b


@jitable
def smaller(a: float, b: float) -> float:
    return a if a < b else b


@jitable
def skipped(margin: float, skip: bool) -> float:
    """``margin``, or +inf (never separating, never in doubt) for an axis that is skipped."""
    return _INF if skip else margin


@jitable
def max_abs3(x: float, y: float, z: float) -> float:
    x, y, z = abs(x), abs(y), abs(z)
    m = x if x > y else y
    return m if m > z else z


@jitable
def edge_axis_margin(a1: float, a2: float, p1: float, p2: float, q1: float, q2: float, k1: float,
                     k2: float, r1: float, r2: float) -> float:
    """Twice the margin of one box-axis x edge axis whose two non-zero components are ``a1,
    a2``, as in :func:`triangle_box_sat` (the box as TWICE its centre ``k`` and half extent
    ``r``): the triangle projects to ``[min, max]`` of ``a . p`` and ``a . q`` (``p`` a vertex
    of the edge, ``q`` the opposite one; the edge's other vertex projects as ``p``; a segment's
    two ends project alike), the box to ``a . k / 2`` +- ``(|a1| r1 + |a2| r2) / 2``: twice the
    margin, the sum of the radii less the distance of the midpoints, is ``|a1| r1 + |a2| r2 +
    |a . p - a . q| - |a . k - (a . p + a . q)|``. Negative iff the axis separates them."""
    p = a1 * p1 + a2 * p2
    q = a1 * q1 + a2 * q2
    return (abs(a1) * r1 + (abs(a2) * r2 + abs(p - q))) - abs(a1 * k1 + (a2 * k2 - (p + q)))


@jitable
def box_normals(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
                cy: float, cz: float, lx: float, ly: float, lz: float, hx: float, hy: float,
                hz: float, b2: float) -> tuple[bool, bool]:
    """``(separated, unsure)`` on the box's own normals: the triangle's bounding box against
    the box ``[l, h]``, each margin against ``b2`` (twice the vertices' error)."""
    top = larger(ax, bx)
    top = larger(top, cx)
    bottom = smaller(ax, bx)
    bottom = smaller(bottom, cx)
    m = hx - bottom
    m2 = top - lx
    box_margin = smaller(m, m2)
    top = larger(ay, by)
    top = larger(top, cy)
    bottom = smaller(ay, by)
    bottom = smaller(bottom, cy)
    m = hy - bottom
    m2 = top - ly
    m = smaller(m, m2)
    box_margin = smaller(box_margin, m)
    top = larger(az, bz)
    top = larger(top, cz)
    bottom = smaller(az, bz)
    bottom = smaller(bottom, cz)
    m = hz - bottom
    m2 = top - lz
    m = smaller(m, m2)
    box_margin = smaller(box_margin, m)
    return box_margin < -b2, not box_margin >= b2


@jitable
def triangle_box_sat(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
                     cy: float, cz: float, kx: float, ky: float, kz: float, rx: float, ry: float,
                     rz: float, err: float, big: float, zero_axes_exact: bool,
                     separated_by_box: bool, unsure: bool) -> tuple[bool, bool]:
    """``(overlap, doubt)`` of the triangle ``a, b, c`` and a closed box by Akenine-Möller's
    thirteen separating axes, in float64.

    The box comes as TWICE its centre, ``k``, and twice its half extent, ``r`` (``l + h`` and
    ``h - l`` for the box ``[l, h]``, ``l <= h``, finite), each coordinate within twice ``err
    + u big`` of the exact one: every margin below is twice the margin of the centre and
    the half extent, exactly (doubling rounds nothing), which saves halving the box and the
    triangle's ends. Each vertex coordinate is known within ``err`` of the exact one (0:
    exactly); ``big`` is at least the magnitude of every coordinate, vertex or box (the centre,
    the half extent and the bounds), that the tests use. Each axis's margin is compared with
    twice its error bound (``_tolerances``): an axis that separates beyond it answers False,
    one within it is doubt. (A vertex inside the box beyond the bound would settle such a doubt
    too, but it rarely meets one: on integer grids, where doubts are common, it settled under
    half of them, and testing it cost a tenth to a fifth of every loop.)
    ``zero_axes_exact``: the vertices are exact and the caller has decided the box's normals
    exactly; then a computed edge component is zero exactly when the exact one is, and an axis
    that is zero or parallel to a box normal (a zero component; for the triangle's normal, a
    triangle in a coordinate plane) is skipped. Else every axis is tested.
    ``separated_by_box``, ``unsure``: the caller's verdict on the box's own normals
    (:func:`box_normals`; a box clamped to the triangle's bounding box passes both False).
    Straight-line code (selects, no early exit), so that a compiled loop over boxes vectorises.
    """
    # scales: the largest edge component (``big``: the caller's bound on every coordinate)
    e0x, e0y, e0z = bx - ax, by - ay, bz - az
    e1x, e1y, e1z = cx - bx, cy - by, cz - bz
    e2x, e2y, e2z = ax - cx, ay - cy, az - cz
    edge = larger(larger(max_abs3(e0x, e0y, e0z), max_abs3(e1x, e1y, e1z)),
                  max_abs3(e2x, e2y, e2z))
    # out of range, products may overflow: then no axis below may answer
    in_range = (FILTER_SCALE_MIN <= edge) & (big <= FILTER_SCALE_MAX)
    unsure = unsure | (not in_range)
    slope = FILTER_UNIT * edge + err
    bound = 2.0 * TRIANGLE_EDGE_BOUND * slope * big  # the margins are doubled
    # the nine box-axis x edge axes: e_x x f = (0, -f_z, f_y), e_y x f = (f_z, 0, -f_x),
    # e_z x f = (-f_y, f_x, 0) for the edges f = b - a, c - b, a - c, each with a vertex of its
    # own and the opposite one: (a, c), (b, a), (c, b). Per axis, edge_axis_margin: the sum of
    # the triangle's and the box's radii less the distance of their midpoints, doubled as the
    # box comes, negative iff the axis separates. With one triangle for many boxes, what it
    # alone gives (the axis, p + q, |p - q|) is a constant of the loop: a box costs four fused
    # multiply-adds, an absolute value, a subtraction and a minimum an axis.
    # With exact vertices a computed edge component is zero iff the exact one is: an axis with a
    # zero component is zero or parallel to a box normal, which the caller decides (exactly:
    # the box is clamped to the triangle's bounding box), and is skipped (margin +inf); on
    # integer grids these axes had every box touching the triangle in doubt. All nine share
    # one bound, so their least margin decides (a NaN margin needs a value out of range, which
    # is doubt already).
    exact_zeros = zero_axes_exact
    least = _INF
    a1, a2 = -e0z, e0y
    m = edge_axis_margin(a1, a2, ay, az, cy, cz, ky, kz, ry, rz)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = e0z, -e0x
    m = edge_axis_margin(a1, a2, ax, az, cx, cz, kx, kz, rx, rz)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = -e0y, e0x
    m = edge_axis_margin(a1, a2, ax, ay, cx, cy, kx, ky, rx, ry)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = -e1z, e1y
    m = edge_axis_margin(a1, a2, by, bz, ay, az, ky, kz, ry, rz)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = e1z, -e1x
    m = edge_axis_margin(a1, a2, bx, bz, ax, az, kx, kz, rx, rz)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = -e1y, e1x
    m = edge_axis_margin(a1, a2, bx, by, ax, ay, kx, ky, rx, ry)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = -e2z, e2y
    m = edge_axis_margin(a1, a2, cy, cz, by, bz, ky, kz, ry, rz)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = e2z, -e2x
    m = edge_axis_margin(a1, a2, cx, cz, bx, bz, kx, kz, rx, rz)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    a1, a2 = -e2y, e2x
    m = edge_axis_margin(a1, a2, cx, cy, bx, by, kx, ky, rx, ry)
    m = skipped(m, exact_zeros & ((a1 == 0.0) | (a2 == 0.0)))
    least = smaller(m, least)
    separated = least < -bound
    unsure = unsure | (not least >= bound)
    # the triangle's normal: the triangle projects to the single value n . a, the box to
    # n . k +- |n| . r (doubled: 2 n . a against the doubled box)
    nx = e0y * e1z - e0z * e1y
    ny = e0z * e1x - e0x * e1z
    nz = e0x * e1y - e0y * e1x
    d = nx * ax + ny * ay + nz * az
    margin = ((abs(nx) * rx + (abs(ny) * ry + abs(nz) * rz))
              - abs(nx * kx + (ny * ky + (nz * kz - 2.0 * d))))
    # a triangle in a plane x, y or z = const (exact vertices: its edges' components there are
    # zero exactly): the normal is that box normal, decided by the caller; skipped
    level = (((e0x == 0.0) & (e1x == 0.0)) | ((e0y == 0.0) & (e1y == 0.0))
             | ((e0z == 0.0) & (e1z == 0.0)))
    margin = skipped(margin, exact_zeros & level)
    bound = 2.0 * TRIANGLE_PLANE_BOUND * slope * edge * big
    separated = separated | (margin < -bound)
    unsure = unsure | (not margin >= bound)
    separated = separated_by_box | (separated & in_range)
    unsure = unsure & (not separated)
    return (not separated) & (not unsure), unsure


def triangle_box_exact(a: list[int], b: list[int], c: list[int], lo: list[int],
                       hi: list[int]) -> bool:
    """The separating-axis test in integers (``a, b, c, lo, hi`` 3-lists on one scale): the
    triangle's bounding box against the box, its normal, the nine box-axis x edge axes; zero
    axes separate nothing and are skipped, so a degenerate triangle is its segment or point."""
    for k in range(3):
        if (lo[k] > hi[k] or max(a[k], b[k], c[k]) < lo[k] or min(a[k], b[k], c[k]) > hi[k]):
            return False
    edges = ([b[k] - a[k] for k in range(3)], [c[k] - b[k] for k in range(3)],
             [a[k] - c[k] for k in range(3)])
    e0, e1 = edges[0], edges[1]
    axes = [[e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
             e0[0] * e1[1] - e0[1] * e1[0]]]
    for f in edges:
        axes += [[0, -f[2], f[1]], [f[2], 0, -f[0]], [-f[1], f[0], 0]]
    for n0, n1, n2 in axes:
        if n0 == 0 and n1 == 0 and n2 == 0:
            continue
        ta = n0 * a[0] + n1 * a[1] + n2 * a[2]
        tb = n0 * b[0] + n1 * b[1] + n2 * b[2]
        tc = n0 * c[0] + n1 * c[1] + n2 * c[2]
        # the box's corners nearest and farthest along n
        x0, y0 = (lo[0], hi[0]) if n0 >= 0 else (hi[0], lo[0])
        x1, y1 = (lo[1], hi[1]) if n1 >= 0 else (hi[1], lo[1])
        x2, y2 = (lo[2], hi[2]) if n2 >= 0 else (hi[2], lo[2])
        if (max(ta, tb, tc) < n0 * x0 + n1 * x1 + n2 * x2
                or min(ta, tb, tc) > n0 * y0 + n1 * y1 + n2 * y2):
            return False
    return True
