"""BoxTree against brute force over the per-box functions: every pair, t values bit for bit.

Data: random boxes and rays, and adversarial sets built from integers -- touching and duplicate
boxes (ties), flat and empty boxes, rays along slab planes with +0.0 / -0.0 direction
components, rays starting inside boxes, huge and subnormal magnitudes, t ranges.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from geometry import (
    AABB,
    BoxTree,
    classify_segment_aabb,
    intersect_ray_aabb,
    triangle_overlaps_aabb,
)

DTYPES = [np.float64, np.float32]


# ---------------------------------------------------------------------------- brute force


def _t_arg(t, r):
    """Ray r's bound: a scalar as given (a Python float keeps float32 outputs float32)."""
    return t if np.ndim(t) == 0 else np.asarray(t)[r]


def brute_ray_pairs(lo, hi, o, d, t_min=0.0, t_max=np.inf):
    rays, boxes, enters, exits = [], [], [], []
    for r in range(len(o)):
        hit, t_enter, t_exit = intersect_ray_aabb(o[r], d[r], lo, hi, _t_arg(t_min, r),
                                                  _t_arg(t_max, r))
        idx = np.flatnonzero(hit)
        rays.append(np.full(idx.size, r))
        boxes.append(idx)
        enters.append(t_enter[idx])
        exits.append(t_exit[idx])
    return tuple(np.concatenate(x) for x in (rays, boxes, enters, exits))


def brute_nearest(lo, hi, o, d, t_min=0.0, t_max=np.inf):
    index = np.full(len(o), -1)
    best = []
    for r in range(len(o)):
        hit, t_enter, _ = intersect_ray_aabb(o[r], d[r], lo, hi, _t_arg(t_min, r),
                                             _t_arg(t_max, r))
        t = np.where(hit, t_enter, np.inf)
        best.append(np.inf)
        if hit.any():  # -0.0 and +0.0 tie: the lowest index, and its own t_enter
            index[r] = int(np.flatnonzero(hit & (t == t[hit].min()))[0])
            best[-1] = t[index[r]]
    return index, best


def check_rays(tree, lo, hi, o, d, t_min=0.0, t_max=np.inf):
    got = tree.ray_pairs(o, d, t_min=t_min, t_max=t_max)
    want = brute_ray_pairs(lo, hi, o, d, t_min, t_max)
    for name, g, w in zip(got._fields, got, want, strict=True):
        assert g.dtype == w.dtype or name.endswith("index"), f"{name}: dtype {g.dtype} != {w.dtype}"
        np.testing.assert_array_equal(g, w, err_msg=f"ray_pairs.{name} differs from brute force")
        if name.startswith("t_"):  # bit for bit, down to the sign of a zero
            assert np.array_equal(np.signbit(g), np.signbit(w)), f"{name}: sign of zero differs"
    index, t = tree.nearest_ray_hits(o, d, t_min=t_min, t_max=t_max)
    want_index, want_t = brute_nearest(lo, hi, o, d, t_min, t_max)
    np.testing.assert_array_equal(index, want_index, err_msg="nearest box differs")
    np.testing.assert_array_equal(t, np.asarray(want_t, t.dtype), err_msg="nearest t differs")
    assert np.array_equal(np.signbit(t), np.signbit(np.asarray(want_t, t.dtype)))
    return len(got.ray_index)


def check_segments(tree, lo, hi, s, e):
    got = tree.segment_pairs(s, e)
    segs, boxes, kinds = [], [], []
    for r in range(len(s)):
        kind = np.asarray(classify_segment_aabb(s[r], e[r], lo, hi))
        idx = np.flatnonzero(kind)
        segs.append(np.full(idx.size, r))
        boxes.append(idx)
        kinds.append(kind[idx])
    for name, g, w in zip(got._fields, got, (segs, boxes, kinds), strict=True):
        np.testing.assert_array_equal(g, np.concatenate(w), err_msg=f"segment_pairs.{name}")
    assert got.kind.dtype == np.int8
    return len(got.box_index)


def check_triangles(tree, lo, hi, a, b, c):
    got = tree.triangle_pairs(a, b, c)
    tris, boxes = [], []
    for r in range(len(a)):
        idx = np.flatnonzero(triangle_overlaps_aabb(a[r], b[r], c[r], lo, hi))
        tris.append(np.full(idx.size, r))
        boxes.append(idx)
    np.testing.assert_array_equal(got.triangle_index, np.concatenate(tris))
    np.testing.assert_array_equal(got.box_index, np.concatenate(boxes))
    return len(got.box_index)


