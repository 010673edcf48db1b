"""Dragging a box in a dense scene draws the other boxes once (``app.drag_cache``): the frames
of the drag equal a full redraw of the same state everywhere but under the dragged box (which
the drag draws over everything), and a change to another box redraws them."""

from __future__ import annotations

import numpy as np

SIZE = (320, 180)


def test_a_cached_drag_frame_is_the_full_frame_outside_the_dragged_box(egl_app, monkeypatch):
    import app.box_view
    import app.drag_cache
    import app.renderers.boxes
    from app.headless import headless_app
    from app.presets import random_scene

    # a dense scene's drawing (opaque boxes, hits on top) without drawing 20 000 boxes
    monkeypatch.setattr(app.box_view, "DENSE_BOXES", 100)
    monkeypatch.setattr(app.drag_cache, "CACHED_DRAG_BOXES", 100)
    demo = headless_app(random_scene(400, 3), SIZE)
    st, view = demo.state, demo.view
    st.explain = st.show_help = False  # (earlier tests leave the shared app as they like)
    st.show_none = True
    box = 0  # the box around the segment: large, a hit, drawn over the rest

    def frame(dragged):
        demo.wnd.use()
        view.draw(st, demo.camera, SIZE, 0.0, "", dragged)
        return np.flipud(np.frombuffer(demo.wnd.fbo.read(components=3), dtype=np.uint8)
                         .reshape(SIZE[1], SIZE[0], 3))

    frame(box)
    assert view.drag_cache.key is not None, "expected the first drag frame to build the cache"
    st.move_box(box, (0.0, 3.0, 0.0))
    cached = frame(box)
    assert view.drag_cache.key is not None, "expected a frame over the cache"
    full = frame(None)
    assert view.drag_cache.key is None, "expected no cache without a drag"
    corners = demo.camera.project(
        app.renderers.boxes.box_corners(st.boxes, box).reshape(-1, 3), SIZE)
    x0, y0 = np.floor(corners[:, :2].min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners[:, :2].max(axis=0)).astype(int) + 2
    differ = np.abs(cached.astype(int) - full).max(axis=-1) > 8
    differ[max(y0, 0):y1, max(x0, 0):x1] = False
    assert differ.sum() == 0, (
        f"expected the cached drag frame to equal the full frame outside the dragged box, "
        f"{differ.sum()} pixels differ")
    st.move_box(box + 1, (0.4, 0.0, 0.0))  # another box moved: the cache is rebuilt
    frame(box)
    again = frame(box)
    st.move_box(box, (0.0, 0.0, 0.0))
    assert np.array_equal(again, frame(box)), "expected the rebuilt cache to stay"
