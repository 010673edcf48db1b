"""Every mix of shared (3,) and per-item (N, 3) arguments answers as the one-by-one calls.

The kernels take a fast path when the line is shared by the whole chunk; these cases make sure
each argument's per-item values are really used (a shared direction with per-item origins once
tested every ray from the first origin).
"""

import itertools

import numpy as np
import pytest

from geometry import (
    classify_segment_aabb,
    classify_segment_obb,
    intersect_ray_aabb,
    intersect_ray_obb,
    triangle_overlaps_aabb,
    triangle_overlaps_obb,
)

# every test here runs with the compiled slab passes and with numpy only
pytestmark = pytest.mark.usefixtures("each_backend")

N = 7
RNG = np.random.default_rng(20261122)
# Small integer coordinates: exact arithmetic, and plenty of touching cases.
POINTS = {name: RNG.integers(-3, 4, (N, 3)).astype(float) for name in ("a", "b", "c")}
BOX_MIN = RNG.integers(-3, 3, (N, 3)).astype(float)
BOX_MAX = BOX_MIN + RNG.integers(0, 3, (N, 3))
DIRECTION = np.where(RNG.integers(0, 4, (N, 3)) == 0, 0.0, RNG.integers(-2, 3, (N, 3))).astype(
    float
)
DIRECTION[np.all(DIRECTION == 0, axis=1)] = [1.0, 0.0, 0.0]


def _mixes(arrays):
    """All ways of passing each argument either per item or as item 0 shared by all."""
    for shared in itertools.product((False, True), repeat=len(arrays)):
        if all(shared):
            continue
        yield shared, [a[0] if s else a for a, s in zip(arrays, shared, strict=True)]


def _one_by_one(func, arrays, shared, **kw):
    return [
        func(*[a[0] if s else a[i] for a, s in zip(arrays, shared, strict=True)], **kw)
        for i in range(N)
    ]


@pytest.mark.parametrize("shared,args", list(_mixes([POINTS["a"], POINTS["b"], BOX_MIN, BOX_MAX])))
def test_segment_aabb_mixes(shared, args):
    full = [POINTS["a"], POINTS["b"], BOX_MIN, BOX_MAX]
    expected = _one_by_one(classify_segment_aabb, full, shared)
    got = classify_segment_aabb(*args)
    assert got.tolist() == [int(x) for x in expected], (
        f"shared={shared}: expected {expected}, got {got}"
    )


@pytest.mark.parametrize("shared,args", list(_mixes([POINTS["a"], DIRECTION, BOX_MIN, BOX_MAX])))
def test_ray_aabb_mixes(shared, args):
    full = [POINTS["a"], DIRECTION, BOX_MIN, BOX_MAX]
    expected = _one_by_one(intersect_ray_aabb, full, shared)
    got = intersect_ray_aabb(*args)
    assert got.hit.tolist() == [e.hit for e in expected], (
        f"shared={shared}: hits {got.hit} vs {expected}"
    )
    assert got.t_enter.tolist() == [e.t_enter for e in expected], (
        f"shared={shared}: t_enter differs"
    )
    assert got.t_exit.tolist() == [e.t_exit for e in expected], f"shared={shared}: t_exit differs"


@pytest.mark.parametrize(
    "shared,args", list(_mixes([POINTS["a"], POINTS["b"], POINTS["c"], BOX_MIN, BOX_MAX]))
)
def test_triangle_aabb_mixes(shared, args):
    full = [POINTS["a"], POINTS["b"], POINTS["c"], BOX_MIN, BOX_MAX]
    expected = _one_by_one(triangle_overlaps_aabb, full, shared)
    got = triangle_overlaps_aabb(*args)
    assert got.tolist() == expected, f"shared={shared}: expected {expected}, got {got}"


def _few_mixes(arrays, axes_at):
    """The mixes that make loops of their own in the engine (a shared leading run, a shared frame
    of axes), cut to a leading run of at most one: the compiled loops' code for longer runs is the
    same code generator's, which the segment's mixes (:func:`_each_alone`) and the AABB
    queries' full sets cover."""
    for shared, args in _mixes(arrays):
        run = next((k for k, s in enumerate(shared) if not s), len(shared))
        if run <= 1 and not any(s for k, s in enumerate(shared) if k > run and k != axes_at):
            yield shared, args


def _each_alone(arrays, axes_at):
    """The mixes that tell the engine's loops for a box with axes apart: with the axes per item
    (the blocked loop) and with one shared frame, no other argument shared, each shared alone,
    and (per-item axes) all the others shared. Each argument's code is generated on its own, so
    the triangle's full set of AABB mixes covers the combinations of two or more."""
    for shared, args in _mixes(arrays):
        others = sum(s for k, s in enumerate(shared) if k != axes_at)
        if others <= 1 or (others == len(arrays) - 1 and not shared[axes_at]):
            yield shared, args


