"""The peers that ``bench_tree`` times BoxTree's box queries against, each optional.

- Warp's CPU BVH (``warp-lang``): ``wp.Bvh`` build / ``refit``, and a kernel that walks
  ``bvh_query_aabb`` / ``bvh_query_next`` per query box, testing each reported box with a float32
  closed-overlap test. It *counts* the pairs per query (writes none): less work than BoxTree's
  sorted pair arrays.
- python-fcl's ``DynamicAABBTreeCollisionManager``: ``registerObjects`` + ``setup`` + ``collide``
  with a callback that counts each broad-phase pair (no narrow phase); making the 10^6
  ``CollisionObject`` s in Python is left out of the timing.
- rtree (libspatialindex): a bulk-loaded 3-D R*-tree, ``intersection_v`` for box queries and
  ``nearest_v`` (``strict``, ``num_results=k``) for the k nearest boxes to points.

Each ``load_*`` returns None when the package is not installed.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np


class WarpBoxes:
    """Warp's CPU BVH: build, refit, and per-box overlap queries."""

    def __init__(self) -> None:
        import warp as wp

        wp.config.quiet = True
        wp.init()
        self.wp = wp

        @wp.kernel
        def overlaps(bvh: wp.uint64, lowers: wp.array(dtype=wp.vec3),  # type: ignore[misc]
                     uppers: wp.array(dtype=wp.vec3), q_lo: wp.array(dtype=wp.vec3),
                     q_hi: wp.array(dtype=wp.vec3), later_only: int,
                     counts: wp.array(dtype=wp.int32)):
            r = wp.tid()
            lo = q_lo[r]
            hi = q_hi[r]
            index = int(0)  # noqa: UP018
            count = int(0)  # noqa: UP018
            query = wp.bvh_query_aabb(bvh, lo, hi)
            while wp.bvh_query_next(query, index):
                if later_only == 0 or index > r:
                    b_lo = lowers[index]
                    b_hi = uppers[index]
                    if (b_lo[0] <= hi[0] and lo[0] <= b_hi[0] and b_lo[1] <= hi[1]
                            and lo[1] <= b_hi[1] and b_lo[2] <= hi[2] and lo[2] <= b_hi[2]):
                        count += 1
            counts[r] = count

        self.kernel = overlaps

    def _arrays(self, *arrays: np.ndarray) -> list[Any]:
        return [self.wp.array(a, dtype=self.wp.vec3, device="cpu") for a in arrays]

    def pairs(self, box_min: np.ndarray, box_max: np.ndarray, q_min: np.ndarray | None = None,
              q_max: np.ndarray | None = None) -> tuple[float, float, int]:
        """Build + count the pairs of query boxes and boxes that overlap (the boxes' own pairs
        ``i < j`` without queries): ``(build s, query s, pairs)``."""
        wp = self.wp
        lowers, uppers = self._arrays(box_min, box_max)
        own = q_min is None
        q_lo, q_hi = (lowers, uppers) if own else self._arrays(q_min, q_max)
        counts = wp.empty(len(q_lo), dtype=wp.int32, device="cpu")
        t0 = time.perf_counter()
        bvh = wp.Bvh(lowers, uppers)
        wp.synchronize()
        t1 = time.perf_counter()
        wp.launch(self.kernel, dim=len(q_lo), inputs=[bvh.id, lowers, uppers, q_lo, q_hi,
                                                       int(own), counts], device="cpu")
        wp.synchronize()
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, int(counts.numpy().sum())

    def refit(self, box_min: np.ndarray, box_max: np.ndarray, new_min: np.ndarray,
              new_max: np.ndarray) -> tuple[float, float]:
        """``(build s, refit s)``: the refit includes copying the new coordinates in."""
        wp = self.wp
        lowers, uppers = self._arrays(box_min, box_max)
        t0 = time.perf_counter()
        bvh = wp.Bvh(lowers, uppers)
        wp.synchronize()
        t1 = time.perf_counter()
        lowers.assign(new_min)
        uppers.assign(new_max)
        bvh.refit()
        wp.synchronize()
        return t1 - t0, time.perf_counter() - t1


class FclBoxes:
    """python-fcl's dynamic AABB tree, broad phase only."""

    def __init__(self) -> None:
        import fcl

        self.fcl = fcl

    def self_pairs(self, box_min: np.ndarray, box_max: np.ndarray) -> tuple[float, float, int]:
        """``(build s, query s, pairs)``; the objects are made before the clock starts."""
        fcl = self.fcl
        centre = (box_min.astype(float) + box_max.astype(float)) / 2
        size = box_max.astype(float) - box_min.astype(float)
        objects = [fcl.CollisionObject(fcl.Box(*s), fcl.Transform(c))
                   for c, s in zip(centre, size, strict=True)]
        count = [0]

        def counted(o1: Any, o2: Any, data: Any) -> bool:
            count[0] += 1
            return False  # go on

        t0 = time.perf_counter()
        manager = fcl.DynamicAABBTreeCollisionManager()
        manager.registerObjects(objects)
        manager.setup()
        t1 = time.perf_counter()
        manager.collide(None, counted)
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, count[0]


class RtreeBoxes:
    """rtree's bulk-loaded 3-D R*-tree."""

    def __init__(self) -> None:
        from rtree import index

        self.index = index

    def _build(self, box_min: np.ndarray, box_max: np.ndarray) -> Any:
        properties = self.index.Property()
        properties.dimension = 3
        ids = np.arange(len(box_min), dtype=np.int64)
        return self.index.Index((ids, box_min.astype(float), box_max.astype(float)),
                                properties=properties)

    def box_pairs(self, box_min: np.ndarray, box_max: np.ndarray, q_min: np.ndarray,
                  q_max: np.ndarray) -> tuple[float, float, int]:
        t0 = time.perf_counter()
        tree = self._build(box_min, box_max)
        t1 = time.perf_counter()
        ids, _ = tree.intersection_v(q_min.astype(float), q_max.astype(float))
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, len(ids)

    def nearest(self, box_min: np.ndarray, box_max: np.ndarray, points: np.ndarray,
                k: int) -> tuple[float, float, np.ndarray]:
        """``(build s, query s, (M, k) box indices)`` of the k nearest boxes per point."""
        t0 = time.perf_counter()
        tree = self._build(box_min, box_max)
        t1 = time.perf_counter()
        p = points.astype(float)
        ids, counts = tree.nearest_v(p, p, num_results=k, strict=True)
        counts = counts.astype(np.int64)
        t2 = time.perf_counter()
        index = np.full((len(p), k), -1, np.int64)
        rows = np.repeat(np.arange(len(p)), counts)
        cols = np.arange(len(ids)) - np.repeat(np.cumsum(counts) - counts, counts)
        index[rows, cols] = ids
        return t1 - t0, t2 - t1, index


def load(peer: type) -> Any:
    """An instance of ``peer``, or None when its package is not installed."""
    try:
        return peer()
    except ImportError:
        return None
