"""moderngl-window's headless (EGL) window with key names tests can tell apart.

moderngl-window's headless window maps every key to "undefined", so synthesised key events
could not be told apart. :class:`HeadlessKeys` gives each key its own name as its value
(``HeadlessKeys.TAB == "TAB"``); tests send ``window.wnd.keys.TAB`` whatever the backend.
"""

from moderngl_window.context.base import BaseKeys
from moderngl_window.context.headless import Window as _MglwHeadlessWindow


class HeadlessKeys(BaseKeys):
    pass


for _name in dir(BaseKeys):
    if _name.isupper() and getattr(BaseKeys, _name) == "undefined":
        setattr(HeadlessKeys, _name, _name)


class HeadlessWindow(_MglwHeadlessWindow):
    """moderngl-window's headless window with distinct key constants."""

    keys = HeadlessKeys  # type: ignore[assignment]  # BaseKeys' own constants, as Keys has
