"""The box, sphere and distance rows of bench_queries: one query box, ball or point against the
scene's N boxes.

- ``box``: ``classify_aabb_aabb`` with a query AABB against AABBs, ``classify_obb_obb`` with a
  query OBB against OBBs (per-box axes, or one shared frame); the port is three.js
  ``Box3.intersectsBox`` + strict containment, or Ericson's OBB test with its epsilon.
- ``sphere``: ``classify_sphere_aabb`` / ``classify_sphere_obb``; the port is Arvo's test.
- ``distance``: ``distance_point_aabb`` / ``distance_point_obb``; the port clamps and takes the
  square root of the squared distance.
- ``plane``: ``plane_side_aabb`` / ``plane_side_obb`` with a plane across the cube; the port is
  Ericson's centre and projected radius test (for an OBB, the radius along its rows).

Each query runs against AABBs, OBBs with per-box axes and OBBs sharing one frame.

The queries sit in the middle of the unit cube, so the mix holds every class (and distance 0).
Where a port's answer differs from the library's, ``exact_arbiter`` decides on the worst boxes:
classes exactly; a distance must lie within 1 ulp of the exact one (SEMANTICS: faithful).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

import geometry
from benchmarks import exact_arbiter

try:
    from benchmarks import textbook_ports
except ImportError:  # numba is not installed: no textbook rows
    textbook_ports = None  # type: ignore[assignment]

__all__ = ["QUERIES", "describe", "exact_answer", "label", "library_call", "settle",
           "textbook_call"]

QUERIES = ("box", "sphere", "distance", "plane")
#: the (query, box kind) rows measured: every query against every kind of box
ROWS = {(query, kind) for query in QUERIES for kind in ("aabb", "obb", "obb-frame")}
QUERY_MIN, QUERY_MAX = (0.36, 0.38, 0.4), (0.62, 0.6, 0.64)
QUERY_CENTER, QUERY_HALF = (0.5, 0.48, 0.52), (0.16, 0.12, 0.1)
#: the query OBB's rows: a rotation by 0.7 rad about (1, 2, 2) / 3 (Rodrigues' formula)
_K = np.array([[0.0, -2.0, 2.0], [2.0, 0.0, -1.0], [-2.0, 1.0, 0.0]]) / 3
QUERY_AXES = np.eye(3) + np.sin(0.7) * _K + (1 - np.cos(0.7)) * _K @ _K
SPHERE_CENTER, SPHERE_RADIUS = (0.45, 0.52, 0.55), 0.15
POINT = (0.42, 0.57, 0.49)
PLANE_NORMAL, PLANE_OFFSET = (0.3, -0.5, 0.8), 0.2
#: Boxes settled in exact arithmetic per disagreeing cell.
ARBITRATED = 8
#: A port's distance may differ from the library's by this many eps * max(d, 1) before exact
#: arithmetic is asked (a port rounds the frame change, the squares and the sum).
D_TOLERANCE = 64


def _query(query: str, kind: str, dtype: Any) -> tuple[Any, ...]:
    """The query's arrays in ``dtype`` (the radius a scalar of it)."""
    def cast(x: Any) -> np.ndarray:
        return np.asarray(x, dtype=dtype)

    if query == "box":
        if kind == "aabb":
            return cast(QUERY_MIN), cast(QUERY_MAX)
        return cast(QUERY_CENTER), cast(QUERY_AXES), cast(QUERY_HALF)
    if query == "sphere":
        return cast(SPHERE_CENTER), cast(SPHERE_RADIUS)[()]
    if query == "plane":
        return cast(PLANE_NORMAL), cast(PLANE_OFFSET)[()]
    return (cast(POINT),)


def label(query: str, kind: str) -> str:
    """The library function's name for the table."""
    box = "aabb" if kind == "aabb" else "obb"
    return {"box": f"classify_{box}_{box}", "sphere": f"classify_sphere_{box}",
            "distance": f"distance_point_{box}", "plane": f"plane_side_{box}"}[query]


def library_call(query: str, kind: str, boxes: Callable[[Any], tuple[Any, ...]]
                 ) -> Callable[[Any], Any]:
    """The public function on a scene: the query's arrays, then the boxes' (``boxes(scene)``)."""
    function = getattr(geometry, label(query, kind))
    return lambda s: function(*_query(query, kind, s.center.dtype), *boxes(s))


