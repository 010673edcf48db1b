"""The demo keeps geometry to one thread: llvmpipe renders on the other cores."""

import pytest

import geometry


class _Stop(Exception):
    pass


def _stop(*args, **kwargs):
    raise _Stop


def test_opening_the_demo_sets_geometry_to_one_thread(monkeypatch):
    import app.window as window

    monkeypatch.setattr(window, "HeadlessWindow", _stop)  # stop before any OpenGL
    before = geometry.get_num_threads()
    geometry.set_num_threads(2)
    try:
        with pytest.raises(window.ContextError) as info:  # the backend's error, wrapped
            window.create_window(None, headless=True)
        assert isinstance(info.value.__cause__, _Stop)
        assert geometry.get_num_threads() == 1
    finally:
        geometry.set_num_threads(before)
