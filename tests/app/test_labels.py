"""Explain mode's in-scene labels: the layout rules (no GPU), then rendered frames where the
labels must overlap neither each other nor the panels, sit on a plate that reads over any box
colour, and pin far-off points to the viewport's edge with an arrow."""

import colorsys
import itertools
import math

import numpy as np
import pytest

from app.labels import Rect, pin_to_viewport, place_labels


def _assert_disjoint(rects, blocked, size, what=""):
    placed = [r for r in rects if r is not None]
    for a, b in itertools.combinations(placed, 2):
        assert not a.overlaps(b), f"{what}labels overlap: {a} and {b}"
    for r in placed:
        assert r.inside(*size), f"{what}label {r} leaves the {size} viewport"
        for o in blocked:
            assert not r.overlaps(o), f"{what}label {r} overlaps the panel {o}"


@pytest.mark.parametrize("seed", range(20))
def test_place_labels_never_overlaps_labels_panels_or_markers(seed):
    rng = np.random.default_rng(seed)
    size = (640, 360)
    hud, panel = Rect(6, 4, 400, 110), Rect(6, 250, 330, 104)
    n = int(rng.integers(2, 9))
    # anchors clustered (the case that piled labels up), some of them under a panel
    centre = rng.uniform([100, 60], [540, 300])
    anchors = [tuple(centre + rng.normal(0, 15, 2)) for _ in range(n)]
    sizes = [(float(rng.uniform(60, 150)), 20.0) for _ in range(n)]
    markers = [Rect(x - 7, y - 7, 14, 14) for x, y in anchors]
    rects = place_labels(anchors, sizes, size, [hud, panel], markers)
    _assert_disjoint(rects, [hud, panel, *markers], size)
    assert all(r is not None for r in rects), "a 640x360 view has room for 8 labels"
    for (ax, ay), r in zip(anchors, rects, strict=True):
        assert math.dist(r.nearest_point(ax, ay), (ax, ay)) < 250, "label far from its anchor"


def test_place_labels_leaves_out_what_cannot_fit():
    rects = place_labels([(20, 20)] * 3, [(60, 20)] * 3, (70, 50))
    placed = [r for r in rects if r is not None]
    assert len(placed) == 2 and not placed[0].overlaps(placed[1])
    assert rects.count(None) == 1, "no room: left out, never drawn over another label"


def test_pin_inside_the_viewport_is_the_projection():
    pin = pin_to_viewport(np.array([0.5, -0.5, 0.0, 2.0]), (400, 200))
    assert (pin.x, pin.y, pin.arrow) == (250.0, 125.0, None)


@pytest.mark.parametrize("clip, edge", [
    ([5.0, 0.0, 0.0, 1.0], "right"), ([-5.0, 0.1, 0.0, 1.0], "left"),
    ([0.0, 9.0, 0.0, 1.0], "top"), ([0.2, -3.0, 0.0, 1.0], "bottom"),
    ([3.0, 0.0, 0.0, -1.0], "right"),  # behind the camera, to its right
])
def test_far_off_points_pin_to_the_edge_with_an_arrow_towards_them(clip, edge):
    size, margin = (400, 200), 16.0
    pin = pin_to_viewport(np.array(clip), size, margin)
    assert pin.arrow is not None
    where = {"right": pin.x == pytest.approx(size[0] - margin),
             "left": pin.x == pytest.approx(margin), "top": pin.y == pytest.approx(margin),
             "bottom": pin.y == pytest.approx(size[1] - margin)}
    assert where[edge], f"expected the pin on the {edge} edge, got ({pin.x}, {pin.y})"
    ux, uy = pin.arrow
    assert math.hypot(ux, uy) == pytest.approx(1.0)
    assert {"right": ux > 0.9, "left": ux < -0.9, "top": uy < -0.9, "bottom": uy > 0.9}[edge]


