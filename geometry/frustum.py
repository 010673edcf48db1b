"""The view frustum: an immutable value of six inward planes, exact.

``Frustum.from_matrix(m)`` takes a view-projection matrix in pyrr's convention (row vectors,
``clip = [p, 1] @ m``, OpenGL's clip volume ``-w <= x, y, z <= w``); the frustum is exactly the
set of points whose clip coordinates satisfy that. Each inequality is linear in ``p``, with
coefficients that are sums or differences of two entries of one row of ``m`` (for row vectors,
column 3 plus or minus column 0, 1 or 2: Gribb & Hartmann 2001, transposed), kept exact as
rationals, never rounded. ``Frustum(normals, offsets)`` takes six planes directly, the inside
being ``normals[i] . p >= offsets[i]``. Either way the planes must bound a non-empty convex
volume with six faces (:func:`._frustum_exact.polytope`).
"""

from __future__ import annotations

import weakref
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._exact import to_float
from ._frustum_exact import Plane, Polytope, cross, polytope, register, unregister
from ._validate import as_float_array, check_finite

__all__ = ["Frustum"]

#: the six clip inequalities, as (sign, column): w + sign * clip[column] >= 0
_CLIP = ((1, 0), (-1, 0), (1, 1), (-1, 1), (1, 2), (-1, 2))


def _normalised(plane: Plane) -> tuple[list[Fraction], Fraction]:
    """The plane scaled by a power of two so that its normal's largest component lies in
    [1, 2) (the same plane, exactly)."""
    top = max(abs(x) for x in plane.normal)
    e = top.numerator.bit_length() - top.denominator.bit_length()
    scale = Fraction(2) ** -e
    if top * scale < 1:
        scale *= 2
    return [x * scale for x in plane.normal], plane.offset * scale


def _floats(values: list[float]) -> tuple[float, ...]:
    """The filters' constants as Python floats, made once: one box per call reads them as they
    are, with no array to convert."""
    return tuple(float(x) for x in values)


def _intervals(directions: list[list[float]], corners: list[list[float]]) -> list[float]:
    """``[low, high]`` of the corners' projections on each axis ``e_k x d`` (d in
    ``directions``, then k = x, y, z), each projection rounded exactly as
    :func:`._frustum_filter.aabb_cross_axes` would round it (its bound covers that)."""
    out = []
    for dx, dy, dz in directions:
        for ax, ay, az in ((0.0, -dz, dy), (dz, 0.0, -dx), (-dy, dx, 0.0)):
            values = [ax * c[0] + ay * c[1] + az * c[2] for c in corners]
            out += [min(values), max(values)]
    return out


