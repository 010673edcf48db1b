"""Hypothesis strategies for geometry tests: inputs with *exact* degeneracies built from integers
(endpoints on faces, edges and corners, segments in face planes or through edges and corners,
direction components of +0.0 and -0.0), and batches of them for one batched call."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from geometry import _threads

# --- strategies ----------------------------------------------------------------------------
#: Generic coordinates: magnitudes in [1e-3, 1e3] with arbitrary mantissas, and +-0.0 (smaller
#: magnitudes snap to a zero of the same sign). The band keeps every product and quotient a
#: correct kernel forms far from overflow and underflow, so np.errstate(all="raise") tests the
#: library, not our input ranges.
generic_coords = st.floats(
    min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False, allow_subnormal=False
).map(lambda x: x if abs(x) >= 1e-3 else math.copysign(0.0, x))

#: Small integers as floats: every sum, difference and small product is exact.
small_int_coords = st.integers(min_value=-6, max_value=6).map(float)

#: Dyadic coordinates (quarters): exact like the integers, but not integral.
dyadic_coords = st.integers(min_value=-24, max_value=24).map(lambda k: k / 4.0)


def points(coords=generic_coords):
    """Strategy for one point, a float64 (3,) array with coordinates from `coords`."""
    return st.tuples(coords, coords, coords).map(lambda xyz: np.array(xyz, dtype=np.float64))


@st.composite
def boxes(draw, coords=small_int_coords, *, flat=True, empty=False):
    """Strategy for ``(box_min, box_max)``: proper boxes, plus flat (min == max on some axes)
    and, with ``empty=True``, empty ones (min > max on some axis, or ``AABB.empty()``'s +-inf).
    Proper boxes are the most drawn (every class of every query needs an interior).
    """
    a, b = draw(points(coords)), draw(points(coords))
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    # proper boxes in 6 of 7 draws (2 of 3 with empty ones): only they can be INCLUDE; flat
    # first, as hypothesis favours the first of a list
    kinds = ["flat"] * flat + ["proper"] * 6 + ["empty", "empty_inf"] * empty
    kind = draw(st.sampled_from(kinds))
    hi = np.where(hi > lo, hi, lo + 1.0)  # hypothesis likes equal draws: keep the interior
    if kind == "flat":
        axes = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True))
        hi[axes] = lo[axes]
    elif kind == "empty":
        axis = draw(st.integers(0, 2))
        lo[axis], hi[axis] = hi[axis] + 1.0, lo[axis]
    elif kind == "empty_inf":
        lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    return lo, hi


def proper_boxes(coords=small_int_coords):
    """Strategy for boxes with ``box_min < box_max`` on every axis (they have an interior)."""
    return boxes(coords, flat=False).filter(lambda box: bool(np.all(box[0] < box[1])))


@st.composite
def points_on_boundary(draw, box, *, kind=None):
    """Strategy for a point exactly on the boundary of integer box `box`.

    ``kind`` picks how many coordinates sit on a bound: "face" (1), "edge" (2), "corner" (3);
    None draws one. The remaining coordinates are integers in [min, max].
    """
    lo, hi = box
    n_bound = {"face": 1, "edge": 2, "corner": 3, None: draw(st.integers(1, 3))}[kind]
    on_bound = draw(st.permutations([0, 1, 2]))[:n_bound]
    p = np.empty(3)
    for i in range(3):
        if i in on_bound:
            p[i] = draw(st.sampled_from([lo[i], hi[i]]))
        else:
            p[i] = float(draw(st.integers(int(lo[i]), int(hi[i]))))
    return p


#: Where :func:`points_near` puts a point, by default: inside twice as often as each other place.
_NEAR = ("inside", "inside", "face", "boundary", "beyond a face", "outside", "anywhere")
#: Fractions of a box's extent for a coordinate strictly inside it: exact for integer and dyadic
#: bounds, and inside (or on a bound, for a sliver) for generic ones.
_INTERIOR = (0.25, 0.5, 0.75)
#: How far beyond a face a point outside the box lies.
_BEYOND = (0.5, 1.0, 3.0)


def _chooser(draw, box) -> random.Random:
    """A ``random.Random`` for the structural choices of the strategies below (where a point
    lies, which face), seeded by a drawn integer *and* the box. Hypothesis draws the first of a
    few options, and the same few seeds, far more often than the rest (in 300 draws about 60
    distinct seeds, a fifth of them 0); the box spreads the choices evenly, so that the shares
    written here are the shares drawn."""
    return random.Random(f"{draw(st.integers(0, 2**32 - 1))} {box[0].tolist()} {box[1].tolist()}")


def _near(draw, rnd: random.Random, box, coords, place: str) -> np.ndarray:
    """One point of :func:`points_near` for `box` at `place` (one of ``_NEAR``)."""
    lo, hi = box
    if place == "anywhere" or not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
        return draw(points(coords))
    p = np.array([lo[i] + (hi[i] - lo[i]) * rnd.choice(_INTERIOR) for i in range(3)])
    n_bounds = {"inside": 0, "face": 1, "beyond a face": 1}.get(place, rnd.randint(1, 3))
    for axis in rnd.sample(range(3), n_bounds):
        gap = 0.0 if place in ("face", "boundary") else rnd.choice(_BEYOND)
        p[axis] = lo[axis] - gap if rnd.random() < 0.5 else hi[axis] + gap
    return p


@st.composite
def points_near(draw, box, coords=small_int_coords, *, where=_NEAR):
    """Strategy for a point placed against `box`: strictly inside it ("inside"), on one face with
    the other coordinates strictly inside ("face"), on its boundary ("boundary": exactly on 1, 2
    or 3 of its bounds, a face, an edge or a corner, strictly inside on the other axes), beyond
    one face ("beyond a face", the rest inside) or 1-3 of them ("outside"), or anywhere (a point
    of `coords`); one of `where`, evenly.

    By default inside is drawn twice as often as each of the others. An empty box of infinities
    gives a point of `coords`.
    """
    rnd = _chooser(draw, box)
    return _near(draw, rnd, box, coords, rnd.choice(where))


@st.composite
def segments_near(draw, box, coords=small_int_coords):
    """Strategy for ``(start, end)`` placed against `box` as :func:`points_near` places points: in
    a fifth of the draws both strictly inside (INCLUDE, for a proper box), in another fifth one
    on a face and the other strictly inside (where each of the twelve strict comparisons of an
    INCLUDE test meets its ``<=`` twin), else each end anywhere in ``_NEAR``.
    ``tests/geometry/test_strategies.py`` measures the shares of classes and faces."""
    rnd = _chooser(draw, box)
    kind = rnd.random()
    if kind < 0.4:
        ends = (_near(draw, rnd, box, coords, "face" if kind < 0.2 else "inside"),
                _near(draw, rnd, box, coords, "inside"))
        return ends if rnd.random() < 0.5 else ends[::-1]
    return tuple(_near(draw, rnd, box, coords, rnd.choice(_NEAR)) for _ in range(2))


@st.composite
def rays_near(draw, box, coords=small_int_coords):
    """Strategy for ``(origin, direction)``: an origin placed against `box` as :func:`points_near`
    places points (beyond a face more often, so that most hits enter through one); in half of
    the draws a direction towards (or, scaled by a negative factor, away from) a point inside or
    on the box, so that rays hit, touch and miss in fair shares, and in the rest any nonzero
    point of `coords`. ``tests/geometry/test_strategies.py`` measures the shares."""
    rnd = _chooser(draw, box)
    origin = _near(draw, rnd, box, coords, rnd.choice(_NEAR + ("beyond a face",) * 3))
    if rnd.random() < 0.5:
        target = _near(draw, rnd, box, coords, rnd.choice(("inside", "inside", "face", "boundary")))
        direction = (target - origin) * rnd.choice((1.0, 0.5, 2.0, -1.0))
        if np.any(direction != 0):
            return origin, direction
    return origin, draw(points(coords).filter(lambda d: bool(np.any(d != 0))))


def int_directions(bound=3):
    """Strategy for nonzero integer direction vectors (float64), components in [-bound, bound]."""
    return (
        st.tuples(*[st.integers(-bound, bound)] * 3)
        .filter(lambda d: any(d))
        .map(lambda d: np.array(d, dtype=np.float64))
    )


@st.composite
def segments_touching(draw, box):
    """Strategy for ``(start, end)`` with one endpoint exactly on the boundary of `box`
    (face, edge or corner) and the other an arbitrary small-integer point."""
    on = draw(points_on_boundary(box))
    other = draw(points(st.integers(-8, 8).map(float)))
    return (on, other) if draw(st.booleans()) else (other, on)


@st.composite
def segments_in_face_plane(draw, box):
    """Strategy for ``(start, end)`` lying in the plane of one face of `box` (both endpoints share
    that face's coordinate exactly); the segment may miss, touch or cross the face."""
    lo, hi = box
    axis = draw(st.integers(0, 2))
    plane = draw(st.sampled_from([lo[axis], hi[axis]]))
    start, end = (
        draw(points(st.integers(-8, 8).map(float))),
        draw(points(st.integers(-8, 8).map(float))),
    )
    start[axis] = end[axis] = plane
    return start, end


@st.composite
def segments_through_edge_or_corner(draw, box):
    """Strategy for ``(start, end)`` on a line through a point of an edge or a corner of `box`:
    ``p - a d`` to ``p + b d`` for an integer direction d and integers a, b >= 0 (exact)."""
    p = draw(points_on_boundary(box, kind=draw(st.sampled_from(["edge", "corner"]))))
    d = draw(int_directions())
    a, b = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    return p - a * d, p + b * d


@st.composite
def signed_zero_directions(draw):
    """Strategy for nonzero directions whose other components are +0.0 or -0.0 (at least one)."""
    d = draw(st.tuples(*[st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.0, -3.0, 0.5])] * 3))
    d = np.array(d)
    if not np.any(d == 0):
        d[draw(st.integers(0, 2))] = draw(st.sampled_from([0.0, -0.0]))
    if np.all(d == 0):
        d[draw(st.integers(0, 2))] = draw(st.sampled_from([1.0, -2.0]))
    return d


