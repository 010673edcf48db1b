"""classify_aabb_aabb against the exact reference (SEMANTICS.md, "Box vs box")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import AABB, IntersectionType, classify_aabb_aabb
from tests.geometry import exact_reference as ref
from tests.strategies import boxes, boxes_near, dyadic_coords

pytestmark = pytest.mark.usefixtures("each_backend")

NONE, INTERSECT, INCLUDE = IntersectionType
INF = np.inf
UP, DOWN = np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0)
TINY = np.nextafter(0.0, 1.0)  # the smallest subnormal
UNIT = ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])


def box_pairs():
    """A box, and a query box placed against it (inside, touching, poking out, missing)."""
    return boxes(dyadic_coords, empty=True).flatmap(
        lambda box: boxes_near(box, dyadic_coords).map(lambda q: (*q, *box)))


def assert_matches_reference(cases, dtype=np.float64, labels=None):
    """One batched call on ``cases`` [(min, max, box_min, box_max), ...] in ``dtype``, each row
    compared with the exact reference on the very values the library got."""
    cols = [np.array(c, dtype=dtype) for c in zip(*cases, strict=True)]
    got = classify_aabb_aabb(*cols)
    assert got.dtype == np.int8 and got.shape == (len(cases),), (
        f"expected int8 ({len(cases)},), got {got.dtype} {got.shape}")
    for i in range(len(cases)):
        row = [c[i] for c in cols]
        want = ref.classify_aabb_aabb(*row)
        label = labels[i] if labels else i
        assert got[i] == want, (
            f"{label}: {[r.tolist() for r in row]}: expected {IntersectionType(want).name}, "
            f"got {IntersectionType(int(got[i])).name}")
    return got


@given(st.lists(box_pairs(), min_size=2, max_size=10))  # per item: one compiled loop
def test_box_pairs_match_the_exact_reference(cases):
    assert_matches_reference(cases)


def _shift(box, offset):
    return [np.add(box[0], offset).tolist(), np.add(box[1], offset).tolist()]


#: name -> (min, max, box_min, box_max, expected class)
NAMED = {
    "equal boxes": (*UNIT, *UNIT, INTERSECT),
    "touching a face": (*_shift(UNIT, [1, 0, 0]), *UNIT, INTERSECT),
    "touching an edge": (*_shift(UNIT, [1, -1, 0]), *UNIT, INTERSECT),
    "touching a corner": (*_shift(UNIT, [-1, -1, -1]), *UNIT, INTERSECT),
    "one ulp beyond a face": ([UP, 0, 0], [2, 1, 1], *UNIT, NONE),
    "one ulp beyond a corner": ([UP, UP, UP], [2, 2, 2], *UNIT, NONE),
    "one ulp inside": ([TINY] * 3, [DOWN] * 3, *UNIT, INCLUDE),
    "inside but on one face plane": ([TINY, TINY, 0.0], [DOWN] * 3, *UNIT, INTERSECT),
    "the box inside the query": ([-1.0] * 3, [2.0] * 3, *UNIT, INTERSECT),
    "poking out by one ulp": ([0.5] * 3, [0.75, 0.75, UP], *UNIT, INTERSECT),
    "flat query inside": ([0.25, 0.25, 0.5], [0.75, 0.75, 0.5], *UNIT, INCLUDE),
    "point query inside": ([0.5] * 3, [0.5] * 3, *UNIT, INCLUDE),
    "point query on a corner": ([1.0] * 3, [1.0] * 3, *UNIT, INTERSECT),
    "query around a flat box": ([0.0] * 3, [1.0] * 3, [0.25] * 3, [0.75, 0.75, 0.25],
                                INTERSECT),
    "point query in a flat box": ([0.5] * 3, [0.5] * 3, [0.0] * 3, [1.0, 1.0, 0.5], INTERSECT),
    "empty query": ([0.25, 0.75, 0.25], [0.75, 0.25, 0.75], *UNIT, NONE),
    "empty box": ([-1.0] * 3, [2.0] * 3, [0.0, 1.0, 0.0], [1.0, 0.0, 1.0], NONE),
    "AABB.empty() query": ([INF] * 3, [-INF] * 3, *UNIT, NONE),
    "AABB.empty() box": (*UNIT, [INF] * 3, [-INF] * 3, NONE),
    "both AABB.empty()": ([INF] * 3, [-INF] * 3, [INF] * 3, [-INF] * 3, NONE),
    "1e-300 inside": ([1e-300] * 3, [2e-300] * 3, [0.0] * 3, [3e-300] * 3, INCLUDE),
    "1e-300 touching": ([-1e-300] * 3, [0.0] * 3, [0.0] * 3, [3e-300] * 3, INTERSECT),
    "subnormals apart": ([-TINY] * 3, [-TINY] * 3, [0.0] * 3, [TINY] * 3, NONE),
    "1e300 touching": ([-1e300] * 3, [1e300] * 3, [1e300] * 3, [1.7e308] * 3, INTERSECT),
    "1e300 inside": ([-1e300] * 3, [1e300] * 3, [-1.7e308] * 3, [1.7e308] * 3, INCLUDE),
    "1e300 apart": ([-1e300] * 3, [1e300] * 3, [1.5e300] * 3, [1.7e308] * 3, NONE),
}


def test_named_cases_match_the_exact_reference_in_float64_one_by_one_and_float32():
    cases = [case[:4] for case in NAMED.values()]
    got = assert_matches_reference(cases, labels=list(NAMED))
    want = [case[4] for case in NAMED.values()]
    assert got.tolist() == want, f"expected {want}, got {got.tolist()}"
    for name, case in NAMED.items():
        one = classify_aabb_aabb(*case[:4])
        assert one is case[4], f"{name}, one item: expected {case[4].name}, got {one!r}"
    # float32 through one-item calls (a float32 batch would be one more loop to compile)
    for name, case in NAMED.items():
        if np.all(np.isin(np.abs(case[:4]), [0.0, INF]) | (np.abs(case[:4]) > 1e-37)
                  & (np.abs(case[:4]) < 1e38)):  # float32's normal range
            args = [np.array(x, dtype=np.float32) for x in case[:4]]
            want = ref.classify_aabb_aabb(*args)
            got = classify_aabb_aabb(*args)
            assert got == want, f"{name}, float32: expected {want}, got {got!r}"


def test_out_broadcasting_and_the_value_check():
    lo = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [0.25, 0.25, 0.25]])
    out = np.full(3, 9, np.int8)
    assert classify_aabb_aabb(lo, lo + 0.5, *UNIT, out=out) is out
    assert out.tolist() == [INTERSECT, NONE, INCLUDE], f"expected 1, 0, 2, got {out.tolist()}"
    with pytest.raises(ValueError, match=r"^max must be finite \(or -inf.*at index \(1, 0\)"):
        classify_aabb_aabb(lo, np.where(lo > 1, INF, lo + 0.5), *UNIT)
    with pytest.raises(ValueError, match=r"^box_min must be finite \(or \+inf"):
        classify_aabb_aabb(*UNIT, [0.0, -INF, 0.0], [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match=r"^min must be finite"):
        classify_aabb_aabb([np.nan, 0.0, 0.0], [1.0] * 3, *UNIT)


def test_dask_arrays_give_the_same_codes():
    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(5)
    a, b = rng.integers(-3, 4, (2, 40, 3)).astype(float)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    query = np.full((40, 3), -1.0), np.full((40, 3), 1.0)  # per item: the loop compiled already
    lazy = classify_aabb_aabb(*query, da.from_array(lo, chunks=16), da.from_array(hi, chunks=16))
    np.testing.assert_array_equal(lazy.compute(), classify_aabb_aabb(*query, lo, hi),
                                  err_msg="dask blocks: the numpy codes")


def test_value_boxes_classify_by_the_function():
    box = AABB([0.0, 0.0, 0.0], [2.0, 2.0, 2.0])
    assert AABB([0.5] * 3, [1.0] * 3).classify(box) is INCLUDE
    assert box.classify(AABB([2.0, 0.0, 0.0], [3.0, 1.0, 1.0])) is INTERSECT
    assert AABB.empty().classify(box) is NONE