# ----------------------------------------------------------------------------------- data


def random_boxes(rng, n, dtype, scale=1.0):
    centre = rng.random((n, 3))
    half = rng.uniform(0.005, 0.08, (n, 3))
    return ((centre - half) * scale).astype(dtype), ((centre + half) * scale).astype(dtype)


def grid_boxes(dtype):
    """Unit cubes on an integer grid (touching faces, edges and corners), each twice (ties on
    the index), plus flat boxes, and empty boxes of both kinds between them."""
    cells = np.stack(np.meshgrid(*[np.arange(4)] * 3, indexing="ij"), -1).reshape(-1, 3)
    lo = np.concatenate([cells, cells, cells + [0.5, 0, 0]])
    hi = np.concatenate([cells + 1, cells + 1, cells + [0.5, 1, 1]])  # flat in x
    lo = lo.astype(dtype)
    hi = hi.astype(dtype)
    empty = AABB.empty()
    lo[::7] = np.asarray(empty.min, dtype)
    hi[::7] = np.asarray(empty.max, dtype)
    lo[3::11, 1], hi[3::11, 1] = 2, 1  # finite min > max
    return lo, hi


def grid_rays(rng, m, dtype):
    """Rays from integer and half-integer points (on slab planes, inside boxes) along
    directions whose components are 0.0, -0.0 or small integers."""
    o = rng.integers(-2, 12, (m, 3)) / 2.0
    d = rng.integers(-2, 3, (m, 3)).astype(float)
    d[rng.random((m, 3)) < 0.3] = -0.0
    d[np.all(d == 0, axis=1), 0] = 1.0
    return o.astype(dtype), d.astype(dtype)


@pytest.fixture(params=DTYPES, ids=["float64", "float32"])
def dtype(request):
    return request.param


# ---------------------------------------------------------------------------------- tests


def test_random_rays_segments_triangles(dtype):
    rng = np.random.default_rng(1)
    lo, hi = random_boxes(rng, 600, dtype)
    tree = BoxTree(lo, hi)
    o = rng.random((60, 3)).astype(dtype)
    d = rng.normal(size=(60, 3)).astype(dtype)
    assert check_rays(tree, lo, hi, o, d) > 100
    assert check_rays(tree, lo, hi, o, d, t_min=-np.inf, t_max=0.2) > 50
    e = (o + 0.2 * d).astype(dtype)
    assert check_segments(tree, lo, hi, o, e) > 50
    assert check_triangles(tree, lo, hi, o, e, (o + 0.1).astype(dtype)) > 50


def test_grid_ties_touching_flat_empty_zero_components(dtype):
    rng = np.random.default_rng(2)
    lo, hi = grid_boxes(dtype)
    tree = BoxTree(lo, hi)
    o, d = grid_rays(rng, 300, dtype)
    assert check_rays(tree, lo, hi, o, d) > 1000
    t_min = rng.integers(-4, 4, 300) / 2.0
    t_max = t_min + rng.integers(0, 6, 300) / 2.0
    assert check_rays(tree, lo, hi, o, d, t_min=t_min, t_max=t_max) > 100
    assert check_segments(tree, lo, hi, o, o + d) > 500
    assert check_segments(tree, lo, hi, o, o) > 50  # points: inside, on faces, outside
    assert check_triangles(tree, lo, hi, o, o + d, o + d[::-1]) > 500


def test_nearest_ties_take_the_lowest_index():
    lo = np.array([[2, 0, 0], [1, 0, 0], [1, -1, -1], [1, 0, 0]], float)
    hi = np.array([[3, 1, 1], [2, 1, 1], [2, 0, 0], [2, 1, 1]], float)
    tree = BoxTree(lo, hi)
    # along the x axis at y = z = 0: boxes 1, 2 and 3 are entered at t = 1 (2 on its corner edge)
    assert tree.nearest_ray_hits([0, 0, 0], [1, -0.0, 0.0]) == (1, 1.0)
    index, t = tree.nearest_ray_hits([[0, 0, 0], [5, 0.5, 0.5]], [[1, 0, 0], [-1, 0, 0]])
    assert index.tolist() == [1, 0] and t.tolist() == [1.0, 2.0]


