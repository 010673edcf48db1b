"""Compiled and interpreted batches (``geometry.set_jit``) run the same filter: the same
classes, hits and t values bit for bit (down to the sign of a zero t), and the same errors. The
exact answers themselves are checked by the other modules, which run with both
(``each_backend``)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import geometry
from tests.geometry.test_near_ties import boxes_touching_one_line

DTYPES = [np.float64, np.float32]


def both(function, *args, **kwargs):
    """``function(*args, **kwargs)`` compiled, then interpreted."""
    geometry.set_jit(True)
    compiled = function(*args, **kwargs)
    geometry.set_jit(False)
    try:
        plain = function(*args, **kwargs)
    finally:
        geometry.set_jit(True)
    return compiled, plain


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype, shape and bytes: a -0.0 differs from a +0.0."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def generic_boxes(n: int, dtype, seed: int = 5):
    """Boxes of arbitrary floats around the unit cube, some of them flat or empty (finite)."""
    rng = np.random.default_rng(seed)
    centre = rng.uniform(-0.5, 1.5, (n, 3))
    half = rng.uniform(0.0, 0.6, (n, 3))
    half[rng.random(n) < 0.05, rng.integers(0, 3)] = 0.0  # flat
    half[rng.random(n) < 0.05, rng.integers(0, 3)] *= -1.0  # empty: min > max, finite
    return (centre - half).astype(dtype), (centre + half).astype(dtype)


def grid_boxes(n: int, dtype, seed: int = 6):
    """Small-integer boxes: faces, edges and corners on an integer query exactly (near-ties)."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(-3, 4, (2, n, 3)).astype(dtype)
    return np.minimum(a, b), np.maximum(a, b)


SEGMENTS = [([0.1, 0.2, 0.3], [0.9, 0.7, 0.4]), ([0.9, 0.7, 0.4], [0.1, 0.2, 0.3]),
            ([1.3, -0.2, 0.5], [-0.4, 1.1, 0.6]), ([-2.0, 0.0, 1.0], [2.0, 1.0, -1.0]),
            ([-2.0, 0.5, 1.0], [2.0, 0.5, 1.0])]
RAYS = [([-1.0, 0.45, 0.55], [1.0, 0.1, -0.05]), ([2.0, 2.0, -1.0], [-1.0, -1.0, 0.5]),
        ([-2.0, 0.0, 1.0], [4.0, 1.0, -2.0]), ([-2.0, 0.5, 1.0], [1.0, -0.0, 0.0])]
T_RANGES = [(0.0, np.inf), (-np.inf, np.inf), (0.25, 0.75), (1.0, 0.0)]
SIZES = [1, 7, 5000]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("make", [generic_boxes, grid_boxes])
def test_segment_classes_equal(jit_on, make, dtype):
    for n in SIZES:
        lo, hi = make(n, dtype)
        for start, end in SEGMENTS:
            s, e = np.array(start, dtype), np.array(end, dtype)
            compiled, plain = both(geometry.classify_segment_aabb, s, e, lo, hi)
            assert same_bits(compiled, plain), (
                f"{n} {dtype.__name__} boxes, segment {start}->{end}: compiled and interpreted "
                f"differ on {int(np.count_nonzero(compiled != plain))} boxes")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("make", [generic_boxes, grid_boxes])
def test_ray_hits_and_t_equal(jit_on, make, dtype):
    for n in SIZES:
        lo, hi = make(n, dtype)
        for (origin, direction), (t_min, t_max) in itertools.product(RAYS, T_RANGES):
            o, d = np.array(origin, dtype), np.array(direction, dtype)
            compiled, plain = both(geometry.intersect_ray_aabb, o, d, lo, hi, t_min, t_max)
            for name, a, b in zip(compiled._fields, compiled, plain, strict=True):
                assert same_bits(a, b), (
                    f"{n} {dtype.__name__} boxes, ray {origin} + t {direction}, t in "
                    f"[{t_min}, {t_max}]: {name} differs on {int(np.count_nonzero(a != b))} boxes")


