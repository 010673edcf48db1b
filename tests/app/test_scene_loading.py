"""Scene files: every shipped preset loads; every kind of bad file is one line naming the file,
the field path and the problem."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from app.scene import SceneError, load_scene_file, preset_names, resolve_scene

ROOT = Path(__file__).resolve().parents[2]


def test_presets_listed():
    assert {"blog", "grid", "obb", "triangles", "rays"} <= set(preset_names())


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_loads(name):
    scene = resolve_scene(name)
    assert len(scene.boxes) > 0, f"preset {name} should have boxes"
    assert np.isfinite(scene.boxes.center).all()


def test_full_scene_fields(tmp_path):
    data = {
        "camera": {"target": [1, 2, 3], "distance": 7, "yaw": 10, "pitch": 20, "fov": 40},
        "segment": {"start": [0, 0, 0], "end": [1, 1, 1]},
        "boxes": [{"min": [0, 0, 0], "max": [1, 2, 3]},
                  {"center": [5, 5, 5], "half_size": [1, 1, 1], "rotation": [0, 90, 0]}],
        "rays": [{"origin": [0, 0, 0], "direction": [0, 0, -1]}],
        "triangles": [{"vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}],
    }
    path = tmp_path / "full.json"
    path.write_text(json.dumps(data))
    s = load_scene_file(path)
    assert s.camera.target == (1, 2, 3) and s.camera.fov == 40
    assert s.boxes.is_obb.tolist() == [False, True]
    np.testing.assert_array_equal(s.boxes.box_max[0], [1, 2, 3])
    # rotation 90 about y: the box's first axis is world -z... rows are unit axes
    np.testing.assert_allclose(s.boxes.axes[1] @ s.boxes.axes[1].T, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(s.boxes.axes[1][0], [0, 0, -1], atol=1e-12)
    assert s.ray_directions.shape == (1, 3) and s.triangles.shape == (1, 3, 3)


def test_only_boxes_is_required(tmp_path):
    path = tmp_path / "min.json"
    path.write_text('{"boxes": []}')
    assert len(load_scene_file(path).boxes) == 0


BAD = [
    ("{not json", "invalid JSON at line 1"),
    ("[]", "(top level): expected an object"),
    ('{"camera": {}}', "missing key 'boxes'"),
    ('{"boxes": [], "colour": 1}', "colour: unknown key 'colour'"),
    ('{"boxes": [{"min": [0,0,0], "max": [1,1,1], "mx": 1}]}', "boxes[0].mx: unknown key"),
    (
        '{"boxes": [{"min": [0,0,0], "max": [1,1,1]}, {"min": [0,0,0], "max": [1,1]}]}',
        "boxes[1].max: expected 3 numbers [x, y, z], got 2",
    ),
    (
        '{"boxes": [{"min": [0,0,0], "max": [1,"2",1]}]}',
        'boxes[0].max[1]: expected a number, got string "2"',
    ),
    (
        '{"boxes": [{"min": [0,0,0], "max": [1,true,1]}]}',
        "boxes[0].max[1]: expected a number, got boolean",
    ),
    ('{"boxes": [{"min": [0,2,0], "max": [1,1,1]}]}', "boxes[0].min: min > max on axis y (2 > 1)"),
    (
        '{"boxes": [{"min": [0,NaN,0], "max": [1,1,1]}]}',
        "boxes[0].min[1]: expected a finite number, got nan",
    ),
    (
        '{"boxes": [{"min": [0,0,0], "max": [Infinity,1,1]}]}',
        "boxes[0].max[0]: expected a finite number",
    ),
    (
        '{"boxes": [{"min": [0,0,0], "max": [1e308,1,1]}]}',
        "boxes[0].max[0]: expected a number in [-3.40282e+38, 3.40282e+38], got 1e+308",
    ),
    (
        '{"boxes": [], "segment": {"start": [-1e39,0,0], "end": [0,0,0]}}',
        "segment.start[0]: expected a number in [-3.40282e+38, 3.40282e+38], got -1e+39",
    ),
    ('{"boxes": [{"center": [0,0,0]}]}', "boxes[0]: missing key 'half_size'"),
    (
        '{"boxes": [{"center": [0,0,0], "half_size": [1,-1,1]}]}',
        "boxes[0].half_size: expected sizes >= 0",
    ),
    (
        '{"boxes": [{"center": [0,0,0], "half_size": [1,1,1], "rotation": [0,0]}]}',
        "boxes[0].rotation: expected 3 numbers",
    ),
    ('{"boxes": {}}', "boxes: expected a list"),
    ('{"boxes": [], "segment": {"start": [0,0,0]}}', "segment: missing key 'end'"),
    ('{"boxes": [], "camera": {"fov": 0}}', "camera.fov: expected a number in [5, 150], got 0"),
    ('{"boxes": [], "camera": {"distance": -1}}', "camera.distance: expected a number in"),
    (
        '{"boxes": [], "rays": [{"origin": [0,0,0], "direction": [0,0,0]}]}',
        "rays[0].direction: expected a non-zero direction",
    ),
    (
        '{"boxes": [], "triangles": [{"vertices": [[0,0,0],[1,0,0]]}]}',
        "triangles[0].vertices: expected 3 vertices, got 2",
    ),
    (
        '{"boxes": [], "triangles": [{"vertices": [[0,0,0],[1,0,0],[1,1]]}]}',
        "triangles[0].vertices[2]: expected 3 numbers",
    ),
]


@pytest.mark.parametrize("text, expected", BAD, ids=[e for _, e in BAD])
def test_bad_scene_names_file_field_and_problem(tmp_path, text, expected):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SceneError) as info:
        load_scene_file(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: "), f"message should start with the file name: {msg!r}"
    assert expected in msg, f"expected {expected!r} in {msg!r}"
    assert "\n" not in msg, f"message should be one line: {msg!r}"


def test_missing_file_and_unknown_preset(tmp_path):
    with pytest.raises(SceneError, match="cannot read scene file"):
        load_scene_file(tmp_path / "nope.json")
    with pytest.raises(SceneError, match="no such scene preset"):
        resolve_scene("definitely-not-a-preset")


def test_cli_bad_scene_exits_2_with_one_line_no_traceback(tmp_path):
    """The process boundary itself: ``python -m app``'s exit status and all it prints."""
    path = tmp_path / "bad.json"
    path.write_text('{"boxes": [{"min": [0,0,0], "max": [1,1,1]}, {"min": [0,0,0], "max": [1,1]},'
                    '{"min": [0,0,0], "max": [1,1,1]}, {"min": [0,0,0], "max": [1,1,1,1]}]}')
    r = subprocess.run([sys.executable, "-m", "app", "--headless", "--scene", str(path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, f"expected exit 2, got {r.returncode}: {r.stderr}"
    assert r.stderr.strip() == f"{path}: boxes[1].max: expected 3 numbers [x, y, z], got 2", (
        f"expected the one line naming file, field and problem, got {r.stderr!r}")
    assert r.stdout == "", f"nothing on stdout was expected, got {r.stdout!r}"