def test_obb_mixes_with_per_item_axes():
    axes = np.stack(
        [np.eye(3)[list(p)] for p in itertools.islice(itertools.permutations(range(3)), N - 1)]
        + [np.eye(3)]
    )
    center = (BOX_MIN + BOX_MAX) / 2
    half = (BOX_MAX - BOX_MIN) / 2
    for shared, args in _each_alone([POINTS["a"], POINTS["b"], center, axes, half], 3):
        full = [POINTS["a"], POINTS["b"], center, axes, half]
        expected = _one_by_one(classify_segment_obb, full, shared)
        assert classify_segment_obb(*args).tolist() == [int(x) for x in expected], (
            f"shared={shared}"
        )
    for shared, args in _few_mixes([POINTS["a"], DIRECTION, center, axes, half], 3):
        full = [POINTS["a"], DIRECTION, center, axes, half]
        expected = _one_by_one(intersect_ray_obb, full, shared)
        assert intersect_ray_obb(*args).hit.tolist() == [e.hit for e in expected], (
            f"shared={shared}"
        )
    for shared, args in _few_mixes([POINTS["a"], POINTS["b"], POINTS["c"], center, axes, half], 4):
        full = [POINTS["a"], POINTS["b"], POINTS["c"], center, axes, half]
        expected = _one_by_one(triangle_overlaps_obb, full, shared)
        assert triangle_overlaps_obb(*args).tolist() == expected, f"triangle, shared={shared}"


@pytest.mark.parametrize("shared", ["start", "end", "center", "axes", "half_size"])
def test_one_shared_obb_argument_broadcasts_like_the_repeated_rows(shared):
    rng = np.random.default_rng(17)
    n = 64
    signs = rng.choice([-1.0, 1.0], (n, 3, 1))
    axes = np.stack([np.eye(3)[rng.permutation(3)] for _ in range(n)]) * signs
    arguments = {
        "start": rng.integers(-4, 5, (n, 3)) / 2.0,
        "end": rng.integers(-4, 5, (n, 3)) / 2.0,
        "center": rng.integers(-2, 3, (n, 3)) / 2.0,
        "axes": axes,
        "half_size": rng.integers(0, 4, (n, 3)) / 2.0,
    }
    single = {**arguments, shared: arguments[shared][3]}
    repeated = {**arguments, shared: np.broadcast_to(arguments[shared][3], arguments[shared].shape)}
    np.testing.assert_array_equal(
        classify_segment_obb(*single.values()), classify_segment_obb(*repeated.values()),
        err_msg=f"one {shared} must act as that item repeated for every box",
    )
    direction = np.where(np.all(arguments["end"] == arguments["start"], axis=1)[:, None], 1.0,
                         arguments["end"] - arguments["start"])
    ray_arguments = {**arguments, "end": direction}
    single = {**ray_arguments, shared: ray_arguments[shared][3]}
    repeated = {
        **ray_arguments,
        shared: np.broadcast_to(ray_arguments[shared][3], ray_arguments[shared].shape),
    }
    for got, want, name in zip(
        intersect_ray_obb(*single.values()),
        intersect_ray_obb(*repeated.values()),
        ("hit", "t_enter", "t_exit"),
        strict=True,
    ):
        np.testing.assert_array_equal(
            got, want, err_msg=f"ray {name}: one {shared} must act as repeated"
        )


def test_leading_dimensions_broadcast_like_numpy():
    starts = POINTS["a"][:2, None, :]  # (2, 1, 3)
    got = classify_segment_aabb(starts, POINTS["b"][:3], BOX_MIN[:3], BOX_MAX[:3])  # -> (2, 3)
    assert got.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            assert got[i, j] == classify_segment_aabb(
                starts[i, 0], POINTS["b"][j], BOX_MIN[j], BOX_MAX[j]
            )


def _layouts(a):
    """``a`` as arrays of other memory layouts that hold the same values: big-endian (as read
    from a file), Fortran order, reversed twice (negative strides) and read-only."""
    swapped = a.astype(a.dtype.newbyteorder(">"))
    backwards = a[::-1].copy()[::-1]
    frozen = a.copy()
    frozen.flags.writeable = False
    return {"big-endian": swapped, "fortran": np.asfortranarray(a), "negative strides": backwards,
            "read-only": frozen}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", ["big-endian", "fortran", "negative strides", "read-only"])
def test_every_memory_layout_answers_as_native_arrays(layout, dtype):
    """Arrays of any byte order and strides are their values: the same answers (and output
    dtype) as native C-ordered arrays, for each query with every argument in that layout."""
    center = (BOX_MIN + BOX_MAX) / 2
    half = (BOX_MAX - BOX_MIN) / 2
    axes = np.stack([np.eye(3)[list(p)] for p in itertools.permutations(range(3))] + [np.eye(3)])
    calls = [
        (classify_segment_aabb, [POINTS["a"], POINTS["b"], BOX_MIN, BOX_MAX]),
        (intersect_ray_aabb, [POINTS["a"], DIRECTION, BOX_MIN, BOX_MAX]),
        (triangle_overlaps_aabb, [POINTS["a"], POINTS["b"], POINTS["c"], BOX_MIN, BOX_MAX]),
        (classify_segment_obb, [POINTS["a"], POINTS["b"], center, axes, half]),
        (intersect_ray_obb, [POINTS["a"], DIRECTION, center, axes, half]),
        (triangle_overlaps_obb, [POINTS["a"], POINTS["b"], POINTS["c"], center, axes, half]),
    ]
    for func, args in calls:
        native = [a.astype(dtype) for a in args]
        want = func(*native)
        got = func(*[_layouts(a)[layout] for a in native])
        for w, g in zip(want if isinstance(want, tuple) else (want,),
                        got if isinstance(got, tuple) else (got,), strict=True):
            assert g.dtype == w.dtype and np.array_equal(g, w), (
                f"{func.__name__}, {layout} {np.dtype(dtype)}: {g} against {w}")
