"""Straightforward numba ports of the textbook box tests: the reference rows of bench_queries.

NOT the library. Each port is the published algorithm as written, one box per loop iteration,
one thread, in the inputs' dtype, with rounded arithmetic and no care for the cases the papers
leave out (a direction component of zero with the origin on a slab plane gives 0 * inf = NaN,
exact touching is decided by rounding). The benchmark's data avoid those cases, so on its data a
port and the exact library must agree; a difference is a bug in one of them.

- Segment and ray vs AABB: the slab test of Williams, Barrus, Morley and Shirley, "An efficient
  and robust ray-box intersection algorithm", JGT 10(1), 2005 (near plane chosen by the sign of
  the precomputed 1 / direction), with one emptiness test after the three slabs.
- Triangle vs AABB: Akenine-Moller, "Fast 3D triangle-box overlap testing", JGT 6(1), 2001
  (``tribox3``: nine edge x box-axis tests on two vertices each, the box's three axes, then the
  triangle's plane against the box).
- OBBs: the same tests in the box's frame (``local = axes @ (p - center)``), which is the
  separating-axis test of Gottschalk et al. 1996 for the triangle.
- Box vs AABB: three.js ``Box3.intersectsBox`` (closed intervals overlap on each axis), then
  strict containment for INCLUDE. Box vs OBB: Ericson, Real-Time Collision Detection 4.4.1 (as
  three.js ``OBB.intersectsOBB`` and JOML ``testObOb``): the 15 axes with an epsilon added to
  every ``|R_ij|`` (here the dtype's machine epsilon, three.js's default ``Number.EPSILON`` in
  float64), then the query's corners strictly inside the box's slabs for INCLUDE.
- Sphere vs box: Arvo, "A simple method for box-sphere intersection testing", Graphics Gems
  1990 (clamp the centre to the box, compare the squared distance with r^2), then the ball's
  bounds strictly inside the box for INCLUDE; the OBB in its frame. Point-box distance: the
  clamp, then ``sqrt`` of the squared distance (three.js ``Box3.distanceToPoint``).

Outputs are allocated by the caller (numpy), so tracemalloc sees them; each kernel fills them.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["box_aabb", "box_obb", "distance_aabb", "distance_obb", "plane_aabb", "plane_obb",
           "ray_aabb", "ray_obb", "segment_aabb", "segment_obb", "sphere_aabb", "sphere_obb",
           "triangle_aabb", "triangle_obb"]

inline = numba.njit(inline="always", cache=True)
kernel = numba.njit(cache=True)


@inline
def _slabs(ox, oy, oz, ix, iy, iz, lx, ly, lz, hx, hy, hz):  # type: ignore[no-untyped-def]
    """Williams et al.: the line's parameter interval in the box, and whether it is empty.

    Each slab's near plane is picked by the sign of 1 / direction (so -0.0 works); the three
    intervals are then intersected with max / min and tested once, where the paper exits after
    each slab: the same answer, without a hard-to-predict branch per slab."""
    x0, x1 = (lx, hx) if ix >= 0 else (hx, lx)
    y0, y1 = (ly, hy) if iy >= 0 else (hy, ly)
    z0, z1 = (lz, hz) if iz >= 0 else (hz, lz)
    t0 = max((x0 - ox) * ix, (y0 - oy) * iy, (z0 - oz) * iz)
    t1 = min((x1 - ox) * ix, (y1 - oy) * iy, (z1 - oz) * iz)
    return t0, t1, t0 > t1


@inline
def _segment_class(t0, t1, miss):  # type: ignore[no-untyped-def]
    """NONE (0), INTERSECT (1) or INCLUDE (2) from the line's interval in the box."""
    if miss | (t1 < 0) | (t0 > 1):
        return 0
    return 2 if (t0 < 0) & (t1 > 1) else 1


@inline
def _ray_interval(t0, t1, miss):  # type: ignore[no-untyped-def]
    """hit, t_enter, t_exit for t in [0, inf) (inf, inf on a miss)."""
    t0 = max(t0, 0)
    if miss or t0 > t1:
        return False, np.inf, np.inf
    return True, t0, t1


