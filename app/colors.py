"""The one colour table of the app: class code (geometry.IntersectionType) -> RGB.

Everything that draws or checks a class colour (box instances, HUD counts, explain text, pixel
tests) reads it from here.
"""

import numpy as np

from geometry import IntersectionType

#: class code -> (name used in the HUD / README, linear RGB in [0, 1])
CLASS_COLORS: dict[int, tuple[str, tuple[float, float, float]]] = {
    IntersectionType.NONE: ("green", (0.20, 0.78, 0.30)),
    IntersectionType.INTERSECT: ("blue", (0.20, 0.45, 1.00)),
    IntersectionType.INCLUDE: ("red", (0.95, 0.18, 0.16)),
}

#: (3, 3) float32 lookup table: ``CLASS_RGB[classes]`` gives per-box colours
CLASS_RGB = np.array([CLASS_COLORS[k][1] for k in sorted(CLASS_COLORS)], dtype=np.float32)
CLASS_NAMES = [CLASS_COLORS[k][0] for k in sorted(CLASS_COLORS)]
#: frustum culling: a box outside the frustum (NONE) that the plane-only test keeps (its false
#: positive), drawn as class 3
FALSE_POSITIVE = ("orange", (1.0, 0.55, 0.0))
#: (4, 3) float32: what the box shader draws per drawn class (the classes, then FALSE_POSITIVE)
DRAWN_RGB = np.vstack([CLASS_RGB, np.array([FALSE_POSITIVE[1]], dtype=np.float32)])

BACKGROUND = (0.09, 0.10, 0.12)
SEGMENT = (1.0, 0.85, 0.25)
FRUSTUM = (0.85, 0.85, 0.9)  # the frustum culling scene's frustum edges
SPHERE = (0.92, 0.92, 0.95)  # a sphere scene's spheres (wire frames)
QUERY_BOX = SPHERE  # a box scene's query box (edges), like a sphere scene's spheres
HANDLE_START = (1.0, 1.0, 1.0)
HANDLE_END = (1.0, 0.55, 0.1)
RAY_HIT = (0.95, 0.95, 0.95)
RAY_MISS = (0.7, 0.7, 0.75)
HOVER = (1.0, 1.0, 1.0)
SELECTED = (1.0, 0.9, 0.2)
TRIANGLE = (0.75, 0.55, 0.95)
TRIANGLE_OVERLAP = (1.0, 0.35, 0.95)
#: explain mode's x, y, z slab markers: magenta, teal and amber, each at least 40 degrees of hue
#: away from every class colour (a marker must never read as a box's class)
SLAB_AXES = ((1.0, 0.40, 0.90), (0.20, 0.95, 0.90), (1.0, 0.80, 0.15))
#: backing plate of in-scene labels and HUD panels: dark and nearly opaque, so that text reads
#: the same over any box colour
PLATE = (0.03, 0.035, 0.045, 0.9)
