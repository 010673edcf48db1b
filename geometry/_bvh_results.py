"""BoxTree's result records and the helpers its methods share (validation, sorting)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._validate import as_boxes, as_finite_points, broadcast_lead, check_box_bounds

__all__ = ["BoxPairs", "FrustumBoxes", "NearestBoxes", "NearestHits", "RayPairs", "Rays",
           "SegmentPairs", "SelfPairs", "SpherePairs", "TrianglePairs", "as_tree_boxes",
           "broadcast_points",
           "sorted_pairs", "work"]


class NearestHits(NamedTuple):
    """Per ray, the nearest box hit: its index (-1 on a miss) and ``t_enter`` (+inf on a miss)."""

    box_index: Any  #: (M,) int64 array, or an int for one ray
    t_enter: Any  #: (M,) float array, or a float for one ray


class RayPairs(NamedTuple):
    """Every (ray, box) hit, sorted by ray then box, with the per-box ``t_enter`` / ``t_exit``."""

    ray_index: np.ndarray
    box_index: np.ndarray
    t_enter: np.ndarray
    t_exit: np.ndarray


class SegmentPairs(NamedTuple):
    """Every (segment, box) pair whose class is not NONE, sorted by segment then box."""

    segment_index: np.ndarray
    box_index: np.ndarray
    kind: np.ndarray


class SpherePairs(NamedTuple):
    """Every (ball, box) pair whose class is not NONE, sorted by ball then box."""

    query_index: np.ndarray
    box_index: np.ndarray
    kind: np.ndarray


class TrianglePairs(NamedTuple):
    """Every (triangle, box) pair that overlaps, sorted by triangle then box."""

    triangle_index: np.ndarray
    box_index: np.ndarray


class BoxPairs(NamedTuple):
    """Every (query box, box) pair whose class is not NONE, sorted by query then box."""

    query_index: np.ndarray
    box_index: np.ndarray
    kind: np.ndarray


class FrustumBoxes(NamedTuple):
    """Every box whose class against a frustum is not NONE, ascending, with that class."""

    box_index: np.ndarray
    kind: np.ndarray


class NearestBoxes(NamedTuple):
    """Per point, its k nearest boxes by ``distance_point_aabb``: (M, k) indices (-1 where
    fewer than k boxes are non-empty) and distances (+inf there)."""

    box_index: np.ndarray
    distance: np.ndarray


class SelfPairs(NamedTuple):
    """Every two of a tree's boxes that share a point, ``i < j``, sorted by ``i`` then ``j``."""

    i: np.ndarray
    j: np.ndarray


class Rays(NamedTuple):
    """The validated rays of a query, as given and as float64 rows for the walk."""

    lead: tuple[int, ...]  #: the broadcast leading shape
    origin: np.ndarray  #: (M, 3) as given (the public function's input)
    direction: np.ndarray
    t_min: Any  #: as given when a scalar, else the validated array
    t_max: Any
    t_min_rows: np.ndarray  #: (M,) views, as given
    t_max_rows: np.ndarray
    o: np.ndarray  #: (M, 3) float64 copies for the traversal
    d: np.ndarray
    t_lo: np.ndarray
    t_hi: np.ndarray
    out_type: type  #: the per-box function's output dtype


def as_tree_boxes(box_min: ArrayLike, box_max: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The validated boxes of a tree, as (N, 3) arrays."""
    lo, hi = as_boxes("box_min", box_min, "box_max", box_max)
    if lo.ndim == 1:
        lo, hi = lo[None], hi[None]
    for name, arr in (("box_min", lo), ("box_max", hi)):
        if arr.ndim != 2:
            raise ValueError(f"{name} must have shape (3,) or (N, 3), got {arr.shape}")
    if lo.shape != hi.shape:
        raise ValueError(f"box_min and box_max must have the same shape, got {lo.shape} "
                         f"and {hi.shape}")
    check_box_bounds("box_min", lo, "box_max", hi)
    return lo, hi


def broadcast_points(*named: tuple[str, ArrayLike]) -> list[np.ndarray]:
    """The (validated) point arguments broadcast together, each as (M, 3) rows."""
    points = [(name, as_finite_points(name, value), 1) for name, value in named]
    lead = broadcast_lead(*points)
    return [np.broadcast_to(p, lead + (3,)).reshape(-1, 3) for _, p, _ in points]


def work(x: np.ndarray) -> np.ndarray:
    """``x`` as a C-contiguous, writeable float64 array (copied only when it is not one):
    the compiled walk then sees one array type, so it is compiled once."""
    return np.require(x, np.float64, ["C", "W"])


def sorted_pairs(query: np.ndarray, box: np.ndarray, *values: np.ndarray
                  ) -> tuple[np.ndarray, ...]:
    """The pairs (and their values) sorted by query, then box."""
    order = np.lexsort((box, query))
    return (query[order], box[order]) + tuple(v[order] for v in values)
