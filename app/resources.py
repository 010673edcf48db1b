"""Where the demo's own files are: its GLSL programs and its scene presets.

A wheel carries them inside the package (``app/shaders``, ``app/assets/scenes``: pyproject.toml
maps the checkout's top-level ``shaders/`` and ``assets/scenes/`` there); a checkout or an
editable install reads the top-level folders themselves.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["SCENES_DIR", "SHADERS_DIR"]


def _folder(*parts: str) -> Path:
    """The packaged copy of a top-level folder when installed from a wheel, else the checkout's."""
    packaged = Path(str(files("app").joinpath(*parts)))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.joinpath(*parts)


SHADERS_DIR = _folder("shaders")
SCENES_DIR = _folder("assets", "scenes")
