"""Fixtures for the app tests: one headless (EGL) demo window per session.

Tests that need OpenGL use ``gl_app``; without EGL they are skipped with what to install.
"""

import pytest


@pytest.fixture(scope="session")
def egl():
    """Skip unless the process's headless demo window can be created.

    Creating the shared app is the probe: a throwaway probe context, created and released
    after the app exists (tests/screenshots may run first), would leave the app's context
    unbound and every later frame blank.
    """
    try:
        from app.headless import headless_app

        headless_app(None, (320, 180))
    except Exception as exc:  # noqa: BLE001 - any failure means: no headless GL here
        pytest.skip(f"no headless OpenGL (EGL) available ({type(exc).__name__}: {exc}); "
                    f"install Mesa: apt-get install libegl1 libgl1-mesa-dri")


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