@st.composite
def origins_on_slab_plane(draw, box):
    """Strategy for a ray origin with at least one coordinate exactly on a slab plane of `box`
    (the others small integers, in or out of the slab)."""
    lo, hi = box
    o = draw(points(st.integers(-8, 8).map(float)))
    for i in draw(st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True)):
        o[i] = draw(st.sampled_from([lo[i], hi[i]]))
    return o


def signed_permutation_matrices():
    """Strategy for 3x3 signed permutation matrices: the rotations/reflections that are exact
    in floats (the only orthonormal matrices with dyadic entries)."""
    return st.tuples(
        st.permutations([0, 1, 2]), st.tuples(*[st.sampled_from([1.0, -1.0])] * 3)
    ).map(lambda ps: np.eye(3)[list(ps[0])] * np.array(ps[1])[:, None])


def rotations():
    """Strategy for proper rotation matrices (3x3, float64) from Euler angles via pyrr."""
    import pyrr

    # angles below 1e-6 snap to 0: pyrr's products of tiny sines would underflow (an error here)
    angle = st.floats(min_value=-np.pi, max_value=np.pi, allow_nan=False).map(
        lambda a: a if abs(a) >= 1e-6 else 0.0
    )
    return st.tuples(angle, angle, angle).map(
        lambda e: np.asarray(pyrr.matrix33.create_from_eulers(np.array(e)), dtype=np.float64)
    )


