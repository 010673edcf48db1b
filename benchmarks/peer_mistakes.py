"""Inputs on which a widely used box test answers wrongly and slablab answers right.

Run ``python -m benchmarks.peer_mistakes``: one Markdown row per case with the inputs, the peer's
answer, the exact answer (``exact_arbiter``: rational arithmetic on the floats' exact values)
and slablab's. The peers are ported here in plain Python, operation for operation, in their
own precision (numpy float64 / float32 scalars round each operation as JavaScript doubles,
C++ doubles and Java floats do):

- three.js ``Box3.intersectsBox`` and JOML ``Intersectionf.testAabAab``: six comparisons of the
  bounds. Exact for proper boxes; a box with ``min > max`` (empty, as SEMANTICS.md has it)
  lying between the other's bounds is reported as overlapping.
- three.js ``OBB.intersectsOBB(obb, epsilon = Number.EPSILON)``, FCL / hpp-fcl ``obbDisjoint``
  (``reps = 1e-6``) and JOML ``Intersectionf.testObOb`` (float, ``EPSILON = 1e-5f``): the
  separating-axis test of Ericson, Real-Time Collision Detection 4.4.1, which adds an epsilon
  to every ``|R_ij|`` so that nearly parallel edges do not make a rounded cross product
  separate boxes that touch. The epsilon widens every projected radius by about
  ``epsilon * (sum of half sizes)``, so boxes that far apart -- along a face normal, or along
  an edge x edge axis where only that axis separates them -- are reported as overlapping; and
  rounding the frame change misses smaller gaps still. (pyrr has no box-box test.)
- three.js ``Box3.intersectsSphere`` and ``Box3.distanceToPoint``: clamp the point to the box,
  then compare ``dx^2 + dy^2 + dz^2`` with ``r * r`` or take its ``sqrt``; the squares overflow
  to inf or underflow to 0 where the distance itself is an ordinary float.
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

__all__ = ["CASES", "Case", "ericson_obb_overlap", "main", "rows"]


def aabb_overlap(a: Any, b: Any) -> bool:
    """three.js ``Box3.intersectsBox`` / JOML ``testAabAab``: closed intervals overlap on x, y
    and z (``b.max >= a.min && b.min <= a.max``)."""
    (a_min, a_max), (b_min, b_max) = a, b
    return all(b_max[k] >= a_min[k] and b_min[k] <= a_max[k] for k in range(3))


def ericson_obb_overlap(a: Any, b: Any, epsilon: float, dtype: type = np.float64) -> bool:
    """RTCD 4.4.1 as three.js, FCL and JOML write it: ``R[i][j] = a.u[i] . b.u[j]``,
    ``t = a.u @ (b.c - a.c)``, ``AbsR = |R| + epsilon``, then the 15 axes in the book's order,
    every operation rounded to ``dtype``; boxes ``(center, axes rows, half_size)``."""
    f = dtype
    ca, ua, ea = ([f(x) for x in np.ravel(v)] for v in a)
    cb, ub, eb = ([f(x) for x in np.ravel(v)] for v in b)
    u = [ua[0:3], ua[3:6], ua[6:9]]
    w = [ub[0:3], ub[3:6], ub[6:9]]
    r = [[u[i][0] * w[j][0] + u[i][1] * w[j][1] + u[i][2] * w[j][2] for j in range(3)]
         for i in range(3)]
    v = [cb[k] - ca[k] for k in range(3)]
    t = [v[0] * u[i][0] + v[1] * u[i][1] + v[2] * u[i][2] for i in range(3)]
    eps = f(epsilon)
    ar = [[abs(r[i][j]) + eps for j in range(3)] for i in range(3)]
    for i in range(3):  # L = A0, A1, A2
        if abs(t[i]) > ea[i] + (eb[0] * ar[i][0] + eb[1] * ar[i][1] + eb[2] * ar[i][2]):
            return False
    for j in range(3):  # L = B0, B1, B2
        ra = ea[0] * ar[0][j] + ea[1] * ar[1][j] + ea[2] * ar[2][j]
        if abs(t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j]) > ra + eb[j]:
            return False
    for i in range(3):  # L = Ai x Bj
        i1, i2 = (i + 1) % 3, (i + 2) % 3
        for j in range(3):
            j1, j2 = (j + 1) % 3, (j + 2) % 3
            ra = ea[i1] * ar[i2][j] + ea[i2] * ar[i1][j]
            rb = eb[j1] * ar[i][j2] + eb[j2] * ar[i][j1]
            if abs(t[i2] * r[i1][j] - t[i1] * r[i2][j]) > ra + rb:
                return False
    return True


def threejs_obb(a: Any, b: Any) -> bool:
    """three.js ``OBB.intersectsOBB`` with its default ``epsilon = Number.EPSILON``."""
    return ericson_obb_overlap(a, b, 2.0**-52)


def fcl_obb(a: Any, b: Any) -> bool:
    """FCL / hpp-fcl ``!obbDisjoint(B, T, a, b)``, ``reps = 1e-6``, double."""
    return ericson_obb_overlap(a, b, 1e-6)


def joml_obb(a: Any, b: Any) -> bool:
    """JOML ``Intersectionf.testObOb``, ``EPSILON = 1E-5f``, float arithmetic."""
    return ericson_obb_overlap(a, b, 1e-5, np.float32)


def threejs_sphere(ball: Any, box: Any) -> bool:
    """three.js ``Box3.intersectsSphere``: ``clampPoint``, then ``distanceToSquared <= r * r``."""
    (c, r), (lo, hi) = ball, box
    d = [float(c[k]) - min(max(float(c[k]), float(lo[k])), float(hi[k])) for k in range(3)]
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= r * r


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

    @property
    def sphere(self) -> bool:
        return len(self.query) == 2 and np.ndim(self.query[1]) == 0

    def slablab(self) -> Any:
        """slablab's answer: whether the boxes overlap (its class is not NONE), or the
        distance."""
        if self.distance:
            return float(geometry.distance_point_aabb(*self.query, *self.box))
        if self.sphere:
            return bool(geometry.classify_sphere_aabb(*self.query, *self.box)
                        != geometry.IntersectionType.NONE)
        kinds = "_".join("aabb" if len(b) == 2 else "obb" for b in (self.query, self.box))
        classify = getattr(geometry, f"classify_{kinds}")
        return bool(classify(*self.query, *self.box) != geometry.IntersectionType.NONE)

    def exact(self) -> Any:
        """Whether the boxes overlap, or the exact squared distance (a Fraction)."""
        if self.distance:
            return exact_arbiter.squared_distance(self.box, self.query[0])
        if self.sphere:
            return exact_arbiter.sphere_class(self.box, *self.query) != 0
        return exact_arbiter.box_class(self.query, self.box) != 0

    def right(self, answer: Any) -> bool:
        """Whether an answer is the exact one (a distance: within 1 ulp of it)."""
        if self.distance:
            return faithful(np.float64(answer), self.exact())
        return bool(answer == self.exact())


UNIT_OBB = ([0.0, 0.0, 0.0], np.eye(3), [1.0, 1.0, 1.0])
# rotated 45 degrees about z and tilted a little; at the centres below the boxes are apart, and
# only an edge x edge axis (the unit box's z edge x this box's second edge) separates them
TILT_1E2 = [[0.7057629694594905, 0.7084424581246201, -0.0028132660855664923],
            [-0.7083952137732104, 0.7057532702880089, 0.009409706742941325],
            [0.008651707515280067, -0.004648118342555458, 0.9999517703134205]]
TILT_1E2_F32 = [[0.7057629823684692, 0.7084424495697021, -0.00281326612457633],
                [-0.70839524269104, 0.7057532668113708, 0.00940970703959465],
                [0.00865170732140541, -0.004648118279874325, 0.9999517798423767]]
TILT_1E5 = [[0.7071140524624192, 0.7070995098310957, -2.6075092509677384e-06],
            [-0.7070995098066845, 0.7071140524619155, 6.483367774674433e-06],
            [6.4281926087992594e-06, -2.7407119476055524e-06, 0.9999999999755834]]

CASES = [
    Case("three.js Box3.intersectsBox, JOML testAabAab", "an empty box (min > max) inside",
         aabb_overlap, ([0.5, 0.5, 0.5], [0.25, 0.75, 0.75]), ([0.0] * 3, [1.0] * 3)),
    Case("three.js OBB.intersectsOBB", "axis-aligned, 2^-50 apart on x", threejs_obb,
         UNIT_OBB, ([2.0 + 2.0**-50, 0.0, 0.0], np.eye(3), [1.0] * 3)),
    Case("three.js OBB.intersectsOBB", "tilted 1.2e-5 rad, 3e-16 apart (edge x edge)",
         threejs_obb,
         UNIT_OBB, ([1.7071086250090037, 1.7071086250090037, 0.0], TILT_1E5, [1.0] * 3)),
    Case("FCL / hpp-fcl obbDisjoint", "axis-aligned, 2e-6 apart on x", fcl_obb,
         UNIT_OBB, ([2.000002, 0.0, 0.0], np.eye(3), [1.0] * 3)),
    Case("FCL / hpp-fcl obbDisjoint", "tilted 0.01 rad, 1e-6 apart (edge x edge)", fcl_obb,
         UNIT_OBB, ([1.7090952949107427, 1.7090952949107427, 0.0], TILT_1E2, [1.0] * 3)),
    Case("JOML Intersectionf.testObOb", "axis-aligned, 2^-16 (1.5e-5) apart on x", joml_obb,
         UNIT_OBB, ([2.0 + 2.0**-16, 0.0, 0.0], np.eye(3), [1.0] * 3)),
    Case("JOML Intersectionf.testObOb", "tilted 0.01 rad, 9e-7 apart (edge x edge)",
         joml_obb,
         UNIT_OBB, ([1.7090952396392822, 1.7090952396392822, 0.0], TILT_1E2_F32, [1.0] * 3)),
    Case("three.js Box3.intersectsSphere", "3e200 away, radius 1e200: both squares inf",
         threejs_sphere, ([3e200, 0.5, 0.5], 1e200), ([0.0] * 3, [1.0] * 3)),
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
    if len(box) == 2 and np.ndim(box[1]) == 0:
        return f"center {list(box[0])}, radius {box[1]}"
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