@kernel
def segment_aabb(start, inv, box_min, box_max, out):  # type: ignore[no-untyped-def]
    """Classify every box; ``inv = 1 / (end - start)``."""
    for i in range(box_min.shape[0]):
        t0, t1, miss = _slabs(start[0], start[1], start[2], inv[0], inv[1], inv[2],
                              box_min[i, 0], box_min[i, 1], box_min[i, 2],
                              box_max[i, 0], box_max[i, 1], box_max[i, 2])
        out[i] = _segment_class(t0, t1, miss)


@kernel
def ray_aabb(origin, inv, box_min, box_max, hit, t_enter, t_exit):  # type: ignore[no-untyped-def]
    """Intersect the ray (t in [0, inf)) with every box; ``inv = 1 / direction``."""
    for i in range(box_min.shape[0]):
        t0, t1, miss = _slabs(origin[0], origin[1], origin[2], inv[0], inv[1], inv[2],
                              box_min[i, 0], box_min[i, 1], box_min[i, 2],
                              box_max[i, 0], box_max[i, 1], box_max[i, 2])
        hit[i], t_enter[i], t_exit[i] = _ray_interval(t0, t1, miss)


@inline
def _local(axes, j, px, py, pz):  # type: ignore[no-untyped-def]
    """``axes[j] @ p``: p in the frame whose rows are ``axes[j]`` (indexed element by element:
    a view ``axes[j]`` per box would cost reference counting in the loop)."""
    return (axes[j, 0, 0] * px + axes[j, 0, 1] * py + axes[j, 0, 2] * pz,
            axes[j, 1, 0] * px + axes[j, 1, 1] * py + axes[j, 1, 2] * pz,
            axes[j, 2, 0] * px + axes[j, 2, 1] * py + axes[j, 2, 2] * pz)


@inline
def _obb_slabs(o, d, center, axes, half, i, step, one):  # type: ignore[no-untyped-def]
    """The slab test in box i's frame: origin and direction rotated, box [-half, half]."""
    j = i * step
    ox, oy, oz = _local(axes, j, o[0] - center[i, 0], o[1] - center[i, 1], o[2] - center[i, 2])
    dx, dy, dz = _local(axes, j, d[0], d[1], d[2])
    hx, hy, hz = half[i, 0], half[i, 1], half[i, 2]
    return _slabs(ox, oy, oz, one / dx, one / dy, one / dz, -hx, -hy, -hz, hx, hy, hz)


@kernel
def segment_obb(start, d, center, axes, step, half, out):  # type: ignore[no-untyped-def]
    """Classify every oriented box; ``d = end - start``; box i's axes are ``axes[i * step]``."""
    one = d.dtype.type(1)
    for i in range(center.shape[0]):
        t0, t1, miss = _obb_slabs(start, d, center, axes, half, i, step, one)
        out[i] = _segment_class(t0, t1, miss)


@kernel
def ray_obb(origin, d, center, axes, step, half, hit, t_enter, t_exit):  # type: ignore[no-untyped-def]
    """Intersect the ray (t in [0, inf)) with every oriented box; axes as in segment_obb."""
    one = d.dtype.type(1)
    for i in range(center.shape[0]):
        t0, t1, miss = _obb_slabs(origin, d, center, axes, half, i, step, one)
        hit[i], t_enter[i], t_exit[i] = _ray_interval(t0, t1, miss)


@inline
def _separated(p, q, rad):  # type: ignore[no-untyped-def]
    """Whether the projections p, q of the triangle miss the box's projection [-rad, rad]."""
    return min(p, q) > rad or max(p, q) < -rad


@inline
def _edge_separates(ex, ey, ez, p, r, hx, hy, hz):  # type: ignore[no-untyped-def]
    """tribox3's AXISTEST for edge e against the box's x, y and z axes (e x axis); p lies on
    the edge (both its ends project alike), r is the opposite vertex."""
    fx, fy, fz = abs(ex), abs(ey), abs(ez)
    return (_separated(ez * p[1] - ey * p[2], ez * r[1] - ey * r[2], fz * hy + fy * hz)
            or _separated(ex * p[2] - ez * p[0], ex * r[2] - ez * r[0], fz * hx + fx * hz)
            or _separated(ey * p[0] - ex * p[1], ey * r[0] - ex * r[1], fy * hx + fx * hy))


