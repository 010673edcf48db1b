"""Controls: one bindings table behind the controller's key handler, the help overlay and the
README; keyboard steps scaled to the scene. (What drags, clicks and keys do is in
``test_controller.py``.) No OpenGL needed."""

import re
from pathlib import Path

import pytest
from moderngl_window.context.base import BaseKeys

from app.bindings import BINDINGS, DRAG_ACTIONS, KEY_ACTIONS, bindings_markdown
from app.controller import Controller

ROOT = Path(__file__).resolve().parents[2]


def test_every_key_of_the_table_has_its_action_and_a_distinct_key():
    keys = [k for b in BINDINGS for k in b.keys]
    assert len(keys) == len(set(keys)), "a key bound twice"
    for name, binding in KEY_ACTIONS.items():
        assert hasattr(BaseKeys, name), f"{name} is not a moderngl-window key name"
        assert callable(getattr(Controller, f"action_{binding.action}", None)), (
            f"{binding.inputs}: the controller has no action_{binding.action}")
    assert set(DRAG_ACTIONS.values()) == {"orbit", "pan"}
    actions = {name[len("action_"):] for name in dir(Controller) if name.startswith("action_")}
    assert actions == {b.action for b in BINDINGS if b.keys}, (
        "every action_<name> of the controller is bound to a key in app.bindings")


def test_help_overlay_lists_exactly_the_table():
    from app.hud import help_lines

    shown = ["".join(s for s, _ in line) for line in help_lines()]
    for b in BINDINGS:
        assert any(line.startswith(b.inputs) and line.rstrip().endswith(b.what)
                   for line in shown), f"help overlay lacks {b.inputs!r}"
    rows = [line for line in shown if any(line.startswith(b.inputs + "  ") for b in BINDINGS)]
    assert len(rows) == len(BINDINGS)


def test_readme_controls_table_is_the_bindings_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^\| Input \| Action \|\n(?:^\|.*\|\n)+", text, re.M)
    assert m, "README.md has no controls table (| Input | Action |)"
    assert m.group(0) == bindings_markdown(), (
        "README.md's controls table differs from app.bindings; paste app.bindings."
        "bindings_markdown() there:\n" + bindings_markdown())


@pytest.mark.parametrize("extent, step", [(8.3, 0.25), (1.0, 0.025), (57.0, 2.0),
                                          (700.0, 20.0)])
def test_keyboard_step_scales_with_the_scene(extent, step):
    from app.controller import keyboard_step

    assert keyboard_step(extent) == pytest.approx(step)
