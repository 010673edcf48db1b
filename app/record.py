"""Recording the demo as an animated GIF: the frames of a lesson or of an orbit
(``--record``), or what the window shows while recording (F9).

A recording is frames plus how long each is shown (milliseconds; GIF keeps hundredths of a
second). All frames share one palette, taken from a few of them, so colours do not flicker
from frame to frame. Files are written as screenshots are (:mod:`app.images`): atomically, and
the window's recordings under new names beside the screenshots, never over a file.

No OpenGL here: the frame producers take the demo window (:class:`~app.window.SlabLabWindow`)
and call its ``render_frame`` / ``read_image``; the window's recording is kept by the input
controller (:mod:`app.controller`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from app.images import check_folder, write_file, write_new_file

#: extension -> Pillow format name
FORMATS = {".gif": "GIF"}
#: each lesson step is shown this long (ms)
STEP_MS = 1000
#: an orbit recording: this many frames by default, each shown this long (ms)
ORBIT_FRAMES, ORBIT_FRAME_MS = 60, 100
#: the window keeps at most this many frames a second while recording ...
WINDOW_FPS = 15
#: ... and stops (saving what it has) when its frames hold this many bytes
MAX_RECORDING_BYTES = 512 * 2**20
#: GIF viewers show shorter frames (0 or 10 ms) for 100 ms: no frame is shorter than this
MIN_FRAME_MS = 20
#: the last frame of a window recording is held at least this long before the GIF loops (ms)
HOLD_LAST_MS = 1000


class RecordPathError(ValueError):
    """A file name that cannot be written as a recording; ``str()`` is a one-line reason."""


def check_record_path(path: str | Path) -> Path:
    """Fail early if a recording cannot be written at ``path``: :class:`RecordPathError` for
    the name's format, OSError (with a reason) for the file system."""
    if not str(path):
        raise RecordPathError("expected a file name ending in .gif, got an empty string")
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        what = f"unknown animation format '{Path(path).suffix}'" if suffix else "no extension"
        raise RecordPathError(f"{what} (use .gif)")
    return check_folder(path)


def _gif_writer(frames: Sequence[np.ndarray], durations_ms: Sequence[int]):
    """A writer (see :func:`app.images.write_file`) of ``frames`` ((H, W, 3) uint8 each) as a
    looping GIF, frame ``i`` shown ``durations_ms[i]``."""
    if not frames or len(frames) != len(durations_ms):
        raise ValueError(f"expected one duration per frame and at least one frame, got "
                         f"{len(frames)} frames and {len(durations_ms)} durations")

    def write(f: BinaryIO) -> None:
        from PIL import Image

        # one palette for all: from up to 4 frames side by side, each subsampled 2x
        pick = sorted({0, len(frames) // 3, 2 * len(frames) // 3, len(frames) - 1})
        sample = np.concatenate([frames[i][::2, ::2] for i in pick], axis=1)
        palette = Image.fromarray(sample).quantize(256, method=Image.Quantize.MEDIANCUT)
        images = [Image.fromarray(np.ascontiguousarray(frame)).quantize(
            palette=palette, dither=Image.Dither.NONE) for frame in frames]
        images[0].save(f, format="GIF", save_all=True, append_images=images[1:], loop=0,
                       duration=[max(int(d), MIN_FRAME_MS) for d in durations_ms])
    return write


def save_animation(frames: Sequence[np.ndarray], durations_ms: Sequence[int],
                   path: str | Path) -> Path:
    """Write ``frames`` to ``path`` (its extension names the format), replacing a file there;
    atomic. Returns the absolute path."""
    check_record_path(path)
    return write_file(path, _gif_writer(frames, durations_ms))


def save_new_animation(frames: Sequence[np.ndarray], durations_ms: Sequence[int],
                       directory: str | Path) -> Path:
    """Write ``frames`` as a GIF under a new name in ``directory``
    (``slablab-YYYYmmdd-HHMMSS[-n].gif``), overwriting nothing. Returns the absolute path."""
    return write_new_file(directory, ".gif", _gif_writer(frames, durations_ms))


# ----------------------------------------------------------------------- what --record renders
def lesson_frames(app: Any, steps: int) -> Iterator[tuple[np.ndarray, int]]:
    """``(image, ms)`` for steps 1..``steps`` of the lesson explain mode shows for the selected
    box (each what ``--step`` renders), then back to the step shown before."""
    state, before = app.state, app.state.lesson_step
    try:
        for step in range(1, steps + 1):
            state.lesson_step = step
            app.render_frame()
            yield app.read_image(), STEP_MS
    finally:
        state.lesson_step = before


def orbit_frames(app: Any, count: int) -> Iterator[tuple[np.ndarray, int]]:
    """``(image, ms)`` for ``count`` views as the camera turns once around its target
    (360 / ``count`` degrees of yaw apart), then back to the camera's yaw before."""
    camera = app.camera
    yaw = camera.yaw
    try:
        for k in range(count):
            camera.yaw = yaw + 360.0 * k / count
            app.render_frame()
            yield app.read_image(), ORBIT_FRAME_MS
    finally:
        camera.yaw = yaw


class Recording:
    """The frames the window drew while recording: at most ``WINDOW_FPS`` a second, each with
    the time (seconds, any clock) it appeared; shown until the next one, the last for
    ``HOLD_LAST_MS`` (or until the recording stopped, if later)."""

    def __init__(self) -> None:
        self.frames: list[np.ndarray] = []
        self.times: list[float] = []
        self.nbytes = 0

    def due(self, now: float) -> bool:
        """Whether a frame drawn at ``now`` would be kept (none kept for 1/WINDOW_FPS s)."""
        return not self.times or now - self.times[-1] >= 1.0 / WINDOW_FPS

    def fits(self, image: np.ndarray) -> bool:
        """Whether ``image`` has the recording's size (a GIF's frames all have one)."""
        return not self.frames or image.shape == self.frames[0].shape

    def add(self, image: np.ndarray, now: float) -> None:
        self.frames.append(image)
        self.times.append(now)
        self.nbytes += image.nbytes

    def full(self) -> bool:
        """Whether the frames hold ``MAX_RECORDING_BYTES`` or more."""
        return self.nbytes >= MAX_RECORDING_BYTES

    def durations_ms(self, stopped: float) -> list[int]:
        """How long each frame is shown (ms) when the recording stopped at ``stopped``."""
        ends = [*self.times[1:], max(stopped, self.times[-1] + HOLD_LAST_MS / 1000)]
        return [round(1000 * (b - a)) for a, b in zip(self.times, ends, strict=True)]
