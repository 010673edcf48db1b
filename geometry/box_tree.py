"""Many queries against many boxes: :class:`BoxTree`, a bounding-volume hierarchy whose answers
are the per-box functions' own, bit for bit.

The tree is written in :mod:`._bvh_tree` (its walks in :mod:`._bvh`, :mod:`._bvh_pairs`,
:mod:`._bvh_distance`, :mod:`._bvh_frustum`); the trees over oriented boxes
(:meth:`BoxTree.from_obbs`, :mod:`._bvh_obb`) and over dask arrays (:mod:`._bvh_dask`) are
subclasses that register with it when imported here, so that no module imports one that
imports it back.
"""

from . import _bvh_dask, _bvh_obb  # noqa: F401  (each registers its tree with BoxTree)
from ._bvh_results import (
    BoxPairs,
    FrustumBoxes,
    NearestBoxes,
    NearestHits,
    RayPairs,
    SegmentPairs,
    SelfPairs,
    SpherePairs,
    TrianglePairs,
)
from ._bvh_tree import BoxTree

__all__ = ["BoxPairs", "BoxTree", "FrustumBoxes", "NearestBoxes", "NearestHits", "RayPairs",
           "SegmentPairs", "SelfPairs", "SpherePairs", "TrianglePairs"]
