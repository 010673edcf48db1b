"""The README's pictures (``assets/*.png``) are what the demo renders now: each is rendered
headless at 1280x720 as the README's caption says and compared like a golden (same tolerance).
Regenerate them with the suite's switch (``pytest tests/screenshots --update-golden``) and look
at them before committing. Headless frames carry no frame time (none was measured)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from tests.screenshots.screenshot_compare import compare_images, write_failure
from tests.screenshots.screenshot_helpers import Case, render_case

ASSETS = Path(__file__).resolve().parents[2] / "assets"
SIZE = (1280, 720)

PICTURES = [
    Case("blog", "blog", size=SIZE),  # ./app/run.sh
    Case("explain", "blog", size=SIZE, options={"explain": True, "selected": 1}),
    Case("random", "random:3000:7", size=SIZE),  # --boxes 3000 --seed 7
    Case("dense", "random:100000:7", size=SIZE),  # --boxes 100000 --seed 7
    Case("frustum", "frustum", size=SIZE),  # --scene frustum
    Case("spheres", "spheres", size=SIZE),  # --scene spheres
    Case("boxes", "boxes", size=SIZE),  # --scene boxes
    # --scene boxes --explain --select 52 --step 3; --scene spheres --explain --select 80
    Case("box_lesson", "boxes", size=SIZE, options={"explain": True, "selected": 52, "step": 3}),
    Case("sphere_explain", "spheres", size=SIZE, options={"explain": True, "selected": 80}),
]


@pytest.mark.parametrize("case", PICTURES, ids=[c.name for c in PICTURES])
def test_readme_picture_is_current(egl_app, case, update_golden):
    image = render_case(case)
    path = ASSETS / f"{case.name}.png"
    if update_golden:
        Image.fromarray(image).save(path, optimize=True)
        return
    cmp = compare_images(image, np.asarray(Image.open(path).convert("RGB")))
    if not cmp.passed():
        out = write_failure(f"readme_{case.name}", image,
                            np.asarray(Image.open(path).convert("RGB")), cmp.mask)
        raise AssertionError(f"{path.name} is not what the demo renders now: {cmp.summary()}; "
                             f"images in {out}; regenerate with --update-golden and look at it")
