"""Fixtures for the app tests: one headless (EGL) demo window per session.

Tests that need OpenGL use ``gl_app``; without EGL they are skipped with what to install.
"""

import pytest


def _egl_problem() -> str | None:
    try:
        import moderngl

        ctx = moderngl.create_standalone_context(backend="egl")
        ctx.release()
    except Exception as exc:  # noqa: BLE001 - any failure means: no headless GL here
        return (f"no headless OpenGL (EGL) available ({exc}); install Mesa: "
                f"apt-get install libegl1 libgl1-mesa-dri")
    return None


@pytest.fixture(scope="session")
def egl():
    problem = _egl_problem()
    if problem:
        pytest.skip(problem)


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