@inline
def _tribox(a, b, c, hx, hy, hz):  # type: ignore[no-untyped-def]
    """Akenine-Moller's tribox3 for the triangle a, b, c (tuples, box-centred) and the box
    [-h, h]: True when no separating axis is found."""
    e0 = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    e1 = (c[0] - b[0], c[1] - b[1], c[2] - b[2])
    e2 = (a[0] - c[0], a[1] - c[1], a[2] - c[2])
    if (_edge_separates(e0[0], e0[1], e0[2], a, c, hx, hy, hz)
            or _edge_separates(e1[0], e1[1], e1[2], b, a, hx, hy, hz)
            or _edge_separates(e2[0], e2[1], e2[2], c, b, hx, hy, hz)):
        return False
    if (min(a[0], b[0], c[0]) > hx or max(a[0], b[0], c[0]) < -hx
            or min(a[1], b[1], c[1]) > hy or max(a[1], b[1], c[1]) < -hy
            or min(a[2], b[2], c[2]) > hz or max(a[2], b[2], c[2]) < -hz):
        return False
    # planeBoxOverlap: the box's corners nearest and farthest along the normal, seen from a
    nx = e0[1] * e1[2] - e0[2] * e1[1]
    ny = e0[2] * e1[0] - e0[0] * e1[2]
    nz = e0[0] * e1[1] - e0[1] * e1[0]
    if nx > 0:
        minx, maxx = -hx - a[0], hx - a[0]
    else:
        minx, maxx = hx - a[0], -hx - a[0]
    if ny > 0:
        miny, maxy = -hy - a[1], hy - a[1]
    else:
        miny, maxy = hy - a[1], -hy - a[1]
    if nz > 0:
        minz, maxz = -hz - a[2], hz - a[2]
    else:
        minz, maxz = hz - a[2], -hz - a[2]
    if nx * minx + ny * miny + nz * minz > 0:
        return False
    return nx * maxx + ny * maxy + nz * maxz >= 0


@kernel
def triangle_aabb(v0, v1, v2, box_min, box_max, out):  # type: ignore[no-untyped-def]
    """Overlap of the triangle with every box (tribox3 on the box's centre and half size)."""
    half = v0.dtype.type(0.5)
    for i in range(box_min.shape[0]):
        cx = (box_min[i, 0] + box_max[i, 0]) * half
        cy = (box_min[i, 1] + box_max[i, 1]) * half
        cz = (box_min[i, 2] + box_max[i, 2]) * half
        out[i] = _tribox((v0[0] - cx, v0[1] - cy, v0[2] - cz),
                         (v1[0] - cx, v1[1] - cy, v1[2] - cz),
                         (v2[0] - cx, v2[1] - cy, v2[2] - cz),
                         (box_max[i, 0] - box_min[i, 0]) * half,
                         (box_max[i, 1] - box_min[i, 1]) * half,
                         (box_max[i, 2] - box_min[i, 2]) * half)


@kernel
def triangle_obb(v0, v1, v2, center, axes, step, half, out):  # type: ignore[no-untyped-def]
    """Overlap of the triangle with every oriented box: tribox3 in the box's frame."""
    for i in range(center.shape[0]):
        j = i * step
        cx, cy, cz = center[i, 0], center[i, 1], center[i, 2]
        out[i] = _tribox(_local(axes, j, v0[0] - cx, v0[1] - cy, v0[2] - cz),
                         _local(axes, j, v1[0] - cx, v1[1] - cy, v1[2] - cz),
                         _local(axes, j, v2[0] - cx, v2[1] - cy, v2[2] - cz),
                         half[i, 0], half[i, 1], half[i, 2])


@kernel
def box_aabb(lo, hi, box_min, box_max, out):  # type: ignore[no-untyped-def]
    """Classify every box against the query box [lo, hi]: NONE (0), INTERSECT (1), INCLUDE (2)."""
    for i in range(box_min.shape[0]):
        if (hi[0] < box_min[i, 0] or lo[0] > box_max[i, 0] or hi[1] < box_min[i, 1]
                or lo[1] > box_max[i, 1] or hi[2] < box_min[i, 2] or lo[2] > box_max[i, 2]):
            out[i] = 0
        elif (box_min[i, 0] < lo[0] and hi[0] < box_max[i, 0] and box_min[i, 1] < lo[1]
              and hi[1] < box_max[i, 1] and box_min[i, 2] < lo[2] and hi[2] < box_max[i, 2]):
            out[i] = 2
        else:
            out[i] = 1


