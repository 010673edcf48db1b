"""Bad input is a ValueError whose message names the argument (SEMANTICS.md, "Bad input")."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import geometry
from geometry import (
    AABB,
    OBB,
    classify_segment_aabb,
    classify_segment_obb,
    intersect_ray_aabb,
    intersect_ray_obb,
    triangle_overlaps_aabb,
    triangle_overlaps_obb,
)
from geometry.explain import explain_segment_obb, explain_triangle_obb

NAN, INF = np.nan, np.inf
P = [0.5, 0.5, 0.5]
Q = [1.5, 0.5, 0.5]
LO, HI = [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]
I3 = np.eye(3)
H = [1.0, 1.0, 1.0]

#: name -> (function, good arguments in order, keyword options)
FUNCTIONS = {
    "classify_segment_aabb": (
        classify_segment_aabb,
        {"start": P, "end": Q, "box_min": LO, "box_max": HI},
    ),
    "classify_segment_obb": (
        classify_segment_obb,
        {"start": P, "end": Q, "center": P, "axes": I3, "half_size": H},
    ),
    "intersect_ray_aabb": (
        intersect_ray_aabb,
        {"origin": P, "direction": Q, "box_min": LO, "box_max": HI},
    ),
    "intersect_ray_obb": (
        intersect_ray_obb,
        {"origin": P, "direction": Q, "center": P, "axes": I3, "half_size": H},
    ),
    "triangle_overlaps_aabb": (
        triangle_overlaps_aabb,
        {"v0": P, "v1": Q, "v2": HI, "box_min": LO, "box_max": HI},
    ),
    "triangle_overlaps_obb": (
        triangle_overlaps_obb,
        {"v0": P, "v1": Q, "v2": HI, "center": P, "axes": I3, "half_size": H},
    ),
}


def call(function_name, **replace):
    function, arguments = FUNCTIONS[function_name]
    return function(*{**arguments, **replace}.values())


def point_arguments():
    for function_name, (_, arguments) in FUNCTIONS.items():
        for name in arguments:
            if name != "axes":
                yield function_name, name


POINT_ARGUMENTS = list(point_arguments())


def test_good_arguments_are_accepted():
    for function_name in FUNCTIONS:
        call(function_name)  # must not raise


@pytest.mark.parametrize("function_name, name", POINT_ARGUMENTS)
@pytest.mark.parametrize("bad", [NAN, INF, -INF], ids=["nan", "+inf", "-inf"])
def test_non_finite_coordinate_names_the_argument(function_name, name, bad):
    value = np.array(FUNCTIONS[function_name][1][name], dtype=float)
    value[1] = bad
    if (name, bad) in (("box_min", INF), ("box_max", -INF)):
        call(function_name, **{name: value})  # an empty-box infinity: allowed, means empty
        return
    with pytest.raises(ValueError, match=name):
        call(function_name, **{name: value})


@pytest.mark.parametrize("function_name, name", POINT_ARGUMENTS)
@pytest.mark.parametrize("shape", [(), (2,), (4,), (4, 2), (3, 4), (2, 3, 2)])
def test_wrong_shape_names_the_argument(function_name, name, shape):
    with pytest.raises(ValueError, match=name):
        call(function_name, **{name: np.ones(shape)})


@pytest.mark.parametrize("function_name, name", POINT_ARGUMENTS)
def test_shapes_that_do_not_broadcast_name_an_argument(function_name, name):
    others = [other for other in FUNCTIONS[function_name][1] if other not in (name, "axes")]
    with pytest.raises(ValueError, match="|".join([name] + others)):
        call(function_name, **{name: np.ones((4, 3)), others[0]: np.ones((5, 3))})


@pytest.mark.parametrize("function_name", ["intersect_ray_aabb", "intersect_ray_obb"])
@pytest.mark.parametrize(
    "direction",
    [[0.0, 0.0, 0.0], [-0.0, 0.0, -0.0], [[1.0, 0.0, 0.0], [0.0, -0.0, 0.0]]],
    ids=["+0", "-0", "one-row-of-a-batch"],
)
def test_zero_ray_direction_is_rejected(function_name, direction):
    with pytest.raises(ValueError, match="direction"):
        call(function_name, direction=np.array(direction))


@pytest.mark.parametrize("function_name", ["intersect_ray_aabb", "intersect_ray_obb"])
def test_nan_t_limits_are_rejected(function_name):
    function, arguments = FUNCTIONS[function_name]
    with pytest.raises(ValueError, match="t_min"):
        function(*arguments.values(), t_min=NAN)
    with pytest.raises(ValueError, match="t_max"):
        function(*arguments.values(), t_max=NAN)


BAD_AXES = {
    "scaled": 2 * I3,
    "sheared": np.array([[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    "off-by-1e-5": I3 + np.diag([1e-5, 0.0, 0.0]),
    "degenerate": np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    "nan": np.where(I3 == 1, NAN, 0.0),
    "one-bad-box-of-a-batch": np.stack([I3, 2 * I3]),
}


@pytest.mark.parametrize(
    "function_name", ["classify_segment_obb", "intersect_ray_obb", "triangle_overlaps_obb"]
)
@pytest.mark.parametrize("axes", BAD_AXES.values(), ids=BAD_AXES.keys())
def test_non_orthonormal_axes_are_rejected(function_name, axes):
    replace = {"axes": axes}
    if axes.ndim == 3:  # a batch: every argument per item, the loop the batch tests compile
        _, arguments = FUNCTIONS[function_name]
        replace = {name: np.stack([value] * len(axes)) for name, value in arguments.items()}
        replace["axes"] = axes
    with pytest.raises(ValueError, match="axes"):
        call(function_name, **replace)


@pytest.mark.parametrize(
    "function_name", ["classify_segment_obb", "intersect_ray_obb", "triangle_overlaps_obb"]
)
@pytest.mark.parametrize("shape", [(3,), (3, 4), (4, 3), (2, 3)])
def test_wrong_axes_shape_is_rejected(function_name, shape):
    with pytest.raises(ValueError, match="axes"):
        call(function_name, axes=np.ones(shape))


def test_axes_orthonormal_within_the_tolerance_are_accepted():
    nearly = I3 + np.diag([1e-8, -1e-8, 0.0])  # float32-stored rotations are this far off
    assert call("classify_segment_obb", axes=nearly) == call("classify_segment_obb")


# Axes right at the tolerance: rows 0 and 1 are off by 1.000000000139778e-06 where each product
# and sum is rounded (as the filters and the check compute it), by 9.999999999177334e-07 where a
# product and a sum are fused (a BLAS matmul; a loop compiled with contract=True). explain
# (a matmul) and the compiled segment and triangle loops (fused) used to accept these axes,
# which the interpreted loop, one item and the OBB value refused.
X, Y = 0.8802639444603089, 0.4744853929081255
AXES_AT_TOLERANCE = np.array([[X, Y, 0.0], [-Y, X, 0.0], [0.0, 0.0, 1.0]])
AT_TOLERANCE_CALLS = {
    "segment one item": lambda axes: classify_segment_obb(P, Q, P, axes, H),
    "segment, one frame": lambda axes: classify_segment_obb(np.full((9, 3), 0.5), Q, P, axes, H),
    "segment, per-box frames": lambda axes: classify_segment_obb(
        P, Q, np.full((9, 3), 0.5), np.broadcast_to(axes, (9, 3, 3)), H),
    "triangle, one frame": lambda axes: triangle_overlaps_obb(
        np.full((9, 3), 0.5), Q, HI, P, axes, H),
    "ray, one frame": lambda axes: intersect_ray_obb(np.full((9, 3), 0.5), Q, P, axes, H),
    "OBB": lambda axes: OBB(P, axes, H),
    "explain segment": lambda axes: explain_segment_obb(P, Q, P, axes, H),
    "explain triangle": lambda axes: explain_triangle_obb(P, Q, HI, P, axes, H),
}


def residuals_rounded_each(axes):
    """``|row_i . row_j - delta_ij|`` with every product and sum rounded, left to right."""
    rows = [[float(x) for x in row] for row in axes]
    return [abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] - (1.0 if i == j else 0.0))
            for i, a in enumerate(rows) for j, b in enumerate(rows) if i <= j]


def unit_rows(axes):
    return axes / np.linalg.norm(axes, axis=1)[:, None]


def test_axes_at_the_tolerance_are_what_the_test_needs():
    worst = max(residuals_rounded_each(AXES_AT_TOLERANCE))
    assert 1e-6 < worst < 1e-6 * (1 + 1e-9), \
        f"expected the rounded residual just above 1e-6, got {worst!r}"
    fused = abs(float(Fraction(X) * Fraction(X) + Fraction(Y * Y)) - 1.0)  # fma(X, X, Y * Y)
    assert fused <= 1e-6, f"expected the fused residual within 1e-6, got {fused!r}"
    assert max(residuals_rounded_each(unit_rows(AXES_AT_TOLERANCE))) < 1e-12, \
        "expected normalised rows well within the tolerance"


@pytest.mark.parametrize("jit", [True, False], ids=["compiled", "interpreted"])
@pytest.mark.parametrize("name", AT_TOLERANCE_CALLS)
def test_axes_at_the_tolerance_get_one_verdict_everywhere(name, jit):
    """One check of orthonormality, computed as the filters compute their doubt: every path
    refuses the axes just beyond the tolerance, and accepts them once they are within it."""
    before = geometry.get_jit()
    geometry.set_jit(jit)
    try:
        with pytest.raises(ValueError, match="orthonormal rows"):
            AT_TOLERANCE_CALLS[name](AXES_AT_TOLERANCE)
        AT_TOLERANCE_CALLS[name](unit_rows(AXES_AT_TOLERANCE))  # must not raise
    finally:
        geometry.set_jit(before)


def test_boxes_that_are_infinite_but_not_empty_are_rejected():
    with pytest.raises(ValueError, match="box_min"):
        classify_segment_aabb(P, Q, [-INF, 0.0, 0.0], HI)
    with pytest.raises(ValueError, match="box_max"):
        classify_segment_aabb(P, Q, LO, [1.0, INF, 1.0])


def test_value_types_reject_bad_input():
    with pytest.raises(ValueError, match="min"):
        AABB([0.0, NAN, 0.0], HI)
    with pytest.raises(ValueError, match="max"):
        AABB(LO, [1.0, 1.0])
    with pytest.raises(ValueError, match="axes"):
        OBB(P, 2 * I3, H)
    with pytest.raises(ValueError, match="matrix"):
        AABB(LO, HI).transformed(np.eye(3))
    with pytest.raises(ValueError, match="matrix"):
        OBB.from_aabb(AABB(LO, HI), np.diag([2.0, 1.0, 1.0, 1.0]))  # scales: not rigid
