"""explain_aabb_frustum / explain_obb_frustum state the classes the queries return."""

from __future__ import annotations

import numpy as np
import pytest

from geometry import (
    IntersectionType,
    classify_aabb_frustum,
    classify_obb_frustum,
    explain_aabb_frustum,
    explain_obb_frustum,
)
from tests.geometry.test_aabb_frustum import FRUSTA


def _boxes_near_corners(frustum, n, seed):
    rng = np.random.default_rng(seed)
    v = frustum.vertices
    size = float(np.min(np.ptp(v, axis=0)))
    q = v[rng.integers(0, 8, n)] + rng.normal(0, 0.3 * size, (n, 3))
    half = rng.uniform(0, 0.3 * size, (n, 3))
    return q - half, q + half


def test_explanations_agree_with_both_tests_and_name_the_separating_axis():
    frustum = FRUSTA["perspective"]
    lo, hi = _boxes_near_corners(frustum, 300, 1)
    exact = classify_aabb_frustum(lo, hi, frustum)
    planes_only = classify_aabb_frustum(lo, hi, frustum, conservative=True)
    kept = np.flatnonzero((exact == 0) & (planes_only == 1))
    assert len(kept) > 0, "expected boxes that only the plane test keeps"
    for k in [*kept[:3], *range(12)]:
        why = explain_aabb_frustum(lo[k], hi[k], frustum)
        assert (why.verdict, why.conservative) == (exact[k], planes_only[k]), \
            f"box {k}: expected {exact[k]} / {planes_only[k]}, got {why.verdict} / " \
            f"{why.conservative}"
        assert [t.name for t in why.planes] == ["left", "right", "bottom", "top", "near", "far"]
        if k in kept:
            assert why.separating is not None and not any(t.rejects for t in why.planes), \
                "expected a separating edge axis where no plane rejects the box"
    why = explain_aabb_frustum(lo[kept[0]], hi[kept[0]], frustum)
    assert why.separating.startswith("box ") and why.axis.shape == (3,), \
        f"expected a named axis, got {why.separating!r}"


def test_obb_explanation_and_bad_input():
    frustum = FRUSTA["orthographic"]
    c = frustum.vertices.mean(axis=0)
    why = explain_obb_frustum(c, np.eye(3)[[1, 2, 0]], [0.1, 0.1, 0.1], frustum)
    assert why.verdict == IntersectionType.INCLUDE == classify_obb_frustum(
        c, np.eye(3)[[1, 2, 0]], [0.1, 0.1, 0.1], frustum), "expected INCLUDE at the centre"
    assert all(t.nearest_side == 1 for t in why.planes), "expected every corner inside"
    with pytest.raises(ValueError, match="box_min must not exceed box_max"):
        explain_aabb_frustum([1, 0, 0], [0, 1, 1], frustum)
    with pytest.raises(ValueError, match="box_half_size must not be negative"):
        explain_obb_frustum(c, np.eye(3), [1, -1, 1], frustum)


def test_dask_boxes_axes_and_offsets_split_with_the_items():
    """Per-item ``box_axes`` and ``offset`` go with the boxes' chunks (run interpreted: the
    chunking is under test, not the compiled loops)."""
    da = pytest.importorskip("dask.array")
    import geometry
    from geometry import plane_side_obb

    frustum = FRUSTA["perspective"]
    lo, hi = _boxes_near_corners(frustum, 40, 2)
    centre, half = (lo + hi) / 2, (hi - lo) / 2
    axes = np.broadcast_to(np.eye(3)[[2, 0, 1]], (40, 3, 3))
    offsets = np.linspace(-5, 5, 40)
    before = geometry.get_jit()
    geometry.set_jit(False)
    try:
        lazy = classify_obb_frustum(da.from_array(centre, chunks=15), axes, half, frustum)
        assert np.array_equal(lazy.compute(), classify_obb_frustum(centre, axes, half, frustum)), \
            "expected the dask result to equal numpy's"
        lazy = plane_side_obb([1, 2, 3], offsets, da.from_array(centre, chunks=15), axes, half)
        assert np.array_equal(lazy.compute(),
                              plane_side_obb([1, 2, 3], offsets, centre, axes, half)), \
            "expected the dask result to equal numpy's"
    finally:
        geometry.set_jit(before)