@inline
def _row_dots(axes, a, box_axes, j):  # type: ignore[no-untyped-def]
    """``axes[a] . box_axes[j, b]`` for b = 0, 1, 2: row a of Ericson's R = A B^T."""
    return (axes[a, 0] * box_axes[j, 0, 0] + axes[a, 1] * box_axes[j, 0, 1]
            + axes[a, 2] * box_axes[j, 0, 2],
            axes[a, 0] * box_axes[j, 1, 0] + axes[a, 1] * box_axes[j, 1, 1]
            + axes[a, 2] * box_axes[j, 1, 2],
            axes[a, 0] * box_axes[j, 2, 0] + axes[a, 1] * box_axes[j, 2, 1]
            + axes[a, 2] * box_axes[j, 2, 2])


@inline
def _abs_eps(row, eps):  # type: ignore[no-untyped-def]
    return (abs(row[0]) + eps, abs(row[1]) + eps, abs(row[2]) + eps)


@kernel
def box_obb(center, axes, half, box_center, box_axes, step, box_half, out):  # type: ignore[no-untyped-def]
    """Classify every oriented box against the query box (center, axes, half); box i's axes
    are ``box_axes[i * step]``. Ericson's R = A B^T and t in A's frame, |R| + epsilon."""
    eps = np.finfo(center.dtype).eps
    ea = (half[0], half[1], half[2])
    for n in range(box_center.shape[0]):
        j = n * step
        r = (_row_dots(axes, 0, box_axes, j), _row_dots(axes, 1, box_axes, j),
             _row_dots(axes, 2, box_axes, j))
        ar = (_abs_eps(r[0], eps), _abs_eps(r[1], eps), _abs_eps(r[2], eps))
        t = _local_frame(axes, box_center[n, 0] - center[0], box_center[n, 1] - center[1],
                         box_center[n, 2] - center[2])
        out[n] = _obb_class(r, ar, t, ea, (box_half[n, 0], box_half[n, 1], box_half[n, 2]))


@inline
def _local_frame(axes, px, py, pz):  # type: ignore[no-untyped-def]
    """``axes @ p`` for one (3, 3) frame."""
    return (axes[0, 0] * px + axes[0, 1] * py + axes[0, 2] * pz,
            axes[1, 0] * px + axes[1, 1] * py + axes[1, 2] * pz,
            axes[2, 0] * px + axes[2, 1] * py + axes[2, 2] * pz)


@inline
def _obb_class(r, ar, t, ea, eb):  # type: ignore[no-untyped-def]
    """RTCD 4.4.1's 15 axes (NONE on the first that separates); else INCLUDE when the query's
    projection on each of the box's axes lies strictly inside the box's, else INTERSECT."""
    for i in range(3):
        if abs(t[i]) > ea[i] + eb[0] * ar[i][0] + eb[1] * ar[i][1] + eb[2] * ar[i][2]:
            return 0
    inside = True
    for j in range(3):
        s = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j]
        ra = ea[0] * ar[0][j] + ea[1] * ar[1][j] + ea[2] * ar[2][j]
        if abs(s) > ra + eb[j]:
            return 0
        inside = inside and abs(s) + ra < eb[j]
    for i in range(3):
        i1, i2 = (i + 1) % 3, (i + 2) % 3
        for j in range(3):
            j1, j2 = (j + 1) % 3, (j + 2) % 3
            ra = ea[i1] * ar[i2][j] + ea[i2] * ar[i1][j]
            rb = eb[j1] * ar[i][j2] + eb[j2] * ar[i][j1]
            if abs(t[i2] * r[i1][j] - t[i1] * r[i2][j]) > ra + rb:
                return 0
    return 2 if inside else 1


