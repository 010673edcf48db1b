"""The tree over oriented boxes that :meth:`.box_tree.BoxTree.from_obbs` builds.

The hierarchy is the AABB tree's over each box's ``OBB.aabb()`` (it holds the box), so every
walk that collects the boxes that may meet a query (no box whose answer is not a miss / NONE
left out) still does for the oriented boxes inside; the candidates are then answered by the
OBB per-box functions. The two walks that prune by an *upper* bound taken from a leaf's box
(the nearest ray hit, the k nearest boxes) would be wrong for the oriented box inside it:
here the ray walk collects every box the ray may hit and the nearest hit's candidates are cut
by exact ``intersect_ray_obb`` entries, and the k nearest take their bound from exact
``distance_point_obb`` answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._bvh_results import SelfPairs, work
from ._bvh_tree import OUT_ABS, OUT_REL, VARIANTS, BoxTree, _compiled, distance_walks
from ._validate import compute_dtype
from .aabb_obb import classify_aabb_obb
from .obb import OBB
from .obb_frustum import classify_obb_frustum
from .obb_obb import classify_obb_obb
from .point_obb import distance_point_obb
from .ray_aabb import intersect_ray_aabb
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
        self._obbs, dtype = _as_obbs(center, axes, half_size)
        super().__init__(*_bounds(self._obbs, np.arange(len(self._obbs[0]))))
        self._dtype = dtype

    def __repr__(self) -> str:
        return f"BoxTree.from_obbs({self._n} boxes, {self._dtype})"

    def self_pairs(self) -> SelfPairs:
        """Every two boxes whose ``classify_obb_obb`` is not NONE: ``(i, j)``, ``i < j``."""
        i, j = super().self_pairs()  # the pairs whose bounding boxes meet
        meets = np.asarray(classify_obb_obb(*(x[i] for x in self._obbs),
                                            *(x[j] for x in self._obbs))) != 0
        return SelfPairs(i[meets], j[meets])

    def refit(self, center: ArrayLike, axes: ArrayLike,  # type: ignore[override]
              half_size: ArrayLike) -> None:
        """Give the N oriented boxes new poses, keeping the tree's shape (see
        :meth:`BoxTree.refit`): the leaves' bounding boxes are solved again only for the boxes
        whose ``center``, ``axes`` or ``half_size`` changed (so moving a few boxes of many is
        cheap), then the node bounds are recomputed in one pass.

        Parameters
        ----------
        center : (N, 3), axes : (N, 3, 3), half_size : (N, 3) array_like
            The boxes' new poses, N as at the build; validated as there.
        """
        obbs, dtype = _as_obbs(center, axes, half_size)
        if len(obbs[0]) != self._n:
            raise ValueError(f"center must have shape ({self._n}, 3), the tree's boxes, "
                             f"got {obbs[0].shape}")
        tree = self._tree
        lo = np.empty_like(tree.leaf_min)
        hi = np.empty_like(tree.leaf_max)
        lo[tree.order] = tree.leaf_min
        hi[tree.order] = tree.leaf_max
        if dtype == self._dtype:  # the same bits: the same bounds
            changed = np.zeros(self._n, bool)
            for new, old in zip(obbs, self._obbs, strict=True):
                changed |= (new.reshape(self._n, -1).view(_UINT[dtype])
                            != old.reshape(self._n, -1).view(_UINT[dtype])).any(axis=1)
            rows = np.flatnonzero(changed)
        else:
            rows = np.arange(self._n)
        lo[rows], hi[rows] = _bounds(obbs, rows)
        self._obbs, self._dtype = obbs, dtype
        _compiled().refit(tree, lo, hi)

    def _boxes(self, pos: np.ndarray) -> tuple[np.ndarray, ...]:
        """The oriented boxes at leaf positions ``pos``."""
        index = self._tree.order[pos]
        return tuple(x[index] for x in self._obbs)

    def _candidates(self, **queries: Any) -> tuple[np.ndarray, np.ndarray]:
        # the nearest-hit walk's upper bound would come from a leaf's box, not the OBB: the
        # walk collects every box on the ray, and the candidates for the nearest are pruned here
        nearest = queries.pop("nearest", None)
        ray, pos = super()._candidates(**queries)
        if nearest is None:
            return ray, pos
        return self._nearest_hit_candidates(ray, pos, queries["line"], *nearest[:2])

    def _nearest_hit_candidates(self, ray: np.ndarray, pos: np.ndarray,
                                line: tuple[np.ndarray, ...], rel: float, absolute: float
                                ) -> tuple[np.ndarray, np.ndarray]:
        """The pairs that may hold each ray's nearest hit: the ray hits the box's bounding box
        (exactly: the OBB is inside it), and that box's entry, which is at most the OBB's, is
        within the smallest OBB entry among the ray's first four bounding boxes, both widened
        by the output's rounding (``rel``, ``absolute``: the same bits of the answer's dtype
        may not be told apart, so a tie there must stay)."""
        o, d, t_lo, t_hi = line
        hit, t_box, _ = (np.asarray(x) for x in intersect_ray_aabb(
            o[ray], d[ray], self._tree.leaf_min[pos], self._tree.leaf_max[pos], t_lo[ray],
            t_hi[ray]))
        order = np.lexsort((t_box[hit], ray[hit]))
        ray, pos, t_box = ray[hit][order], pos[hit][order], t_box[hit][order]
        head = np.r_[True, ray[1:] != ray[:-1]]
        early = (np.arange(ray.size) - np.maximum.accumulate(np.where(head, np.arange(ray.size),
                                                                      0))) < 4
        r = ray[early]
        center, axes, half_size = self._boxes(pos[early])
        hit, t_obb, _ = (np.asarray(x) for x in intersect_ray_obb(
            o[r], d[r], center, axes, half_size, t_lo[r], t_hi[r]))
        bound = np.full(len(t_lo), np.inf)
        np.minimum.at(bound, r[hit], t_obb[hit].astype(np.float64))
        with np.errstate(invalid="ignore"):  # -inf entries: compared as they are
            high = np.where(np.isneginf(bound), bound, bound + np.abs(bound) * rel + absolute)
            low = np.where(np.isneginf(t_box), t_box, t_box - np.abs(t_box) * rel - absolute)
        keep = low <= high[ray]
        return ray[keep], pos[keep]

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


_UINT = {np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}


def _as_obbs(center: ArrayLike, axes: ArrayLike, half_size: ArrayLike
             ) -> tuple[tuple[np.ndarray, ...], np.dtype]:
    """``((center, axes, half_size), dtype)``: the boxes' arrays, shapes checked, contiguous
    in their float dtype."""
    c, a, h = (np.asarray(x) for x in (center, axes, half_size))
    for name, arr, shape in (("center", c, (3,)), ("axes", a, (3, 3)), ("half_size", h, (3,))):
        if arr.ndim != len(shape) + 1 or arr.shape[1:] != shape:
            raise ValueError(f"{name} must have shape (N, {', '.join(map(str, shape))}), "
                             f"got {arr.shape}")
    if not len(c) == len(a) == len(h):
        raise ValueError(f"center, axes and half_size must have the same length N, got "
                         f"{len(c)}, {len(a)} and {len(h)}")
    dtype = np.dtype(compute_dtype(c, a, h))
    return tuple(np.ascontiguousarray(x, dtype) for x in (c, a, h)), dtype


def _bounds(obbs: tuple[np.ndarray, ...], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(min, max)``, (len(rows), 3) float64: ``OBB.aabb()`` of the boxes ``rows`` of
    ``obbs = (center, axes, half_size)`` (each validated as an ``OBB``)."""
    center, axes, half_size = obbs
    lo = np.empty((len(rows), 3))
    hi = np.empty((len(rows), 3))
    for k, i in enumerate(rows.tolist()):
        box = OBB(center[i], axes[i], half_size[i]).aabb()
        lo[k], hi[k] = box.min, box.max
    return lo, hi


VARIANTS["obb"] = OBBTree
