"""slablab's geometry: exact segment / ray / triangle vs box intersection tests.

numpy and numba only; nothing here imports OpenGL. Each query is one float64 filter that
returns its answer and whether rounding could have changed it, plus an exact pass (integer
arithmetic on the floats' exact values) for the doubtful items: answers are exact for the
floats given, at every magnitude. One engine (``_engine``) validates the arguments, broadcasts
them over leading dimensions (one item: shape (3,), many: (N, 3)), runs the filter in CPython
for one item (compiled once a query has answered 2000 items one at a time) and in a compiled
numba loop for many (``set_jit``, ``set_num_threads``), and
writes into caller-owned ``out=`` arrays when given. ``SEMANTICS.md`` at the project's top is
the contract; the docstrings restate it per function.

>>> from geometry import classify_segment_aabb, IntersectionType
>>> classify_segment_aabb([-1, 0.5, 0.5], [2, 0.5, 0.5], [0, 0, 0], [1, 1, 1])
<IntersectionType.INTERSECT: 1>
"""

from ._loops import get_jit, set_jit
from ._threads import get_num_threads, set_num_threads
from .aabb import AABB
from .aabb_aabb import classify_aabb_aabb
from .aabb_frustum import classify_aabb_frustum
from .aabb_obb import classify_aabb_obb
from .box_tree import BoxTree
from .explain import (
    AxisTest,
    SeparatingAxes,
    Slab,
    SlabKind,
    SlabRule,
    Slabs,
    explain_segment_aabb,
    explain_segment_obb,
    explain_triangle_aabb,
    explain_triangle_obb,
)
from .explain_boxes import (
    BoxAxisTest,
    BoxRule,
    BoxSeparatingAxes,
    explain_aabb_aabb,
    explain_aabb_obb,
    explain_obb_aabb,
    explain_obb_obb,
)
from .explain_frustum import (
    FrustumPlaneTest,
    FrustumTests,
    explain_aabb_frustum,
    explain_obb_frustum,
)
from .frustum import Frustum
from .obb import OBB
from .obb_aabb import classify_obb_aabb
from .obb_frustum import classify_obb_frustum
from .obb_obb import classify_obb_obb
from .plane_aabb import plane_side_aabb
from .plane_obb import plane_side_obb
from .point_aabb import distance_point_aabb
from .point_obb import distance_point_obb
from .primitives import Ray, Segment, Sphere, Triangle
from .ray_aabb import intersect_ray_aabb
from .ray_obb import intersect_ray_obb
from .results import IntersectionType, RayHit
from .segment_aabb import classify_segment_aabb
from .segment_obb import classify_segment_obb
from .sphere_aabb import classify_sphere_aabb
from .sphere_obb import classify_sphere_obb
from .triangle_aabb import triangle_overlaps_aabb
from .triangle_obb import triangle_overlaps_obb

__all__ = [
    "AABB",
    "AxisTest",
    "BoxAxisTest",
    "BoxRule",
    "BoxSeparatingAxes",
    "BoxTree",
    "Frustum",
    "FrustumPlaneTest",
    "FrustumTests",
    "OBB",
    "IntersectionType",
    "Ray",
    "RayHit",
    "SeparatingAxes",
    "Segment",
    "Slab",
    "SlabKind",
    "SlabRule",
    "Slabs",
    "Sphere",
    "Triangle",
    "classify_aabb_aabb",
    "classify_aabb_frustum",
    "classify_aabb_obb",
    "classify_obb_aabb",
    "classify_obb_frustum",
    "classify_obb_obb",
    "classify_segment_aabb",
    "classify_segment_obb",
    "classify_sphere_aabb",
    "classify_sphere_obb",
    "distance_point_aabb",
    "distance_point_obb",
    "explain_aabb_aabb",
    "explain_aabb_frustum",
    "explain_aabb_obb",
    "explain_obb_aabb",
    "explain_obb_frustum",
    "explain_obb_obb",
    "explain_segment_aabb",
    "explain_segment_obb",
    "explain_triangle_aabb",
    "explain_triangle_obb",
    "get_jit",
    "get_num_threads",
    "intersect_ray_aabb",
    "intersect_ray_obb",
    "plane_side_aabb",
    "plane_side_obb",
    "set_jit",
    "set_num_threads",
    "triangle_overlaps_aabb",
    "triangle_overlaps_obb",
]
