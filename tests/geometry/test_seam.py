"""The seam: `geometry` knows nothing of pixels (STYLE.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_geometry_loads_no_opengl():
    code = (
        "import json, sys, geometry; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('moderngl', 'moderngl_window', 'glcontext', 'pyglet', 'OpenGL'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, f"importing geometry failed:\n{result.stderr}"
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded == [], f"expected no OpenGL modules after `import geometry`, found {loaded}"


def test_geometry_is_the_library_not_the_tests_folder():
    import geometry

    assert Path(geometry.__file__).resolve().parent == ROOT / "geometry", (
        f"expected `geometry` from {ROOT / 'geometry'}, got {getattr(geometry, '__file__', None)}"
    )
