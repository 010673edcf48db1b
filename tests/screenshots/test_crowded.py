"""Crowded scenes: every class the HUD counts shows on screen in its documented colour (hues
from SEMANTICS.md, not from app.colors), NONE boxes can be hidden (N) and picking then skips
them, and explain mode still works."""

from __future__ import annotations

import numpy as np
import pytest
from tests.screenshots.screenshot_helpers import class_hues, hue_distance, render_app, resize_headless, rgb_to_hsv

SIZE = (640, 360)


def _show(n: int, seed: int = 0):
    from app.headless import headless_app
    from app.presets import random_scene

    resize_headless(SIZE)
    app = headless_app(random_scene(n, seed), SIZE)
    st = app.state
    st.explain = st.show_help = st.playing = False
    st.selected = st.hovered = None
    st.show_none = True
    return app


def _class_pixels(app, image) -> list[int]:
    """Pixels outside the HUD's plate and the axis gizmo (pure red, green, blue lines) whose
    hue is a class's documented hue (+-20 degrees), saturated and bright enough to be a box."""
    from PIL import Image, ImageDraw

    hud = app.view.panels["hud"]
    cover = Image.new("L", SIZE, 0)
    draw = ImageDraw.Draw(cover)
    draw.rectangle([0, 0, hud.right + 2, hud.bottom + 2], fill=255)
    gizmo = app.camera.project(np.vstack([np.zeros(3), np.eye(3) * 1.5]), app.size)[:, :2]
    for end in gizmo[1:]:
        draw.line([tuple(gizmo[0]), tuple(end)], fill=255, width=9)
    mask = np.asarray(cover) == 0
    hsv = rgb_to_hsv(image[mask].astype(np.float64) / 255.0)
    strong = (hsv[:, 1] > 0.45) & (hsv[:, 2] > 0.3)
    return [int((strong & (np.array([hue_distance(h, want) for h in hsv[:, 0]]) < 20)).sum())
            for _, want in sorted(class_hues().items())]


@pytest.mark.parametrize("n, dense", [(1500, False), (6000, False), (6000, True)],
                         ids=["1500", "6000", "6000-opaque"])
def test_every_counted_class_is_seen_in_its_colour(egl_app, monkeypatch, n, dense):
    import app.box_view

    if dense:  # the opaque mode of >= DENSE_BOXES boxes, without drawing 20 000 of them
        monkeypatch.setattr(app.box_view, "DENSE_BOXES", 1000)
    demo = _show(n)
    image = render_app(demo)
    counts = demo.state.counts()
    seen = _class_pixels(demo, image)
    for cls, (count, pixels) in enumerate(zip(counts, seen, strict=True)):
        if count:
            assert pixels >= 40, (
                f"{n} boxes: the HUD counts {count} boxes of class {cls} but only {pixels} pixels "
                f"of its colour show outside the HUD (seen per class: {seen})")
    assert counts[1] and counts[2], "test scene problem: no hits to look for"


def test_hidden_none_boxes_leave_no_green_and_picking_skips_them(egl_app):
    demo = _show(6000)
    keys = demo.wnd.keys
    demo.on_key_event(keys.N, keys.ACTION_PRESS, None)
    assert not demo.state.show_none
    image = render_app(demo)
    green, blue, red = _class_pixels(demo, image)
    assert green == 0 and blue > 40 and red > 40, (green, blue, red)
    # a click on a blue box behind green ones picks the blue one now
    from app.state import first_hit

    st = demo.state
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    candidates = [st.boxes.center[i] + 0.7 * s * st.boxes.half_size[i]
                  for i in np.flatnonzero(st.classes == 1) for s in signs]
    for point in candidates:
        x, y = demo.camera.project(point, demo.size)[:2]
        if demo.controller.handle_at(x, y) is not None:
            continue  # a press there grabs the segment
        origin, direction = demo.camera.ray(x, y, demo.size)
        shown_first, _ = first_hit(origin, direction, st.boxes)
        if shown_first is not None and st.classes[shown_first] == 0:
            demo.on_mouse_press_event(int(x), int(y), 1)
            demo.on_mouse_release_event(int(x), int(y), 1)
            assert st.selected is not None and st.classes[st.selected] != 0, (
                f"with NONE boxes hidden, a click at ({x:.0f}, {y:.0f}) picked green box "
                f"{st.selected}")
            break
    else:
        pytest.fail("test scene problem: no blue box behind a green one")
    demo.on_key_event(keys.X, keys.ACTION_PRESS, None)
    render_app(demo)
    assert st.explain and demo.view.labels, "explain mode works with NONE boxes hidden"
    demo.on_key_event(keys.N, keys.ACTION_PRESS, None)
    assert st.show_none
