"""The wheel a user installs: the core library alone, and the demo with its [app] extras.

Builds the wheel from this checkout, installs it (without dependencies) into two fresh venvs
whose only other packages are links to what the suite's venv already holds -- numpy and numba
for the core, everything for the app -- so nothing is downloaded, and runs it from another
directory: only what the wheel carries can be found there.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(sysconfig.get_paths()["purelib"])  # the suite venv's site-packages
CORE = ("numpy", "numba", "llvmlite")  # the core install's dependencies and theirs


@pytest.fixture(scope="session")
def wheel(tmp_path_factory, request) -> Path:
    """The wheel of this checkout, built once a session: under pytest-xdist the first worker
    to ask builds it into the session's shared temporary folder, the others wait and reuse it."""
    worker = getattr(request.config, "workerinput", None)
    if worker is None:  # one process
        return _build_wheel(tmp_path_factory.mktemp("dist"))
    shared = tmp_path_factory.getbasetemp().parent  # the session's, above each worker's
    with open(shared / "wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        built = list((shared / "dist").glob("slablab-*.whl"))
        return built[0] if built else _build_wheel(shared / "dist")


def _build_wheel(out: Path) -> Path:
    out.mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(out), str(ROOT)], check=True)
    (path,) = out.glob("slablab-*.whl")
    return path


def _venv_with(tmp: Path, wheel: Path, linked: list[Path]) -> Path:
    """A fresh venv holding the wheel, and ``linked`` (paths in the suite's site-packages)
    through a folder of symlinks named in a .pth file; returns its python."""
    env = tmp / "venv"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--disable-pip-version-check", str(wheel)], check=True)
    deps = tmp / "deps"
    deps.mkdir()
    for path in linked:
        (deps / path.name).symlink_to(path)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], check=True, capture_output=True, text=True)
    Path(site.stdout.strip(), "suite_deps.pth").write_text(f"{deps}\n")
    return python


def test_wheel_carries_the_demo_files_and_no_tests(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "app/shaders/boxes.glsl" in names, "the wheel must carry the GLSL programs"
    assert "app/assets/scenes/blog.json" in names, "the wheel must carry the scene presets"
    assert "geometry/__init__.py" in names
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))], names


def test_core_wheel_needs_no_opengl(wheel, tmp_path):
    metadata = next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("/METADATA"))
    requires = [line.split(":", 1)[1].strip() for line in
                zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert sorted(r.split(">")[0].split("=")[0].strip().lower() for r in requires) == \
        ["llvmlite", "numba", "numpy"], (
            f"the core install must need numpy and numba (with its llvmlite) only, got {requires}")
    linked = [p for p in SITE.iterdir() if p.name.split("-")[0].lower() in CORE]
    python = _venv_with(tmp_path, wheel, linked)
    code = (
        "import importlib.util, sys, geometry\n"
        "assert geometry.classify_segment_aabb([-1, .5, .5], [2, .5, .5], [0] * 3, [1] * 3) == 1\n"
        "assert not [m for m in sys.modules if m.startswith(('moderngl', 'pyglet', 'glm'))]\n"
        "assert importlib.util.find_spec('moderngl') is None\n"
        "print(geometry.__file__)"
    )
    run = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(str(tmp_path / "venv")), run.stdout
    # the demo's script is there too: without its extras it says what to install
    run = subprocess.run([str(python.parent / "slablab"), "--headless"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip().endswith("pip install 'slablab[app]'"), run.stderr
    assert "moderngl" in run.stderr, run.stderr


def test_app_wheel_renders_from_another_directory(wheel, tmp_path):
    linked = [
        p
        for p in SITE.iterdir()
        if not p.name.startswith(("slablab", "_slablab", "__editable__", "app", "geometry"))
        and p.suffix != ".pth"
    ]
    python = _venv_with(tmp_path, wheel, linked)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    run = subprocess.run([str(python.parent / "slablab"), "--headless", "--scene", "blog",
                          "--size", "320x180", "--screenshot", "x.png"],
                         cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (elsewhere / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


_CACHE_PROBE = """
import numpy as np, geometry
from geometry import _background, _engine
box = np.random.default_rng(0).random((100, 3))
geometry.classify_segment_aabb([-1, .5, .5], [2, .5, .5], box - .1, box + .1)
_background.wait()  # (a first batch this small has its loop compiled behind it)
(stats,) = [loop.stats for q in _engine._queries for loop, _ in q._loops.values()]
print(geometry.__file__, stats.cache_path, stats.cache_hits, stats.cache_misses)
"""


def test_read_only_install_caches_in_the_user_cache_dir(tmp_path):
    """Where the package's folder cannot hold numba's cache (``__pycache__`` here a file, so
    even root cannot write there), the compiled loops are cached in the user's cache folder
    (numba's user-wide locator, ``$XDG_CACHE_HOME/numba``): the second process loads them."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "geometry", site / "geometry",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (site / "geometry" / "__pycache__").write_text("not a folder")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", _CACHE_PROBE], cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True).stdout.split(" ", 2)
            for _ in range(2)]
    (file, path, first), (_, _, second) = runs
    assert file.startswith(str(site)), f"expected the copy's geometry imported, got {file}"
    assert path.startswith(str(tmp_path / "cache" / "numba")), (
        f"expected the loop cached under $XDG_CACHE_HOME/numba, got {path}")
    assert "Counter()" in first and second.startswith("Counter({"), (
        f"expected the first process to compile and the second to load the cached loop, got "
        f"hits and misses {first!r}, then {second!r}")
