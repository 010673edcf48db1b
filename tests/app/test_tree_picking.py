"""Picking through a BoxTree (large scenes) answers exactly as the per-box scan does, also
after boxes moved (the tree is refitted, built once)."""

import numpy as np

import app.state
import geometry
from app.presets import random_scene
from app.state import DemoState, classify_boxes, first_hit


def test_tree_picking_equals_the_scan_with_rotated_boxes_and_after_moves(monkeypatch):
    monkeypatch.setattr(app.state, "TREE_PICKING", 1)
    builds = []

    class CountingTree(geometry.BoxTree):
        def __init__(self, *args):
            builds.append(1)
            super().__init__(*args)

    monkeypatch.setattr(geometry, "BoxTree", CountingTree)
    state = DemoState(random_scene(400, seed=3))
    assert state.boxes.is_obb.any() and not state.boxes.is_obb.all()
    rng = np.random.default_rng(7)
    target = state.boxes.center[rng.integers(0, 400, 60)]
    origin = rng.uniform(-40, 40, (60, 3))
    hits = 0
    for _ in range(3):
        for o, c in zip(origin, target, strict=True):
            d = c - o + rng.uniform(-0.5, 0.5, 3)
            got = state.pick(o, d)
            assert got == first_hit(o, d, state.boxes), "tree picking differs from the scan"
            hits += got[0] is not None
        state.move_box(int(got[0] or 0), [3.0, 0.0, 0.0])  # the tree must follow the box
        np.testing.assert_array_equal(
            state.classes, classify_boxes(state.start, state.end, state.boxes),
            err_msg="after a box moved, the classes should be geometry's for every box")
    assert hits > 90, f"expected most picking rays to hit, got {hits} of 180"
    assert builds == [1], f"expected one tree build and refits after moves, got {len(builds)}"
