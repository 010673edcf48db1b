"""slablab's geometry: exact, vectorised segment / ray / triangle vs box intersection tests.

Pure numpy (pyrr's matrix convention); nothing here imports OpenGL. Every query takes one item,
shape (3,), or many, shape (N, 3), broadcast over leading dimensions, and runs as whole-array
numpy code in cache-sized chunks (for one segment or ray against many boxes, a compiled loop
when the optional numba is installed: see ``set_jit``). ``shared/SEMANTICS.md`` in the project
is the contract; the docstrings restate it per function.

>>> from geometry import classify_segment_aabb, IntersectionType
>>> classify_segment_aabb([-1, 0.5, 0.5], [2, 0.5, 0.5], [0, 0, 0], [1, 1, 1])
<IntersectionType.INTERSECT: 1>
"""

from ._batch import get_num_threads, set_num_threads
from ._jit import get_jit, set_jit
from .aabb import AABB
from .box_tree import BoxTree
from .obb import OBB, classify_segment_obb, intersect_ray_obb, triangle_overlaps_obb
from .primitives import Ray, Segment, Triangle
from .ray_box import intersect_ray_aabb
from .results import IntersectionType, RayHit
from .segment_box import classify_segment_aabb
from .triangle_box import triangle_overlaps_aabb

__all__ = [
    "AABB",
    "BoxTree",
    "OBB",
    "IntersectionType",
    "Ray",
    "RayHit",
    "Segment",
    "Triangle",
    "classify_segment_aabb",
    "classify_segment_obb",
    "get_jit",
    "get_num_threads",
    "intersect_ray_aabb",
    "intersect_ray_obb",
    "set_jit",
    "set_num_threads",
    "triangle_overlaps_aabb",
    "triangle_overlaps_obb",
]
