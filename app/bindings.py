"""The one table of the demo's key and mouse bindings.

The input controller (:mod:`app.controller`) dispatches keys through it (key name -> action)
and takes each button's drag from it, the help overlay (H) lists it, and
:func:`bindings_markdown` renders it for the README (a test checks that README.md's controls
table is exactly this one).

Key names are moderngl-window's key attribute names (``wnd.keys.TAB``); mouse buttons are
moderngl-window's numbers (1 left, 2 right, 3 middle).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.presets import number_key_names

LEFT, RIGHT, MIDDLE = 1, 2, 3


@dataclass(frozen=True)
class Binding:
    """One row: ``inputs`` as shown to the user, what it does, and how the controller finds it.

    ``keys``: key names that trigger ``action`` (a ``Controller.action_<action>`` method of
    :mod:`app.controller`, called with the key's name and whether Shift was held). ``drag``:
    (button, shift) pairs whose drag performs ``action`` (``orbit`` or ``pan``). Rows with
    neither describe input the controller's mouse handling interprets itself (handles, clicks,
    the wheel).
    """

    inputs: str
    what: str
    action: str = ""
    keys: tuple[str, ...] = ()
    drag: tuple[tuple[int, bool], ...] = ()


MOVE_KEYS = ("W", "A", "S", "D", "Q", "E")
BOX_KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "PAGE_UP", "PAGE_DOWN")
NUMBER_KEYS = tuple(f"NUMBER_{i}" for i in range(1, 10))

BINDINGS: tuple[Binding, ...] = (
    Binding("Left-drag / Middle-drag",
            "orbit the camera (left: anywhere but on what it moves)", "orbit",
            drag=((LEFT, False), (LEFT, True), (MIDDLE, False))),
    Binding("Right-drag / Shift+Middle-drag", "pan the camera", "pan",
            drag=((RIGHT, False), (RIGHT, True), (MIDDLE, True))),
    Binding("Wheel / Shift+Wheel",
            "zoom (stops before entering a box or losing the scene) / resize the sphere"),
    Binding("Home", "reset the camera", "home", keys=("HOME",)),
    Binding("Left-drag a handle", "move that segment end (in the plane facing you)"),
    Binding("Left-drag segment / sphere", "move the whole segment / that sphere"),
    Binding("Hover / Left-click", "highlight / select the box under the cursor"),
    Binding("Left-drag the selected box", "move it (the point you grabbed follows the cursor)"),
    Binding("Tab", "keyboard moves: start / end / both", "cycle_part", keys=("TAB",)),
    Binding("W A S D / Q E", "move the segment (camera-relative; Q/E down/up)", "move_segment",
            keys=MOVE_KEYS),
    Binding("Arrows / PageUp PageDown", "move the selected box", "move_box", keys=BOX_KEYS),
    Binding("Shift (with keys)", "fine steps (a tenth; steps scale with the scene's size)"),
    Binding("Space", "play / pause the animation", "play", keys=("SPACE",)),
    Binding("R", "new random scene", "random", keys=("R",)),
    Binding("1 - 9", f"presets: {number_key_names()}", "preset", keys=NUMBER_KEYS),
    Binding("X", "explain mode (why the selected box has its colour)", "explain", keys=("X",)),
    Binding(". , Backspace G", "explain lesson: next / previous step, live view, triangle",
            "lesson", keys=("PERIOD", "COMMA", "BACKSPACE", "G")),
    Binding("O / V", "frustum scene: orbit its camera (Shift: back) / look through it (Home: back)",
            "frustum", keys=("O", "V")),
    Binding("B / J L / I K",
            "box scene: query box AABB/OBB / turn it about y / about x (Left-drag moves it)",
            "query_box", keys=("B", "J", "L", "I", "K")),
    Binding("N", "show / hide the NONE (green) boxes", "toggle_none", keys=("N",)),
    Binding("T", "highlight boxes overlapping a triangle", "triangles", keys=("T",)),
    Binding("F12 / P", "save a screenshot PNG (never overwrites; path printed)", "screenshot",
            keys=("F12", "P")),
    Binding("F9", "start / stop recording a GIF beside the screenshots (path printed)",
            "record", keys=("F9",)),
    Binding("H / F1", "this help", "help", keys=("H", "F1")),
    Binding("Esc", "quit", "quit", keys=("ESCAPE",)),
)

#: key name -> binding (what the key handler dispatches on)
KEY_ACTIONS: dict[str, Binding] = {k: b for b in BINDINGS for k in b.keys}
#: (button, shift) -> drag action ("orbit" or "pan")
DRAG_ACTIONS: dict[tuple[int, bool], str] = {d: b.action for b in BINDINGS for d in b.drag}


def bindings_markdown() -> str:
    """The table as a Markdown table (``| Input | Action |``), one row per binding."""
    rows = ["| Input | Action |", "|---|---|"]
    rows += [f"| {b.inputs} | {b.what} |" for b in BINDINGS]
    return "\n".join(rows) + "\n"
