"""Golden screenshots: every preset, explain mode, the help overlay, triangle highlighting and
three camera angles, rendered headless (Mesa llvmpipe via EGL, no multisampling, frozen clock,
fixed seed) and compared with ``tests/golden/<name>.png``.

Tolerance (see ``screenshot_compare`` and ``test_calibration``): a pixel differs when a channel
differs by more than 8/255; a test fails when more than 0.05 % of the pixels differ. On failure the
actual, golden, diff and side-by-side images are written to ``tests/output/screenshots/``.
Regenerate with ``pytest tests/screenshots --update-golden`` and LOOK at every changed PNG before
committing it (``git diff --stat tests/golden``; any image viewer).
"""

from __future__ import annotations

import pytest
from tests.screenshots.screenshot_compare import assert_matches_golden
from tests.screenshots.screenshot_helpers import Case, render_case

CASES = [
    # every shipped preset (the number keys 1-6), at the scene's own camera
    Case("preset_blog", "blog"),
    Case("preset_grid", "grid"),
    Case("preset_obb", "obb"),
    Case("preset_triangles", "triangles"),
    Case("preset_rays", "rays"),
    Case("preset_edges", "edges"),
    # the generated random scene (keys 7-9, --boxes N --seed S) is seeded: reproducible
    Case("random_150_seed0", "random:150:0"),
    # explain mode: the slab entry/exit markers, [t0, t1] and the rule text for a blue box
    Case("blog_explain", "blog", size=(640, 400), options={"explain": True, "selected": 1}),
    # the help overlay, big enough for every line to be readable
    Case("blog_help", "blog", size=(1000, 560), options={"show_help": True}),
    # triangle highlighting on (the default) and off
    Case("triangles_highlight_off", "triangles", options={"highlight_triangles": False}),
    # two more camera angles of the blog scene: from high above, and low from the side
    Case("blog_camera_top", "blog", camera={"yaw": -40.0, "pitch": 70.0, "distance": 13.0}),
    Case("blog_camera_side", "blog", camera={"yaw": 90.0, "pitch": 5.0, "distance": 10.0}),
    # the animation frozen at t = 1.5 s (the clock is an argument, never the wall clock)
    Case("blog_animated_t1.5", "blog", options={"anim_time": 1.5}),
    # a crowded scene (key 8): NONE boxes recede, the hits are drawn over them, outlined
    Case("random_1500_seed0", "random:1500:0"),
    # a small window: labels clear of the panels, a far-off slab point pinned to the edge, and
    # the help overlay taking the HUD's room at 11 px
    Case("obb_explain_640x360", "obb", size=(640, 360), options={"explain": True, "selected": 0}),
    Case("blog_help_640x360", "blog", size=(640, 360), options={"show_help": True}),
    # frustum culling: the second camera's frustum drawn, the boxes coloured against it, the
    # plane-only test's false positives orange and counted in the HUD
    Case("frustum_640x360", "frustum", size=(640, 360)),
    # spheres: wire spheres, the boxes coloured against them (red: a sphere inside a box), a
    # selected box's distance from the first sphere's centre in the HUD
    Case("spheres_640x360", "spheres", size=(640, 360), options={"selected": 50}),
    # box vs box: the query box (an OBB) outlined, the boxes coloured by classify_obb_*
    Case("boxes_640x360", "boxes", size=(640, 360)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(egl_app, case, update_golden):
    image = render_case(case)
    assert image.shape == (case.size[1], case.size[0], 3), (
        f"{case.name}: expected a {case.size[0]}x{case.size[1]} RGB image, got {image.shape}")
    assert_matches_golden(case.name, image, update=update_golden)
