"""Bad and unusual boxes inside large batches, where only doubtful items are validated.

The segment and ray kernels do not read a batch twice: for one shared segment or ray they prove
the boxes finite from their own quotients and validate (raise, or replace the empty-box
infinities) only when that proof fails. These cases pin that down at the batch's first, middle
and last rows, on both kernel paths (one shared line; per-box lines) and with zero direction
components.
"""

from __future__ import annotations

import numpy as np
import pytest

from geometry import classify_segment_aabb, intersect_ray_aabb, triangle_overlaps_aabb
from tests.geometry import exact_reference as ref

# every test here runs with the compiled slab passes and with numpy only
pytestmark = pytest.mark.usefixtures("each_backend")

#: Boxes a batch holds and the rows given bad or empty-box values, per backend: the compiled
#: loops take 65 541 boxes; the interpreted loop runs the same filter item by item in Python
#: (some 10 us an item), where a few boxes show the same property.
BATCHES = {"jit": (65541, (0, 32767, 32768, 65540)), "interpreted": (11, (0, 4, 5, 10))}
ROW_SLOTS = range(4)  # test ids: which of the backend's rows


@pytest.fixture
def batch(each_backend):
    """(boxes in the batch, the rows that get bad values) for the backend under test."""
    return BATCHES[each_backend]


def boxes(n: int, seed: int = 5):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(-3, 4, (2, n, 3)).astype(np.float64)
    return np.minimum(a, b), np.maximum(a, b)


#: name -> call(box_min, box_max); "shared" ones test one line against the batch
CALLS = {
    "segment shared": lambda lo, hi: classify_segment_aabb(
        [-2.5, 0.5, 1.0], [2.0, 1.0, 1.5], lo, hi
    ),
    "segment shared, zero dy": lambda lo, hi: classify_segment_aabb(
        [-2.5, 1.0, 1.0], [2.0, 1.0, 1.5], lo, hi
    ),
    "segment per box": lambda lo, hi: classify_segment_aabb(
        np.broadcast_to([-2.5, 0.5, 1.0], lo.shape) + np.arange(len(lo))[:, None] % 2,
        [2.0, 1.0, 1.5],
        lo,
        hi,
    ),
    "ray shared": lambda lo, hi: intersect_ray_aabb([-4.0, 0.5, 1.0], [1.0, 0.1, 0.05], lo, hi),
    "ray shared, zero dz": lambda lo, hi: intersect_ray_aabb(
        [-4.0, 0.5, 1.0], [1.0, 0.1, 0.0], lo, hi
    ),
    "triangle": lambda lo, hi: triangle_overlaps_aabb([-2, 0, 1], [2, 1, 1], [0, 3, -1], lo, hi),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("slot", ROW_SLOTS)
@pytest.mark.parametrize("name, axis, bad", [("box_min", 0, np.nan), ("box_max", 1, np.nan),
                                             ("box_min", 2, -np.inf), ("box_max", 2, np.inf),
                                             ("box_min", 1, -np.inf)])
def test_a_bad_coordinate_anywhere_in_a_batch_names_argument_and_row(call, slot, name, axis, bad,
                                                                      batch):
    n, rows = batch
    row = rows[slot]
    lo, hi = boxes(n)
    (lo if name == "box_min" else hi)[row, axis] = bad
    with pytest.raises(ValueError, match=rf"{name} must be finite .* at index \({row}, {axis}\)"):
        CALLS[call](lo, hi)


def _as_list(result):
    return [np.asarray(x) for x in result] if isinstance(result, tuple) else [np.asarray(result)]


@pytest.mark.parametrize("call", sorted(CALLS))
def test_empty_box_infinities_in_a_batch_are_empty_boxes(call, batch):
    n, rows = batch
    lo, hi = boxes(n)
    want = _as_list(CALLS[call](lo, hi))
    empty_lo, empty_hi = lo.copy(), hi.copy()
    for k, row in enumerate(rows):
        empty_lo[row, k % 3] = np.inf  # +inf in min or -inf in max: the box is empty
        empty_hi[row, (k + 1) % 3] = -np.inf
    got = _as_list(CALLS[call](empty_lo, empty_hi))
    others = np.setdiff1d(np.arange(n), rows)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(
            g[others], w[others], err_msg="rows next to empty boxes changed"
        )
    # an empty box is never met: NONE, no hit (t = +inf), no overlap
    empty = list(rows)
    assert not got[0][empty].any(), (
        f"{call}: empty boxes must be NONE / missed, got {got[0][empty]}")
    for g in got[1:]:
        assert np.all(g[empty] == np.inf), f"{call}: empty boxes must give t = +inf, got {g[empty]}"


def test_overflowing_quotients_are_not_mistaken_for_bad_input(batch):
    """Finite boxes far away from a very short segment: the quotients overflow to +-inf, which
    fails the finiteness proof; validation then passes and the answers are still exact."""
    n, _ = batch
    lo, hi = boxes(n // 2 + 3)
    lo[::7] *= 1e306
    hi[::7] *= 1e306
    start, end = np.array([0.0, 0.25, 0.0]), np.array([2.0**-1000, 0.25, 2.0**-1000])
    got = classify_segment_aabb(start, end, lo, hi)
    hit = intersect_ray_aabb(start, end - start, lo, hi)
    for i in list(range(0, len(lo), 997 if len(lo) > 997 else 1)) + [len(lo) - 1]:
        assert got[i] == ref.classify_segment_aabb(start, end, lo[i], hi[i]), f"row {i}"
        want = ref.intersect_ray_aabb(start, end - start, lo[i], hi[i])
        assert bool(hit.hit[i]) == want[0], f"row {i}"
