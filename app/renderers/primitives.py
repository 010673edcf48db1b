"""Immediate-style batches for the few dynamic things: thick lines, round markers, triangles.

Each frame the caller adds items, then ``draw`` uploads them in one buffer write and one draw.
"""

from __future__ import annotations

from typing import Any

import moderngl
import numpy as np

from app.renderers import matrix_bytes, uniform


def _rgba(color, alpha: float = 1.0):
    return tuple(color[:3]) + ((color[3],) if len(color) > 3 else (alpha,))


class _Batch:
    fmt = ""
    attrs: tuple[str, ...] = ()
    floats = 0
    mode = moderngl.POINTS

    def __init__(self, ctx: moderngl.Context, program: moderngl.Program):
        self.ctx, self.program = ctx, program
        self.buffer = ctx.buffer(reserve=4096, dynamic=True)
        self.vao = ctx.vertex_array(program, [(self.buffer, self.fmt, *self.attrs)])
        self.rows: list[np.ndarray] = []

    def clear(self) -> None:
        self.rows = []

    def _upload(self) -> int:
        if not self.rows:
            return 0
        data = np.concatenate(self.rows).astype("f4")
        if data.nbytes > self.buffer.size:
            self.buffer.orphan(max(data.nbytes, self.buffer.size * 2))
        self.buffer.write(data.tobytes())
        return len(data)

    def draw(self, view_projection: np.ndarray, viewport: tuple[int, int], **uniforms) -> None:
        n = self._upload()
        if n == 0:
            return
        uniform(self.program, "m_vp").write(matrix_bytes(view_projection))
        for name, value in (("viewport", tuple(float(v) for v in viewport)), *uniforms.items()):
            if name in self.program:
                uniform(self.program, name).value = value
        self.vao.render(self.mode, vertices=n)


class LineBatch(_Batch):
    """Thick lines (``shaders/lines.glsl``); per-vertex colours allow fades."""

    fmt, attrs, mode = "3f 4f", ("in_position", "in_color"), moderngl.LINES

    def add(self, starts, ends, color, end_color=None, alpha: float = 1.0) -> None:
        a = np.asarray(starts, dtype=np.float64).reshape(-1, 3)
        b = np.asarray(ends, dtype=np.float64).reshape(-1, 3)
        ca = np.broadcast_to(np.asarray(_rgba(color, alpha)), (len(a), 4))
        cb = np.broadcast_to(np.asarray(_rgba(end_color or color, alpha)), (len(a), 4))
        rows = np.empty((len(a), 2, 7))
        rows[:, 0, :3], rows[:, 0, 3:] = a, ca
        rows[:, 1, :3], rows[:, 1, 3:] = b, cb
        self.rows.append(rows.reshape(-1, 7))

    def draw(self, view_projection: np.ndarray, viewport: tuple[int, int],
             width: float = 2.0, **uniforms: Any) -> None:
        super().draw(view_projection, viewport, width=float(width), **uniforms)


class PointBatch(_Batch):
    """Round screen-space markers (``shaders/points.glsl``)."""

    fmt, attrs, mode = "3f 4f 1f", ("in_position", "in_color", "in_size"), moderngl.POINTS

    def add(self, points, color, size: float = 10.0, alpha: float = 1.0) -> None:
        p = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        rows = np.empty((len(p), 8))
        rows[:, :3], rows[:, 3:7], rows[:, 7] = p, _rgba(color, alpha), size
        self.rows.append(rows)


class TriangleBatch(_Batch):
    """Translucent flat-shaded triangles (``shaders/mesh.glsl``)."""

    fmt, attrs, mode = "3f 4f", ("in_position", "in_color"), moderngl.TRIANGLES

    def add(self, triangles, color, alpha: float = 0.55) -> None:
        t = np.asarray(triangles, dtype=np.float64).reshape(-1, 3)
        rows = np.empty((len(t), 7))
        rows[:, :3], rows[:, 3:] = t, _rgba(color, alpha)
        self.rows.append(rows)
