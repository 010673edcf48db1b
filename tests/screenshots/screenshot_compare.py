"""Golden-image comparison for the screenshot tests: tolerances, failure artefacts, regeneration.

The rule (pygfx ``examples/tests/test_examples.py`` and three.js ``test/e2e/puppeteer.js`` use the
same two-number shape):

* a pixel *differs* when any of its R, G, B channels differs by more than ``CHANNEL_TOLERANCE``
  (out of 255);
* an image *fails* when more than ``MAX_DIFF_FRACTION`` of its pixels differ.

Why these numbers (measured at 400x300 by ``test_calibration.py``, which uses the real renderer and
this very function, so the numbers cannot drift from the code; the test prints them):

* Two renders of the same frame on Mesa llvmpipe, in the same process or in a fresh one, are
  bit-identical (max channel difference 0): no multisampling, a frozen clock (the HUD's frame time
  is 0.0 headless, the animation clock is an argument) and a fixed seed. The tolerance only has
  to absorb what a *different* llvmpipe build (another LLVM or Mesa version) may do: rounding in
  blending and in the HUD font's texture filtering, a few units. 8/255 is well above that and
  below any colour change the app makes on purpose (class colours differ by >= 100/255 in some
  channel; the face shading steps are ~10/255).
* 0.05 % of the pixels (60 pixels at 400x300) lets a few edge pixels flip on another rasteriser
  version, while the smallest real regressions change many more pixels: the smallest camera move
  the input allows (a 1-pixel orbit drag = 0.3 degrees of yaw, or a 1-pixel pan) changes > 5 %
  of the pixels (>= 6000); swapping two class colours in the blog scene changes >= 7000;
  removing any single box of any preset changes >= 117 pixels (the worst case is a box deep
  inside the ``grid`` lattice, seen through translucent neighbours; at 0.1 % it would have
  passed, which is why the limit is 0.05 %).

On failure, ``assert_matches_golden`` writes ``<name>.actual.png``, ``<name>.golden.png``,
``<name>.diff.png`` (differing pixels in magenta over a dimmed grey copy of the golden) and
``<name>.side_by_side.png`` (golden | actual | diff) into ``tests/output/screenshots/`` (git
ignored) and names that directory in the assertion message.

Regenerating: ``pytest tests/screenshots --update-golden`` or ``SLABLAB_UPDATE_GOLDEN=1``, never
under ``CI`` (a usage error). A missing golden is never created silently in a normal run: the
test fails and says how to create it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden"
OUTPUT_DIR = ROOT / "tests" / "output" / "screenshots"

#: a pixel differs when any RGB channel differs by more than this (0..255); see module docstring
CHANNEL_TOLERANCE = 8
#: an image fails when more than this fraction of its pixels differ; see module docstring
MAX_DIFF_FRACTION = 0.0005

MAGENTA = np.array([255, 0, 255], dtype=np.uint8)


@dataclass(frozen=True)
class Comparison:
    """What differs between two same-sized RGB images."""

    mask: np.ndarray  # (H, W) bool: pixels with a channel difference > tolerance
    max_channel_diff: int  # largest |a - b| over all pixels and channels
    n_pixels: int

    @property
    def n_diff(self) -> int:
        return int(self.mask.sum())

    @property
    def fraction(self) -> float:
        return self.n_diff / max(self.n_pixels, 1)

    def passed(self, max_fraction: float = MAX_DIFF_FRACTION) -> bool:
        return self.fraction <= max_fraction

    def summary(self) -> str:
        return (f"{self.n_diff} of {self.n_pixels} pixels ({100 * self.fraction:.3f} %) differ by "
                f"more than {CHANNEL_TOLERANCE}/255 (allowed: {100 * MAX_DIFF_FRACTION:.3f} %); "
                f"max channel difference {self.max_channel_diff}")


def as_rgb(image) -> np.ndarray:
    """(H, W, 3) uint8 from a PIL image or an (H, W, 3|4) array (alpha dropped)."""
    if isinstance(image, Image.Image):
        image = np.asarray(image.convert("RGB"))
    a = np.asarray(image)
    if a.ndim != 3 or a.shape[2] not in (3, 4) or a.dtype != np.uint8:
        raise ValueError(f"image must be (H, W, 3|4) uint8, got {a.shape} {a.dtype}")
    return np.ascontiguousarray(a[..., :3])


def compare_images(actual, golden, *, channel_tolerance: int = CHANNEL_TOLERANCE) -> Comparison:
    """Per-pixel comparison of two images of the same size (a size mismatch is a ValueError)."""
    a, g = as_rgb(actual), as_rgb(golden)
    if a.shape != g.shape:
        raise ValueError(f"image sizes differ: actual {a.shape[1]}x{a.shape[0]}, "
                         f"golden {g.shape[1]}x{g.shape[0]}")
    diff = np.abs(a.astype(np.int16) - g.astype(np.int16))
    return Comparison(mask=(diff > channel_tolerance).any(axis=-1),
                      max_channel_diff=int(diff.max()) if diff.size else 0,
                      n_pixels=a.shape[0] * a.shape[1])


def diff_image(golden, mask: np.ndarray) -> np.ndarray:
    """The golden dimmed to grey, with the differing pixels in magenta."""
    g = as_rgb(golden).astype(np.float32)
    grey = (0.25 * g.mean(axis=-1, keepdims=True) + 0.1 * 255).astype(np.uint8)
    out = np.repeat(grey, 3, axis=-1)
    out[mask] = MAGENTA
    return out


def write_failure(name: str, actual, golden=None, mask=None, out_dir: Path = OUTPUT_DIR) -> Path:
    """Write actual / golden / diff / side-by-side PNGs for ``name``; return the directory."""
    out_dir.mkdir(parents=True, exist_ok=True)
    a = as_rgb(actual)
    Image.fromarray(a).save(out_dir / f"{name}.actual.png")
    if golden is not None:
        g = as_rgb(golden)
        Image.fromarray(g).save(out_dir / f"{name}.golden.png")
        if g.shape == a.shape and mask is not None:
            d = diff_image(g, mask)
            Image.fromarray(d).save(out_dir / f"{name}.diff.png")
            sep = np.full((a.shape[0], 4, 3), 255, dtype=np.uint8)
            Image.fromarray(np.concatenate([g, sep, a, sep, d], axis=1)).save(
                out_dir / f"{name}.side_by_side.png")
    return out_dir


def update_requested(config=None) -> bool:
    """``--update-golden`` (registered in tests/conftest.py) or ``SLABLAB_UPDATE_GOLDEN=1``.

    Under ``CI`` either is a ``pytest.UsageError``: CI compares with the committed goldens, and
    a rewrite there (a variable left in the environment) would pass every screenshot test.
    """
    env = os.environ.get("SLABLAB_UPDATE_GOLDEN", "")
    requested = env not in ("", "0")
    if not requested and config is not None:
        try:
            requested = bool(config.getoption("--update-golden", default=False))
        except ValueError:  # option not registered (older root conftest): env var only
            pass
    if requested and os.environ.get("CI"):
        how = f"SLABLAB_UPDATE_GOLDEN={env}" if env not in ("", "0") else "--update-golden"
        raise pytest.UsageError(
            f"{how} under CI={os.environ['CI']}: CI compares the screenshots with the committed "
            f"goldens and never rewrites them; unset it (regenerate goldens locally, look at "
            f"every changed image, commit them)")
    return requested


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.png"


def assert_matches_golden(name: str, actual, *, update: bool = False) -> Comparison | None:
    """Compare ``actual`` with ``tests/golden/<name>.png`` (or rewrite it when ``update``)."""
    a = as_rgb(actual)
    path = golden_path(name)
    if update:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        Image.fromarray(a).save(path, optimize=True)
        return None
    if not path.exists():
        out = write_failure(name, a)
        raise AssertionError(
            f"no golden image {path.relative_to(ROOT)}; the rendered image is in {out}/{name}"
            f".actual.png. Look at it, then create the golden with `pytest tests/screenshots "
            f"--update-golden` (or SLABLAB_UPDATE_GOLDEN=1) and commit it.")
    golden = np.asarray(Image.open(path).convert("RGB"))
    if golden.shape != a.shape:
        out = write_failure(name, a, golden)
        raise AssertionError(
            f"{name}: rendered {a.shape[1]}x{a.shape[0]} but the golden is "
            f"{golden.shape[1]}x{golden.shape[0]}; images written to {out}")
    cmp = compare_images(a, golden)
    if not cmp.passed():
        out = write_failure(name, a, golden, cmp.mask)
        raise AssertionError(
            f"{name} differs from its golden: {cmp.summary()}.\n"
            f"actual, golden, diff (magenta = differing pixels) and side-by-side images are in "
            f"{out}/{name}.*.png. If the change is intended, review them and regenerate with "
            f"`pytest tests/screenshots --update-golden`.")
    return cmp