def rotated_boxes(n: int, dtype, seed: int = 7):
    """Oriented boxes around the unit cube: a random rotation each (and one of them as a frame
    for all), some flat, a few empty (a negative half size)."""
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(n, 4))
    w, x, y, z = (q / np.linalg.norm(q, axis=1, keepdims=True)).T
    axes = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)], -1),
        np.stack([2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)], -1),
        np.stack([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)
    center = rng.uniform(-0.5, 1.5, (n, 3))
    half = rng.uniform(0.0, 0.6, (n, 3))
    half[rng.random(n) < 0.05, rng.integers(0, 3)] = 0.0
    half[rng.random(n) < 0.03, rng.integers(0, 3)] *= -1.0
    return center.astype(dtype), axes.astype(dtype), half.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("frame", ["per box", "shared"])
def test_oriented_boxes_equal(jit_on, dtype, frame):
    """The OBB filters (float32 t from the slabs, float64 t in double-double), both ways."""
    center, axes, half = rotated_boxes(3000, dtype)
    if frame == "shared":
        axes = axes[11]
    for start, end in SEGMENTS:
        s, e = np.array(start, dtype), np.array(end, dtype)
        compiled, plain = both(geometry.classify_segment_obb, s, e, center, axes, half)
        assert same_bits(compiled, plain), f"segment {start}->{end}: classes differ"
        compiled, plain = both(geometry.triangle_overlaps_obb, s, e, (s + e)[::-1] / 2, center,
                               axes, half)
        assert same_bits(compiled, plain), f"triangle on {start}->{end}: overlaps differ"
    for (origin, direction), (t_min, t_max) in itertools.product(RAYS, T_RANGES):
        o, d = np.array(origin, dtype), np.array(direction, dtype)
        compiled, plain = both(geometry.intersect_ray_obb, o, d, center, axes, half, t_min,
                               t_max)
        assert compiled.t_enter.dtype == dtype
        for name, a, b in zip(compiled._fields, compiled, plain, strict=True):
            assert same_bits(a, b), (
                f"{dtype.__name__}, ray {origin} + t {direction}, t in [{t_min}, {t_max}]: "
                f"{name} differs on {int(np.count_nonzero(a != b))} boxes")


@pytest.mark.parametrize("seed, dtype", [(21, np.float64), (22, np.float64), (23, np.float32)])
def test_near_ties_equal(jit_on, seed, dtype):
    """Boxes whose corners and edges lie within rounding of the line: the rounded gaps straddle
    0, and boxes the exact pass finds hit keep their t values (finite) in both."""
    start, end, lo, hi = boxes_touching_one_line(seed, dtype)
    compiled, plain = both(geometry.classify_segment_aabb, start, end, lo, hi)
    assert np.array_equal(compiled, plain), "classes differ"
    for t_min, t_max in T_RANGES[:3]:
        compiled, plain = both(geometry.intersect_ray_aabb, start, end - start, lo, hi,
                               t_min, t_max)
        for name, a, b in zip(compiled._fields, compiled, plain, strict=True):
            assert np.array_equal(a, b), f"t in [{t_min}, {t_max}]: {name} differs"
        assert np.isfinite(compiled.t_enter[compiled.hit]).all(), "a hit with an infinite t"


@pytest.mark.parametrize("dtype", DTYPES)
def test_per_item_lines_and_t_ranges_equal(dtype):
    """Every argument per item (another compiled loop than one line against many boxes)."""
    rng = np.random.default_rng(8)
    lo, hi = grid_boxes(3000, dtype)
    start = rng.integers(-3, 4, (3000, 3)).astype(dtype)
    end = np.where(rng.random((3000, 3)) < 0.3, start, rng.integers(-3, 4, (3000, 3))).astype(dtype)
    compiled, plain = both(geometry.classify_segment_aabb, start, end, lo, hi)
    assert same_bits(compiled, plain), "per-item segments: classes differ"
    direction = end - start
    direction[np.all(direction == 0, axis=1), 0] = -0.0 if dtype is np.float64 else 1.0
    direction[np.all(direction == 0, axis=1), 1] = 1.0
    t_min = rng.choice([-np.inf, -0.0, 0.0, 0.5], 3000).astype(dtype)
    t_max = rng.choice([np.inf, 0.0, 1.0, 2.5], 3000).astype(dtype)
    compiled, plain = both(geometry.intersect_ray_aabb, start, direction, lo, hi, t_min,
                           t_max)
    for name, a, b in zip(compiled._fields, compiled, plain, strict=True):
        assert same_bits(a, b), f"per-item rays: {name} differs"


def test_signs_of_zero_t_equal(jit_on):
    """t values of 0 keep their sign alike (boxes touching the origin's planes, t bounds of
    -0.0 and +0.0); one item gives the bits of the batch's item."""
    lo, hi = grid_boxes(2000, np.float64)
    for t_min, t_max in ((-np.inf, np.inf), (-0.0, 0.0), (0.0, -0.0), (-0.0, np.inf)):
        compiled, plain = both(geometry.intersect_ray_aabb, [0.0, 0.0, 0.0], [1.0, -2.0, 3.0],
                               lo, hi, t_min=t_min, t_max=t_max)
        for a, b in zip(compiled[1:], plain[1:], strict=True):
            assert same_bits(a, b), f"t in [{t_min}, {t_max}]: a zero t changed its sign"
        for i in range(0, 2000, 97):
            one = geometry.intersect_ray_aabb([0.0, 0.0, 0.0], [1.0, -2.0, 3.0], lo[i], hi[i],
                                              t_min=t_min, t_max=t_max)
            assert same_bits(np.array(one[1:]), np.array([compiled[1][i], compiled[2][i]])), (
                f"box {i}, t in [{t_min}, {t_max}]: one item {one} vs the batch's")


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_same_error_for_a_bad_coordinate(jit_on, bad):
    lo, hi = generic_boxes(3 * 32768, np.float64)
    hi[70000, 1] = bad
    messages = []
    for enabled in (True, False):
        geometry.set_jit(enabled)
        with pytest.raises(ValueError) as caught:
            geometry.classify_segment_aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], lo, hi)
        messages.append(str(caught.value))
        with pytest.raises(ValueError) as caught:
            geometry.intersect_ray_aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], lo, hi)
        messages.append(str(caught.value))
    geometry.set_jit(True)
    assert "70000" in messages[0], f"expected the row in the message, got {messages[0]!r}"
    assert messages[:2] == messages[2:], f"messages differ: {messages}"


