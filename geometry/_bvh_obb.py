"""The tree over oriented boxes that :meth:`.box_tree.BoxTree.from_obbs` builds.

The hierarchy is the AABB tree's over each box's ``OBB.aabb()`` (it holds the box), so every
walk that collects the boxes that may meet a query (no box whose answer is not a miss / NONE
left out) still does for the oriented boxes inside; the candidates are then answered by the
OBB per-box functions. The two walks that prune by an *upper* bound taken from a leaf's box
(the nearest ray hit, the k nearest boxes) would be wrong for the oriented box inside it:
here the ray walk collects every box the ray may hit, and the k nearest take their bound from
exact ``distance_point_obb`` answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np
from numpy.typing import ArrayLike

from ._bvh_results import SelfPairs, work
from ._bvh_tree import OUT_ABS, OUT_REL, VARIANTS, BoxTree, distance_walks
from ._validate import compute_dtype
from .aabb_obb import classify_aabb_obb
from .obb import OBB
from .obb_frustum import classify_obb_frustum
from .obb_obb import classify_obb_obb
from .point_obb import distance_point_obb
from .ray_obb import intersect_ray_obb
from .segment_obb import classify_segment_obb
from .sphere_obb import classify_sphere_obb
from .triangle_obb import triangle_overlaps_obb


class OBBTree(BoxTree):
    """A :class:`BoxTree` whose leaves are oriented boxes (see :meth:`BoxTree.from_obbs`)."""

    _ray: Callable[..., Any] = staticmethod(intersect_ray_obb)
    _segment: Callable[..., Any] = staticmethod(classify_segment_obb)
    _triangle: Callable[..., Any] = staticmethod(triangle_overlaps_obb)
    _box: Callable[..., Any] = staticmethod(classify_aabb_obb)
    _distance: Callable[..., Any] = staticmethod(distance_point_obb)
    _frustum: Callable[..., Any] = staticmethod(classify_obb_frustum)
    _sphere: Callable[..., Any] = staticmethod(classify_sphere_obb)

    def __init__(self, center: ArrayLike, axes: ArrayLike, half_size: ArrayLike) -> None:
        c, a, h = (np.asarray(x) for x in (center, axes, half_size))
        for name, arr, shape in (("center", c, (3,)), ("axes", a, (3, 3)),
                                 ("half_size", h, (3,))):
            if arr.ndim != len(shape) + 1 or arr.shape[1:] != shape:
                raise ValueError(f"{name} must have shape (N, {', '.join(map(str, shape))}), "
                                 f"got {arr.shape}")
        if not len(c) == len(a) == len(h):
            raise ValueError(f"center, axes and half_size must have the same length N, got "
                             f"{len(c)}, {len(a)} and {len(h)}")
        bounds = [OBB(c[i], a[i], h[i]).aabb() for i in range(len(c))]  # validates each box
        dtype = compute_dtype(c, a, h)
        self._obbs: tuple[np.ndarray, ...] = tuple(np.ascontiguousarray(x, dtype)
                                                   for x in (c, a, h))
        super().__init__(np.array([b.min for b in bounds]).reshape(-1, 3),
                         np.array([b.max for b in bounds]).reshape(-1, 3))
        self._dtype = np.dtype(dtype)

    def __repr__(self) -> str:
        return f"BoxTree.from_obbs({self._n} boxes, {self._dtype})"

    def self_pairs(self) -> SelfPairs:
        """Every two boxes whose ``classify_obb_obb`` is not NONE: ``(i, j)``, ``i < j``."""
        i, j = super().self_pairs()  # the pairs whose bounding boxes meet
        meets = np.asarray(classify_obb_obb(*(x[i] for x in self._obbs),
                                            *(x[j] for x in self._obbs))) != 0
        return SelfPairs(i[meets], j[meets])

    def refit(self, box_min: ArrayLike, box_max: ArrayLike) -> NoReturn:
        raise ValueError("refit takes AABBs: build a tree of OBBs afresh with "
                         "BoxTree.from_obbs")

    def _boxes(self, pos: np.ndarray) -> tuple[np.ndarray, ...]:
        """The oriented boxes at leaf positions ``pos``."""
        index = self._tree.order[pos]
        return tuple(x[index] for x in self._obbs)

    def _candidates(self, **queries: Any) -> tuple[np.ndarray, np.ndarray]:
        # the nearest-hit walk's upper bound comes from a leaf's box, not the OBB: no pruning
        queries.pop("nearest", None)
        return super()._candidates(**queries)

    def _nearest_candidates(self, points: np.ndarray, k: int, out: type
                            ) -> tuple[np.ndarray, np.ndarray]:
        """Each point's k nearest bounding boxes hold k non-empty oriented boxes (or all):
        the k-th smallest of their exact distances, widened by its rounding, bounds the k-th
        nearest oriented box's distance; every box whose bounding box is within it (a lower
        bound of its own distance) is a candidate."""
        query, pos = super()._nearest_candidates(points, k, out)
        distance = np.asarray(distance_point_obb(points[query].astype(out),
                                                 *self._boxes(pos)), np.float64)
        bound = np.full(len(points), np.inf)
        order = np.lexsort((distance, query))
        query_s, distance_s = query[order], distance[order]
        start = np.searchsorted(query_s, np.arange(len(points)))
        count = np.bincount(query_s, minlength=len(points))
        has_k = count >= k
        bound[has_k] = distance_s[start[has_k] + k - 1]
        # inf where fewer than k boxes are non-empty: then every box is within reach
        radius = np.minimum(bound * (1.0 + OUT_REL[out]) + OUT_ABS[out], np.finfo(np.float64).max)
        return distance_walks().within(self._tree, points, work(radius))  # type: ignore[no-any-return]


VARIANTS["obb"] = OBBTree
