"""BoxTree.from_obbs against brute force over the OBB per-box functions, pair for pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    OBB,
    BoxTree,
    classify_aabb_obb,
    classify_obb_frustum,
    classify_obb_obb,
    classify_segment_obb,
    classify_sphere_obb,
    distance_point_obb,
    intersect_ray_obb,
    triangle_overlaps_obb,
)
from tests.geometry.test_aabb_frustum import FRUSTA
from tests.strategies import half_sizes_dyadic, obb_pairs, rotations


@st.composite
def obb_scenes(draw):
    """Up to 8 oriented boxes from :func:`obb_pairs` (touching, around, near each other, some
    empty), and query points at their centres and corners (on or near the surfaces)."""
    pairs = draw(st.lists(obb_pairs(), min_size=1, max_size=4))
    c, a, h = (np.array([p[k] for p in pairs for k in (i, i + 3)]) for i in range(3))
    sign = draw(st.sampled_from([1.0, -1.0, 0.5]))
    corners = c + sign * np.einsum("nij,ni->nj", a, np.abs(h))
    return c, a, h, np.concatenate([c, corners])


def every_pair(m, n):
    return (x.reshape(-1) for x in np.meshgrid(np.arange(m), np.arange(n), indexing="ij"))


def assert_pairs(got, *want):
    for name, g, w in zip(got._fields, got, want, strict=True):
        np.testing.assert_array_equal(g, w, err_msg=f"{type(got).__name__}.{name} differs "
                                                    "from brute force")


def check(query, c, a, h, p, refitted=False):
    if refitted:  # built over other poses for the even boxes, then refitted to these
        moved = [x.copy() for x in (c, a, h)]
        for x in moved:
            x[::2] = np.roll(x, 1, axis=0)[::2] * [-1, 1, 1][: x.shape[-1]]
        tree = BoxTree.from_obbs(*moved)
        tree.refit(c, a, h)
    else:
        tree = BoxTree.from_obbs(c, a, h)
    m, n = len(p), len(c)
    q, b = every_pair(m, n)
    nxt = np.roll(p, 1, axis=0)
    if query in ("nearest_ray_hits", "ray_pairs"):
        d = c[np.arange(m) % n] - p
        d[~d.any(axis=1)] = [1.0, -0.5, 0.25]
        hit, t0, t1 = (np.asarray(x) for x in intersect_ray_obb(p[q], d[q], c[b], a[b], h[b]))
        if query == "ray_pairs":
            assert_pairs(tree.ray_pairs(p, d), q[hit], b[hit], t0[hit], t1[hit])
            return
        got = tree.nearest_ray_hits(p, d)
        t = np.where(hit, t0, np.inf).reshape(m, n)
        want = np.where(np.isinf(t.min(axis=1)), -1, np.argmin(t, axis=1))
        assert_pairs(got, want, t.min(axis=1))
    elif query == "segment_pairs":
        kind = np.asarray(classify_segment_obb(p[q], nxt[q], c[b], a[b], h[b]))
        assert_pairs(tree.segment_pairs(p, nxt), q[kind != 0], b[kind != 0], kind[kind != 0])
    elif query == "triangle_pairs":
        v2 = np.roll(p, 2, axis=0)
        hit = np.asarray(triangle_overlaps_obb(p[q], nxt[q], v2[q], c[b], a[b], h[b]), bool)
        assert_pairs(tree.triangle_pairs(p, nxt, v2), q[hit], b[hit])
    elif query == "box_pairs":
        lo, hi = np.minimum(p, nxt), np.maximum(p, nxt)
        kind = np.asarray(classify_aabb_obb(lo[q], hi[q], c[b], a[b], h[b]))
        assert_pairs(tree.box_pairs(lo, hi), q[kind != 0], b[kind != 0], kind[kind != 0])
    elif query == "self_pairs":
        i, j = every_pair(n, n)
        i, j = i[i < j], j[i < j]
        kind = np.asarray(classify_obb_obb(c[i], a[i], h[i], c[j], a[j], h[j]))
        assert_pairs(tree.self_pairs(), i[kind != 0], j[kind != 0])
    elif query == "sphere_pairs":
        r = np.abs(p - nxt).max(axis=1) / 2  # from 0 (a point) to reaching the next point
        kind = np.asarray(classify_sphere_obb(p[q], r[q], c[b], a[b], h[b]))
        assert_pairs(tree.sphere_pairs(p, r), q[kind != 0], b[kind != 0], kind[kind != 0])
    else:  # nearest_boxes
        k = 3
        dist = np.asarray(distance_point_obb(p[q], c[b], a[b], h[b])).reshape(m, n)
        order = np.lexsort((np.broadcast_to(np.arange(n), (m, n)), dist))[:, :k]
        want_d = np.take_along_axis(dist, order, 1)
        want_i = np.where(np.isinf(want_d), -1, order)
        got = tree.nearest_boxes(p, k)
        width = min(k, n)
        assert_pairs(got, np.pad(want_i, ((0, 0), (0, k - width)), constant_values=-1),
                     np.pad(want_d, ((0, 0), (0, k - width)), constant_values=np.inf))


QUERIES = ["nearest_ray_hits", "ray_pairs", "segment_pairs", "triangle_pairs", "box_pairs",
           "self_pairs", "sphere_pairs", "nearest_boxes"]


@pytest.mark.parametrize("query", QUERIES)
@given(scene=obb_scenes(), refitted=st.booleans())
def test_obb_tree_as_brute_force(query, scene, refitted):
    check(query, *scene, refitted)


@given(st.sampled_from(sorted(FRUSTA)), st.lists(st.tuples(rotations(), half_sizes_dyadic),
                                                  min_size=1, max_size=8), st.booleans())
def test_obb_tree_frustum_as_brute_force(name, boxes, conservative):
    """Oriented boxes around the frustum's corners."""
    frustum = FRUSTA[name]
    v = np.asarray(frustum.vertices, np.float64)
    c = v[np.arange(len(boxes)) % len(v)]
    a, h = (np.array(x) for x in zip(*boxes, strict=True))
    h = h * np.abs(v).max() / 8
    kind = np.asarray(classify_obb_frustum(c, a, h, frustum, conservative=conservative))
    got = BoxTree.from_obbs(c, a, h).frustum(frustum, conservative=conservative)
    assert_pairs(got, np.flatnonzero(kind), kind[kind != 0])


def test_obb_tree_nodes_hold_the_boxes_and_refit_to_new_poses():
    a = np.array([[0.6, 0.8, 0.0], [-0.8, 0.6, 0.0], [0.0, 0.0, 1.0]])
    c, h = np.array([[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]]), np.array([[1.0, 2.0, 0.5], [1, -1, 1]])
    tree = BoxTree.from_obbs(c, np.stack([a, a]), h)
    box = OBB(c[0], a, h[0]).aabb()
    assert tree.box_pairs(box.min, box.max).box_index.tolist() == [0], \
        "the query box equal to box 0's aabb() meets box 0 only (box 1 is empty)"
    tree.refit(*(x.astype(np.float32) for x in (c[::-1], np.stack([a, a]), h[::-1])))
    assert tree.dtype == np.float32, "a refit takes the new boxes' dtype"
    assert tree.box_pairs(box.min, box.max).box_index.tolist() == [1], \
        "after the refit that swapped the poses, box 1 is box 0's old box"
    with pytest.raises(ValueError, match=r"center must have shape \(2, 3\)"):
        tree.refit(c[:1], a[None], h[:1])
    with pytest.raises(ValueError, match=r"axes must have shape \(N, 3, 3\)"):
        BoxTree.from_obbs(c, a, h)
