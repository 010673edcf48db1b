"""The result types of the queries: classes for segments, hit records for rays."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

__all__ = ["IntersectionType", "RayHit"]


class IntersectionType(IntEnum):
    """How a segment meets a closed box; the app's colour in brackets.

    The three values are exhaustive and exclusive. Batched queries return them as ``int8`` codes.
    """

    #: The segment and the closed box share no point (green).
    NONE = 0
    #: The segment touches or crosses the box's boundary (blue).
    INTERSECT = 1
    #: The segment lies in the box's open interior (red).
    INCLUDE = 2


class RayHit(NamedTuple):
    """Where a ray meets a closed box: ``hit``, and its parameter interval inside the box.

    ``t_enter = max(t_min, entry)`` and ``t_exit = min(t_max, exit)``, with entry/exit the
    parameter interval of the ray's line inside the box, in units of the ray's direction; a ray
    that starts inside has ``t_enter == t_min``. On a miss both are ``+inf``. Scalars for one
    ray and one box, (N,) arrays otherwise.
    """

    hit: bool | np.ndarray
    t_enter: float | np.ndarray
    t_exit: float | np.ndarray
