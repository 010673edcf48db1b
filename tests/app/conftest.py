"""Fixtures for the app tests: one headless (EGL) demo window per session.

Tests that need OpenGL use ``gl_app``; they are skipped (with what to install) only where EGL
is missing, and fail on any other error (``tests/headless_gl.py``). ``cli`` runs the command
line in this process.
"""

from typing import NamedTuple

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
    app.controller.shift = False
    return app


class CliResult(NamedTuple):
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """``cli(*args)``: the command line (``app.__main__.main``) run in this process, for the
    refusals that come before any window; returns its exit code, stdout and stderr.

    A command that gets as far as opening a window fails the test instead: a second GL context
    in this process would un-bind the session's headless one. Commands that render run as
    subprocesses.
    """
    from app import cli as cli_module
    from app import window
    from app.__main__ import main

    def no_window(*args, **kwargs):
        raise AssertionError("the command line opened a window; this command was expected to "
                             "stop with an error before that")

    for module in (window, cli_module):  # where the command line may find it
        if hasattr(module, "create_window"):
            monkeypatch.setattr(module, "create_window", no_window)

    def run(*args: str) -> CliResult:
        capsys.readouterr()  # what the test printed before
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse: usage errors and --help
            code = exc.code if isinstance(exc.code, int) else 1
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run
