"""moderngl-window's headless (EGL) window, adapted: key names tests can tell apart, and a
buffer size that follows resizes.

* moderngl-window's headless window maps every key to "undefined", so synthesised key events
  could not be told apart. :class:`HeadlessKeys` gives each key its own name as its value
  (``HeadlessKeys.TAB == "TAB"``); tests send ``window.wnd.keys.TAB`` whatever the backend.
* Its ``size`` setter recreates the framebuffer at the new size but leaves ``buffer_size``
  (what viewports and reads use) at the size it was created with; a real window's resize
  updates both. A headless framebuffer has no pixel ratio: its buffer size is its size.

This module is the app's one adapter over moderngl-window's internals;
``tests/app/test_input.py`` fails when the upstream shapes it relies on change.
"""

from moderngl_window.context.base import BaseKeys
from moderngl_window.context.headless import Window as _MglwHeadlessWindow


class HeadlessKeys(BaseKeys):
    pass


for _name in dir(BaseKeys):
    if _name.isupper() and getattr(BaseKeys, _name) == "undefined":
        setattr(HeadlessKeys, _name, _name)


class HeadlessWindow(_MglwHeadlessWindow):
    """moderngl-window's headless window with distinct key constants and a buffer size that
    is its size."""

    keys = HeadlessKeys  # type: ignore[assignment]  # BaseKeys' own constants, as Keys has

    @property
    def buffer_width(self) -> int:
        return self.size[0]

    @property
    def buffer_height(self) -> int:
        return self.size[1]

    @property
    def buffer_size(self) -> tuple[int, int]:
        return self.size
