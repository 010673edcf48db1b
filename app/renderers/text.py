"""HUD text from a bitmap font (moderngl-window's VeraMono atlas), drawn as instanced quads in
pixel coordinates. Works the same in a window and headless (no system fonts involved)."""

from __future__ import annotations

import json
from pathlib import Path

import moderngl
import moderngl_window
import numpy as np
from PIL import Image

from app.renderers import uniform

_FONT_DIR = Path(moderngl_window.__file__).parent / "text" / "bitmapped" / "bitmapped"


class TextRenderer:
    def __init__(self, ctx: moderngl.Context, program: moderngl.Program):
        self.ctx, self.program = ctx, program
        meta = json.loads((_FONT_DIR / "text" / "meta.json").read_text())
        w, h, n = meta["character_width"], meta["character_height"], meta["characters"]
        self.aspect = w / h
        atlas = np.asarray(Image.open(_FONT_DIR / "textures" / "VeraMono.png").convert("RGBA"))
        alpha = np.ascontiguousarray(atlas[..., 3])  # glyph coverage, top row of glyph 0 first
        self.texture = ctx.texture_array((w, h, n), 1, alpha.tobytes())
        self.texture.build_mipmaps()
        self.texture.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        # latin-1 code -> layer
        self.layer = np.full(256, -1, dtype=np.int32)
        index = 0
        for r in meta["character_ranges"]:
            for code in range(r["min"], r["max"] + 1):
                self.layer[code] = index
                index += 1
        corners = np.array([0, 0, 1, 0, 0, 1, 1, 1], dtype="f4")
        self.corner_buf = ctx.buffer(corners.tobytes())
        self.inst_buf = ctx.buffer(reserve=64 * 1024, dynamic=True)
        self.vao = ctx.vertex_array(program, [
            (self.corner_buf, "2f", "in_corner"),
            (self.inst_buf, "4f 1f 4f/i", "in_rect", "in_char", "in_color"),
        ])
        self.rows: list[np.ndarray] = []

    def char_width(self, size: float) -> float:
        return size * self.aspect

    def rect(self, x, y, w, h, color) -> None:
        self.rows.append(np.array([[x, y, w, h, -1.0, *color]], dtype="f4"))

    def text(self, x: float, y: float, s: str, color=(1, 1, 1, 1), size: float = 16.0) -> None:
        codes = np.frombuffer(s.encode("latin-1", errors="replace"), dtype=np.uint8)
        if len(codes) == 0:
            return
        layer = self.layer[codes]
        cw = self.char_width(size)
        xs = x + np.arange(len(codes)) * cw
        keep = (layer >= 0) & (codes != 32)
        rows = np.zeros((int(keep.sum()), 9), dtype="f4")
        rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3] = xs[keep], y, cw, size
        rows[:, 4] = layer[keep]
        rows[:, 5:9] = color if len(color) == 4 else (*color, 1.0)
        self.rows.append(rows)

    def draw(self, viewport: tuple[int, int]) -> None:
        if not self.rows:
            return
        data = np.concatenate(self.rows)
        self.rows = []
        if data.nbytes > self.inst_buf.size:
            self.inst_buf.orphan(data.nbytes * 2)
        self.inst_buf.write(data.tobytes())
        self.texture.use(location=0)
        uniform(self.program, "font").value = 0
        uniform(self.program, "viewport").value = tuple(float(v) for v in viewport)
        self.vao.render(moderngl.TRIANGLE_STRIP, vertices=4, instances=len(data))
