"""The compiled slab passes (``geometry/_jit.py``, with the optional numba) against the numpy
kernels on the same data: the same classes, hits, t values and doubt flags, chunk by chunk, and
the same errors. The exact answers themselves are checked by the other modules, which run with
both (``each_backend``)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import exact_reference as ref
import geometry
from geometry import _jit
from geometry._batch import Flagged, Single, chunk_size
from geometry._slab import shared_line
from geometry.ray_box import _intersect_chunk
from geometry.segment_box import _classify_chunk, _Segment
from test_near_ties import boxes_touching_one_line

pytestmark = pytest.mark.skipif(not _jit.numba_installed(),
                                reason="numba is not installed (pip install 'slablab[jit]')")

DTYPES = [np.float64, np.float32]


@pytest.fixture
def jit_on():
    before = geometry.get_jit()
    geometry.set_jit(True)
    yield
    geometry.set_jit(before)


def both(call):
    """``call()`` with the compiled passes, then with the numpy kernels only."""
    geometry.set_jit(True)
    compiled = call()
    geometry.set_jit(False)
    try:
        plain = call()
    finally:
        geometry.set_jit(True)
    return compiled, plain


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
            ([1.3, -0.2, 0.5], [-0.4, 1.1, 0.6]), ([-2.0, 0.0, 1.0], [2.0, 1.0, -1.0])]
RAYS = [([-1.0, 0.45, 0.55], [1.0, 0.1, -0.05]), ([2.0, 2.0, -1.0], [-1.0, -1.0, 0.5]),
        ([-2.0, 0.0, 1.0], [4.0, 1.0, -2.0])]
T_RANGES = [(0.0, np.inf), (-np.inf, np.inf), (0.25, 0.75), (1.0, 0.0)]


def sizes(dtype):
    c = chunk_size(dtype)
    return [1, 7, c - 1, c + 1, 2 * c + 1]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("make", [generic_boxes, grid_boxes])
def test_segment_classes_equal(jit_on, make, dtype):
    for n in sizes(dtype):
        lo, hi = make(n, dtype)
        for start, end in SEGMENTS:
            s, e = np.array(start, dtype), np.array(end, dtype)
            compiled, plain = both(lambda: geometry.classify_segment_aabb(s, e, lo, hi))
            assert np.array_equal(compiled, plain), (
                f"{n} {dtype.__name__} boxes, segment {start}->{end}: the compiled pass differs "
                f"from numpy on {int(np.count_nonzero(compiled != plain))} boxes")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("make", [generic_boxes, grid_boxes])
def test_ray_hits_and_t_equal(jit_on, make, dtype):
    for n in sizes(dtype)[::2]:
        lo, hi = make(n, dtype)
        for (origin, direction), (t_min, t_max) in zip(RAYS * 2, T_RANGES * 2):
            o, d = np.array(origin, dtype), np.array(direction, dtype)
            compiled, plain = both(lambda: geometry.intersect_ray_aabb(o, d, lo, hi, t_min, t_max))
            for name, a, b in zip(compiled._fields, compiled, plain):
                assert a.dtype == b.dtype and np.array_equal(a, b), (
                    f"{n} {dtype.__name__} boxes, ray {origin} + t {direction}, t in "
                    f"[{t_min}, {t_max}]: {name} differs on {int(np.count_nonzero(a != b))} boxes")


@pytest.mark.parametrize("seed, dtype", [(21, np.float64), (22, np.float64), (23, np.float32)])
def test_near_ties_equal(jit_on, seed, dtype):
    """Boxes whose corners and edges lie within rounding of the line: the rounded gaps straddle
    0, and boxes the exact pass finds hit keep their t values (finite) in both."""
    start, end, lo, hi = boxes_touching_one_line(seed, dtype)
    compiled, plain = both(lambda: geometry.classify_segment_aabb(start, end, lo, hi))
    assert np.array_equal(compiled, plain), "classes differ"
    for t_min, t_max in T_RANGES[:3]:
        compiled, plain = both(lambda: geometry.intersect_ray_aabb(start, end - start, lo, hi,
                                                                   t_min, t_max))
        for name, a, b in zip(compiled._fields, compiled, plain):
            assert np.array_equal(a, b), f"t in [{t_min}, {t_max}]: {name} differs"
        assert np.isfinite(compiled.t_enter[compiled.hit]).all(), "a hit with an infinite t"


@pytest.mark.parametrize("dtype", DTYPES)
def test_segment_doubt_flags_equal(dtype):
    """The boxes left to the exact pass are the same ones, so the two differ in speed only."""
    lo, hi = grid_boxes(4000, dtype)
    flagged = 0
    for start, end in SEGMENTS:
        segment = _Segment.of(Single(dtype(x) for x in start), Single(dtype(x) for x in end), dtype)
        flags, codes = [], []
        for enabled in (True, False):
            geometry.set_jit(enabled)
            out, doubt = np.empty(len(lo), np.int8), Flagged()
            _classify_chunk(Single(dtype(x) for x in start), Single(dtype(x) for x in end), lo, hi, out,
                            doubt[0:len(lo)], segment=segment)
            flags.append(doubt.indices())
            codes.append(out)
        geometry.set_jit(True)
        flagged += flags[0].size
        assert np.array_equal(*flags), f"segment {start}->{end}: different boxes flagged"
        assert np.array_equal(*codes), f"segment {start}->{end}: different rounded classes"
    assert flagged > 0, "expected near-ties on integer boxes (the test lost its point)"


@pytest.mark.parametrize("dtype", DTYPES)
def test_ray_doubt_flags_equal(dtype):
    lo, hi = grid_boxes(4000, dtype)
    n = len(lo)
    flagged = 0
    for origin, direction in RAYS:
        line = shared_line(np.array(origin, dtype).reshape(3, 1),
                           np.array(direction, dtype).reshape(3, 1))
        results = []
        for enabled in (True, False):
            geometry.set_jit(enabled)
            hit, t_enter, t_exit = np.empty(n, bool), np.empty(n, dtype), np.empty(n, dtype)
            doubt = Flagged()
            _intersect_chunk(None, None, lo, hi, Single((dtype(0),)), Single((dtype(np.inf),)),
                             hit, t_enter, t_exit, doubt[0:n], line=line)
            results.append((doubt.indices(), hit, t_enter, t_exit))
        geometry.set_jit(True)
        flagged += results[0][0].size
        for name, a, b in zip(("flags", "hit", "t_enter", "t_exit"), *results):
            assert np.array_equal(a, b), f"ray {origin} + t {direction}: {name} differs"
    assert flagged > 0, "expected near-ties on integer boxes (the test lost its point)"


def test_signs_of_zero_t_equal(jit_on):
    """t values of 0 keep the numpy kernel's sign (boxes touching the origin's planes)."""
    lo, hi = grid_boxes(2000, np.float64)
    compiled, plain = both(lambda: geometry.intersect_ray_aabb([0.0, 0.0, 0.0], [1.0, -2.0, 3.0],
                                                               lo, hi, t_min=-np.inf))
    for a, b in zip(compiled[1:], plain[1:]):
        assert np.array_equal(np.signbit(a), np.signbit(b)), "a zero t changed its sign"


@pytest.mark.parametrize("dtype", DTYPES)
def test_exact_at_the_chunk_seams(jit_on, dtype):
    """The compiled pass plus the shared exact pass give the exact classes at chunk seams."""
    c = chunk_size(dtype)
    lo, hi = grid_boxes(c + 1, dtype)
    start, end = np.array([-2.0, 0.0, 1.0], dtype), np.array([2.0, 1.0, -1.0], dtype)
    codes = geometry.classify_segment_aabb(start, end, lo, hi)
    for i in (0, c - 2, c - 1, c):
        assert codes[i] == ref.classify_segment_aabb(start, end, lo[i], hi[i]), f"box {i}"


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


def test_empty_box_infinities_fall_back(jit_on):
    """``AABB.empty()``'s +-inf is valid input: the chunk goes to the numpy kernel, NONE / miss."""
    lo, hi = generic_boxes(1000, np.float64)
    lo[10], hi[10] = np.inf, -np.inf
    compiled, plain = both(lambda: geometry.classify_segment_aabb([0, 0, 0], [1, 1, 1], lo, hi))
    assert compiled[10] == 0 and np.array_equal(compiled, plain)
    compiled, plain = both(lambda: geometry.intersect_ray_aabb([0, 0, 0], [1, 1, 1], lo, hi))
    assert not compiled.hit[10] and compiled.t_enter[10] == np.inf
    assert all(np.array_equal(a, b) for a, b in zip(compiled, plain))


