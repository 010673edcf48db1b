"""Fixtures for the app tests: one headless (EGL) demo window per session.

Tests that need OpenGL use ``gl_app``; they are skipped (with what to install) only where EGL
is missing, and fail on any other error (``tests/headless_gl.py``).
"""

import pytest

from tests.headless_gl import headless_app_or_skip


@pytest.fixture(scope="session")
def egl():
    """The session's headless demo window exists (skipped only where EGL is missing).

    Creating the shared app is the probe: a throwaway probe context, created and released
    after the app exists (tests/screenshots may run first), would leave the app's context
    unbound and every later frame blank. EGL alone is probed only when creating the app failed.
    """
    headless_app_or_skip((320, 180))


@pytest.fixture
def gl_app(egl):
    """The session's headless SlabLabWindow at 320x180 showing the blog scene, reset."""
    from app.headless import headless_app
    from app.scene import resolve_scene

    app = headless_app(resolve_scene("blog"), (320, 180))
    st = app.state
    st.explain = st.show_help = st.playing = False
    st.highlight_triangles = True
    app._shift = False
    return app
