"""Inputs on which a widely used box test answers wrongly and slablab answers right.

Run ``python -m benchmarks.peer_mistakes``: one Markdown row per case with the inputs, the peer's
answer, the exact answer (``exact_arbiter``: rational arithmetic on the floats' exact values)
and slablab's. The peers are ported here in plain Python, operation for operation, in their
own precision (numpy float64 / float32 scalars round each operation as JavaScript doubles,
C++ doubles and Java floats do):

- three.js ``Box3.intersectsBox`` and JOML ``Intersectionf.testAabAab``: six comparisons of the
  bounds. Exact for proper boxes; a box with ``min > max`` (empty, as SEMANTICS.md has it)
  lying between the other's bounds is reported as overlapping. (pyrr has no box-box test.)
- three.js ``Box3.distanceToPoint``: clamp the point to the box, then ``sqrt(dx^2 + dy^2 +
  dz^2)``, whose squares overflow to inf or underflow to 0 where the distance itself is an
  ordinary float.
"""

from __future__ import annotations

import decimal
import math
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import geometry
from benchmarks import exact_arbiter
from benchmarks.solid_queries import faithful

__all__ = ["CASES", "Case", "main", "rows"]


def aabb_overlap(a: Any, b: Any) -> bool:
    """three.js ``Box3.intersectsBox`` / JOML ``testAabAab``: closed intervals overlap on x, y
    and z (``b.max >= a.min && b.min <= a.max``)."""
    (a_min, a_max), (b_min, b_max) = a, b
    return all(b_max[k] >= a_min[k] and b_min[k] <= a_max[k] for k in range(3))


def threejs_distance(point: Any, box: Any) -> float:
    """three.js ``Box3.distanceToPoint``: ``clampPoint`` then ``Vector3.distanceTo``."""
    (p,), (lo, hi) = point, box
    d = [float(p[k]) - min(max(float(p[k]), float(lo[k])), float(hi[k])) for k in range(3)]
    return math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])


class Case(NamedTuple):
    """One input pair, the peer's test, and what the pair is. ``query`` is a box (overlap
    cases) or ``(point,)`` (distance cases)."""

    peer: str
    what: str
    test: Callable[[Any, Any], Any]
    query: tuple[Any, ...]
    box: tuple[Any, ...]

    @property
    def distance(self) -> bool:
        return len(self.query) == 1

    def slablab(self) -> Any:
        """slablab's answer: whether the boxes overlap (its class is not NONE), or the
        distance."""
        if self.distance:
            return float(geometry.distance_point_aabb(*self.query, *self.box))
        kinds = "_".join("aabb" if len(b) == 2 else "obb" for b in (self.query, self.box))
        classify = getattr(geometry, f"classify_{kinds}")
        return bool(classify(*self.query, *self.box) != geometry.IntersectionType.NONE)

    def exact(self) -> Any:
        """Whether the boxes overlap, or the exact squared distance (a Fraction)."""
        if self.distance:
            return exact_arbiter.squared_distance(self.box, self.query[0])
        return exact_arbiter.box_class(self.query, self.box) != 0

    def right(self, answer: Any) -> bool:
        """Whether an answer is the exact one (a distance: within 1 ulp of it)."""
        if self.distance:
            return faithful(np.float64(answer), self.exact())
        return bool(answer == self.exact())


CASES = [
    Case("three.js Box3.intersectsBox, JOML testAabAab", "an empty box (min > max) inside",
         aabb_overlap, ([0.5, 0.5, 0.5], [0.25, 0.75, 0.75]), ([0.0] * 3, [1.0] * 3)),
    Case("three.js Box3.distanceToPoint", "1e200 away: the squares overflow", threejs_distance,
         ([1e200, 1e200, 0.5],), ([0.0] * 3, [1.0] * 3)),
    Case("three.js Box3.distanceToPoint", "1e-200 outside: the squares underflow",
         threejs_distance, ([-1e-200, 0.5, 0.5],), ([0.0] * 3, [1.0] * 3)),
]


def _sqrt(q: Any) -> float:
    """The square root of a Fraction, to 40 digits, rounded to a float (any magnitude)."""
    context = decimal.Context(prec=40)
    return float(context.sqrt(context.divide(decimal.Decimal(q.numerator), q.denominator)))


def rows(cases: list[Case] = CASES) -> list[tuple[Case, Any, Any, Any]]:
    """Each case with the peer's, the exact and slablab's answer (overlap: True or False;
    distance: a float, the exact one rounded)."""
    return [(c, c.test(c.query, c.box), _sqrt(c.exact()) if c.distance else c.exact(),
             c.slablab()) for c in cases]


def _inputs(box: tuple[Any, ...]) -> str:
    if len(box) == 1:
        return f"point {list(box[0])}"
    if len(box) == 2:
        return f"min {list(box[0])}, max {list(box[1])}"
    axes = "I" if np.array_equal(box[1], np.eye(3)) else f"{np.asarray(box[1]).tolist()}"
    return f"center {list(box[0])}, axes {axes}, half {list(box[2])}"


def main() -> int:
    """Print the table; 1 if slablab or a peer does not answer as listed."""
    print("| peer | case | query | box | peer says | exact | slablab |")
    print("|---|---|---|---|---|---|---|")

    def word(x: Any) -> str:
        return {True: "overlap", False: "apart"}[x] if isinstance(x, bool) else f"{x:.6g}"

    wrong = 0
    for case, peer, exact, ours in rows():
        wrong += case.right(peer) or not case.right(ours)
        print(f"| {case.peer} | {case.what} | {_inputs(case.query)} | {_inputs(case.box)} "
              f"| {word(peer)} | {word(exact)} | {word(ours)} |")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
