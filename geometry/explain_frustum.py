"""Why a box got its class against a frustum: each plane's extreme corners, then the axes.

:func:`explain_aabb_frustum` and :func:`explain_obb_frustum` explain
:func:`classify_aabb_frustum` / :func:`classify_obb_frustum` for one box, in rational
arithmetic on the exact values of the inputs and the frustum's exact planes, so the verdict is
exactly the library's. Per plane: the box corners nearest and farthest along its inward normal
(Greene 1994's n- and p-vertex) and the side each lies on; a plane with the farthest corner
behind it rejects the box, and the nearest corners all strictly inside make it INCLUDE. Where
no plane rejects it, the separating axis theorem decides (Gottschalk et al. 1996): the first
axis, among the box's face normals and the cross products of a box edge and a frustum edge,
on which the two are apart, if any. Floats are given for drawing (rounded to nearest).
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._exact import to_float
from ._frustum_exact import Box, box_of_aabb, box_of_obb, cross, dot
from ._validate import AXES, POINT, as_float_array, check_argument
from .frustum import Frustum
from .results import IntersectionType

__all__ = ["FrustumPlaneTest", "FrustumTests", "explain_aabb_frustum", "explain_obb_frustum"]

#: the planes of ``Frustum.from_matrix``, in its order
PLANE_NAMES = ("left", "right", "bottom", "top", "near", "far")
_BOX_AXES = ("x", "y", "z")


class FrustumPlaneTest(NamedTuple):
    """One plane against the box: its corners ``nearest`` and ``farthest`` along the inward
    normal, and the side of the plane each lies on (-1 outside, 0 on it, +1 inside, exactly).
    ``rejects``: the farthest corner is outside, so the whole box is."""

    name: str
    normal: np.ndarray
    offset: float
    nearest: np.ndarray
    farthest: np.ndarray
    nearest_side: int
    farthest_side: int
    rejects: bool


class FrustumTests(NamedTuple):
    """The test of one box against a frustum (see :func:`explain_aabb_frustum`).

    ``planes``: the six plane tests. ``separating``: the name of the first axis that
    separates the box from the frustum where no plane rejects it (``"box x"``, or
    ``"box y x left/top edge"``), else None; ``axis`` that axis (floats) or None.
    ``verdict`` is the library's exact class, ``conservative`` the plane-only one."""

    planes: tuple[FrustumPlaneTest, ...]
    separating: str | None
    axis: np.ndarray | None
    verdict: IntersectionType
    conservative: IntersectionType


def _corners(box: Box) -> list[tuple[Fraction, Fraction, Fraction]]:
    out = []
    for s0 in (-1, 1):
        for s1 in (-1, 1):
            for s2 in (-1, 1):
                u = (s0 * box.half[0], s1 * box.half[1], s2 * box.half[2])
                out.append(tuple(box.center[k] + sum((u[i] * box.edges[i][k] for i in range(3)),
                                                     Fraction(0)) for k in range(3)))
    return out  # type: ignore[return-value]


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def _floats(v: tuple[Fraction, ...]) -> np.ndarray:
    return np.array([to_float(x) for x in v])


def _explain(box: Box, frustum: Frustum) -> FrustumTests:
    poly = frustum.polytope
    names = PLANE_NAMES if frustum.from_matrix_of is not None else \
        tuple(f"plane {i}" for i in range(6))
    corners = _corners(box)
    tests = []
    for i, (normal, offset) in enumerate(poly.planes):
        values = [dot(normal, p) - offset for p in corners]
        lo = min(range(8), key=values.__getitem__)
        hi = max(range(8), key=values.__getitem__)
        tests.append(FrustumPlaneTest(names[i], frustum.normals[i], float(frustum.offsets[i]),
                                      _floats(corners[lo]), _floats(corners[hi]),
                                      _sign(values[lo]), _sign(values[hi]), values[hi] < 0))
    rejected = any(t.rejects for t in tests)
    inside = all(t.nearest_side > 0 for t in tests)
    conservative = IntersectionType.NONE if rejected else \
        (IntersectionType.INCLUDE if inside else IntersectionType.INTERSECT)
    candidates = [(f"box {_BOX_AXES[k]}", box.normals[k]) for k in range(3)]
    candidates += [(f"box {_BOX_AXES[k]} x {names[i]}/{names[j]} edge",
                    cross(box.edges[k], cross(poly.planes[i].normal, poly.planes[j].normal)))
                   for i, j in poly.edges for k in range(3)]
    separating, axis = None, None
    if conservative == IntersectionType.INTERSECT:
        for name, a in candidates:
            if not any(a):
                continue
            middle = dot(a, box.center)
            r = sum((box.half[k] * abs(dot(a, box.edges[k])) for k in range(3)), Fraction(0))
            low = min(dot(a, v) for v in poly.vertices)
            high = max(dot(a, v) for v in poly.vertices)
            if middle + r < low or middle - r > high:
                separating, axis = name, _floats(a)
                break
    verdict = IntersectionType.NONE if separating is not None else conservative
    return FrustumTests(tuple(tests), separating, axis, verdict, conservative)


def _vector(name: str, value: ArrayLike) -> list[float]:
    a = as_float_array(name, value)
    if a.shape != (3,):
        raise ValueError(f"{name} must have shape (3,), got {a.shape}")
    check_argument(name, a, POINT)
    return [float(x) for x in a]


def explain_aabb_frustum(box_min: ArrayLike, box_max: ArrayLike,
                         frustum: Frustum) -> FrustumTests:
    """Explain :func:`classify_aabb_frustum` for one box: each plane's nearest and farthest
    corners and their sides, then, where no plane rejects the box, the first separating axis.

    Parameters
    ----------
    box_min, box_max : (3,) array_like
        A non-empty closed box (finite).
    frustum : Frustum

    Returns
    -------
    FrustumTests
        Exact; ``verdict`` equals ``classify_aabb_frustum(box_min, box_max, frustum)`` and
        ``conservative`` its ``conservative=True`` answer.

    Raises
    ------
    ValueError
        For a shape other than (3,), a non-finite coordinate, or an empty box.
    """
    lo, hi = _vector("box_min", box_min), _vector("box_max", box_max)
    if any(a > b for a, b in zip(lo, hi, strict=True)):
        raise ValueError("box_min must not exceed box_max: an empty box has no corners to show "
                         "(it is NONE)")
    return _explain(box_of_aabb(lo, hi), frustum)


def explain_obb_frustum(box_center: ArrayLike, box_axes: ArrayLike, box_half_size: ArrayLike,
                        frustum: Frustum) -> FrustumTests:
    """Explain :func:`classify_obb_frustum` for one oriented box, as
    :func:`explain_aabb_frustum` does (the box as its float axes describe it).

    Raises
    ------
    ValueError
        For bad shapes or values, axes not orthonormal within 1e-6, or a negative half size.
    """
    center, half = _vector("box_center", box_center), _vector("box_half_size", box_half_size)
    axes = as_float_array("box_axes", box_axes)
    if axes.shape != (3, 3):
        raise ValueError(f"box_axes must have shape (3, 3), got {axes.shape}")
    check_argument("box_axes", axes, AXES)
    if min(half) < 0:
        raise ValueError("box_half_size must not be negative: an empty box has no corners to "
                         "show (it is NONE)")
    return _explain(box_of_obb(center, [float(x) for x in axes.ravel()], half), frustum)
