"""BoxTree's build and walks run as written (interpreted) while they compile, with the compiled
answers: a small first call runs them in CPython while numba compiles them in a thread
(``geometry._background.Tiered``), and ``set_jit(False)`` runs them interpreted always.

The tree's answers come from the per-box functions, so the parity that matters here is the
tree's own: the same nodes, the same candidates, the same pairs, nearest boxes and culled boxes
from the interpreted build and walks as from the compiled ones.
"""

from __future__ import annotations

import numpy as np
import pytest

import geometry
from geometry import BoxTree, Frustum, _background, _bvh, _bvh_build, _floats, _loops

# a scene with ties, touching and flat boxes, an empty box, and a box far out
_LO = np.array([[0, 0, 0], [1, 0, 0], [1, 0, 0], [2, 2, 2], [0, 3, 0], [5, 5, 5], [-1e30, 0, 0],
                [0.5, 0.5, 0.5]], float)
_HI = np.array([[1, 1, 1], [2, 1, 1], [2, 1, 1], [3, 3, 2], [1, 4, 1], [4, 4, 4], [-1e29, 1, 1],
                [0.75, 0.75, 0.75]], float)


def _scene(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centre = rng.integers(0, 16, (n, 3)) / 4.0  # on a grid: touching boxes and exact ties
    half = rng.integers(0, 3, (n, 3)) / 8.0  # some flat
    lo, hi = np.concatenate((centre - half, _LO)), np.concatenate((centre + half, _HI))
    return lo, hi


def _answers(tree: BoxTree, lo: np.ndarray, hi: np.ndarray) -> list[object]:
    """Every kind of walk, on rays, segments and triangles through the scene's grid."""
    rng = np.random.default_rng(7)
    o = rng.integers(-4, 20, (40, 3)) / 4.0
    d = rng.integers(-3, 4, (40, 3)).astype(float)
    d[np.all(d == 0, axis=1)] = 1.0
    frustum = Frustum.from_matrix(np.diag([0.5, 0.5, -0.5, 1.0]))
    return [tree.nearest_ray_hits(o, d), tree.ray_pairs(o, d, t_min=-np.inf),
            tree.segment_pairs(o, o + d), tree.triangle_pairs(o, o + d, o + d[::-1]),
            tree.box_pairs(lo[:30], hi[:30] + 0.25), tree.self_pairs(),
            tree.sphere_pairs(o, 0.5), tree.nearest_boxes(o, 3), tree.frustum(frustum)]


def _assert_same(got: object, want: object, what: str) -> None:
    for g, w in zip(got, want, strict=True):  # type: ignore[call-overload]
        np.testing.assert_array_equal(g, w, err_msg=what)
        assert np.asarray(g).dtype == np.asarray(w).dtype, what


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_interpreted_build_and_walks_give_the_compiled_tree_and_answers(dtype, jit_off):
    lo, hi = (x.astype(dtype) for x in _scene(3, 200))
    lo[-2, 0] = np.inf  # an empty box
    interpreted = BoxTree(lo, hi)
    want_answers = _answers(interpreted, lo, hi)
    geometry.set_jit(True)
    compiled = BoxTree(lo, hi)
    for field, a, b in zip(_bvh_build.Tree._fields, interpreted._tree, compiled._tree,
                           strict=True):
        np.testing.assert_array_equal(a, b, err_msg=f"the interpreted build's {field}")
    for got, want in zip(_answers(compiled, lo, hi), want_answers, strict=True):
        _assert_same(got, want, f"{type(got).__name__}: compiled against interpreted")
    queries = _bvh.queries(line=(np.zeros((4, 3)), np.ones((4, 3)), np.zeros(4),
                                 np.full(4, np.inf)))
    _assert_same(_bvh._candidates.py_func(compiled._tree, queries),
                 _bvh._candidates(compiled._tree, queries), "the walk's candidates")


def test_an_interpreted_refit_moves_the_boxes_as_a_compiled_one(jit_off):
    lo, hi = _scene(4, 100)
    tree = BoxTree(lo, hi)
    tree.refit(lo + 0.5, hi + 1.0)
    geometry.set_jit(True)
    compiled = BoxTree(lo, hi)
    compiled.refit(lo + 0.5, hi + 1.0)
    for field, a, b in zip(_bvh_build.Tree._fields, tree._tree, compiled._tree, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=f"the interpreted refit's {field}")


def _probe(a):  # type: ignore[no-untyped-def]
    """1.0 where CPython runs it, 0.0 compiled (``_floats.interpreted`` is a constant False)."""
    return 1.0 if _floats.interpreted() else 0.0


def test_a_small_first_call_runs_interpreted_while_it_compiles(monkeypatch, jit_on):
    """A call whose arrays have at most 2 * INTERPRETED_FIRST rows runs as written while the
    function compiles for its argument types in a thread; once compiled, every call runs it;
    a larger first call (here: of other types) compiles and runs compiled at once; without jit,
    every call runs interpreted."""
    _loops.register_jitables()  # the compiled form of _floats.interpreted
    monkeypatch.setattr(_background, "INTERPRETED_FIRST", 8)
    probe = _bvh_build._compiled(_probe)
    assert probe(np.zeros(16)) == 1.0, "a first call of 16 rows: interpreted"
    _background.wait()
    assert probe(np.zeros(16)) == 0.0, "compiled: it runs compiled"
    assert probe((np.zeros(17, np.float32),)) == 0.0, "17 rows in a tuple: compiled at once"
    geometry.set_jit(False)
    assert probe(np.zeros(16)) == 1.0, "set_jit(False): interpreted"


def test_interpreted_walks_ignore_floating_point_errors_as_compiled_ones(jit_off):
    """numpy scalars in the interpreted walks would raise under ``np.seterr(all="raise")``
    (which the suite sets) where the compiled walk overflows or underflows on purpose: slab
    parameters of subnormal boxes and tiny directions, huge boxes' bounds."""
    lo = np.array([[1e-310, 0, 0], [1e300, 1e300, 1e300], [-1e308, -1e308, 5.0]])
    hi = np.array([[2e-310, 1, 1], [1.5e300, 1.5e300, 1.5e300], [1e308, 1e308, 6.0]])
    o = np.array([[-1.0, 0.5, 0.5], [0, 2, 0], [0, 0, 0]])
    d = np.array([[1.0, 0, 0], [1e-300, 1e-300, 1e-300], [1e-320, 1e300, 1.0]])
    with np.errstate(all="raise"):
        got = BoxTree(lo, hi).nearest_ray_hits(o, d)
    geometry.set_jit(True)
    _assert_same(got, BoxTree(lo, hi).nearest_ray_hits(o, d), "interpreted against compiled")
    np.testing.assert_array_equal(got.box_index, [0, 2, 2])  # box 1 only at t = inf
