"""What the app recomputes and uploads when something moves (no OpenGL needed): only what the
move can have changed, and always the same answer as recomputing everything."""

import numpy as np
import pytest
from pyrr import matrix33, matrix44

import geometry
from app.presets import random_scene
from app.renderers import write_rows
from app.renderers.boxes import model_matrices
from app.scene import Boxes, resolve_scene, rotation_axes
from app.state import DemoState, classify_boxes, first_hit, triangle_overlaps
from tests.geometry import exact_reference as ref


class FakeBuffer:
    """Records writes; ``data`` is what a GPU buffer would hold."""

    def __init__(self, nbytes: int):
        self.data = bytearray(nbytes)
        self.writes: list[tuple[int, int]] = []

    def write(self, data: bytes, offset: int = 0) -> None:
        self.data[offset:offset + len(data)] = data
        self.writes.append((offset, len(data)))


@pytest.mark.parametrize("indices, n_writes", [
    ([], 0), ([4], 1), ([2, 3, 4, 9], 2), (list(range(0, 40, 2)), 20),
    (list(range(0, 100, 2)), 1),  # 50 runs > max_runs: one spanning write
])
def test_write_rows_builds_and_writes_only_the_changed_runs(indices, n_writes):
    full = np.arange(100 * 3, dtype=np.float32).reshape(100, 3)
    buf = FakeBuffer(full.nbytes)
    asked = []

    def rows_of(lo, hi):
        asked.append((lo, hi))
        return full[lo:hi]

    assert write_rows(buf, rows_of, np.array(indices, dtype=np.intp)) == n_writes
    assert len(buf.writes) == n_writes == len(asked)
    got = np.frombuffer(bytes(buf.data), dtype=np.float32).reshape(100, 3)
    np.testing.assert_array_equal(got[indices], full[indices])
    untouched = np.ones(100, bool)
    for lo, hi in asked:
        untouched[lo:hi] = False
    assert not got[untouched].any(), "rows outside the written runs stay as they were"


def test_model_matrices_of_a_range_equal_the_rows_of_all():
    boxes = random_scene(60, seed=5).boxes
    np.testing.assert_array_equal(model_matrices(boxes, 17, 43), model_matrices(boxes)[17:43])


@pytest.mark.parametrize("kind", ["mixed", "aabb", "obb"])
def test_classify_boxes_matches_geometry_for_every_mix_of_kinds(kind):
    boxes = random_scene(200, seed=2).boxes
    keep = {"mixed": slice(None), "aabb": ~boxes.is_obb, "obb": boxes.is_obb}[kind]
    boxes = Boxes(*(a[keep] for a in (boxes.box_min, boxes.box_max, boxes.center,
                                      boxes.half_size, boxes.rotation, boxes.is_obb)))
    s, e = np.array([-3.0, 1.0, -1.0]), np.array([3.0, 2.0, 1.5])
    want = np.where(boxes.is_obb,
                    geometry.classify_segment_obb(s, e, boxes.center, boxes.axes, boxes.half_size),
                    geometry.classify_segment_aabb(s, e, boxes.box_min, boxes.box_max))
    np.testing.assert_array_equal(classify_boxes(s, e, boxes), want)


def test_rays_are_traced_again_only_when_boxes_move():
    state = DemoState(resolve_scene("rays"))
    assert len(state.scene.ray_origins) and (state.rays.box >= 0).any()
    traced = state.rays
    state.move_segment([0.5, 0.0, 0.0])
    assert state.rays is traced, "rays do not depend on the segment"
    hit_box = int(traced.box[traced.box >= 0][0])
    state.move_box(hit_box, [0.0, 50.0, 0.0])  # lift a hit box out of the way
    assert state.rays is not traced
    for r, (o, d) in enumerate(
        zip(state.scene.ray_origins, state.scene.ray_directions, strict=True)
    ):
        i, t = first_hit(o, d, state.boxes)
        assert state.rays.box[r] == (-1 if i is None else i) and state.rays.t[r] == t


def test_triangle_highlight_of_rotated_boxes_is_the_exact_answer():
    """Triangles with a vertex on a rotated box's corner (mapped to the world in floats, so
    within an ulp of it): the highlight is geometry's exact answer, as the reference gives it."""
    boxes = random_scene(60, seed=4).boxes
    obb = np.flatnonzero(boxes.is_obb)
    assert len(obb) >= 5
    rng = np.random.default_rng(8)
    triangles = []
    for i in obb[:5]:
        corner = boxes.center[i] + boxes.axes[i].T @ (
            rng.choice([-1.0, 1.0], 3) * boxes.half_size[i]
        )
        outward = boxes.axes[i].T @ np.sign(boxes.axes[i] @ (corner - boxes.center[i]))
        triangles.append([corner, corner + outward, corner + outward + rng.normal(size=3)])
    triangles = np.array(triangles)
    got = triangle_overlaps(triangles, boxes)
    for i in range(len(boxes)):
        if boxes.is_obb[i]:
            want = any(ref.triangle_overlaps_obb(*t, boxes.center[i], boxes.axes[i],
                                                 boxes.half_size[i]) for t in triangles)
        else:
            want = any(ref.triangle_overlaps_aabb(*t, boxes.box_min[i], boxes.box_max[i])
                       for t in triangles)
        assert got[i] == want, f"box {i} (obb={boxes.is_obb[i]}): expected {want}, got {got[i]}"


def test_model_matrices_are_pyrrs_scale_rotation_translation():
    boxes = random_scene(60, seed=5).boxes
    assert boxes.is_obb.any() and not boxes.is_obb.all(), "test problem: want both kinds"
    want = np.array([matrix44.create_from_scale(boxes.half_size[i])
                     @ matrix44.create_from_matrix33(boxes.axes[i])
                     @ matrix44.create_from_translation(boxes.center[i])
                     for i in range(len(boxes))])
    np.testing.assert_array_equal(model_matrices(boxes), want)


def test_scene_rotations_are_pyrrs_x_then_y_then_z():
    """Box rotations (degrees about X, then Y, then Z, right-handed) as pyrr matrices; pyrr's
    ``create_from_*_rotation(a)`` turns row vectors by -a, hence the minus signs."""
    rng = np.random.default_rng(1)
    rotations = np.vstack([rng.uniform(-180, 180, (40, 3)), [[90, 0, 0], [0, 90, 0], [0, 0, 90]]])
    want = np.array([matrix33.create_from_x_rotation(-np.radians(rx))
                     @ matrix33.create_from_y_rotation(-np.radians(ry))
                     @ matrix33.create_from_z_rotation(-np.radians(rz))
                     for rx, ry, rz in rotations])
    np.testing.assert_allclose(rotation_axes(rotations), want, rtol=0, atol=1e-15)
    # right-handed: 90 degrees about X takes +y to +z, about Y +z to +x, about Z +x to +y
    quarter = rotation_axes(rotations[-3:])
    np.testing.assert_allclose([[0, 1, 0] @ quarter[0], [0, 0, 1] @ quarter[1],
                                [1, 0, 0] @ quarter[2]], np.eye(3)[[2, 0, 1]], atol=1e-15)
