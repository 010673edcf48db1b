"""Fixtures for the screenshot tests: one headless (EGL, Mesa llvmpipe) demo window per session.

Model: moderngl's ``tests/conftest.py`` (one standalone context for the session) and vispy's
``requires_application()`` (a skip that says what to install).

* ``egl_app`` (session): the app's own headless window (``app.headless.headless_app``, multisampling
  off, the app's one code path for screenshots); skipped with what to install only where EGL
  is missing (never under ``CI``), any other failure fails (``tests/headless_gl.py``).
* ``demo``: that window reset to a known state for one test (see :func:`reset_app`).
* ``update_golden``: True under ``pytest --update-golden`` or ``SLABLAB_UPDATE_GOLDEN=1``.
* marker ``real_window``: tests that open a real (pyglet) window under X; deselect with
  ``-m "not real_window"``.
"""

from __future__ import annotations

import pytest

from tests.headless_gl import headless_app_or_skip
from tests.screenshots.screenshot_compare import update_requested


def pytest_configure(config):
    update_requested(config)  # a golden rewrite requested under CI stops the run here
    config.addinivalue_line(
        "markers", "real_window: opens a real pyglet window under X (Xvfb); needs `apt-get "
        "install xvfb xauth` where no display is available")


@pytest.fixture(scope="session")
def egl_app():
    """The session's headless SlabLabWindow (created once; tests resize/reload it).

    No probe context first: creating and releasing a second EGL context un-binds the app's
    context when the app already exists (tests/app may have created it first), after which every
    frame comes out blank. Creating the app is the probe; EGL alone is probed only when that
    failed, to tell "no EGL" (skip) from a broken app (fail).
    """
    return headless_app_or_skip((400, 300))


def reset_app(app, scene_name: str = "blog", size=(400, 300)):
    """Load a preset and put every toggle, the camera and the input state back to the start."""
    from app.headless import headless_app
    from app.scene import resolve_scene
    from tests.screenshots.screenshot_helpers import resize_headless

    resize_headless(size)
    app = headless_app(resolve_scene(scene_name), size)
    keys = app.wnd.keys
    for shift in ("LEFT_SHIFT", "RIGHT_SHIFT"):  # a test may have left Shift pressed
        app.on_key_event(getattr(keys, shift), keys.ACTION_RELEASE, None)
    st = app.state
    st.explain = st.show_help = st.playing = False
    st.highlight_triangles = True
    st.selected = st.hovered = None
    app.frame_ms = 0.0
    return app


@pytest.fixture
def demo(egl_app):
    """The headless demo at 400x300 showing the blog scene, every toggle reset."""
    return reset_app(egl_app)


@pytest.fixture
def update_golden(request) -> bool:
    return update_requested(request.config)
