"""Pixel checks that need no golden: which pixels of a rendered frame show a colour."""

import numpy as np


def colour_pixels(app, rgb) -> tuple[np.ndarray, np.ndarray]:
    """Render a frame of ``app`` and return ``(colour, hud)``: boolean masks of the pixels whose
    chroma (the colour over its brightest channel, so faces seen through others still count) is
    ``rgb``'s, outside the HUD panel (its text names the colours), and of the HUD panel."""
    app.render_frame()
    image = app.read_image().astype(np.float64) / 255.0
    panel = app.view.panels["hud"]
    hud = np.zeros(image.shape[:2], dtype=bool)
    hud[: int(panel.y + panel.h) + 1, : int(panel.x + panel.w) + 1] = True
    chroma = image / np.maximum(image.max(-1, keepdims=True), 1e-6)
    return (((chroma - rgb) ** 2).sum(-1) < 0.02) & ~hud, hud
