"""The code base is lint-clean: ruff (pyflakes, pycodestyle, isort, bugbear, pyupgrade) and mypy
(strict for geometry, checked for app), both configured in pyproject.toml; and every third-party
module geometry/ and app/ import is one the package declares."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # tomli is tomllib before 3.11; pytest itself requires it there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_is_clean() -> None:
    proc = run("ruff", "check", ".")
    assert proc.returncode == 0, f"ruff check . found problems:\n{proc.stdout}{proc.stderr}"


def test_mypy_is_clean() -> None:
    numpy_version = tuple(int(p) for p in version("numpy").split(".")[:2])
    if numpy_version < (2, 3):
        # numpy 2.2, the last for Python 3.10, types ndarray without defaults for its type
        # parameters (and shapes otherwise): some 160 errors that say nothing of this code
        reason = (f"geometry/ and app/ are typed against numpy >= 2.3's stubs; this Python "
                  f"({sys.version.split()[0]}) has numpy {version('numpy')}")
        if os.environ.get("CI"):
            pytest.fail(f"{reason}: CI must run mypy, on a Python with numpy >= 2.3",
                        pytrace=False)
        pytest.skip(reason)
    proc = run("mypy")
    assert proc.returncode == 0, f"mypy found problems:\n{proc.stdout}{proc.stderr}"


# --- declared imports --------------------------------------------------------------------------

#: Import names that differ from their distribution's name.
DISTRIBUTION = {"PIL": "pillow", "glm": "pyglm", "pyglm": "pyglm", "moderngl_window":
                "moderngl-window"}


def declared(extras: tuple[str, ...]) -> set[str]:
    """Normalised distribution names the core install and ``extras`` require."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    return {re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower().replace("_", "-")
            for r in requirements}


def third_party_imports(package: str) -> dict[str, str]:
    """{top-level module: first file importing it} for every import in ``package`` that is
    neither the standard library nor the project's own packages."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("geometry", "app"):
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


# geometry imports dask only when handed dask arrays (the [dask] extra)
@pytest.mark.parametrize("package, extras", [("geometry", ("dask",)), ("app", ("app",))])
def test_every_import_is_a_declared_requirement(package: str, extras: tuple[str, ...]) -> None:
    allowed = declared(extras)
    missing = {module: where for module, where in third_party_imports(package).items()
               if DISTRIBUTION.get(module, module).lower().replace("_", "-") not in allowed}
    assert not missing, (f"{package}/ imports modules its install does not declare "
                         f"(pyproject.toml): {missing}")
