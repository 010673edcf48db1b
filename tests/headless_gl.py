"""The session's headless demo window for the OpenGL tests, and the one reason to skip them.

Only a machine without EGL skips them (and not under ``CI``, which installs Mesa's EGL): any
other failure to create the demo (a shader that does not compile, a bug in the window code)
fails every test that needs it.
"""

from __future__ import annotations

import os

import pytest

EGL_HINT = "install Mesa's EGL and llvmpipe: apt-get install libegl1 libgl1-mesa-dri"


def egl_missing() -> str | None:
    """Why this process cannot make an EGL OpenGL 3.3 context, or None when it can.

    Creates and releases a standalone EGL context: call it only when no other context is in use
    (releasing it would un-bind the current one), i.e. after the demo's window failed.
    """
    import moderngl

    try:
        ctx = moderngl.create_standalone_context(backend="egl")
    except Exception as exc:  # noqa: BLE001 - the backend's own errors: no library, no device
        return f"{type(exc).__name__}: {exc}"
    ctx.release()
    return None


def headless_app_or_skip(size: tuple[int, int]):
    """The process's headless demo window (``app.headless.headless_app``) at ``size``.

    Skips only when EGL itself is missing (:func:`egl_missing`), and fails then too under
    ``CI``; every other error propagates, so the tests that need the window fail.
    """
    from app.headless import headless_app
    from app.window import ContextError

    try:
        return headless_app(None, size)
    except ContextError as exc:
        missing = egl_missing()
        if missing is None:
            raise AssertionError(
                f"a standalone EGL context works here, yet the demo's headless window "
                f"failed: {exc}") from exc
        if os.environ.get("CI"):
            pytest.fail(f"CI=true but no headless OpenGL 3.3 (EGL) context ({missing}); CI "
                        f"must {EGL_HINT}", pytrace=False)
        pytest.skip(f"no headless OpenGL 3.3 (EGL) context ({missing}); {EGL_HINT}")
