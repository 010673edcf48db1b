"""Axis-aligned box vs view frustum: NONE, INTERSECT or INCLUDE, exactly.

A box and a frustum (two convex polytopes) share no point iff an axis separates them, among the
frustum's six plane normals, the box's three face normals and the cross products of a box edge
and a frustum edge (the separating axis theorem, Gottschalk et al. 1996; Ericson 2005, 5.2.1).
The six planes alone (the p-vertex / n-vertex test, Greene 1994, which three.js and JOML use)
keep boxes near the frustum's edges and corners that lie outside: ``conservative=True`` gives
that classic answer. ``_filter`` runs the plane tests in float64 with a certified bound
(``_tolerances.PLANE_BOUND``) and the box's face normals exactly (the frustum's bounding box
rounded inwards); the engine's second pass runs the cross axes, for the few boxes across a
plane, in float64 too (``CROSS_BOUND``); what they leave undecided (near-ties), ``_exact``
decides by every axis in rationals (:mod:`._frustum_exact`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._dask import dask_aware
from ._engine import CLASS, Query
from ._frustum_exact import classify_aabb, registered
from ._frustum_filter import aabb_cross_axes, aabb_planes, aabb_witness
from ._validate import BOX_MAX, BOX_MIN, FRUSTUM_AABB_AXES, FRUSTUM_PLANES
from .frustum import Frustum
from .results import IntersectionType

__all__ = ["classify_aabb_frustum"]


def _filter(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float, n0x: float,
            n0y: float, n0z: float, o0: float, n1x: float, n1y: float, n1z: float, o1: float,
            n2x: float, n2y: float, n2z: float, o2: float, n3x: float, n3y: float, n3z: float,
            o3: float, n4x: float, n4y: float, n4z: float, o4: float, n5x: float, n5y: float,
            n5z: float, o5: float, fx: float, fy: float, fz: float, gx: float, gy: float,
            gz: float, trust: float, key: float, d0x: float, d0y: float, d0z: float, d1x: float,
            d1y: float, d1z: float, d2x: float, d2y: float, d2z: float, d3x: float, d3y: float,
            d3z: float, d4x: float, d4y: float, d4z: float, d5x: float, d5y: float, d5z: float,
            d6x: float, d6y: float, d6z: float, d7x: float, d7y: float, d7z: float, d8x: float,
            d8y: float, d8z: float, d9x: float, d9y: float, d9z: float, d10x: float, d10y: float,
            d10z: float, d11x: float, d11y: float, d11z: float, l0: float, u0: float, l1: float,
            u1: float, l2: float, u2: float, l3: float, u3: float, l4: float, u4: float, l5: float,
            u5: float, l6: float, u6: float, l7: float, u7: float, l8: float, u8: float, l9: float,
            u9: float, l10: float, u10: float, l11: float, u11: float, l12: float, u12: float,
            l13: float, u13: float, l14: float, u14: float, l15: float, u15: float, l16: float,
            u16: float, l17: float, u17: float, l18: float, u18: float, l19: float, u19: float,
            l20: float, u20: float, l21: float, u21: float, l22: float, u22: float, l23: float,
            u23: float, l24: float, u24: float, l25: float, u25: float, l26: float, u26: float,
            l27: float, u27: float, l28: float, u28: float, l29: float, u29: float, l30: float,
            u30: float, l31: float, u31: float, l32: float, u32: float, l33: float, u33: float,
            l34: float, u34: float, l35: float, u35: float, reach: float, first_pass: bool
            ) -> tuple[int, bool]:
    """``(class, doubt)`` of one box against the frustum (the scalars of ``Frustum``: six
    planes, the bounding box ``[f, g]`` of its vertices rounded inwards, ``trust`` 1 when all
    of them are finite, ``key`` for the exact pass; its 12 edge directions ``d``, its corners'
    interval ``[l, u]`` on each of the 36 axes ``e_k x d`` and its largest |corner coordinate|
    ``reach``).

    A plane that the box lies wholly behind makes it NONE, the box strictly inside every plane
    INCLUDE; a box that a plane cuts into is INTERSECT for sure where it lies strictly inside
    the five other planes and its corner farthest along that one is ahead of it (a box across
    one face of the frustum). The rest (few boxes) is left by the engine's first pass to
    its second (``first_pass`` False), which tests the box's face normals (exactly: ``h < f``
    or ``l > g``, the exact bound lying in ``[f, g]``'s rounding, adjacent floats), then one
    corner of the box (:func:`._frustum_filter.aabb_witness`: INTERSECT where it lies in the
    frustum's interior and a plane cuts into the box), then the cross axes
    (:func:`._frustum_filter.aabb_cross_axes`): NONE where one separates, INTERSECT where
    none can and no plane can, and the box is across a plane; doubt else, for the exact
    pass. Doubt also for a non-finite value (bad input, the empty-box infinities, an
    overflow). A finite empty box (min > max) is NONE."""
    total = lx + ly + lz + hx + hy + hz
    bad = (not total - total == 0.0) | (not trust == 1.0)
    empty = not ((lx <= hx) & (ly <= hy) & (lz <= hz))
    far, near, second, bound, big = aabb_planes(
        lx, ly, lz, hx, hy, hz, n0x, n0y, n0z, o0, n1x, n1y, n1z, o1, n2x, n2y, n2z, o2, n3x,
        n3y, n3z, o3, n4x, n4y, n4z, o4, n5x, n5y, n5z, o5)
    behind, inside, cut = far < -bound, near > bound, near < -bound
    # a plane cutting into the box for sure rules out INCLUDE; a box strictly inside the five
    # other planes has its corner farthest along the sixth in the frustum where that corner
    # is ahead of it
    sure = behind | inside | ((far > bound) & (second > bound) & cut)
    separated = False
    if (not first_pass) & (not sure):
        beside = (hx < fx) | (hy < fy) | (hz < fz) | (lx > gx) | (ly > gy) | (lz > gz)
        # a corner of the box in the frustum's interior: INTERSECT (the common case here)
        met = (not beside) & cut & aabb_witness(
            lx, ly, lz, hx, hy, hz, n0x, n0y, n0z, o0, n1x, n1y, n1z, o1, n2x, n2y, n2z, o2,
            n3x, n3y, n3z, o3, n4x, n4y, n4z, o4, n5x, n5y, n5z, o5, bound)
        crossed = False
        overlapping = False
        if (not beside) & (not met):
            crossed, overlapping = aabb_cross_axes(
                lx, ly, lz, hx, hy, hz, big,
                (d0x, d0y, d0z, d1x, d1y, d1z, d2x, d2y, d2z, d3x, d3y, d3z, d4x, d4y, d4z, d5x,
                 d5y, d5z, d6x, d6y, d6z, d7x, d7y, d7z, d8x, d8y, d8z, d9x, d9y, d9z, d10x, d10y,
                 d10z, d11x, d11y, d11z),
                (l0, u0, l1, u1, l2, u2, l3, u3, l4, u4, l5, u5, l6, u6, l7, u7, l8, u8,
                 l9, u9, l10, u10, l11, u11, l12, u12, l13, u13, l14, u14, l15, u15,
                 l16, u16, l17, u17, l18, u18, l19, u19, l20, u20, l21, u21, l22, u22,
                 l23, u23, l24, u24, l25, u25, l26, u26, l27, u27, l28, u28, l29, u29,
                 l30, u30, l31, u31, l32, u32, l33, u33, l34, u34, l35, u35), reach)
        separated = beside | crossed
        sure = separated | met | (overlapping & (far > bound) & cut)
    code = 0 if behind | separated | empty else (2 if inside else 1)
    return code, bad | ((not empty) & (not sure))


def _exact(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float,
           *frustum: float) -> int:
    """The class of one box, exactly, by every separating axis (the empty-box infinities
    allowed)."""
    if not (lx <= hx and ly <= hy and lz <= hz):
        return 0
    return classify_aabb((lx, ly, lz), (hx, hy, hz), registered(frustum[31]), False)


def _conservative_filter(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float,
                         n0x: float, n0y: float, n0z: float, o0: float, n1x: float,
                         n1y: float, n1z: float, o1: float, n2x: float, n2y: float, n2z: float,
                         o2: float, n3x: float, n3y: float, n3z: float, o3: float, n4x: float,
                         n4y: float, n4z: float, o4: float, n5x: float, n5y: float, n5z: float,
                         o5: float, fx: float, fy: float, fz: float, gx: float, gy: float,
                         gz: float, trust: float, key: float) -> tuple[int, bool]:
    """``(class, doubt)`` by the six planes alone: NONE where one plane has the whole box
    behind it, INCLUDE strictly inside all, INTERSECT otherwise, each certain or doubt."""
    total = lx + ly + lz + hx + hy + hz
    bad = (not total - total == 0.0) | (not trust == 1.0)
    empty = not ((lx <= hx) & (ly <= hy) & (lz <= hz))
    far, near, _, bound, _ = aabb_planes(
        lx, ly, lz, hx, hy, hz, n0x, n0y, n0z, o0, n1x, n1y, n1z, o1, n2x, n2y, n2z, o2, n3x,
        n3y, n3z, o3, n4x, n4y, n4z, o4, n5x, n5y, n5z, o5)
    behind, inside = far < -bound, near > bound
    # INTERSECT is sure when no plane can have the box behind it and one cuts into it
    code = 0 if behind | empty else (2 if inside else 1)
    return code, bad | ((not empty) & (not (behind | inside | ((far > bound) & (near < -bound)))))


def _conservative_exact(lx: float, ly: float, lz: float, hx: float, hy: float, hz: float,
                        *frustum: float) -> int:
    """The plane-only class of one box, exactly."""
    if not (lx <= hx and ly <= hy and lz <= hz):
        return 0
    return classify_aabb((lx, ly, lz), (hx, hy, hz), registered(frustum[-1]), True)


_ARGS = [("box_min", BOX_MIN), ("box_max", BOX_MAX), ("frustum", FRUSTUM_PLANES)]
_QUERY = Query(_filter, _exact, args=[*_ARGS, ("frustum", FRUSTUM_AABB_AXES)],
               outputs=[CLASS], second_pass=True, contract=True)
_CONSERVATIVE = Query(_conservative_filter, _conservative_exact, args=_ARGS, outputs=[CLASS],
                      contract=True)
_CLASSES = tuple(IntersectionType)


@dask_aware
def classify_aabb_frustum(
    box_min: ArrayLike, box_max: ArrayLike, frustum: Frustum, *, conservative: bool = False,
    out: np.ndarray | None = None,
) -> IntersectionType | np.ndarray:
    """Classify each box against the frustum: NONE, INTERSECT or INCLUDE.

    The box is the closed set ``{box_min <= p <= box_max}``, the frustum the closed convex
    volume of its six planes. ``NONE``: they share no point. ``INCLUDE``: the box lies in the
    frustum's open interior (strictly inside every plane). ``INTERSECT``: otherwise. Exact: a
    box near an edge or a corner of the frustum that the six plane tests cannot reject but that
    lies outside is NONE (the separating axis theorem). A box touching a plane from outside is
    INTERSECT; a flat box is INCLUDE when strictly inside; an empty box (``min > max`` on an
    axis, e.g. ``AABB.empty()``) is NONE. Exact for the floats given at every magnitude, and
    for the frustum's exact planes.

    ``conservative=True`` gives the classic plane-only test instead (Greene 1994; three.js
    ``Frustum.intersectsBox``, JOML ``intersectAab``): NONE only where one plane has the whole
    box behind it, so boxes near the frustum's edges and corners may be INTERSECT though they
    lie outside; INCLUDE as above. Each plane's verdict is exact.

    Parameters
    ----------
    box_min, box_max : (3,) or (N, 3) array_like
        The boxes' corners. ``+inf`` in ``box_min`` / ``-inf`` in ``box_max`` mean an empty box.
    frustum : Frustum
    conservative : bool, optional
        The plane-only test.
    out : (N,) int8 ndarray, optional
        Written with the codes and returned.

    Returns
    -------
    IntersectionType or (N,) int8 ndarray
        A scalar when the box is a single item.

    Raises
    ------
    ValueError
        For a non-finite coordinate, a shape that is not (..., 3), or shapes that do not
        broadcast; the message names the argument.
    """
    if not isinstance(frustum, Frustum):
        raise ValueError(f"frustum must be a Frustum, got {type(frustum).__name__}")
    if conservative:
        codes = _CONSERVATIVE(box_min, box_max, frustum._constants, out=out)
    else:
        codes = _QUERY(box_min, box_max, frustum._constants, frustum._aabb_constants, out=out)
    return _CLASSES[codes] if type(codes) is int else codes
