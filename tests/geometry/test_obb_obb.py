"""classify_obb_obb, classify_aabb_obb and classify_obb_aabb against the exact reference
(SEMANTICS.md, "Box vs box"), which decides by vertex enumeration, not separating axes.

Boxes are compared for the very float axes they hold, strictly: parallel, anti-parallel and
one-ulp-off edges (the cases an epsilon gets wrong), touching at rounding distance, inside by
an ulp, flat, empty, float32, and 2**-1000 / 2**990 scales.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import (
    AABB,
    OBB,
    IntersectionType,
    classify_aabb_obb,
    classify_obb_aabb,
    classify_obb_obb,
)
from tests.geometry import exact_reference as ref
from tests.strategies import obb_pairs

pytestmark = pytest.mark.usefixtures("each_backend")

# Every batch here has at least two items and gives every argument per item: each pattern of
# shared arguments, and each dtype, is a loop numba compiles (seconds for these filters), so the
# tests keep to one per function; float32 goes through one-item calls.

NONE, INTERSECT, INCLUDE = IntersectionType
I3 = np.eye(3)
UP = np.nextafter(1.0, 2.0)
#: rows of the unit cube turned 45 degrees about x, then about z (orthonormal within rounding)
TURNED = np.array([[0.5, 0.5, 0.7071067811865476], [-0.7071067811865476, 0.7071067811865476, 0.0],
                   [-0.5, -0.5, 0.7071067811865476]])

#: rows of two rotations about z (each with an exact unit row and exact zeros)
YAW = np.array([[0.8, 0.6, 0.0], [-0.6, 0.8, 0.0], [0.0, 0.0, 1.0]])
YAW2 = np.array([[np.cos(1.0), np.sin(1.0), 0.0], [-np.sin(1.0), np.cos(1.0), 0.0],
                 [0.0, 0.0, 1.0]])


def check(function, reference, cases, labels=None, dtype=np.float64):
    """One batched call of ``function`` on ``cases`` in ``dtype``, every row compared with the
    exact reference on the values the library got; returns the codes."""
    cols = [np.array(c, dtype=dtype) for c in zip(*cases, strict=True)]
    got = function(*cols)
    assert got.dtype == np.int8 and got.shape == (len(cases),), (
        f"expected int8 ({len(cases)},), got {got.dtype} {got.shape}")
    for i in range(len(cases)):
        row = [c[i] for c in cols]
        want = reference(*row)
        assert got[i] == want, (
            f"{labels[i] if labels else i}: {[r.tolist() for r in row]}: expected "
            f"{IntersectionType(want).name}, got {IntersectionType(int(got[i])).name}")
    return got


def as_aabb_query(case):
    c, _, h, d, b, g = case
    return c - h, c + h, d, b, g


def batches(case):
    return st.lists(case, min_size=2, max_size=6)


def per_item(n, *values):
    """``values`` repeated for ``n`` items (so the loop takes them per item)."""
    return [np.repeat(np.asarray(v, dtype=np.float64)[None], n, axis=0) for v in values]


@given(batches(obb_pairs()))
def test_obb_pairs_match_the_exact_reference(cases):
    check(classify_obb_obb, ref.classify_obb_obb, cases)


@given(batches(obb_pairs(aabb="query")))
def test_aabb_and_obb_pairs_match_the_exact_reference_either_way_round(cases):
    mixed = [as_aabb_query(case) for case in cases]
    check(classify_aabb_obb, ref.classify_aabb_obb, mixed)
    check(classify_obb_aabb, ref.classify_obb_aabb,
          [(d, b, g, lo, hi) for lo, hi, d, b, g in mixed])


#: name -> (center, axes, half_size, box_center, box_axes, box_half_size, expected)
NAMED = {
    "faces touching, same axes": ([0, 0, 0], I3, [1, 1, 1], [2, 0.5, 0], I3, [1, 1, 1], INTERSECT),
    "faces one ulp apart": ([0, 0, 0], I3, [1, 1, 1], [np.nextafter(2.0, 3.0), 0, 0], I3,
                            [1, 1, 1], NONE),
    "edges touching, quarter turn": ([0, 0, 0], I3, [1, 2, 1], [2, 3, 0], I3[[1, 0, 2]],
                                     [1, 1, 3], INTERSECT),
    "corners touching, anti-parallel": ([0, 0, 0], I3, [1, 1, 1], [2, 2, 2], -I3, [1, 1, 1],
                                        INTERSECT),
    "inside by one ulp": ([0, 0, 0], I3, [1, 1, 1], [0, 0, 0], TURNED, [UP] * 3, INTERSECT),
    "cube inside its turned copy's ball": ([0, 0, 0], I3, [0.5] * 3, [0, 0, 0], TURNED,
                                           [0.8661] * 3, INCLUDE),
    "same turned axes, inside by one ulp": ([0, 0, 0], TURNED, [1, 1, 1], [0, 0, 0], TURNED,
                                            [UP] * 3, INCLUDE),
    "same turned axes, sharing a face": ([0, 0, 0], TURNED, [1, 1, 1], [0, 0, 0], TURNED,
                                         [1, 2, 2], INTERSECT),
    "only an edge x edge axis separates": ([0, 0, 0], I3, [1, 1, 1], [-2.0, 1.0, 2.125], TURNED,
                                           [1, 1, 1], NONE),
    "axes one ulp off, edge to edge": ([0, 0, 0], TURNED, [1, 1, 1],
                                       TURNED.T @ [2.0, 2.0, 0.0],
                                       TURNED + np.diag([np.spacing(0.5), 0, 0]), [1, 1, 1],
                                       None),
    "both turned about z, vertical edges touching": ([0, 0, 0], YAW, [1, 1, 1],
                                                     YAW.T @ [2.0, 2.0, 0.5], YAW2, [1, 1, 1],
                                                     None),
    "flat box is never INCLUDE": ([0, 0, 0], I3, [0.5] * 3, [0, 0, 0], TURNED, [2, 2, 0],
                                  INTERSECT),
    "point query inside": ([0.25, 0, 0], I3, [0, 0, 0], [0, 0, 0], TURNED, [1, 1, 1], INCLUDE),
    "empty query": ([0, 0, 0], I3, [1, -1, 1], [0, 0, 0], TURNED, [1, 1, 1], NONE),
    "empty box": ([0, 0, 0], I3, [1, 1, 1], [0, 0, 0], TURNED, [1, 1, -0.5], NONE),
    "tiny boxes a subnormal apart": ([0, 0, 0], I3, [0, 0, 0], [5e-324, 0, 0], TURNED, [0, 0, 0],
                                     NONE),
}
NAMED_CASES = [[np.asarray(x, dtype=np.float64) for x in case[:6]] for case in NAMED.values()]


def test_named_cases_match_the_exact_reference_one_by_one_and_at_extreme_scales():
    got = check(classify_obb_obb, ref.classify_obb_obb, NAMED_CASES, list(NAMED))
    for (name, case), code, args in zip(NAMED.items(), got, NAMED_CASES, strict=True):
        assert case[6] is None or code == case[6], f"{name}: expected {case[6].name}"
        one = classify_obb_obb(*args)
        assert one is IntersectionType(int(code)), f"{name}, one item: expected the batch's"
    for scale in (2.0**-1000, 2.0**990):  # scaling by a power of two keeps every answer
        scaled = [[c * scale, a, h * scale, d * scale, b, g * scale]
                  for c, a, h, d, b, g in NAMED_CASES[:-1]]
        again = check(classify_obb_obb, ref.classify_obb_obb, scaled, list(NAMED)[:-1])
        np.testing.assert_array_equal(again, got[:-1], err_msg=f"scaled by {scale}: same classes")


#: (min, max, box_center, box_axes, box_half_size): a face of the AABB within two subnormals of
#: the turned OBB's extreme, at subnormal scales, where the frame change's products underflow
#: (beyond the filter's scale range: decided exactly)
SUBNORMAL_TOUCHING = [
    ([1.2880826037e-313, -4.82754042445e-313, -3.34214337077e-313],
     [3.9405773424e-313, 5.7824385304e-313, 7.26783558406e-313],
     [2.121995791e-314, 4.7744905297e-314, 1.96284610664e-313],
     [[-0.17467566891140648, 0.914512240497425, -0.3649051557195827],
      [-0.9819502786236348, -0.18909969592349507, -0.003867209925464229],
      [-0.07254006480089888, 0.35764321184949377, 0.9310366652375509]],
     [8.487983164e-314, 7.957484216e-314, 2.0158960014e-313]),
    ([1.28028647e-315, -1.989371054e-315, -1.49202829e-315],
     [2.316417225e-315, 2.155151975e-315, 2.65249474e-315],
     [8.9107245e-316, 8.289046e-317, 5.80233224e-316],
     [[0.21501897556350916, 0.12822564309077855, -0.9681554754281853],
      [0.9763859508351735, -0.006997243028812501, 0.21592015561704703],
      [0.02091208165901031, -0.991720335096519, -0.12670225647846559]],
     [3.52284457e-316, 3.10839227e-316, 4.7662015e-316]),
]


def test_subnormal_aabb_at_a_turned_obb_matches_the_exact_reference():
    got = check(classify_aabb_obb, ref.classify_aabb_obb, SUBNORMAL_TOUCHING)
    assert sorted(got.tolist()) == [NONE, INTERSECT], "expected one miss and one touch"


def test_float32_boxes_match_the_exact_reference_and_aabbs_are_obbs():
    rng = np.random.default_rng(4)
    cases = []
    for k in range(40):
        a = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        b = a if k % 4 == 0 else np.linalg.qr(rng.normal(size=(3, 3)))[0]
        h, g = rng.uniform(0.5, 2, 3), rng.uniform(0.5, 2, 3)
        cases.append((rng.uniform(-1, 1, 3), a, h, rng.uniform(-3, 3, 3), b, g))
    codes = set()
    for case in cases:
        case32 = [np.asarray(x, dtype=np.float32) for x in case]
        want = ref.classify_obb_obb(*case32)
        got = classify_obb_obb(*case32)
        assert got == want, f"float32 {[x.tolist() for x in case32]}: expected {want}, got {got}"
        codes.add(want)
    assert len(codes) > 1, "the cases should hold more than one class"
    # an OBB with the identity's axes and dyadic bounds is the AABB itself
    lo, hi = np.array([-1.0, -0.5, 0.25]), np.array([0.5, 1.0, 2.0])
    n = len(cases)
    d, b, g = (np.array([c[k] for c in cases]) for k in (3, 4, 5))
    lo_n, hi_n, mid, half, eye = per_item(n, lo, hi, (lo + hi) / 2, (hi - lo) / 2, I3)
    np.testing.assert_array_equal(classify_aabb_obb(lo_n, hi_n, d, b, g),
                                  classify_obb_obb(mid, eye, half, d, b, g),
                                  err_msg="the AABB [lo, hi] as an OBB: the same classes")
    np.testing.assert_array_equal(classify_obb_aabb(d, b, g, lo_n, hi_n),
                                  classify_obb_obb(d, b, g, mid, eye, half),
                                  err_msg="the AABB box as an OBB: the same classes")


def float32_near_touching(aabb=False, n=12, gap=3e-6):
    """``n`` OBB pairs with float32-rounded values (given as float64; the query's axes the
    identity's where ``aabb``), each box a query face normal's ``gap`` apart from, or into, the
    query: the rows' defect (some 1e-7) puts them in the one-matrix test's doubt, and the second
    test's bound (``BOX_SAT_SECOND``) far below it."""
    rng = np.random.default_rng(35)
    cases = []
    for k in range(n):
        a, b = (np.linalg.qr(rng.normal(size=(3, 3)))[0].astype(np.float32).astype(np.float64)
                for _ in range(2))
        a = I3 if aabb else a
        h, g = rng.uniform(0.5, 2, 3), rng.uniform(0.5, 2, 3)
        reach = h[0] + np.abs(b @ a[0]) @ g + (gap if k % 2 else -gap)
        c = rng.uniform(-1, 1, 3)
        cases.append([np.float32(x).astype(np.float64)
                      for x in (c, a, h, c + reach * a[0], b, g)])
    return cases


def test_float32_rows_near_touching_are_settled_by_the_second_pass(monkeypatch, each_backend):
    from geometry import aabb_obb, obb_aabb, obb_obb

    calls = []
    for module in (obb_obb, aabb_obb, obb_aabb):
        exact = module._QUERY.exact
        monkeypatch.setattr(module._QUERY, "exact",
                            lambda *item, exact=exact: calls.append(item) or exact(*item))
    cases = float32_near_touching()
    got = check(classify_obb_obb, ref.classify_obb_obb, cases)
    assert set(got.tolist()) == {NONE, INTERSECT}, "expected misses and touches by 3e-6"
    mixed = [as_aabb_query(case) for case in float32_near_touching(aabb=True)]
    got = check(classify_aabb_obb, ref.classify_aabb_obb, mixed)
    assert set(got.tolist()) == {NONE, INTERSECT}, "expected misses and touches by 3e-6"
    check(classify_obb_aabb, ref.classify_obb_aabb,
          [(d, b, g, lo, hi) for lo, hi, d, b, g in mixed])
    # (one item, and the interpreted loop, leave what the first test doubts to the exact pass)
    assert each_backend == "interpreted" or not calls, (
        f"expected the compiled second pass to settle every pair, {len(calls)} went exact")


def test_out_dask_and_the_value_check():
    centers = np.array([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 0.1]])
    query = per_item(4, [0, 0, 0], I3, [1, 1, 1])
    box_axes, box_half = per_item(4, TURNED, [2, 2, 2])
    want = [INCLUDE, NONE, INTERSECT, INCLUDE]
    out = np.full(4, 9, np.int8)
    assert classify_obb_obb(*query, centers, box_axes, box_half, out=out) is out
    assert out.tolist() == want, f"expected {want}, got {out.tolist()}"
    with pytest.raises(ValueError, match=r"^box_axes .*orthonormal"):
        classify_obb_obb(*query, centers, box_axes * 1.01, box_half)
    with pytest.raises(ValueError, match=r"^min must be finite \(or \+inf"):
        classify_aabb_obb([-np.inf, 0, 0], [1, 1, 1], centers[0], I3, [1, 1, 1])
    with pytest.raises(ValueError, match=r"^center must be finite"):
        classify_obb_aabb([np.nan, 0, 0], I3, [1, 1, 1], centers[0] - 1, centers[0] + 1)
    da = pytest.importorskip("dask.array")
    lazy = classify_obb_obb(*(da.from_array(x, chunks=2) for x in (*query, centers)),
                            box_axes, box_half)
    assert lazy.compute().tolist() == want, "dask blocks: the numpy codes"


def test_value_boxes_classify_by_the_functions():
    cube = AABB([-1.0, -1.0, -1.0], [1.0, 1.0, 1.0])
    turned = OBB([0.0, 0.0, 0.0], TURNED, [2.0, 2.0, 2.0])
    assert cube.classify(turned) is INCLUDE
    assert turned.classify(cube) is INTERSECT
    assert turned.classify(turned) is INTERSECT
    assert OBB([0.0, 0.0, 0.0], TURNED, [0.5] * 3).classify(turned) is INCLUDE
    assert AABB.empty().classify(turned) is NONE
    assert turned.classify(AABB.empty()) is NONE
    with pytest.raises(ValueError, match="^other must be an AABB or an OBB"):
        turned.classify([0.0, 0.0, 0.0])
