"""Recording: ``--record out.gif`` (a lesson's steps, or a turn around the scene) read back with
Pillow, one-line refusals of bad names and option mixes, and the window's F9 recording through
the input controller without OpenGL."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence

from app.record import HOLD_LAST_MS, STEP_MS, Recording


def read_gif(path: Path) -> tuple[list[np.ndarray], list[int]]:
    """The frames (RGB) and their durations (ms) of the GIF at ``path``."""
    with Image.open(path) as im:
        assert im.format == "GIF" and im.is_animated, f"expected an animated GIF at {path}"
        frames = [(np.asarray(f.convert("RGB")).copy(), f.info["duration"])
                  for f in ImageSequence.Iterator(im)]
    return [f for f, _ in frames], [d for _, d in frames]


def assert_frames_change(frames: list[np.ndarray]) -> None:
    for k in range(1, len(frames)):
        assert (frames[k] != frames[k - 1]).any(), f"frame {k} equals frame {k - 1}"


@pytest.fixture
def run_here(gl_app, monkeypatch, capsys):
    """``run_here(*args)``: the command line in this process, its window the session's headless
    one (a second GL context would unbind that); returns the exit code and stdout."""
    from app import window
    from app.__main__ import main
    from app.headless import headless_app

    monkeypatch.setattr(window, "create_window",
                        lambda scene, *, size, **kwargs: headless_app(scene, size))

    def run(*args: str) -> tuple[int, str]:
        code = main(list(args))
        out = capsys.readouterr()
        assert code == 0, out.err
        return code, out.out

    return run


def test_record_the_lesson_one_frame_per_step(run_here, tmp_path):
    """Four steps, each held a second, each a new picture; the path printed; no temporary file
    left."""
    out = tmp_path / "lesson.gif"
    _, printed = run_here("--headless", "--scene", "lesson", "--explain", "--select", "0",
                          "--record", str(out), "--size", "320x200")
    assert str(out) in printed, f"the command should print the GIF's path: {printed!r}"
    frames, durations = read_gif(out)
    assert len(frames) == 4 and durations == [STEP_MS] * 4, (
        f"expected the lesson's 4 steps held {STEP_MS} ms each, got {durations}")
    assert frames[0].shape == (200, 320, 3)
    assert_frames_change(frames)
    assert [p.name for p in tmp_path.iterdir()] == ["lesson.gif"], "no temporary file left"


def test_record_an_orbit_of_any_scene(run_here, gl_app, tmp_path):
    """``--frames 4`` without --explain: a quarter turn apart; the camera is back after it."""
    yaw = gl_app.camera.yaw
    out = tmp_path / "orbit.gif"
    run_here("--headless", "--scene", "blog", "--record", str(out), "--frames", "4",
             "--size", "160x90")
    frames, durations = read_gif(out)
    assert len(frames) == 4 and durations == [100] * 4, f"4 frames of 100 ms, got {durations}"
    assert_frames_change(frames)
    assert gl_app.camera.yaw == yaw, "the recording should leave the camera as it found it"


@pytest.mark.parametrize("name, message", [
    ("out.avi", "--record '{p}': unknown animation format '.avi' (use .gif)"),
    ("out", "--record '{p}': no extension (use .gif)"),
    ("missing-dir/out.gif", "--record '{p}': cannot write there: directory does not exist"),
    ("is-a-dir.gif", "--record '{p}': cannot write there: is a directory"),
])
def test_bad_record_names_are_one_line_errors(cli, tmp_path, name, message):
    (tmp_path / "is-a-dir.gif").mkdir()
    target = tmp_path / name
    r = cli("--headless", "--scene", "blog", "--record", str(target))
    expected = message.format(p=target)
    assert r.code == 2 and r.err == expected + "\n", f"expected exit 2 and {expected!r}, " \
                                                     f"got {r.code} and {r.err!r}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["is-a-dir.gif"], "nothing written"


@pytest.mark.parametrize("args, message", [
    (["--frames", "5"], "--frames needs --record"),
    (["--record", "x.gif", "--screenshot", "x.png"], "give either --screenshot or --record"),
    (["--record", "x.gif", "--explain", "--step", "2"], "leave out --step"),
    (["--record", "x.gif", "--explain", "--frames", "5"], "--frames is for the camera's turn"),
])
def test_record_options_that_do_not_fit_are_one_line_errors(cli, args, message):
    r = cli("--headless", "--scene", "lesson", *args)
    assert r.code == 2 and message in r.err and r.err.count("\n") == 1, (
        f"expected exit 2 and one line with {message!r}, got {r.code} and {r.err!r}")


def test_f9_records_what_the_window_shows_into_a_new_gif(tmp_path, capsys):
    """Without OpenGL: the controller starts and stops the recording; frames come from
    ``read_frame`` (the window's, here a counter's images); a second recording gets a new
    name. The HUD says it records (but recorded frames are read without messages)."""
    from tests.app.test_controller import make

    count = iter(range(100))

    def read_frame():
        image = np.zeros((6, 8, 3), np.uint8)
        image[..., 0] = 40 * next(count)
        return image

    ctl = make(read_frame=read_frame, record_dir=tmp_path / "shots")
    paths = []
    for _ in range(2):
        ctl.key("F9")
        assert ctl.recording is not None and "recording" in ctl.current_message()
        ctl.recording.times[-1] -= 1.0  # the first frame shown a second ago
        assert ctl.record_due(), "a frame a second later should be recorded"
        ctl.record_frame()
        ctl.key("F9")
        assert ctl.recording is None
        paths.append(Path(capsys.readouterr().out.split("recording saved: ")[1].strip()))
    assert paths[0] != paths[1] and all(p.parent == tmp_path / "shots" for p in paths), paths
    frames, durations = read_gif(paths[0])
    assert len(frames) == 3, f"start, one frame, stop: 3 frames, got {len(frames)}"
    assert_frames_change(frames)
    assert 990 <= durations[0] <= 1010 and durations[-1] == HOLD_LAST_MS, durations


def test_the_recording_stops_and_saves_at_its_size_limit(tmp_path, monkeypatch):
    from app import record
    from tests.app.test_controller import make

    monkeypatch.setattr(record, "MAX_RECORDING_BYTES", 3 * 6 * 8 * 3)
    ctl = make(read_frame=lambda: np.full((6, 8, 3), 9, np.uint8), record_dir=tmp_path)
    ctl.key("F9")
    for _ in range(2):
        ctl.record_frame()
    assert ctl.recording is None and "size limit" in ctl.message, ctl.message
    assert len(list(tmp_path.glob("*.gif"))) == 1, "the recording should have been saved"


def test_a_resized_window_stops_and_saves_the_recording(tmp_path):
    from tests.app.test_controller import make

    shapes = iter([(6, 8, 3), (6, 8, 3), (7, 8, 3)])
    ctl = make(read_frame=lambda: np.full(next(shapes), 200, np.uint8), record_dir=tmp_path)
    ctl.key("F9")
    ctl.recording.times[-1] -= 1.0
    ctl.record_frame()  # same size: kept
    ctl.record_frame()  # another size: the recording ends with the frames it has
    assert ctl.recording is None and "size changed" in ctl.message, ctl.message
    assert len(list(tmp_path.glob("*.gif"))) == 1, "the recording should have been saved"


def test_durations_follow_the_frames_times():
    rec = Recording()
    for t in (10.0, 10.25, 10.5):
        rec.add(np.zeros((2, 2, 3), np.uint8), t)
    assert rec.durations_ms(12.0) == [250, 250, 1500]
    assert rec.durations_ms(10.6)[-1] == HOLD_LAST_MS
