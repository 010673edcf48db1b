"""_specialize: a filter with its loop's flags written in answers as the filter does."""

from __future__ import annotations

import math

import numpy as np
import pyrr

from geometry import _specialize, aabb_obb, obb_obb, point_obb, ray_obb


def _items(rng, n):
    for _ in range(n):
        axes = np.asarray(pyrr.matrix33.create_from_eulers(rng.uniform(-3, 3, 3)))
        yield rng.uniform(-2, 2, 3), axes, rng.uniform(0, 1, 3)


def test_a_ray_filter_with_its_flags_written_in_gives_the_same_bits():
    rng = np.random.default_rng(3)
    for t32, crossed, first_pass in [(False, False, True), (False, True, True),
                                     (False, False, False), (True, True, True)]:
        flags = {"t32": t32, "crossed": crossed, "first_pass": first_pass}
        fn = _specialize.specialized(ray_obb._filter, flags)
        assert fn is not ray_obb._filter, f"{flags}: expected branches to leave out"
        if not first_pass:
            assert "axis_ts" in fn.__code__.co_names, "the second pass keeps both planes' ts"
        else:
            assert "axis_ts" not in fn.__code__.co_names, "expected the second pass's branch gone"
        for center, axes, half in _items(rng, 300):
            origin, direction = rng.uniform(-3, 3, 3), rng.normal(size=3)
            args = (*origin, *direction, *center, *axes.ravel(), *half, 0.0, math.inf, t32,
                    crossed, first_pass)
            want, got = ray_obb._filter(*args), fn(*args)
            assert repr(got) == repr(want), f"{flags}: expected {want}, got {got}"


def test_box_and_distance_filters_with_flags_written_in_give_the_same_bits():
    rng = np.random.default_rng(4)
    box = _specialize.specialized(obb_obb._filter, {"first_pass": True})
    dist = _specialize.specialized(point_obb._filter, {"t32": False})
    assert "box_witness" not in box.__code__.co_names, "expected the one-item faces block gone"
    assert "refined_matrices" not in box.__code__.co_names, (
        "expected the second pass's refinement gone (refine, assigned from first_pass)")
    assert "_filter32" not in dist.__code__.co_names, "expected the float32 branch gone"
    for (c, a, h), (d, b, g) in zip(_items(rng, 300), _items(rng, 300), strict=True):
        args = (*c, *a.ravel(), *h, *d, *b.ravel(), *g)
        want = obb_obb._filter(*args, True)
        got = box(*args, True)
        # (the one-item faces block, left out, may settle what the rest doubts)
        assert got[-1] or got == want, f"expected {want}, got {got}"
        args = (*rng.uniform(-3, 3, 3), *c, *a.ravel(), *h, False)
        assert repr(dist(*args)) == repr(point_obb._filter(*args)), "expected the same distance"


def test_a_helper_passed_a_flag_is_called_in_a_specialized_copy():
    rng = np.random.default_rng(6)
    fn = _specialize.specialized(aabb_obb._filter, {"first_pass": True})
    (alias,) = fn.__code__.co_names
    helper = fn.__globals__[alias]
    assert alias != "aabb_obb_class" and helper is not aabb_obb.aabb_obb_class, (
        "expected a copy of the helper specialized for aabb_query and first_pass")
    for name in ("refined_matrices", "box_witness"):
        assert name not in helper.__code__.co_names, f"expected {name}'s branch gone"
    for (c, a, h), (lo, _, size) in zip(_items(rng, 300), _items(rng, 300), strict=True):
        args = (*lo, *(lo + size), *c, *a.ravel(), *h, True)
        want, got = aabb_obb._filter(*args), fn(*args)
        assert got[-1] or got == want, f"expected {want}, got {got}"