def textbook_call(query: str, kind: str) -> Callable[[Any], Any]:
    """The textbook port on a scene; outputs allocated here."""
    ports: Any = textbook_ports

    def frame(s: Any) -> tuple[Any, ...]:
        return (s.center, s.axes, 1, s.half_size) if kind == "obb" else (
            s.center, s.frame[None], 0, s.half_size)

    def call(s: Any) -> np.ndarray:
        n = len(s.center)
        args = _query(query, kind, s.center.dtype)
        if query == "distance":
            out = np.empty(n, dtype=s.center.dtype)
        else:
            out = np.empty(n, dtype=np.int8)
        if kind == "aabb":
            getattr(ports, f"{query}_aabb")(*args, s.box_min, s.box_max, out)
        else:
            getattr(ports, f"{query}_obb")(*args, *frame(s), out)
        return out

    return call


def describe(query: str, result: Any) -> str:
    """Class counts, or how many boxes hold the point and the median distance."""
    if query == "distance":
        return (f"{int(np.count_nonzero(result == 0))} hold it, median "
                f"{float(np.median(result)):.3g}, {result.dtype}")
    if query == "plane":
        counts = np.bincount(np.asarray(result, dtype=np.intp) + 1, minlength=3)
        return " / ".join(f"{name} {c}" for name, c in zip(("-1", "0", "+1"), counts,
                                                            strict=True))
    counts = np.bincount(np.asarray(result, dtype=np.intp), minlength=3)
    return " / ".join(f"{name} {c}" for name, c in zip(("NONE", "INTERSECT", "INCLUDE"), counts,
                                                        strict=True))


def one_box(scene: Any, kind: str, i: int) -> tuple[Any, ...]:
    if kind == "aabb":
        return scene.box_min[i], scene.box_max[i]
    return (scene.center[i], scene.axes[i] if kind == "obb" else scene.frame,
            scene.half_size[i])


def exact_answer(query: str, scene: Any, kind: str, i: int) -> Any:
    """Box i's class, or its exact squared distance (a Fraction)."""
    box = one_box(scene, kind, i)
    args = _query(query, kind, scene.center.dtype)
    if query == "box":
        return exact_arbiter.box_class(args, box)
    if query == "sphere":
        return exact_arbiter.sphere_class(box, *args)
    if query == "plane":
        return exact_arbiter.plane_side(box, *args)
    return exact_arbiter.squared_distance(box, args[0])


def faithful(d: Any, squared: Fraction) -> bool:
    """Whether the float ``d`` is ``sqrt(squared)`` or one of the two floats (of d's dtype)
    around it (never an infinity: the squared distance is finite)."""
    if not np.isfinite(d):
        return False
    if Fraction(float(d)) ** 2 == squared:
        return True
    with np.errstate(under="ignore"):  # the floats next to 0 are subnormal
        below = np.nextafter(d, d.dtype.type(-np.inf))
        above = np.nextafter(d, d.dtype.type(np.inf))
    low = Fraction(float(below)) ** 2 if below > 0 else Fraction(0)
    return low < squared and (np.isinf(above) or squared < Fraction(float(above)) ** 2)


def settle(query: str, scene: Any, kind: str, ours: Any, theirs: Any
           ) -> tuple[str | None, str | None]:
    """As bench_queries.settle: ``(port_note, library_problem)``."""
    if query == "distance":
        scale = np.finfo(ours.dtype).eps * np.maximum(ours, 1)
        bad = np.flatnonzero(np.abs(ours - theirs) > D_TOLERANCE * scale)
    else:
        bad = np.flatnonzero(ours != theirs)
    if not len(bad):
        return None, None
    checked = bad[:ARBITRATED]
    exact = [exact_answer(query, scene, kind, int(i)) for i in checked]
    if query == "distance":
        wrong = [int(i) for i, e in zip(checked, exact, strict=True) if not faithful(ours[i], e)]
    else:
        wrong = [int(i) for i, e in zip(checked, exact, strict=True) if ours[i] != e]
    if wrong:
        return None, f"answer differs from exact arithmetic at boxes #{wrong}"
    return (f"the port's answer differs on {len(bad)} boxes; exact arithmetic agrees with the "
            f"library on the {len(checked)} checked (#{checked.tolist()})"), None
