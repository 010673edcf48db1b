"""Frustum: from_matrix exactly the clip volume, planes checked, bad input refused."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pyrr import matrix44

from geometry import Frustum
from tests.geometry import exact_reference as ref


def perspective(fov=60.0, aspect=1.5, near=0.1, far=100.0, eye=(5.0, 3.0, 4.0)):
    view = matrix44.create_look_at(np.array(eye), np.zeros(3), np.array([0.0, 0.0, 1.0]))
    return view @ matrix44.create_perspective_projection(fov, aspect, near, far)


def orthographic():
    view = matrix44.create_look_at(np.array([1.0, 2.0, 3.0]), np.zeros(3),
                                   np.array([0.0, 0.0, 1.0]))
    return view @ matrix44.create_orthogonal_projection(-2.0, 3.0, -1.0, 1.0, 0.5, 20.0)


MATRICES = {
    "perspective": perspective(),
    "thin": perspective(fov=0.5, near=1.0, far=1000.0),
    "wide": perspective(fov=170.0, aspect=3.0, near=0.01, far=10.0),
    "orthographic": orthographic(),
    "float32": perspective().astype(np.float32),
}


@pytest.mark.parametrize("name", MATRICES)
def test_from_matrix_is_the_clip_volume_exactly(name):
    """Random points, and points on the frustum's faces and corners (its exact vertices and
    points between them), are inside iff their clip coordinates satisfy -w <= x, y, z <= w."""
    m = MATRICES[name]
    frustum = Frustum.from_matrix(m)
    poly = frustum.polytope
    assert len(poly.vertices) == 8 and len(poly.edges) == 12, \
        f"expected a frustum of 8 corners and 12 edges, got {len(poly.vertices)}, " \
        f"{len(poly.edges)}"
    rng = np.random.default_rng(7)
    lo, hi = frustum.vertices.min(axis=0), frustum.vertices.max(axis=0)
    points = [*rng.uniform(lo - 1, hi + 1, (40, 3)), *frustum.vertices,
              *(0.5 * (frustum.vertices[i] + frustum.vertices[j])
                for i in range(8) for j in range(i + 1, 8))]
    planes = ref.frustum_planes_from_matrix(m)
    for p in points:
        inside = all(ref._dot(n, ref.exact_vec(p)) >= o for n, o in poly.planes)
        assert inside == ref.in_clip_volume(m, p), \
            f"point {p.tolist()}: expected inside={ref.in_clip_volume(m, p)}"
        assert inside == all(ref._dot(n, ref.exact_vec(p)) >= o for n, o in planes), \
            "expected the frustum's planes to be the clip inequalities"
    for v in poly.vertices:  # exact corners lie on three planes and satisfy all six
        on = [ref._dot(n, v) - o for n, o in poly.planes]
        assert min(on) == 0 and sum(x == 0 for x in on) == 3, \
            f"expected corner {v} on exactly three planes"


def test_planes_constructor_and_value_semantics():
    normals = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
    cube = Frustum(normals, [0, -1, 0, -1, 0, -1])
    assert sorted(map(tuple, cube.vertices.tolist())) == \
        [(x, y, z) for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)], \
        "expected the unit cube's corners"
    assert pickle.loads(pickle.dumps(cube)) == cube, "expected a pickled frustum to compare equal"
    m = Frustum.from_matrix(MATRICES["perspective"])
    again = pickle.loads(pickle.dumps(m))
    assert again == m and hash(again) == hash(m), "expected from_matrix to pickle by its matrix"
    assert m != cube, "expected different frusta to differ"
    with pytest.raises(AttributeError):
        m.normals = None  # type: ignore[misc]


BAD_PLANES = {
    "open on one side": ([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 1, 0]],
                         [0, -1, 0, -1, 0, 0.5], "unbounded|no face"),
    "empty": ([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]],
              [0, 1, 0, -1, 0, -1], "no volume"),
    "flat": ([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]],
             [0, 0, 0, -1, 0, -1], "no volume"),
    "a redundant plane": ([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1],
                           [1, 1, 1]], [0, -1, 0, -1, 0, -5], "unbounded|no face"),
    "a repeated plane": ([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1],
                          [2, 0, 0]], [0, -1, 0, -1, 0, 0], "unbounded|no face|same face"),
    "a tetrahedron and two more": ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, -1, -1],
                                    [-1, -1, -1], [1, 0, 0]], [0, 0, 0, -1, -2, -1],
                                   "no face|same face"),
}


@pytest.mark.parametrize("name", BAD_PLANES)
def test_planes_that_bound_no_six_faced_volume_raise(name):
    normals, offsets, why = BAD_PLANES[name]
    with pytest.raises(ValueError, match=f"planes must bound a non-empty convex volume with "
                                         f"six faces: .*({why})"):
        Frustum(normals, offsets)


@pytest.mark.parametrize(("matrix", "message"), [
    (np.zeros((4, 4)), "matrix must bound a non-empty convex volume"),
    (np.eye(4)[[0, 1, 3, 2]], "matrix must bound a non-empty convex volume"),  # w = z: open
    (np.eye(3), r"matrix must have shape \(4, 4\)"),
    (np.full((4, 4), np.nan), "matrix must be finite"),
])
def test_bad_matrices_raise(matrix, message):
    with pytest.raises(ValueError, match=message):
        Frustum.from_matrix(matrix)


def test_bad_plane_arrays_raise():
    with pytest.raises(ValueError, match=r"normals must have shape \(6, 3\)"):
        Frustum(np.ones((5, 3)), np.zeros(5))
    with pytest.raises(ValueError, match="normals must not be the zero vector"):
        Frustum(np.zeros((6, 3)), np.zeros(6))