#: Strategies for an oriented box's half sizes: quarters from 0 to 3 (with dyadic centres and
#: signed permutation axes, ``center -+ half_size`` is exact), and any non-negative floats.
half_sizes_dyadic = points(st.integers(0, 12).map(lambda k: k / 4.0))
half_sizes_generic = points(generic_coords.map(abs))


def rigid_matrix(rotation: np.ndarray, translation) -> np.ndarray:
    """4x4 pyrr-convention matrix: ``[p, 1] @ M = p @ rotation + translation``."""
    m = np.eye(4)
    m[:3, :3] = rotation
    m[3, :3] = translation
    return m


def rigid_motion_cases():
    """Strategy for ``(box, rotation, translation, local_segment)``: a small-integer box, an
    exact rigid motion (a signed permutation, a small-integer translation) and a segment of
    small integers in the box's frame."""
    local = points(st.integers(-5, 5).map(float))
    return st.tuples(proper_boxes(small_int_coords), signed_permutation_matrices(),
                     points(small_int_coords), st.tuples(local, local))

@st.composite
def segments_near_rotated_surfaces(draw):
    """Strategy for ``(start, end, center, axes, half_size)``: a rotated box and a segment
    through a point at rounding distance of its surface: a corner, an edge or a face point,
    mapped to the world in floats (so off by an ulp or so)."""
    center, axes, half = draw(points()), draw(rotations()), draw(half_sizes_generic)
    signs = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=3, max_size=3)))
    free = draw(st.integers(0, 3))  # 3: a corner; else that axis runs free (an edge)
    along = draw(st.floats(-1, 1))
    d = np.array(draw(st.tuples(*[st.floats(-2, 2)] * 3)))
    a, b = draw(st.floats(0.1, 3)), draw(st.floats(0.1, 3))
    with np.errstate(all="ignore"):  # building a case: tiny products may underflow, harmlessly
        u = signs * half
        if free < 3:
            u[free] = along * half[free]
        p = center + axes.T @ u
        start, end = p - a * d, p + b * d
    assume(np.any(end != start))
    return start, end, center, axes, half