@inline
def _sphere_class(cx, cy, cz, radius, lx, ly, lz, hx, hy, hz):  # type: ignore[no-untyped-def]
    """Arvo: the squared distance from the centre to the box against r^2; INCLUDE when the
    ball's bounds lie strictly inside the box."""
    dx = cx - min(max(cx, lx), hx)
    dy = cy - min(max(cy, ly), hy)
    dz = cz - min(max(cz, lz), hz)
    if dx * dx + dy * dy + dz * dz > radius * radius:
        return 0
    if (lx < cx - radius and cx + radius < hx and ly < cy - radius and cy + radius < hy
            and lz < cz - radius and cz + radius < hz):
        return 2
    return 1


@kernel
def sphere_aabb(center, radius, box_min, box_max, out):  # type: ignore[no-untyped-def]
    """Classify every box against the ball (center, radius)."""
    for i in range(box_min.shape[0]):
        out[i] = _sphere_class(center[0], center[1], center[2], radius, box_min[i, 0],
                               box_min[i, 1], box_min[i, 2], box_max[i, 0], box_max[i, 1],
                               box_max[i, 2])


@kernel
def sphere_obb(center, radius, box_center, axes, step, half, out):  # type: ignore[no-untyped-def]
    """Classify every oriented box against the ball: Arvo in the box's frame."""
    for i in range(box_center.shape[0]):
        cx, cy, cz = _local(axes, i * step, center[0] - box_center[i, 0],
                            center[1] - box_center[i, 1], center[2] - box_center[i, 2])
        hx, hy, hz = half[i, 0], half[i, 1], half[i, 2]
        out[i] = _sphere_class(cx, cy, cz, radius, -hx, -hy, -hz, hx, hy, hz)


@kernel
def distance_aabb(point, box_min, box_max, out):  # type: ignore[no-untyped-def]
    """Distance from the point to every box: clamp, then sqrt of the squared distance."""
    for i in range(box_min.shape[0]):
        dx = point[0] - min(max(point[0], box_min[i, 0]), box_max[i, 0])
        dy = point[1] - min(max(point[1], box_min[i, 1]), box_max[i, 1])
        dz = point[2] - min(max(point[2], box_min[i, 2]), box_max[i, 2])
        out[i] = np.sqrt(dx * dx + dy * dy + dz * dz)


@kernel
def distance_obb(point, box_center, axes, step, half, out):  # type: ignore[no-untyped-def]
    """Distance from the point to every oriented box, clamped in the box's frame."""
    for i in range(box_center.shape[0]):
        px, py, pz = _local(axes, i * step, point[0] - box_center[i, 0],
                            point[1] - box_center[i, 1], point[2] - box_center[i, 2])
        dx = px - min(max(px, -half[i, 0]), half[i, 0])
        dy = py - min(max(py, -half[i, 1]), half[i, 1])
        dz = pz - min(max(pz, -half[i, 2]), half[i, 2])
        out[i] = np.sqrt(dx * dx + dy * dy + dz * dz)


@kernel
def plane_aabb(normal, offset, box_min, box_max, out):  # type: ignore[no-untyped-def]
    """Ericson 5.2.3: -1 / +1 where the box's centre lies farther from the plane, on that side,
    than its projected radius; 0 where the plane meets the box."""
    nx, ny, nz = normal[0], normal[1], normal[2]
    for i in range(box_min.shape[0]):
        cx = (box_min[i, 0] + box_max[i, 0]) * 0.5
        cy = (box_min[i, 1] + box_max[i, 1]) * 0.5
        cz = (box_min[i, 2] + box_max[i, 2]) * 0.5
        r = ((box_max[i, 0] - cx) * abs(nx) + (box_max[i, 1] - cy) * abs(ny)
             + (box_max[i, 2] - cz) * abs(nz))
        d = nx * cx + ny * cy + nz * cz - offset
        out[i] = (d > r) - (d < -r)


@kernel
def plane_obb(normal, offset, box_center, axes, step, half, out):  # type: ignore[no-untyped-def]
    """Ericson 5.2.3 for an oriented box: the projected radius sum_i h_i |n . axes[i]|."""
    for i in range(box_center.shape[0]):
        ux, uy, uz = _local(axes, i * step, normal[0], normal[1], normal[2])
        r = half[i, 0] * abs(ux) + half[i, 1] * abs(uy) + half[i, 2] * abs(uz)
        d = (normal[0] * box_center[i, 0] + normal[1] * box_center[i, 1]
             + normal[2] * box_center[i, 2] - offset)
        out[i] = (d > r) - (d < -r)