def test_rays_starting_inside_get_t_min(dtype):
    lo = np.array([[0, 0, 0], [-1, -1, -1]], dtype)
    hi = np.array([[1, 1, 1], [0.25, 0.25, 0.25]], dtype)
    tree = BoxTree(lo, hi)
    o = np.array([[0.5, 0.5, 0.5], [0.0, 0.0, 0.0], [0.1, 0.1, 0.1]], dtype)
    d = np.array([[1, 0, 0], [-0.0, 1, 0], [0, 0, -1]], dtype)
    index, t = tree.nearest_ray_hits(o, d, t_min=-0.5)
    assert index.tolist() == [0, 1, 0] and t.tolist() == [-0.5] * 3
    check_rays(tree, lo, hi, o, d, t_min=-0.5)
    check_rays(tree, lo, hi, o, d)


def test_extreme_magnitudes():
    rng = np.random.default_rng(3)
    for scale, dtype in ((1e300, np.float64), (1e-300, np.float64), (2.0**-1070, np.float64),
                         (1e37, np.float32), (1e-38, np.float32)):
        with np.errstate(under="ignore"):  # subnormal data is the point here
            lo, hi = random_boxes(rng, 200, dtype, scale)
            o = (rng.random((40, 3)) * scale).astype(dtype)
            d = rng.normal(size=(40, 3)).astype(dtype)
            d[::3] *= dtype(scale)  # directions as large / small as the data
            d[np.all(d == 0, axis=1)] = 1
            d[1::5, 0] = np.finfo(dtype).smallest_subnormal  # its reciprocal overflows
            e = (o + d).astype(dtype)
        tree = BoxTree(lo, hi)
        assert check_rays(tree, lo, hi, o, d) > 10
        check_segments(tree, lo, hi, o, e)


def test_no_boxes_or_only_empty_ones(dtype):
    o = np.zeros((2, 3), dtype)
    d = np.ones((2, 3), dtype)
    for lo, hi in ((np.zeros((0, 3), dtype), np.zeros((0, 3), dtype)),
                   (np.ones((3, 3), dtype), np.zeros((3, 3), dtype))):
        tree = BoxTree(lo, hi)
        index, t = tree.nearest_ray_hits(o, d)
        assert index.tolist() == [-1, -1] and t.tolist() == [np.inf, np.inf]
        assert t.dtype == dtype
        assert tree.ray_pairs(o, d).ray_index.size == 0
        assert tree.segment_pairs(o, d).box_index.size == 0
        assert tree.triangle_pairs(o, d, 2 * d).box_index.size == 0


def test_a_tree_pickles_and_says_what_it_holds(dtype):
    """A tree goes to worker processes (pickle) and answers there as here; its repr names its
    size and dtype, not a memory address."""
    lo = np.random.default_rng(8).random((500, 3)).astype(dtype)
    tree = BoxTree(lo, lo + dtype(0.05))
    assert repr(tree) == f"BoxTree(500 boxes, {np.dtype(dtype)})"
    o, d = np.zeros((6, 3), dtype), np.random.default_rng(9).random((6, 3)).astype(dtype)
    copy = pickle.loads(pickle.dumps(tree))
    for ours, theirs in zip(tree.ray_pairs(o, d), copy.ray_pairs(o, d), strict=True):
        assert ours.tobytes() == theirs.tobytes()
    assert (len(copy), copy.dtype) == (500, np.dtype(dtype))


def test_one_ray_gives_python_scalars():
    tree = BoxTree([[0, 0, 0]], [[1, 1, 1]])
    index, t = tree.nearest_ray_hits([-1, 0.5, 0.5], [2, 0, 0])
    assert (type(index), type(t)) == (int, float) and (index, t) == (0, 0.5)
    assert tree.nearest_ray_hits([-1, 5, 0.5], [2, 0, 0]) == (-1, np.inf)


def test_leading_shapes_broadcast():
    rng = np.random.default_rng(4)
    lo, hi = random_boxes(rng, 100, np.float64)
    tree = BoxTree(lo, hi)
    o = rng.random((4, 5, 3))
    d = rng.normal(size=3)
    index, t = tree.nearest_ray_hits(o, d)
    assert index.shape == t.shape == (4, 5)
    flat_index, flat_t = tree.nearest_ray_hits(o.reshape(-1, 3), np.tile(d, (20, 1)))
    np.testing.assert_array_equal(index.reshape(-1), flat_index)
    np.testing.assert_array_equal(t.reshape(-1), flat_t)