def boxes_across_chunks(dtype, extra) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``(box_min, box_max, sample)`` for one line against a batch that crosses chunk seams:
    ``chunk + extra`` boxes (or, with ``extra = "2 chunks + 1"``, that many) with small-integer
    corners; ``sample`` holds the rows on
    both sides of every seam, the ends and 100 random rows."""
    chunk = _threads.PARALLEL_MIN  # a thread's share at least: two threads split 2 chunks + 1
    n = 2 * chunk + 1 if extra == "2 chunks + 1" else chunk + extra
    rng = np.random.default_rng(n)
    a, b = rng.integers(-3, 4, (2, n, 3)).astype(dtype)
    seams = {k * chunk + d for k in range(n // chunk + 1) for d in (-2, -1, 0, 1)}
    picked = seams | {0, n - 1} | set(rng.integers(0, n, 100).tolist())
    return np.minimum(a, b), np.maximum(a, b), sorted(i for i in picked if 0 <= i < n)


def batches(case, *, min_size=1, max_size=10):
    """Strategy for a list of min_size..max_size cases, to be stacked into one batched call."""
    return st.lists(case, min_size=min_size, max_size=max_size)


@st.composite
def boxes_near(draw, box, coords=small_int_coords):
    """Strategy for a query box ``(min, max)`` placed against `box`: its two corners placed as
    :func:`points_near` places points and sorted per axis (so it lies inside, shares a face
    plane, touches a face, edge or corner, pokes out or misses), in a tenth of the draws made
    flat on one axis, in another tenth empty (min > max on one axis, or ``AABB.empty()``)."""
    rnd = _chooser(draw, box)
    a, b = (_near(draw, rnd, box, coords, rnd.choice(_NEAR)) for _ in range(2))
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    kind = rnd.random()
    axis = rnd.randrange(3)
    if kind < 0.1:
        hi[axis] = lo[axis]
    elif kind < 0.15:
        lo[axis], hi[axis] = hi[axis] + 1.0, lo[axis]
    elif kind < 0.2:
        lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    return lo, hi


@st.composite
def boxes_near_frustum(draw, vertices: np.ndarray):
    """Strategy for ``(box_min, box_max)`` near a frustum's corners (``vertices``, (8, 3)):
    centred on a corner, on a point between two corners (an edge, a face or the inside) or
    beside one, at sizes from a thousandth of the near face to the whole frustum, some flat.
    Boxes near edges and corners outside are where the six plane tests keep false positives."""
    i, j = draw(st.integers(0, 7)), draw(st.integers(0, 7))
    t = draw(st.sampled_from([0.0, 0.5, 1.0, 0.25, 0.9]))
    q = vertices[i] + t * (vertices[j] - vertices[i])
    near = float(np.min(np.ptp(vertices, axis=0))) or 1.0
    scale = near * draw(st.sampled_from([1e-3, 0.03, 0.3, 1.0, 3.0, 30.0]))
    shift = np.array(draw(st.tuples(*[st.integers(-4, 4)] * 3)), dtype=float) * scale / 2
    low = np.array(draw(st.tuples(*[st.integers(0, 4)] * 3)), dtype=float) * scale / 4
    high = np.array(draw(st.tuples(*[st.integers(0, 4)] * 3)), dtype=float) * scale / 4
    return q + shift - low, q + shift + high


#: How :func:`obb_pairs` relates the box's axes to the query's: drawn independently, the very
#: same floats, one entry one ulp off, rows permuted and negated (a quarter turn, exact), the
#: rows negated (anti-parallel), the identity, or both turned about one coordinate axis (an
#: edge of each exactly parallel to it).
_PAIR_AXES = ("independent", "same", "one ulp", "quarter turn", "negated", "identity",
              "one turning axis")


def _turned_about(axis: int, angle: float) -> np.ndarray:
    """The rows of a rotation by ``angle`` about coordinate ``axis`` (that row exactly a unit
    vector, the others exactly zero in that coordinate)."""
    c, s = math.cos(angle), math.sin(angle)
    j, k = (axis + 1) % 3, (axis + 2) % 3
    rows = np.zeros((3, 3))
    rows[axis, axis] = 1.0
    rows[j, j], rows[j, k], rows[k, j], rows[k, k] = c, s, -s, c
    return rows
#: Where :func:`obb_pairs` puts the box: a point of its surface (a corner, an edge or a face
#: point) at a point of the query's surface, mapped to the world in floats (so off by an ulp or
#: so); around the query, large enough to hold it or nearly, or the query around it likewise;
#: or anywhere near it.
_PAIR_PLACES = ("touching", "touching", "around", "near")


@st.composite
def obb_pairs(draw, aabb=None):
    """Strategy for ``(center, axes, half_size, box_center, box_axes, box_half_size)``, two
    oriented boxes whose edges are parallel, anti-parallel or one ulp from it in fair shares
    (``_PAIR_AXES``), placed touching, around or near each other (``_PAIR_PLACES``); in a
    tenth of the draws one half size is negated (an empty box). ``aabb="query"`` or ``"box"``
    gives that box the identity's axes (an AABB ``center -+ half_size``, rounded)."""
    c, h = draw(points()), draw(half_sizes_generic)
    rnd = _chooser(draw, (c, h))
    a = np.eye(3) if aabb == "query" else draw(rotations())
    kind = "identity" if aabb == "box" else rnd.choice(_PAIR_AXES)
    if kind == "independent":
        b = draw(rotations())
    elif kind == "one turning axis":
        axis = rnd.randrange(3)
        if aabb != "query":
            a = _turned_about(axis, rnd.uniform(-math.pi, math.pi))
        b = _turned_about(axis, rnd.uniform(-math.pi, math.pi))
    elif kind == "quarter turn":
        b = np.eye(3)[rnd.sample(range(3), 3)] * np.array([[rnd.choice((-1.0, 1.0))]
                                                           for _ in range(3)]) @ a
    elif kind == "identity":
        b = np.eye(3)
    else:
        b = -a if kind == "negated" else a.copy()
        if kind == "one ulp":
            i = rnd.randrange(3)
            j = int(np.argmax(np.abs(b[i])))  # not a zero entry: a subnormal one would underflow
            b[i, j] = np.nextafter(b[i, j], rnd.choice((-np.inf, np.inf)))
    g = draw(half_sizes_generic)
    place = rnd.choice(_PAIR_PLACES)
    with np.errstate(all="ignore"):  # building a case: tiny products may underflow, harmlessly
        if place == "touching":
            u = np.array([rnd.choice((-1.0, 1.0)) for _ in range(3)]) * h
            w = np.array([rnd.choice((-1.0, 1.0)) for _ in range(3)]) * g
            free = rnd.randrange(4)  # 3: corner to corner; else that axis runs free
            if free < 3:
                u[free] *= rnd.uniform(-1, 1)
                w[rnd.randrange(3)] *= rnd.uniform(-1, 1)
            d = c + a.T @ u - b.T @ w
        elif place == "around" and rnd.random() < 0.5:  # the box around the query
            off = np.array([rnd.uniform(-1, 1) for _ in range(3)]) * h * 0.25
            d = c + a.T @ off
            g = np.full(3, (h.sum() + np.abs(off).sum()) * rnd.choice((1.0, 1.001, 1.5)))
        elif place == "around":  # the query around the box
            off = np.array([rnd.uniform(-1, 1) for _ in range(3)]) * g * 0.25
            d = c + b.T @ off
            h = np.full(3, (g.sum() + np.abs(off).sum()) * rnd.choice((1.0, 1.001, 1.5)))
        else:
            d = c + a.T @ (np.array([rnd.gauss(0, 1) for _ in range(3)]) * (h + g))
    if rnd.random() < 0.1:
        (h if rnd.random() < 0.5 else g)[rnd.randrange(3)] = -rnd.choice((1.0, 0.5))
    return c, a, h, d, b, g