class Frustum:
    """Six inward planes bounding a convex volume: ``{p : normals[i] . p >= offsets[i]}``.

    Build it with :meth:`from_matrix` (a pyrr view-projection matrix) or from six planes,
    ordered left, right, bottom, top, near, far as ``from_matrix`` orders them (any order is
    accepted). Immutable; compares and hashes by its exact planes.

    Parameters
    ----------
    normals : (6, 3) array_like
        Finite, non-zero; need not be of unit length.
    offsets : (6,) array_like
        Finite.

    Raises
    ------
    ValueError
        For a shape other than (6, 3) / (6,), a non-finite value, or planes that do not bound
        a non-empty convex volume with six faces (bounded, with interior points, and every
        plane holding a two-dimensional face of its own).
    """

    __slots__ = ("__weakref__", "_constants", "_matrix", "_normals", "_offsets", "_planes",
                 "_poly", "_sat_constants", "_aabb_constants", "_vertices")

    def __init__(self, normals: ArrayLike, offsets: ArrayLike) -> None:
        n = as_float_array("normals", normals).astype(np.float64)
        o = as_float_array("offsets", offsets).astype(np.float64)
        if n.shape != (6, 3):
            raise ValueError(f"normals must have shape (6, 3), got {n.shape}")
        if o.shape != (6,):
            raise ValueError(f"offsets must have shape (6,), got {o.shape}")
        check_finite("normals", n)
        check_finite("offsets", o)
        for i in range(6):
            if not n[i].any():
                raise ValueError(f"normals must not be the zero vector, got one at index {i}")
        planes = tuple(Plane(tuple(Fraction(float(x)) for x in n[i]),  # type: ignore[arg-type]
                             Fraction(float(o[i]))) for i in range(6))
        self._setup(planes, None, "planes")

    @classmethod
    def from_matrix(cls, matrix: ArrayLike) -> Frustum:
        """The frustum of a view-projection matrix, row vectors (pyrr): the points whose clip
        coordinates ``[x, y, z, w] = [p, 1] @ matrix`` satisfy ``-w <= x, y, z <= w``.

        Parameters
        ----------
        matrix : (4, 4) array_like
            Finite; float32 is taken at its exact values.

        Raises
        ------
        ValueError
            For a shape other than (4, 4), a non-finite entry, or a matrix whose clip volume is
            not a non-empty bounded convex volume with six faces (a singular matrix, say).
        """
        m = as_float_array("matrix", matrix)
        if m.shape != (4, 4):
            raise ValueError(f"matrix must have shape (4, 4), got {m.shape}")
        check_finite("matrix", m)
        e = [[Fraction(float(x)) for x in row] for row in m]
        # w + sign * clip[c] >= 0, clip[j] = sum_k p_k m[k][j] + m[3][j]
        planes = tuple(Plane(tuple(e[k][3] + sign * e[k][c] for k in range(3)),  # type: ignore
                             -(e[3][3] + sign * e[3][c])) for sign, c in _CLIP)
        self = cls.__new__(cls)
        self._setup(planes, m.copy(), "matrix")
        return self

    def _setup(self, planes: tuple[Plane, ...], matrix: np.ndarray | None, what: str) -> None:
        poly = polytope(planes, what)
        normals, offsets = [], []
        for plane in planes:
            n, o = _normalised(plane)
            normals.append([to_float(x) for x in n])
            offsets.append(to_float(o))
        self._planes = planes
        self._poly = poly
        self._matrix = matrix
        self._normals = np.array(normals)
        self._offsets = np.array(offsets)
        self._vertices = np.array([[to_float(x) for x in v] for v in poly.vertices])
        for a in (self._normals, self._offsets, self._vertices):
            a.flags.writeable = False
        if matrix is not None:
            matrix.flags.writeable = False
        lows = [to_float(min(v[k] for v in poly.vertices), 1) for k in range(3)]
        highs = [to_float(max(v[k] for v in poly.vertices), -1) for k in range(3)]
        constants = [*np.column_stack([self._normals, self._offsets]).ravel().tolist(),
                     *lows, *highs]
        # the edges' directions, one of each parallel set, normalised and rounded to nearest
        # (a component that rounds to zero but is not: no trust), padded to 12 by repeats
        directions: list[list[Fraction]] = []
        for d in poly.directions:
            if not any(not any(cross(d, e)) for e in directions):
                directions.append(_normalised(Plane(d, Fraction(0)))[0])
        rounded = [[to_float(x) for x in d] for d in directions]
        lost = any((x == 0.0) != (y == 0) for d, r in zip(directions, rounded, strict=True)
                   for x, y in zip(r, d, strict=True))
        corners = [self._vertices[k % len(self._vertices)].tolist() for k in range(8)]
        padded = [rounded[k % len(rounded)] for k in range(12)]
        reach = to_float(max(abs(x) for v in poly.vertices for x in v), 1)
        sat = [*(x for c in corners for x in c), *(x for d in padded for x in d), reach]
        aabb = [*(x for d in padded for x in d), *_intervals(padded, corners), reach]
        trust = all(np.isfinite(constants)) and all(np.isfinite(sat)) and \
            all(np.isfinite(aabb)) and not lost
        key = register(poly)
        weakref.finalize(self, unregister, key)
        #: the scalars the box queries' filters take (their docstrings): the normalised planes
        #: rounded to nearest, the vertices' bounding box rounded inwards, whether all of them
        #: are finite (else every box is decided exactly), and the key of the exact planes
        self._constants = _floats([*(x if np.isfinite(x) else 0.0 for x in constants),
                                   1.0 if trust else 0.0, float(key)])
        #: and for the separating axes of the oriented boxes: 8 corners and 12 edge directions
        #: (repeated where the frustum has fewer), the largest |corner coordinate|
        self._sat_constants = _floats([x if np.isfinite(x) else 0.0 for x in sat])
        #: of the axis-aligned boxes: the 12 directions, the corners' intervals on the 36 axes
        #: ``e_k x d`` (:func:`_intervals`), the largest |corner coordinate|
        self._aabb_constants = _floats([x if np.isfinite(x) else 0.0 for x in aabb])

    # -- the value ------------------------------------------------------------------------------
    @property
    def normals(self) -> np.ndarray:
        """(6, 3) float64: the inward normals, each scaled by a power of two (largest component
        in [1, 2)) and rounded to nearest where the exact one is a sum of matrix entries."""
        return self._normals

    @property
    def offsets(self) -> np.ndarray:
        """(6,) float64: the offsets, scaled and rounded as the normals."""
        return self._offsets

    @property
    def vertices(self) -> np.ndarray:
        """(V, 3) float64: the corners (8 for a frustum), each rounded to nearest."""
        return self._vertices

    @property
    def from_matrix_of(self) -> np.ndarray | None:
        """The (4, 4) matrix this frustum was made from, or None (made from planes)."""
        return self._matrix

    @property
    def polytope(self) -> Polytope:
        """The exact planes, vertices and edges (Fractions)."""
        return self._poly

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frustum):
            return NotImplemented
        return [_normalised(p) for p in self._planes] == [_normalised(p) for p in other._planes]

    def __hash__(self) -> int:
        return hash(tuple((tuple(n), o) for n, o in map(_normalised, self._planes)))

    def __repr__(self) -> str:
        if self._matrix is not None:
            return f"Frustum.from_matrix({self._matrix.tolist()!r})"
        n = [[float(x) for x in p.normal] for p in self._planes]
        return f"Frustum({n!r}, {[float(p.offset) for p in self._planes]!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._matrix is not None:
            return (Frustum.from_matrix, (self._matrix,))
        return (Frustum, ([[float(x) for x in p.normal] for p in self._planes],
                          [float(p.offset) for p in self._planes]))

    def __copy__(self) -> Frustum:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Frustum:
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "_aabb_constants"):
            raise AttributeError("Frustum is immutable")
        object.__setattr__(self, name, value)
