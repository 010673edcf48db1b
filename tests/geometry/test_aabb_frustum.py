"""classify_aabb_frustum against the exact reference (SEMANTICS.md, "Frustum vs box")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from geometry import AABB, Frustum, IntersectionType, classify_aabb_frustum, get_jit
from tests.geometry import exact_reference as ref
from tests.geometry.test_frustum import MATRICES
from tests.strategies import batches, boxes_near_frustum

pytestmark = pytest.mark.usefixtures("each_backend")

FRUSTA = {name: Frustum.from_matrix(m) for name, m in MATRICES.items()}
# the perspective frustum scaled by 1e-200 and 1e200 (its rounded planes, offsets scaled)
_P = FRUSTA["perspective"]
FRUSTA["1e-200"] = Frustum(_P.normals, _P.offsets * 1e-200)
FRUSTA["1e200"] = Frustum(_P.normals, _P.offsets * 1e200)


def _reference(lo, hi, frustum: Frustum, conservative: bool) -> int:
    if np.any(lo > hi):
        return ref.NONE
    planes, corners = ref.aabb_planes_corners(lo, hi)
    fplanes = frustum.polytope.planes
    if conservative:
        return ref.classify_box_frustum_planes_only(corners, fplanes)
    return ref.classify_box_frustum(planes, corners, fplanes)


def check(frustum: Frustum, lo, hi, *, conservative=False, dtype=np.float64, note=False):
    lo, hi = np.asarray(lo, dtype=dtype), np.asarray(hi, dtype=dtype)
    got = classify_aabb_frustum(lo, hi, frustum, conservative=conservative)
    assert got.dtype == np.int8 and got.shape == (len(lo),), \
        f"expected ({len(lo)},) int8 codes, got {got.dtype} {got.shape}"
    for k in range(len(lo)):
        want = _reference(lo[k], hi[k], frustum, conservative)
        if note:
            event(f"{IntersectionType(want).name}")
        assert got[k] == want, (
            f"box {k} [{lo[k].tolist()}, {hi[k].tolist()}] (conservative={conservative}): "
            f"expected {IntersectionType(want).name}, got {IntersectionType(int(got[k])).name}")
    return got


@st.composite
def scene(draw):
    name = draw(st.sampled_from(sorted(FRUSTA)))
    frustum = FRUSTA[name]
    return name, draw(batches(boxes_near_frustum(frustum.vertices), max_size=6))


@given(scene(), st.booleans())
def test_boxes_near_edges_and_corners_match_the_exact_reference(case, conservative):
    name, boxes = case
    lo, hi = (np.array(c) for c in zip(*boxes, strict=True))
    # float32 boxes with the float32 matrix; compiled only in float64 (a float32 loop reads
    # the same values widened, and costs a compile of its own)
    dtype = np.float32 if name == "float32" and not get_jit() else np.float64
    check(FRUSTA[name], lo, hi, conservative=conservative, dtype=dtype, note=True)


def test_plane_only_false_positives_are_none():
    """Boxes beyond a corner of the frustum, across the extensions of its planes: every plane
    keeps them, yet they lie outside. The conservative test says INTERSECT, the exact NONE."""
    frustum = FRUSTA["perspective"]
    v = frustum.vertices
    centre = v.mean(axis=0)
    out = []
    for corner in v:
        d = corner - centre
        q = corner + 0.05 * d
        out.append((q - 0.04 * np.abs(d), q + 0.04 * np.abs(d)))
    lo, hi = (np.array(c) for c in zip(*out, strict=True))
    exact = check(frustum, lo, hi)
    planes_only = check(frustum, lo, hi, conservative=True)
    kept = int(np.sum((planes_only == 1) & (exact == 0)))
    assert kept >= 1, "expected some corner boxes to be false positives of the plane test"


def test_named_cases():
    frustum = Frustum([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]],
                      [0, -1, 0, -1, 0, -1])  # the unit cube
    e = AABB.empty()
    lo = np.array([[0.25] * 3, [1, 0, 0], [1.0, 1.0, 1.0], [np.nextafter(1, 2), 0, 0],
                   [-1, -1, -1], [0.5, 0.5, 0.5], [0.5, 0.5, 0], e.min, [2, 0, 0]])
    hi = np.array([[0.75] * 3, [2, 1, 1], [2.0, 2.0, 2.0], [2, 1, 1], [2, 2, 2],
                   [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], e.max, [1, 1, 1]])
    want = [2,  # inside
            1,  # touching a face from outside
            1,  # touching a corner
            0,  # one ulp beyond a face
            1,  # holding the whole frustum
            2,  # a point inside
            1,  # a segment ending on a face
            0,  # AABB.empty()
            0]  # min > max
    got = check(frustum, lo, hi)
    assert got.tolist() == want, f"expected {want}, got {got.tolist()}"
    assert classify_aabb_frustum([0.25] * 3, [0.75] * 3, frustum) is IntersectionType.INCLUDE, \
        "expected one box to give an IntersectionType"
    out = np.empty(len(lo), np.int8)
    assert classify_aabb_frustum(lo, hi, frustum, out=out) is out, "expected out= returned"


def test_straddling_the_near_plane_and_bad_input():
    frustum = FRUSTA["perspective"]
    near = frustum.vertices[[0, 2, 4, 6]].mean(axis=0)  # on the near face (rounded)
    check(frustum, [near - 0.01, near - 1e-9], [near + 0.01, near + 1e-9])
    with pytest.raises(ValueError, match="box_min must be finite"):
        classify_aabb_frustum([np.nan, 0, 0], [1, 1, 1], frustum)
    with pytest.raises(ValueError, match="frustum must be a Frustum"):
        classify_aabb_frustum([0, 0, 0], [1, 1, 1], MATRICES["perspective"])
