"""Picking through a BoxTree (large scenes) answers exactly as the per-box scan does."""

import numpy as np

import app.state
from app.presets import random_scene
from app.state import DemoState, first_hit


def test_tree_picking_equals_the_scan_with_rotated_boxes_and_after_moves(monkeypatch):
    monkeypatch.setattr(app.state, "TREE_PICKING", 1)
    state = DemoState(random_scene(400, seed=3))
    assert state.boxes.is_obb.any() and not state.boxes.is_obb.all()
    rng = np.random.default_rng(7)
    target = state.boxes.center[rng.integers(0, 400, 60)]
    origin = rng.uniform(-40, 40, (60, 3))
    hits = 0
    for _ in range(2):
        for o, c in zip(origin, target, strict=True):
            d = c - o + rng.uniform(-0.5, 0.5, 3)
            got = state.pick(o, d)
            assert got == first_hit(o, d, state.boxes), "tree picking differs from the scan"
            hits += got[0] is not None
        state.move_box(int(got[0] or 0), [3.0, 0.0, 0.0])  # the tree must be rebuilt
    assert hits > 60, f"expected most picking rays to hit, got {hits} of 120"
