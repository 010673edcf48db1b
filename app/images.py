"""Writing rendered frames to image files: the format the file name asks for, atomically, and
(for the screenshot key) never over an existing file. :func:`write_file` and
:func:`write_new_file` do the same for any file (recordings: :mod:`app.record`).

Formats by extension (case-insensitive): ``.png`` (PNG), ``.jpg`` / ``.jpeg`` (JPEG, quality
92). Any other extension, or none, is refused before anything is rendered.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

#: extension -> Pillow format name
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


class ImagePathError(ValueError):
    """A file name that cannot be written as an image; ``str()`` is a one-line reason."""


def image_format(path: str | Path) -> str:
    """The Pillow format for ``path``'s extension; :class:`ImagePathError` when there is none."""
    if not str(path):
        raise ImagePathError("expected a file name ending in .png or .jpg, got an empty string")
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        what = f"unknown image format '{Path(path).suffix}'" if suffix else "no image extension"
        raise ImagePathError(f"{what} (use .png, .jpg or .jpeg)")
    return FORMATS[suffix]


def check_writable(path: str | Path) -> Path:
    """Fail early if an image cannot be written at ``path``: :class:`ImagePathError` for the
    name's format, OSError (with a reason) for the file system."""
    image_format(path)
    return check_folder(path)


def check_folder(path: str | Path) -> Path:
    """Fail early if no file can be created at ``path`` (whatever its format): OSError with a
    reason (a directory there, a missing or read-only folder)."""
    path = Path(path)
    if path.exists() and path.is_dir():
        raise IsADirectoryError(21, "is a directory", str(path))
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise FileNotFoundError(2, "directory does not exist", str(parent))
    if not os.access(parent, os.W_OK):
        raise PermissionError(13, "directory is not writable", str(parent))
    return path


def _write_temp(write: Callable[[BinaryIO], None], directory: Path) -> str:
    """Run ``write`` on a fresh temporary file in ``directory``; returns its name. A failure
    removes it."""
    fd, tmp = tempfile.mkstemp(prefix=".slablab-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file normal permissions
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_file(path: str | Path, write: Callable[[BinaryIO], None]) -> Path:
    """Create ``path`` (replacing a file already there) with what ``write`` writes to it.
    Atomic: ``write`` fills a temporary file in the same folder, renamed at the end, so a
    failure leaves nothing behind. Returns the absolute path."""
    path = check_folder(path).absolute()
    tmp = _write_temp(write, path.parent)
    try:
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_new_file(directory: str | Path, suffix: str, write: Callable[[BinaryIO], None],
                   stem: str | None = None) -> Path:
    """Create a file that did not exist in ``directory`` with what ``write`` writes to it:
    ``stem + suffix``, else ``stem-2`` ... (``stem`` defaults to ``slablab-YYYYmmdd-HHMMSS``).
    The name is reserved with an exclusive create, so two files in one second, or two
    processes, never overwrite each other. Creates ``directory``; returns the absolute path."""
    directory = Path(directory).absolute()
    directory.mkdir(parents=True, exist_ok=True)
    stem = stem or time.strftime("slablab-%Y%m%d-%H%M%S")
    tmp = _write_temp(write, directory)
    try:
        for n in range(1, 10_000):
            path = directory / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
            except FileExistsError:
                continue
            os.replace(tmp, path)
            return path
        raise FileExistsError(17, "no free file name", str(directory / stem))
    finally:
        Path(tmp).unlink(missing_ok=True)


def _image_writer(image: np.ndarray, fmt: str) -> Callable[[BinaryIO], None]:
    def write(f: BinaryIO) -> None:
        from PIL import Image

        Image.fromarray(image).save(f, format=fmt, **({"quality": 92} if fmt == "JPEG" else {}))
    return write


def save_image(image: np.ndarray, path: str | Path) -> Path:
    """Write ``image`` ((H, W, 3) uint8) to ``path`` in the format its extension names,
    replacing a file already there. Atomic: a failure leaves nothing behind.
    Returns the absolute path."""
    fmt = image_format(path)
    return write_file(path, _image_writer(image, fmt))


def save_new_image(image: np.ndarray, directory: str | Path, stem: str | None = None,
                   suffix: str = ".png") -> Path:
    """Write ``image`` under a name that did not exist (see :func:`write_new_file`): ``stem +
    suffix``, else ``stem-2`` ... Creates ``directory``; returns the absolute path."""
    return write_new_file(directory, suffix, _image_writer(image, image_format(f"x{suffix}")),
                          stem)
