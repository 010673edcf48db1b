"""``BoxTree`` (public in :mod:`.box_tree`): a bounding-volume hierarchy with per-box answers.

It answers ``intersect_ray_aabb``, ``classify_segment_aabb``, ``triangle_overlaps_aabb``,
``classify_aabb_aabb`` (and the boxes' own pairs), ``classify_sphere_aabb``,
``distance_point_aabb`` (the k nearest boxes) and ``classify_aabb_frustum`` for M queries against
N boxes without testing every pair. Its walks (:mod:`._bvh`, :mod:`._bvh_pairs`,
:mod:`._bvh_distance`, :mod:`._bvh_frustum`) only *collect candidates*, with exact comparisons
or bounds widened by certified errors, so no box whose answer is not a miss / NONE (or among the
k nearest) is left out; the public per-box function answers every candidate pair in one batched
call, so hits, classes and t values are exactly its own, bit for bit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._bvh_results import (
    BoxPairs,
    FrustumBoxes,
    NearestBoxes,
    NearestHits,
    RayPairs,
    Rays,
    SegmentPairs,
    SelfPairs,
    SpherePairs,
    TrianglePairs,
    as_tree_boxes,
    broadcast_points,
    sorted_pairs,
    work,
)
from ._exact import to_float
from ._validate import (
    RADIUS,
    as_boxes,
    as_finite_points,
    as_scalars,
    broadcast_lead,
    check_box_bounds,
    check_elements,
    check_nonzero_direction,
    compute_dtype,
)
from .aabb_aabb import classify_aabb_aabb
from .aabb_frustum import classify_aabb_frustum
from .frustum import Frustum
from .point_aabb import distance_point_aabb
from .ray_aabb import intersect_ray_aabb
from .segment_aabb import classify_segment_aabb
from .sphere_aabb import classify_sphere_aabb
from .triangle_aabb import triangle_overlaps_aabb

__all__ = ["OUT_ABS", "OUT_REL", "VARIANTS", "BoxTree", "distance_walks"]

#: The public functions' ``t_enter`` is within 2 ulps of the exact entry in the output dtype
#: (SEMANTICS.md): relative 2**-22 in float32, 2**-51 in float64; bounds 8x that, plus an
#: absolute slack for subnormal results (whose ulp is 2**-149 / 2**-1074).
OUT_REL: dict[type, float] = {np.float32: 2.0**-19, np.float64: 2.0**-48}
OUT_ABS: dict[type, float] = {np.float32: 2.0**-120, np.float64: 2.0**-1000}

#: Subclasses that register here from modules importing this one (:mod:`.box_tree` imports
#: them): "obb", :meth:`BoxTree.from_obbs`'s (:mod:`._bvh_obb`); "dask", over dask arrays.
VARIANTS: dict[str, type[BoxTree]] = {}


def _compiled() -> ModuleType:
    """The compiled build and walk (:mod:`._bvh`), imported on first use: importing it imports
    numba, which ``import geometry`` and one-item calls never need."""
    from . import _bvh

    return _bvh


def distance_walks() -> ModuleType:
    """The compiled point-box distance walks (:mod:`._bvh_distance`), imported on first use."""
    from . import _bvh_distance

    return _bvh_distance


def _frustum_walk() -> ModuleType:
    """The compiled frustum walk (:mod:`._bvh_frustum`), imported on first use."""
    from . import _bvh_frustum

    return _bvh_frustum


def _pair_walks() -> ModuleType:
    """The compiled box-pair walks (:mod:`._bvh_pairs`), imported on first use."""
    from . import _bvh_pairs

    return _bvh_pairs

class BoxTree:
    """A bounding-volume hierarchy over N axis-aligned boxes, for many queries at once.

    The answers are exactly those of the per-box functions (``intersect_ray_aabb``,
    ``classify_segment_aabb``, ``triangle_overlaps_aabb``) for every pair of a query and a box,
    t values bit for bit; the tree only skips pairs whose answer is surely a miss. Empty boxes
    (``min > max`` on an axis, e.g. ``AABB.empty()``) are allowed and never reported.

    The build sorts the boxes by the Morton code of their centres and splits the sorted order
    at the highest differing bit (Karras 2012), compiled with numba; it takes O(N log N) time
    and O(N) memory beyond the inputs (a copy of the boxes in leaf order and 2N nodes), and
    keeps no reference to the input arrays. Where the build or a walk is not compiled yet (a
    new install, or the first call in a process), a tree of at most 4096 boxes (and at most
    8192 queries) runs it interpreted while it compiles in a thread, with the same results
    (``set_jit(False)``: always interpreted).

    Parameters
    ----------
    box_min, box_max : (N, 3) array_like
        The boxes' corners, float32 or float64 (other numbers become float64). The boxes are
        validated once, here, with the per-box functions' messages.

    Raises
    ------
    ValueError
        For a NaN or an infinity other than the empty-box marker (``+inf`` in ``box_min``,
        ``-inf`` in ``box_max``), or shapes that are not (N, 3) / do not match.

    Examples
    --------
    >>> import numpy as np
    >>> tree = BoxTree([[0, 0, 0], [2, 0, 0]], [[1, 1, 1], [3, 1, 1]])
    >>> tree.nearest_ray_hits([[-1, 0.5, 0.5]], [[1, 0, 0]])
    NearestHits(box_index=array([0]), t_enter=array([1.]))
    """

    # the per-box functions the answers come from (:meth:`from_obbs` trees: the OBB ones)
    _ray: Callable[..., Any] = staticmethod(intersect_ray_aabb)
    _segment: Callable[..., Any] = staticmethod(classify_segment_aabb)
    _triangle: Callable[..., Any] = staticmethod(triangle_overlaps_aabb)
    _box: Callable[..., Any] = staticmethod(classify_aabb_aabb)
    _distance: Callable[..., Any] = staticmethod(distance_point_aabb)
    _frustum: Callable[..., Any] = staticmethod(classify_aabb_frustum)
    _sphere: Callable[..., Any] = staticmethod(classify_sphere_aabb)

    def __new__(cls, *args: Any) -> BoxTree:
        """Over dask arrays of boxes: a tree per chunk on the workers (:mod:`._bvh_dask`)."""
        if cls is BoxTree and "dask" in sys.modules:
            import dask.array as da

            if any(isinstance(a, da.Array) for a in args):
                return super().__new__(VARIANTS["dask"])
        return super().__new__(cls)

    def __init__(self, box_min: ArrayLike, box_max: ArrayLike) -> None:
        lo, hi = as_tree_boxes(box_min, box_max)
        self._dtype: np.dtype = np.dtype(compute_dtype(lo, hi))
        # The tree holds float64 (exact for float32 boxes: one compiled version of the walk);
        # the per-box functions get the candidates back in the boxes' dtype.
        self._tree = _compiled().build(work(lo), work(hi))
        self._n = len(lo)

    @classmethod
    def from_obbs(cls, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike) -> BoxTree:
        """A tree over N oriented boxes whose queries answer exactly as the OBB functions
        (``intersect_ray_obb`` ... ``classify_obb_frustum``; ``classify_obb_obb`` for
        :meth:`self_pairs`, ``classify_sphere_obb`` for :meth:`sphere_pairs`); :meth:`refit`
        takes new ``(center, axes, half_size)``.

        Parameters
        ----------
        center : (N, 3), axes : (N, 3, 3), half_size : (N, 3) array_like
            The boxes, each validated as ``OBB(center[i], axes[i], half_size[i])``; a negative
            half size is an empty box.
        """
        return VARIANTS["obb"](center, axes, half_size)  # type: ignore[call-arg]

    def __len__(self) -> int:
        """The number of boxes given, empty ones included."""
        return self._n

    def __repr__(self) -> str:
        return f"BoxTree({self._n} boxes, {self._dtype})"

    @property
    def dtype(self) -> np.dtype:
        """The boxes' float dtype."""
        return self._dtype

    def nearest_ray_hits(self, origin: ArrayLike, direction: ArrayLike, *,
                         t_min: ArrayLike = 0.0, t_max: ArrayLike = np.inf) -> NearestHits:
        """The nearest box each ray hits: ``(box_index, t_enter)``.

        Among the boxes ``intersect_ray_aabb`` reports hit, the one with the smallest
        ``t_enter``, the lowest index on ties; ``-1`` and ``+inf`` for a ray that hits none.
        ``t_enter`` is the per-box function's value, bit for bit (a ray starting inside a box
        has ``t_enter == t_min`` there).

        Parameters
        ----------
        origin, direction : (3,) or (M, 3) array_like
            The rays (broadcast together). A zero direction is a ``ValueError``.
        t_min, t_max : float or (M,) array_like
            The rays' parameter range, as for ``intersect_ray_aabb``.

        Returns
        -------
        NearestHits
            ``box_index`` (M,) int64 and ``t_enter`` (M,) float64 (float32 when the rays and
            the boxes are float32); for one ray (all arguments single), Python ``int`` and
            ``float``.
        """
        rays = self._rays(origin, direction, t_min, t_max)
        m = len(rays.o)
        out = rays.out_type
        ray, pos = self._candidates(line=(rays.o, rays.d, rays.t_lo, rays.t_hi),
                                    nearest=(OUT_REL[out], OUT_ABS[out], float(np.finfo(out).max)))
        hit, t_enter, _ = self._answer_rays(rays, ray, pos)
        box = self._tree.order[pos]
        ray, box, t_enter = ray[hit], box[hit], t_enter[hit]
        index = np.full(m, -1, np.int64)
        nearest_t = np.full(m, np.inf, t_enter.dtype)
        if ray.size:
            # per ray, the smallest t_enter, then the lowest box index: the first of each run
            first = np.lexsort((box, t_enter, ray))
            ray, box, t_enter = ray[first], box[first], t_enter[first]
            head = np.flatnonzero(np.r_[True, ray[1:] != ray[:-1]])
            index[ray[head]] = box[head]
            nearest_t[ray[head]] = t_enter[head]
        if rays.lead == ():
            return NearestHits(int(index[0]), float(nearest_t[0]))
        return NearestHits(index.reshape(rays.lead), nearest_t.reshape(rays.lead))

    def ray_pairs(self, origin: ArrayLike, direction: ArrayLike, *, t_min: ArrayLike = 0.0,
                  t_max: ArrayLike = np.inf) -> RayPairs:
        """Every pair of a ray and a box it hits: ``(ray_index, box_index, t_enter, t_exit)``.

        Exactly the pairs whose ``intersect_ray_aabb`` is a hit, with its ``t_enter`` and
        ``t_exit``, sorted by ray index, then box index. Arguments as for
        :meth:`nearest_ray_hits`; ray indices count rays in the flattened broadcast shape.
        """
        rays = self._rays(origin, direction, t_min, t_max)
        ray, pos = self._candidates(line=(rays.o, rays.d, rays.t_lo, rays.t_hi))
        hit, t_enter, t_exit = self._answer_rays(rays, ray, pos)
        return RayPairs(*sorted_pairs(ray[hit], self._tree.order[pos[hit]], t_enter[hit],
                                       t_exit[hit]))

    def segment_pairs(self, start: ArrayLike, end: ArrayLike) -> SegmentPairs:
        """Every pair of a segment and a box it meets: ``(segment_index, box_index, kind)``.

        Exactly the pairs whose ``classify_segment_aabb`` is not NONE, with that class
        (``int8``: 1 INTERSECT, 2 INCLUDE), sorted by segment index, then box index.

        Parameters
        ----------
        start, end : (3,) or (M, 3) array_like
            The segments (broadcast together); ``start == end`` is a point.
        """
        s, e = broadcast_points(("start", start), ("end", end))
        o = work(s)
        d = work(e) - o
        m = len(o)
        # the segment lies in its bounding box (min / max are exact): a box it meets overlaps it
        query, pos = self._candidates(box=(work(np.minimum(s, e)), work(np.maximum(s, e))),
                                      line=(o, d, np.zeros(m), np.ones(m)))
        kind = np.asarray(self._segment(s[query], e[query], *self._boxes(pos)))
        meets = kind != 0
        return SegmentPairs(*sorted_pairs(query[meets], self._tree.order[pos[meets]],
                                           kind[meets]))

    def triangle_pairs(self, v0: ArrayLike, v1: ArrayLike, v2: ArrayLike) -> TrianglePairs:
        """Every pair of a triangle and a box it overlaps: ``(triangle_index, box_index)``.

        Exactly the pairs for which ``triangle_overlaps_aabb`` is true (closed sets: touching
        counts), sorted by triangle index, then box index.

        Parameters
        ----------
        v0, v1, v2 : (3,) or (M, 3) array_like
            The triangles' corners (broadcast together); degenerate triangles are allowed.
        """
        a, b, c = broadcast_points(("v0", v0), ("v1", v1), ("v2", v2))
        # the triangle's bounding box: min / max are exact, so the overlap test is too
        query, pos = self._candidates(box=(work(np.minimum(np.minimum(a, b), c)),
                                           work(np.maximum(np.maximum(a, b), c))))
        overlaps = np.asarray(self._triangle(a[query], b[query], c[query],
                                                     *self._boxes(pos)), dtype=bool)
        return TrianglePairs(*sorted_pairs(query[overlaps], self._tree.order[pos[overlaps]]))

    def box_pairs(self, min: ArrayLike, max: ArrayLike) -> BoxPairs:  # noqa: A002
        """Every pair of a query box and a box it meets: ``(query_index, box_index, kind)``.

        Exactly the pairs whose ``classify_aabb_aabb(min, max, box_min, box_max)`` is not NONE,
        with that class (``int8``: 1 INTERSECT, 2 INCLUDE: the query inside the box's
        interior), sorted by query index, then box index. Closed boxes: touching counts; an
        empty query or box meets nothing.

        Parameters
        ----------
        min, max : (3,) or (M, 3) array_like
            The query boxes' corners (broadcast together), validated as the tree's boxes.
        """
        lo, hi = as_boxes("min", min, "max", max)
        lead = broadcast_lead(("min", lo, 1), ("max", hi, 1))
        lo = np.broadcast_to(lo, lead + (3,)).reshape(-1, 3)
        hi = np.broadcast_to(hi, lead + (3,)).reshape(-1, 3)
        check_box_bounds("min", lo, "max", hi)
        # the walk's overlap test is exact for the leaf boxes; the class call tells the rest
        query, pos = _pair_walks().box_pairs(self._tree, work(lo), work(hi))
        kind = np.asarray(self._box(lo[query], hi[query], *self._boxes(pos)))
        meets = kind != 0  # all of them for AABBs; an OBB lies in its leaf box only
        return BoxPairs(*sorted_pairs(query[meets], self._tree.order[pos[meets]], kind[meets]))

    def self_pairs(self) -> SelfPairs:
        """Every two boxes of the tree that share a point: ``(i, j)``, ``i < j``.

        Exactly the pairs for which ``classify_aabb_aabb`` of one box against the other is not
        NONE (closed boxes: touching at a face, an edge or a corner counts; equal boxes pair),
        sorted by ``i``, then ``j``. Empty boxes never pair. Each pair is found once, by a walk
        of the tree per box over the boxes after it in the tree's order (Ericson, RTCD chapter 6).
        """
        p, q = _pair_walks().self_pairs(self._tree)
        a, b = self._tree.order[p], self._tree.order[q]
        return SelfPairs(*sorted_pairs(np.minimum(a, b), np.maximum(a, b)))

    def sphere_pairs(self, center: ArrayLike, radius: ArrayLike) -> SpherePairs:
        """Every pair of a ball and a box it meets: ``(query_index, box_index, kind)``.

        Exactly the pairs whose ``classify_sphere_aabb(center, radius, box_min, box_max)`` is
        not NONE, with that class (``int8``: 1 INTERSECT, 2 INCLUDE: the ball inside the box's
        interior), sorted by ball index, then box index. Closed balls: tangent counts.

        Parameters
        ----------
        center : (3,) or (M, 3) array_like
        radius : float or (M,) array_like
            Finite and not negative (broadcast with ``center``).
        """
        c = as_finite_points("center", center)
        r = as_scalars("radius", radius)
        check_elements("radius", r, RADIUS)
        lead = broadcast_lead(("center", c, 1), ("radius", r, 0))
        c = np.broadcast_to(c, lead + (3,)).reshape(-1, 3)
        r = np.broadcast_to(r, lead).reshape(-1)
        query, pos = distance_walks().within(self._tree, work(c), work(r))
        kind = np.asarray(self._sphere(c[query], r[query], *self._boxes(pos)))
        meets = kind != 0
        return SpherePairs(*sorted_pairs(query[meets], self._tree.order[pos[meets]],
                                         kind[meets]))

    def nearest_boxes(self, points: ArrayLike, k: int) -> NearestBoxes:
        """The ``k`` nearest boxes to each point: ``(box_index, distance)``, shape (M, k).

        By the distance ``distance_point_aabb(point, box_min, box_max)`` returns (0 inside or
        on a box), nearest first, the lower box index first among equal distances; the
        distances are that function's, bit for bit. Where fewer than ``k`` boxes are
        non-empty, the rows end in ``-1`` / ``+inf``; empty boxes are never listed.

        Parameters
        ----------
        points : (3,) or (M, 3) array_like
            The points; for one point (3,), the results have shape (k,).
        k : int
            How many boxes per point, at least 1.

        Returns
        -------
        NearestBoxes
            ``box_index`` int64 and ``distance`` float64 (float32 when the points and the boxes
            are float32), shape ``points.shape[:-1] + (k,)``.
        """
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"k must be a whole number, at least 1, got {k!r}")
        k = int(k)
        p = as_finite_points("points", points)
        lead = p.shape[:-1]
        rows = p.reshape(-1, 3)
        out = compute_dtype(p, np.empty(0, self._dtype))
        walk = distance_walks()
        query, pos = self._nearest_candidates(work(rows), k, out)
        distance = np.asarray(self._distance(rows[query], *self._boxes(pos)))
        index, nearest = walk.select(query, self._tree.order[pos],
                                     distance.astype(np.float64, copy=False), len(rows), k)
        nearest = nearest.astype(out, copy=False)
        return NearestBoxes(index.reshape(lead + (k,)), nearest.reshape(lead + (k,)))

    def frustum(self, frustum: Frustum, *, conservative: bool = False) -> FrustumBoxes:
        """The boxes a frustum does not cull: ``(box_index, kind)``, ascending.

        Exactly the boxes whose ``classify_aabb_frustum(box_min, box_max, frustum,
        conservative=conservative)`` is not NONE, with that class (``int8``: 1 INTERSECT,
        2 INCLUDE). With ``conservative=True``, the plane-only test's answers (boxes near the
        frustum's edges and corners may be INTERSECT though outside).

        Parameters
        ----------
        frustum : Frustum
        conservative : bool, optional
        """
        if not isinstance(frustum, Frustum):
            raise ValueError(f"frustum must be a Frustum, got {type(frustum).__name__}")
        bounds = np.array([[-np.inf] * 3, [np.inf] * 3])
        if not conservative:  # the exact vertices' box, rounded outwards, holds the frustum
            vertices = frustum.polytope.vertices
            bounds = np.array([[to_float(min(v[k] for v in vertices), -1) for k in range(3)],
                               [to_float(max(v[k] for v in vertices), 1) for k in range(3)]])
        # planes whose offsets overflowed (scaled to normals in [1, 2)) prune nothing
        planes = bool(np.isfinite(frustum.offsets).all())
        normals = np.ascontiguousarray(frustum.normals if planes else np.zeros((0, 3)))
        offsets = np.ascontiguousarray(frustum.offsets if planes else np.zeros(0))
        pos = _frustum_walk().candidates(self._tree, bounds, normals, offsets)
        kind = np.asarray(self._frustum(*self._boxes(pos), frustum,
                                                conservative=conservative), np.int8)
        box = self._tree.order[pos[kind != 0]]
        order = np.argsort(box)
        return FrustumBoxes(box[order], kind[kind != 0][order])

    def refit(self, box_min: ArrayLike, box_max: ArrayLike) -> None:
        """Give the N boxes new coordinates, keeping the tree's shape: for boxes that move.

        Box ``i`` takes ``box_min[i]``, ``box_max[i]``; the hierarchy is kept and its node
        bounds recomputed from the boxes up, in one pass (a fraction of a build). Every answer
        stays exact however far the boxes moved (empty boxes may become non-empty and back);
        only the queries' speed decays as the tree's grouping fits the boxes less well:
        :meth:`rebuild` then. The tree's dtype becomes the new boxes'.

        Parameters
        ----------
        box_min, box_max : (N, 3) array_like
            The boxes' new corners, N as at the build; validated as there.

        Raises
        ------
        ValueError
            As at the build, and for a shape other than (N, 3).
        """
        self._tree, self._dtype = _compiled().refit_boxes(self._tree, box_min, box_max)

    def rebuild(self) -> None:
        """Build the tree afresh over its current boxes (after :meth:`refit` moved them far);
        the answers are the same, the queries as fast as after a build."""
        tree = self._tree
        lo = np.empty_like(tree.leaf_min)
        hi = np.empty_like(tree.leaf_max)
        lo[tree.order] = tree.leaf_min
        hi[tree.order] = tree.leaf_max
        self._tree = _compiled().build(lo, hi)

    # ------------------------------------------------------------------------------ helpers

    def _candidates(self, **queries: Any) -> tuple[np.ndarray, np.ndarray]:
        """The walk's candidate pairs for :func:`._bvh.queries` ``(**queries)``: ``(query
        index, leaf position)``, grouped by query."""
        bvh = _compiled()
        offsets, pos = bvh.candidates(self._tree, bvh.queries(**queries))
        return np.repeat(np.arange(len(offsets) - 1), np.diff(offsets)), pos

    def _nearest_candidates(self, points: np.ndarray, k: int, out: type
                            ) -> tuple[np.ndarray, np.ndarray]:
        """``(point index, leaf position)`` pairs holding each point's ``k`` nearest boxes."""
        walk = distance_walks()
        return walk.candidates(self._tree, points, k, walk.OUT_REL[out], walk.OUT_ABS[out],  # type: ignore[no-any-return]
                               float(np.finfo(out).max))

    def _rays(self, origin: ArrayLike, direction: ArrayLike, t_min: ArrayLike,
              t_max: ArrayLike) -> Rays:
        o = as_finite_points("origin", origin)
        d = as_finite_points("direction", direction)
        check_nonzero_direction("direction", d)
        lo = as_scalars("t_min", t_min, allow="-")
        hi = as_scalars("t_max", t_max, allow="+")
        lead = broadcast_lead(("origin", o, 1), ("direction", d, 1), ("t_min", lo, 0),
                              ("t_max", hi, 0))
        o_b = np.broadcast_to(o, lead + (3,)).reshape(-1, 3)
        d_b = np.broadcast_to(d, lead + (3,)).reshape(-1, 3)
        lo_b = np.broadcast_to(lo, lead).reshape(-1)
        hi_b = np.broadcast_to(hi, lead).reshape(-1)
        out_type = compute_dtype(o, d, np.empty(0, self._dtype))
        # a scalar bound goes to the per-box function as the caller gave it (a Python float
        # and a float64 array differ in the output dtype they allow)
        return Rays(lead, o_b, d_b, t_min if lo.ndim == 0 else lo, t_max if hi.ndim == 0 else hi,
                    lo_b, hi_b, work(o_b), work(d_b), work(lo_b), work(hi_b), out_type)

    def _boxes(self, pos: np.ndarray) -> tuple[np.ndarray, ...]:
        """The boxes at leaf positions ``pos``, in the boxes' dtype (float32 round-trips
        through the tree's float64 exactly)."""
        return (self._tree.leaf_min[pos].astype(self._dtype, copy=False),
                self._tree.leaf_max[pos].astype(self._dtype, copy=False))

    def _answer_rays(self, rays: Rays, ray: np.ndarray, pos: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``intersect_ray_aabb`` on candidate pairs (ray index, leaf position):
        ``(hit, t_enter, t_exit)``."""
        t_lo = rays.t_min if np.ndim(rays.t_min) == 0 else rays.t_min_rows[ray]
        t_hi = rays.t_max if np.ndim(rays.t_max) == 0 else rays.t_max_rows[ray]
        hit, t_enter, t_exit = self._ray(
            rays.origin[ray], rays.direction[ray], *self._boxes(pos), t_lo, t_hi)
        return np.asarray(hit), np.asarray(t_enter), np.asarray(t_exit)