@pytest.mark.parametrize(
    "box_min, box_max, message",
    [
        ([[0, 0, np.nan]], [[1, 1, 1]], "box_min must be finite"),
        ([[0, 0, 0]], [[1, np.inf, 1]], "box_max must be finite"),
        ([[0, 0, 0, 0]], [[1, 1, 1, 1]], r"box_min must have shape \(3,\) or \(N, 3\)"),
        ([[0, 0, 0]], [[1, 1, 1], [2, 2, 2]], "box_min and box_max must have the same shape"),
    ],
)
def test_bad_boxes_are_refused_at_build(box_min, box_max, message):
    with pytest.raises(ValueError, match=message):
        BoxTree(box_min, box_max)


def test_bad_queries_are_refused():
    tree = BoxTree([[0, 0, 0]], [[1, 1, 1]])
    with pytest.raises(ValueError, match="direction must not be the zero vector"):
        tree.nearest_ray_hits([0, 0, 0], [0, -0.0, 0])
    with pytest.raises(ValueError, match="origin must be finite"):
        tree.ray_pairs([np.inf, 0, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="t_min must not be NaN"):
        tree.ray_pairs([0, 0, 0], [1, 0, 0], t_min=np.nan)
    with pytest.raises(ValueError, match="end must have shape"):
        tree.segment_pairs([0, 0, 0], [1, 0])
    with pytest.raises(ValueError, match="v2 must be finite"):
        tree.triangle_pairs([0, 0, 0], [1, 0, 0], [0, np.nan, 0])


_TWO, _THREE = np.zeros((2, 3)), np.ones((3, 3))


@pytest.mark.parametrize("method, args, shapes", [
    ("nearest_ray_hits", (_TWO, _THREE), r"origin \(2, 3\), direction \(3, 3\)"),
    ("ray_pairs", (_TWO, _THREE), r"origin \(2, 3\), direction \(3, 3\)"),
    ("segment_pairs", (_TWO, _THREE), r"start \(2, 3\), end \(3, 3\)"),
    ("triangle_pairs", (_TWO, np.ones(3), _THREE), r"v0 \(2, 3\), v1 \(3,\), v2 \(3, 3\)"),
])
def test_queries_that_do_not_broadcast_are_refused_naming_every_argument(method, args, shapes):
    """As the per-box functions word it: every argument's name and shape."""
    tree = BoxTree([[0, 0, 0]], [[1, 1, 1]])
    with pytest.raises(ValueError, match="do not broadcast over leading dimensions: " + shapes):
        getattr(tree, method)(*args)


def test_rays_grazing_corners_and_edges_with_rounded_reciprocals(dtype):
    """Rays that touch boxes exactly at a corner or along an edge, with integer directions
    whose reciprocals round (``49 * (1 / 49) != 1``): an unwidened node test drops touching
    boxes."""
    rng = np.random.default_rng(5)
    lo, hi = grid_boxes(dtype)
    tree = BoxTree(lo, hi)
    d = (rng.integers(1, 200, (400, 3)) * rng.choice([-1, 1], (400, 3))).astype(float)
    d[::4, 2] = rng.choice([0.0, -0.0], 100)  # along an edge's plane
    corner = rng.integers(0, 5, (400, 3)).astype(float)
    k = rng.integers(-2, 3, (400, 1))
    o = corner - k * d  # passes exactly through the grid point at t = k
    assert check_rays(tree, lo, hi, o.astype(dtype), d.astype(dtype), t_min=-np.inf) > 1000
    assert check_segments(tree, lo, hi, o.astype(dtype), corner.astype(dtype)) > 500


def test_nearest_keeps_every_exact_tie(dtype):
    """Each grid box stands ten times (touching and duplicate boxes tie on every ray): the walk
    keeps every tie of the nearest hit, and the lowest index wins."""
    rng = np.random.default_rng(6)
    lo, hi = grid_boxes(dtype)
    lo, hi = np.tile(lo, (10, 1)), np.tile(hi, (10, 1))
    tree = BoxTree(lo, hi)
    o, d = grid_rays(rng, 200, dtype)
    assert check_rays(tree, lo, hi, o, d) > 5000


def test_nearest_ties_at_minus_inf_take_the_lowest_index():
    """float32 entries below -3.4e38 round to -inf: every such box ties, whatever its exact
    entry, so the lowest index wins (not the box with the smallest exact entry)."""
    lo = np.array([[-2e36, -1, -1], [-3e36, -1, -1]], np.float32)
    hi = np.array([[-1.5e36, 1, 1], [-2.5e36, 1, 1]], np.float32)
    o = np.zeros(3, np.float32)
    d = np.array([1e-3, 0, 0], np.float32)
    tree = BoxTree(lo, hi)
    assert tree.nearest_ray_hits(o, d, t_min=-np.inf) == (0, -np.inf), "box 0: ties at -inf"
    assert tree.nearest_ray_hits(o, d, t_min=-1e40) == (0, -np.inf), "t_min rounds to -inf"


def test_nearest_ties_made_by_rounding_to_float32_take_the_lowest_index():
    """Different exact entries that round to one float32 tie, and the lowest index wins though
    its exact entry is the larger: beyond +3.4e38 (both +inf), and in range (a ``t_min`` that
    rounds to a box's entry)."""
    lo = np.array([[2e36, -1, -1], [1.5e36, -1, -1]], np.float32)
    tree = BoxTree(lo, lo + np.float32(1e36))
    o = np.zeros(3, np.float32)
    assert tree.nearest_ray_hits(o, np.array([1e-3, 0, 0], np.float32)) == (0, np.inf), (
        "box 0: both enter at +inf in float32")
    tree = BoxTree(np.array([[1, -1, -1], [0.5, -1, -1]], np.float32),
                   np.array([[2, 1, 1], [2, 1, 1]], np.float32))
    d = np.array([1, 0, 0], np.float32)
    assert tree.nearest_ray_hits(o, d, t_min=1 - 2**-30) == (0, 1.0), (
        "box 0: its entry 1 and box 1's t_min 1 - 2**-30 are both 1 in float32")


def huge_float32_scene(rng, n, m):
    """float32 boxes as slabs across the x axis at |x| up to 3e38, and rays nearly along x
    with small x components: most entries lie beyond float32's range (ties at -inf / +inf),
    some near it, some in it."""
    x0 = rng.uniform(-3e38, 3e38, n) * 10.0 ** -rng.integers(0, 8, n)
    x1 = x0 + np.abs(x0) * rng.uniform(0, 0.3, n) + rng.uniform(0, 1e36, n)
    side = rng.uniform(1, 3e38, (n, 2))
    lo = np.column_stack([x0, -side]).astype(np.float32)
    hi = np.column_stack([np.minimum(x1, 3e38), side]).astype(np.float32)
    o = np.column_stack([rng.uniform(-1e38, 1e38, m) * 10.0 ** -rng.integers(0, 8, m),
                         rng.uniform(-1e3, 1e3, (m, 2))]).astype(np.float32)
    d = np.column_stack([rng.choice([-1, 1], m) * 10.0 ** rng.uniform(-6, 0, m),
                         rng.normal(size=(m, 2)) * 1e-12]).astype(np.float32)
    return lo, hi, o, d


def test_nearest_matches_brute_force_on_huge_float32_scenes():
    """Random float32 scenes whose entries lie beyond, near and within float32's range, with
    ``t_min = -inf`` and ``0``: nearest hits and every pair as the per-box function says."""
    rng = np.random.default_rng(12)
    ties_at_minus_inf = 0
    for _ in range(5):
        lo, hi, o, d = huge_float32_scene(rng, 300, 60)
        tree = BoxTree(lo, hi)
        for t_min in (-np.inf, 0.0):
            assert check_rays(tree, lo, hi, o, d, t_min=t_min) > 100
        _, t = tree.nearest_ray_hits(o, d, t_min=-np.inf)
        ties_at_minus_inf += np.count_nonzero(t == -np.inf)
    assert ties_at_minus_inf > 100, "the scenes should make many rays' nearest entry -inf"


def test_the_radix_argsort_is_numpys_stable_argsort():
    from geometry._bvh_build import _radix_argsort

    rng = np.random.default_rng(5)
    wide = rng.integers(0, 2**63 - 1, 3000, dtype=np.int64)
    # duplicates, and digits that every code shares (passes the sort skips)
    narrow = (rng.integers(0, 40, 3000, dtype=np.int64) << 22) | (7 << 44)
    for codes in (wide, narrow, np.zeros(5, np.int64), np.zeros(0, np.int64)):
        np.testing.assert_array_equal(_radix_argsort(codes), np.argsort(codes, kind="stable"),
                                      err_msg="expected numpy's stable argsort")
