"""Picking through the trees of large scenes (a BoxTree over the axis-aligned boxes, one
from_obbs over the rotated ones) answers exactly as the per-box scan does, also after boxes
moved and with the NONE boxes hidden (the trees are refitted, built once), and while the
animation moves every box (the rotated ones are then scanned)."""

import numpy as np

import app.state
from app.presets import random_scene
from app.state import DemoState, classify_boxes, first_hit


def test_tree_picking_equals_the_scan_with_rotated_boxes_and_after_moves(monkeypatch):
    monkeypatch.setattr(app.state, "TREE_PICKING", 1)
    builds = []

    class CountingTrees(app.state.PickingTrees):
        def __init__(self, boxes):
            builds.append(1)
            super().__init__(boxes)

    monkeypatch.setattr(app.state, "PickingTrees", CountingTrees)
    state = DemoState(random_scene(400, seed=3))
    assert state.boxes.is_obb.any() and not state.boxes.is_obb.all()
    rng = np.random.default_rng(7)
    target = state.boxes.center[rng.integers(0, 400, 60)]
    origin = rng.uniform(-40, 40, (60, 3))
    hits = 0
    for round_ in range(3):
        state.show_none = round_ != 1
        for o, c in zip(origin, target, strict=True):
            d = c - o + rng.uniform(-0.5, 0.5, 3)
            got = state.pick(o, d)
            shown = np.flatnonzero(state.classes != 0) if round_ == 1 else np.arange(400)
            want = first_hit(o, d, state.boxes.subset(shown))
            want = (None if want[0] is None else int(shown[want[0]]), want[1])
            assert got == want, "tree picking differs from the scan of the boxes shown"
            hits += got[0] is not None
        for box in (int(got[0] or 0), int(np.flatnonzero(state.boxes.is_obb)[round_])):
            state.move_box(box, [3.0, 0.0, 0.0])  # the trees must follow the box
        np.testing.assert_array_equal(
            state.classes, classify_boxes(state.start, state.end, state.boxes),
            err_msg="after a box moved, the classes should be geometry's for every box")
    assert hits > 70, f"expected most picking rays to hit, got {hits} of 180"
    monkeypatch.setattr(app.state, "OBB_REFIT_MOST", 5)
    state.playing = True
    state.step(0.5)  # every box moves: the rotated ones are scanned from now on
    for o, c in zip(origin[:20], target[:20], strict=True):
        assert state.pick(o, c - o) == first_hit(o, c - o, state.boxes), \
            "picking while the animation plays differs from the scan"
    assert state._tree is not None and state._tree.obb is None, \
        "an animation step moving more rotated boxes than OBB_REFIT_MOST drops the OBB tree"
    assert builds == [1], f"expected one tree build and refits after moves, got {len(builds)}"