def test_empty_box_infinities_are_empty_boxes(jit_on):
    """``AABB.empty()``'s +-inf is valid input: doubtful in the filter, NONE / miss exactly."""
    lo, hi = generic_boxes(1000, np.float64)
    lo[10], hi[10] = np.inf, -np.inf
    compiled, plain = both(geometry.classify_segment_aabb, [0, 0, 0], [1, 1, 1], lo, hi)
    assert compiled[10] == 0 and np.array_equal(compiled, plain)
    compiled, plain = both(geometry.intersect_ray_aabb, [0, 0, 0], [1, 1, 1], lo, hi)
    assert not compiled.hit[10] and compiled.t_enter[10] == np.inf
    assert all(np.array_equal(a, b) for a, b in zip(compiled, plain, strict=True))


def test_environment_switch():
    """``SLABLAB_JIT=0`` switches the compiled passes off before the first call."""
    code = "import geometry; print(geometry.get_jit())"
    for value, want in (("0", "False"), ("off", "False"), ("1", "True")):
        env = {**os.environ, "SLABLAB_JIT": value}
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env=env, timeout=120)
        assert result.stdout.strip() == want, (
            f"SLABLAB_JIT={value}: expected get_jit() {want}, got {result.stdout!r} {result.stderr}"
        )


def test_read_only_install_runs_without_a_cache():
    """Where numba finds no writable cache location, the loops and ``BoxTree``'s build and
    walks compile without a cache."""
    code = ("import numba.core.caching as c; c.CacheImpl._locator_classes = []; "
            "import geometry; geometry.set_jit(True); "
            "print(geometry.classify_segment_aabb([0, 0, 0], [1, 1, 1], [[0, 0, 0]] * 2, "
            "[[1, 1, 1]] * 2).tolist()); "
            "tree = geometry.BoxTree([[0, 0, 0], [2, 0, 0]], [[1, 1, 1], [3, 1, 1]]); "
            "print(tree.nearest_ray_hits([-1, .5, .5], [1, 0, 0]).box_index, "
            "tree.ray_pairs([-1, .5, .5], [1, 0, 0]).box_index.tolist())")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "SLABLAB_JIT": "1"})
    assert result.stdout.split("\n")[:2] == ["[1, 1]", "0 [0, 1]"], (
        f"expected classes from an uncached compiled loop, then a tree's nearest box and pairs, "
        f"got {result.stdout!r} {result.stderr[-2000:]}")


def test_numba_told_not_to_compile_runs_batches_interpreted():
    """``NUMBA_DISABLE_JIT=1`` (set to debug numba code) makes numba's njit give Python
    functions, which cannot run the loops' intrinsics: every query's batches then run in the
    interpreted loop, with the answers of the compiled one (checked in a fresh interpreter)."""
    code = """
import numpy as np, geometry
rng = np.random.default_rng(5)
lo = rng.integers(-3, 3, (40, 3)).astype(float); hi = lo + rng.integers(0, 3, (40, 3))
c, h, ax = (lo + hi) / 2, (hi - lo) / 2, np.eye(3)[[2, 0, 1]]
r = geometry.intersect_ray_aabb([-4.0, 0.5, 0.25], [1.0, 0.25, 0.5], lo, hi)
o = geometry.intersect_ray_obb([-4.0, 0.5, 0.25], [1.0, 0.25, 0.5], c, ax, h)
print([geometry.classify_segment_aabb([-3, -2, -1], [2, 1, 3], lo, hi).tolist(),
       geometry.classify_segment_obb([-3, -2, -1], [2, 1, 3], c, ax, h).tolist(),
       geometry.triangle_overlaps_aabb([-3, 0, 0], [2, 1, 1], [0, 3, -1], lo, hi).tolist(),
       geometry.triangle_overlaps_obb([-3, 0, 0], [2, 1, 1], [0, 3, -1], c, ax, h).tolist(),
       [x.tolist() for x in r], [x.tolist() for x in o]])
"""
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=300, env={**os.environ, "SLABLAB_JIT": "1",
                                             "NUMBA_DISABLE_JIT": flag})
            for flag in ("0", "1")]
    for run in runs:
        assert run.returncode == 0 and run.stdout.strip(), run.stderr[-2000:]
    assert runs[1].stdout == runs[0].stdout