def test_slab_marker_colours_are_not_class_colours():
    from app.colors import CLASS_RGB, SLAB_AXES

    for axis, rgb in zip("xyz", SLAB_AXES, strict=True):
        h = colorsys.rgb_to_hsv(*rgb)[0] * 360
        for cls, crgb in enumerate(CLASS_RGB):
            hc = colorsys.rgb_to_hsv(*crgb)[0] * 360
            d = min(abs(h - hc), 360 - abs(h - hc))
            assert d >= 40, f"{axis}-slab colour {rgb} is {d:.0f} deg of hue from class {cls}"


# --- rendered -------------------------------------------------------------------------------
CASES = [("blog", i, None) for i in range(6)] + [("obb", i, None) for i in range(6)] + [
    ("blog", 0, {"yaw": 95.0, "pitch": 8.0, "distance": 5.0}),  # close up: points off-screen
    ("obb", 0, {"yaw": -30.0, "pitch": 60.0, "distance": 6.0}),
    ("edges", 0, None), ("grid", 3, None)]


def _explain_frame(app, scene_name, box, camera, size):
    from dataclasses import replace

    from app.headless import headless_app
    from app.scene import resolve_scene

    scene = resolve_scene(scene_name)
    if camera:
        scene.camera = replace(scene.camera, **camera)
    app = headless_app(scene, size)
    app.state.selected, app.state.explain, app.state.show_help = box, True, False
    app.render_frame()
    return app, app.read_image()


@pytest.mark.parametrize("size", [(640, 360), (1280, 720)])
@pytest.mark.parametrize("scene,box,camera", CASES)
def test_explain_labels_are_placed_clear_of_each_other_and_the_panels(gl_app, scene, box,
                                                                       camera, size):
    app, _ = _explain_frame(gl_app, scene, box, camera, size)
    labels, panels = app.view.labels, app.view.panels
    assert "hud" in panels and "explain" in panels
    assert all(lb.rect is not None for lb in labels), (
        f"every label should find room at {size}: {[lb.text for lb in labels if lb.rect is None]}")
    _assert_disjoint([lb.rect for lb in labels], list(panels.values()), size,
                     f"{scene} box {box} at {size}: ")
    assert not panels["hud"].overlaps(panels["explain"]), "the explain panel covers the HUD"


def test_labels_read_on_a_dark_plate_over_a_red_box(gl_app):
    """blog, box 0 (red) explained: a label lies over the red box; inside its plate the
    background is dark whatever is behind, and the text is bright."""
    app, image = _explain_frame(gl_app, "blog", 0, None, (1280, 720))
    for lb in app.view.labels:
        r = lb.rect
        x0, y0, x1, y1 = (int(math.ceil(r.x)) + 3, int(math.ceil(r.y)),
                          int(r.right) - 1, int(r.bottom) - 1)
        luma = image[y0:y1, x0:x1].astype(float) @ [0.299, 0.587, 0.114]
        plate, text = np.percentile(luma, 30), np.percentile(luma, 99)
        assert plate < 45, f"label {lb.text!r}: plate too light ({plate:.0f}) to read on"
        assert text > 150 and text - plate > 110, (
            f"label {lb.text!r}: text luminance {text:.0f} on plate {plate:.0f}")


def test_far_off_slab_point_is_pinned_to_the_edge_with_its_marker(gl_app):
    """obb scene, box 0: its v slab is left at t = 5, off the right of the 1280x720 view."""

    app, image = _explain_frame(gl_app, "obb", 0, None, (1280, 720))
    far = [lb for lb in app.view.labels if lb.pin.arrow is not None]
    assert far, f"expected an off-screen slab point: {[lb.text for lb in app.view.labels]}"
    for lb in far:
        p = lb.pin
        assert min(p.x, p.y, 1280 - p.x, 720 - p.y) == pytest.approx(16.0), "not on the edge"
        centre = image[int(round(p.y)), int(round(p.x))].astype(float) / 255
        assert np.abs(centre - np.array(lb.color[:3])).max() < 0.2, (
            f"marker of {lb.text!r} at ({p.x:.0f}, {p.y:.0f}) should be {lb.color[:3]}, "
            f"found {centre}")
