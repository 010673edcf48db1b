"""HUD, explain panel and help overlay: never overlapping, text never under 11 px, inside the
window, on plates opaque enough to read over a busy scene."""

import itertools

import numpy as np
import pytest

SIZES = [(640, 360), (400, 300), (1000, 560), (1280, 720)]


def _frame(app, scene_name, size, explain=False, show_help=False, select=None):
    from app.headless import headless_app
    from app.scene import resolve_scene

    app = headless_app(resolve_scene(scene_name), size)
    st = app.state
    st.selected, st.explain, st.show_help = select, explain, show_help
    app.render_frame()
    return app, app.read_image()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene,select", [("blog", 0), ("obb", 0)])
def test_panels_never_overlap_and_text_is_at_least_11_px(gl_app, size, scene, select):
    from app.view import MIN_FONT, MIN_FONT_WINDOW

    small = size[0] < MIN_FONT_WINDOW[0] or size[1] < MIN_FONT_WINDOW[1]
    for explain, show_help in ((True, False), (False, True), (True, True)):
        app, _ = _frame(gl_app, scene, size, explain, show_help, select)
        blocks, panels = app.view.blocks, app.view.panels  # text blocks; every panel's plate
        assert ("help" in panels) == show_help
        assert ("explain" in panels) == explain or show_help, "explain panel only gives way to help"
        for (na, a), (nb, b) in itertools.combinations(panels.items(), 2):
            assert not a.overlaps(b), f"{size}: {na} overlaps {nb}"
        fonts = {name: block.font for name, block in blocks.items()}
        if "explain" in panels:  # the lesson panel (app.lesson), its smallest text
            fonts["explain"] = min(font for *_, font in app.view.lesson.texts)
        for name, r in panels.items():
            if not small:
                assert fonts[name] >= MIN_FONT == 11.0, (
                    f"{size}: {name} text at {fonts[name]:.1f} px"
                )
            assert r.x >= 0 and r.y >= 0 and r.bottom <= size[1], f"{size}: {name} {r} leaves"
            if size[0] >= 640:
                assert r.right <= size[0], f"{size}: {name} is cut off at the right: {r}"
        if not show_help or size[1] >= 560:
            assert "hud" in blocks, f"{size}: the HUD must stay unless the help needs the room"


def test_hud_plate_hides_a_busy_scene(gl_app):
    """The grid scene fills the HUD's corner with bright green boxes: under the plate,
    away from the glyphs, the picture is dark."""
    app, image = _frame(gl_app, "grid", (640, 360))
    r = app.view.panels["hud"]
    plate = image[int(r.y) + 1:int(r.bottom) - 1, int(r.x) + 1:int(r.right) - 1].astype(float)
    luma = plate @ [0.299, 0.587, 0.114]
    assert np.percentile(luma, 40) < 40, f"the HUD plate lets the scene through: {luma.mean()}"
    assert np.percentile(luma, 99.5) > 170, "the HUD text should be bright on it"


def test_numbers_on_screen_stay_short_at_any_scene_size():
    from app.hud import fmt_number

    assert [fmt_number(x) for x in (0.25, -1234.5, 1e20, -3.4e38, float("inf"))] == [
        "0.25", "-1234.50", "1e+20", "-3.4e+38", "+inf"]