#: Offsets of integer length (the last entry): beyond a face, an edge (3-4-5), a corner
#: (2-3-6-7, 1-2-2-3).
_PYTHAGOREAN = ((1, 0, 0, 1), (2, 0, 0, 2), (3, 4, 0, 5), (2, 3, 6, 7), (1, 2, 2, 3))


@st.composite
def spheres_near(draw, box, coords=small_int_coords):
    """Strategy for ``(center, radius)`` against `box`: a ball tangent from outside to a face,
    an edge or a corner (the centre an integer-length offset beyond it, the radius that
    length), tangent from inside (the radius the centre's least distance to a face), or a
    centre of :func:`points_near` with a radius of `coords` (or 0); in a third of the draws the
    radius moves by one ulp either way."""
    rnd = _chooser(draw, box)
    lo, hi = box
    proper = bool(np.all(np.isfinite(lo)) and np.all(np.isfinite(hi)) and np.all(lo <= hi))
    kind = rnd.choice(("outside", "outside", "inside", "near")) if proper else "near"
    if kind == "near":
        center = _near(draw, rnd, box, coords, rnd.choice(_NEAR))
        radius = rnd.choice((0.0, abs(draw(coords))))
    elif kind == "inside":
        center = _near(draw, rnd, box, coords, "inside")
        radius = float(min(np.min(center - lo), np.min(hi - center)))
    else:
        *offset, length = rnd.choice(_PYTHAGOREAN)
        center = np.array([lo[i] + (hi[i] - lo[i]) * rnd.choice(_INTERIOR) for i in range(3)])
        for axis, step in zip(rnd.sample(range(3), 3), offset, strict=True):
            if step:
                center[axis] = lo[axis] - step if rnd.random() < 0.5 else hi[axis] + step
        radius = float(length)
    if rnd.random() < 1 / 3:
        radius = max(0.0, math.nextafter(radius, rnd.choice((-math.inf, math.inf))))
    return center, radius
