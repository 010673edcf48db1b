"""Boxes as one instanced draw: a unit cube, a model matrix and a class per instance; the
class -> colour and opacity tables are uniforms (set per draw from ``app.colors``).

Only what changed is uploaded: poses of moved boxes, classes of re-classified boxes.
"""

from __future__ import annotations

import moderngl
import numpy as np
from moderngl_window import geometry as mglw_geometry
from moderngl_window.opengl.vao import VAO

from app.renderers import matrix_bytes, uniform, write_rows
from app.scene import Boxes


def model_matrices(boxes: Boxes, lo: int = 0, hi: int | None = None) -> np.ndarray:
    """(hi - lo, 4, 4) pyrr-convention matrices of boxes ``lo:hi`` (default all), taking the
    cube [-1, 1]^3 onto each box: ``[u, 1] @ M = center + axes.T @ (half_size * u)``; per box
    pyrr's ``create_from_scale(half_size) @ create_from_matrix33(axes) @
    create_from_translation(center)``, written for all boxes at once (a test checks it against
    pyrr)."""
    part = slice(lo, len(boxes) if hi is None else hi)
    half, center = boxes.half_size[part], boxes.center[part]
    m = np.zeros((len(center), 4, 4))
    m[:, :3, :3] = half[:, :, None] * boxes.axes[part]
    m[:, 3, :3] = center
    m[:, 3, 3] = 1.0
    return m


def front_faces() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions and normals (12 vertices, 4 per face) and triangle indices (18) of the cube
    [-1, 1]^3's faces +x, +y, +z: the shader mirrors them per instance onto the faces that look
    at the eye. Indexed, each vertex is transformed once (the vertex stage is what a software
    rasteriser spends most of a crowded frame on)."""
    positions: list[np.ndarray] = []
    normals: list[np.ndarray] = []
    indices: list[int] = []
    for axis in range(3):
        n = np.eye(3)[axis]
        u, v = np.eye(3)[(axis + 1) % 3], np.eye(3)[(axis + 2) % 3]
        indices += [len(positions) + i for i in (0, 1, 2, 0, 2, 3)]
        positions += [n + a * u + b * v for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        normals += [n] * 4
    return np.array(positions, "f4"), np.array(normals, "f4"), np.array(indices, "i4")


class BoxRenderer:
    def __init__(self, ctx: moderngl.Context, program: moderngl.Program):
        self.ctx = ctx
        self.program = program
        self.vao: VAO | None = None
        self.front_vao: VAO | None = None
        self.count = 0
        self.uploads = 0  # buffer writes since creation (tests check that idle frames write 0)

    def reset(self, count: int) -> None:
        """New scene: fresh instance buffers for ``count`` boxes."""
        if self.vao is not None and self.front_vao is not None:
            self.vao.release()  # with its buffers, the instance buffers included
            self.front_vao.release()
        self.count = self.capacity = count
        self.vao = cube = mglw_geometry.cube(size=(2.0, 2.0, 2.0), uvs=False, name="boxes")
        self.front_vao = front = VAO("box-front-faces")
        positions, normals, indices = front_faces()
        front.buffer(positions, "3f", ["in_position"])
        front.buffer(normals, "3f", ["in_normal"])
        front.index_buffer(indices)
        self.models = self.ctx.buffer(reserve=max(count, 1) * 64, dynamic=True)
        self.classes = self.ctx.buffer(reserve=max(count, 1) * 4, dynamic=True)
        for vao in (cube, front):
            vao.buffer(self.models, "16f/i", ["in_model"])
            vao.buffer(self.classes, "1f/i", ["in_class"])

    def update(self, boxes: Boxes, classes: np.ndarray, moved: np.ndarray,
               recoloured: np.ndarray) -> None:
        if len(boxes) != self.count:
            self.reset(len(boxes))
            moved = recoloured = np.arange(len(boxes))
        if len(moved):
            self.uploads += write_rows(
                self.models, lambda lo, hi: model_matrices(boxes, lo, hi).reshape(-1, 16), moved)
        if len(recoloured):
            self.uploads += write_rows(self.classes, lambda lo, hi: classes[lo:hi, None],
                                       recoloured)

    def write_poses(self, rows: np.ndarray, boxes: Boxes) -> None:
        """Instances ``rows`` take the poses of ``boxes`` (box k to row ``rows[k]``)."""
        matrices = np.ascontiguousarray(model_matrices(boxes).reshape(-1, 16), dtype="f4")
        for row, matrix in zip(rows.tolist(), matrices, strict=True):
            self.models.write(matrix.tobytes(), offset=row * matrix.nbytes)
        self.uploads += len(matrices)

    def replace(self, boxes: Boxes, classes: np.ndarray) -> None:
        """Show exactly ``boxes`` from now on: every row written, the buffers kept when they
        are large enough (for a subset that changes with the classes)."""
        if self.vao is None or len(boxes) > self.capacity:
            self.reset(max(len(boxes), 2 * self.capacity if self.vao is not None else 0))
        self.count = len(boxes)
        everything = np.arange(len(boxes))
        self.update(boxes, classes, everything, everything)

    def draw(self, view_projection: np.ndarray, light_dir, class_rgb: np.ndarray,
             face_alpha, edge_alpha, front_only_from=None, edge_white=(0.55,) * 4) -> None:
        """Draw every box. ``class_rgb`` (4, 3): colour per drawn class (app.colors.DRAWN_RGB);
        ``face_alpha`` and ``edge_alpha`` (4,): opacity of faces and edges per drawn class;
        ``edge_white`` (4,): how
        far edges are lightened towards white, per class. ``front_only_from``: the eye
        position, to draw only the faces that can be seen from it (for opaque boxes;
        translucent ones need their back faces)."""
        if self.count == 0 or self.vao is None or self.front_vao is None:
            return
        program = self.program
        uniform(program, "m_vp").write(matrix_bytes(view_projection))
        uniform(program, "light_dir").value = tuple(light_dir)
        uniform(program, "class_rgb").write(np.ascontiguousarray(class_rgb, dtype="f4").tobytes())
        uniform(program, "face_alpha").write(np.asarray(face_alpha, dtype="f4").tobytes())
        uniform(program, "edge_alpha").write(np.asarray(edge_alpha, dtype="f4").tobytes())
        uniform(program, "edge_white").write(np.asarray(edge_white, dtype="f4").tobytes())
        uniform(program, "front_only").value = front_only_from is not None
        if front_only_from is not None:
            uniform(program, "eye").value = tuple(float(x) for x in front_only_from)
            self.front_vao.render(program, instances=self.count)
        else:
            self.vao.render(program, instances=self.count)


CUBE_EDGES = np.array([(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7),
                       (0, 4), (1, 5), (2, 6), (3, 7)])


def box_corners(boxes: Boxes, index) -> np.ndarray:
    """(..., 8, 3) corners of boxes ``index`` (corner k has bit i set -> +half on axis i)."""
    signs = np.array([[1 if k & (1 << i) else -1 for i in range(3)] for k in range(8)], float)
    c = boxes.center[index]
    ax = boxes.axes[index]
    h = boxes.half_size[index]
    return c[..., None, :] + (signs * h[..., None, :]) @ ax


def box_edges(boxes: Boxes, index) -> np.ndarray:
    """(..., 12, 2, 3) edge segments of boxes ``index`` (for outlines)."""
    return box_corners(boxes, index)[..., CUBE_EDGES, :]
