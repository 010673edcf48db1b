"""The shared strategies reach every class and every boundary case in a fair share of draws.

A property test proves only what its inputs reach: a segment strategy that never draws INCLUDE
cannot catch a wrong INCLUDE, and one that never puts an endpoint on the +z face with the rest
strictly inside cannot tell ``ez < hz`` from ``ez <= hz``. These tests draw a few hundred cases
the way the property tests do and count what the exact reference says about them.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.geometry import exact_reference as ref
from tests.strategies import (
    boxes,
    generic_coords,
    rays_near,
    segments_near,
    small_int_coords,
)

N_DRAWS = 300
SEED = 34
#: Dyadic coordinates are drawn as the small integers are (scaled), so these two stand for all.
COORDS = {"small int": small_int_coords, "generic": generic_coords}
FACES = [f"{side}{axis}" for axis in "xyz" for side in "-+"]
CLASSES = ("NONE", "INTERSECT", "INCLUDE")


def draw_many(strategy, n=N_DRAWS, seed_=SEED):
    """`n` draws of `strategy`, as hypothesis draws them for a property test. Of one seed in
    every profile (``@seed`` outranks the ci profile's ``--hypothesis-seed``): the shares
    asserted below are of a fixed sample, so they cannot flake."""
    seen = []

    @seed(seed_)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(case):
        seen.append(case)

    # hypothesis also draws the literals it finds in the project's modules, so that any
    # constant added to geometry/ would change this sample: it is drawn without them
    # (a private hook of hypothesis: where a version lacks it, the sample is drawn as it comes)
    from hypothesis.internal.conjecture import providers

    hook = getattr(providers, "_get_local_constants", None)
    with (mock.patch.object(providers, "_get_local_constants", providers.Constants)
          if hook is not None else contextlib.nullcontext()):
        collect()
    return seen


def segment_cases(coords):
    """The cases of test_segment_aabb's property tests: a box (empty ones too), then a segment."""
    return boxes(coords, empty=True).flatmap(
        lambda box: segments_near(box, coords).map(lambda seg: (*seg, *box)))


def ray_cases(coords):
    """The rays of test_ray_aabb's property tests (default t limits): a box, then a ray."""
    return boxes(coords, empty=True).flatmap(
        lambda box: rays_near(box, coords).map(lambda ray: (*ray, *box)))


def lone_face(point, lo, hi):
    """The face ("-x" ... "+z") `point` lies on with every other coordinate strictly inside the
    box, or None: where a strict comparison and its ``<=`` mutant disagree."""
    on = [f"{'-' if p == a else '+'}{'xyz'[i]}"
          for i, (p, a, b) in enumerate(zip(point, lo, hi, strict=True)) if p in (a, b)]
    strict = sum(a < p < b for p, a, b in zip(point, lo, hi, strict=True))
    return on[0] if len(on) == 1 and strict == 2 else None


def shares(counts: Counter, n: int) -> dict:
    return {key: round(count / n, 3) for key, count in sorted(counts.items())}


@pytest.mark.parametrize("name", COORDS)
def test_segment_cases_reach_every_class_and_every_face(name):
    cases = draw_many(segment_cases(COORDS[name]))
    classes, faces = Counter(), Counter()
    for start, end, lo, hi in cases:
        classes[CLASSES[ref.classify_segment_aabb(start, end, lo, hi)]] += 1
        if np.all(lo < hi):
            faces.update(f"{which} on {face}" for which, point in (("start", start), ("end", end))
                         if (face := lone_face(point, lo, hi)))
    n = len(cases)
    for cls in CLASSES:
        assert classes[cls] >= 0.1 * n, (
            f"{name}: expected each class in >= 10% of {n} segment draws, got {shares(classes, n)}")
    for face in FACES:
        start, end = faces[f"start on {face}"], faces[f"end on {face}"]
        assert start + end >= 0.015 * n and min(start, end) >= 1, (
            f"{name}: expected an end on each face alone (the rest strictly inside) in >= 1.5% of "
            f"{n} draws, the start and the end each at least once, got {shares(faces, n)}")


@pytest.mark.parametrize("name", COORDS)
def test_ray_cases_hit_miss_and_touch_and_enter_through_every_face(name):
    cases = draw_many(ray_cases(COORDS[name]))
    kinds, entries = Counter(), Counter()
    for origin, direction, lo, hi in cases:
        hit = ref.intersect_ray_aabb(origin, direction, lo, hi)
        if not hit.hit:
            kinds["miss"] += 1
            continue
        kinds["starts inside" if hit.t_enter == 0 else "enters"] += 1
        kinds["touches" if hit.t_enter == hit.t_exit else "crosses"] += 1
        if hit.t_enter > 0:
            point = [ref.exact(o) + hit.t_enter * ref.exact(d)
                     for o, d in zip(origin, direction, strict=True)]
            entries.update(f"{'-' if p == ref.exact(a) else '+'}{'xyz'[i]}"
                           for i, (p, a, b) in enumerate(zip(point, lo, hi, strict=True))
                           if p in (ref.exact(a), ref.exact(b)))
    n = len(cases)
    for kind in ("miss", "starts inside", "enters", "crosses", "touches"):
        assert kinds[kind] >= 0.05 * n, (
            f"{name}: expected {kind!r} in >= 5% of {n} ray draws, got {shares(kinds, n)}")
    for face in FACES:
        assert entries[face] >= 0.02 * n, (
            f"{name}: expected rays entering through each face in >= 2% of {n} draws, "
            f"got {shares(entries, n)}")


def test_boxes_are_mostly_proper_with_flat_and_empty_ones_too():
    kinds = Counter()
    for lo, hi in draw_many(boxes(small_int_coords, empty=True)):
        kinds["empty" if np.any(lo > hi) else "flat" if np.any(lo == hi) else "proper"] += 1
    n = sum(kinds.values())
    assert kinds["proper"] >= 0.5 * n and kinds["flat"] >= 0.05 * n and kinds["empty"] >= 0.1 * n, (
        f"expected >= 50% proper, >= 5% flat and >= 10% empty boxes, got {shares(kinds, n)}")