def test_which_chunks_it_takes():
    """Only a shared line without zero components and C-contiguous boxes of the compute dtype."""
    lo, hi = generic_boxes(10, np.float64)
    line = shared_line(np.zeros((3, 1)), np.ones((3, 1)))
    assert _jit.usable(line, np.float64, lo, hi)
    assert not _jit.usable(line, np.float32, lo, hi), "boxes of another dtype"
    assert not _jit.usable(line, np.float64, np.asfortranarray(lo), hi), "not C-contiguous"
    assert not _jit.usable(None, np.float64, lo, hi), "a line per item"
    flat = shared_line(np.zeros((3, 1)), np.array([[1.0], [0.0], [1.0]]))
    assert not _jit.usable(flat, np.float64, lo, hi), "a zero direction component"


def test_environment_switch():
    """``SLABLAB_JIT=0`` switches the compiled passes off before the first call."""
    import subprocess
    import sys

    code = "import geometry; print(geometry.get_jit())"
    for value, want in (("0", "False"), ("off", "False"), ("1", "True")):
        env = {**os.environ, "SLABLAB_JIT": value}
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env=env, timeout=120)
        assert result.stdout.strip() == want, (
            f"SLABLAB_JIT={value}: expected get_jit() {want}, got {result.stdout!r} {result.stderr}")


def test_set_jit_without_numba(monkeypatch):
    monkeypatch.setattr(_jit, "numba_installed", lambda: False)
    with pytest.raises(ImportError, match=r"slablab\[jit\]"):
        geometry.set_jit(True)
    assert not geometry.get_jit()
