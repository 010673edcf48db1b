"""The window's side of input, headless: its event methods reach the controller, frames follow,
and the camera's one matrix conversion. (What input does is tested without OpenGL in
``test_controller.py``.)"""

import numpy as np
from moderngl_window.context.base import BaseWindow, KeyModifiers
from moderngl_window.context.headless import Window as MglwHeadlessWindow

from app.camera import OrbitCamera, glm_to_pyrr
from app.scene import CameraSpec

LEFT, RIGHT, MIDDLE = 1, 2, 3


def press(app, name, shift=False):
    mods = KeyModifiers()
    mods.shift = shift
    app.on_key_event(getattr(app.wnd.keys, name), app.wnd.keys.ACTION_PRESS, mods)
    app.on_key_event(getattr(app.wnd.keys, name), app.wnd.keys.ACTION_RELEASE, mods)


def drag(app, button, a, b, steps=5):
    app.on_mouse_press_event(int(a[0]), int(a[1]), button)
    prev = np.asarray(a, float)
    for t in np.linspace(0, 1, steps + 1)[1:]:
        p = np.asarray(a, float) + t * (np.asarray(b, float) - np.asarray(a, float))
        d = np.round(p - prev)
        app.on_mouse_drag_event(int(round(p[0])), int(round(p[1])), int(d[0]), int(d[1]))
        prev = prev + d
    app.on_mouse_release_event(int(b[0]), int(b[1]), button)


def test_camera_matrices_match_glm_and_project_round_trip():
    cam = OrbitCamera(CameraSpec(target=(1, 2, 3), distance=8, yaw=40, pitch=30), 16 / 9)
    _ = cam.matrix  # moderngl-window updates .position when the matrix is read
    np.testing.assert_allclose(cam.eye(), np.array(cam.position), atol=1e-5)
    # pyrr convention: [p, 1] @ V == glm's V @ p
    p = np.array([0.3, -1.0, 2.0, 1.0])
    glm_math = np.array(cam.matrix, dtype=np.float64)  # glm as laid out: the mathematical matrix
    np.testing.assert_allclose(p @ cam.view_matrix(), glm_math @ p, atol=1e-5)
    np.testing.assert_allclose(glm_to_pyrr(cam.matrix)[3, :3] @ np.eye(3),
                               cam.view_matrix()[3, :3])
    # translation in the last row, as pyrr puts it
    np.testing.assert_allclose(cam.view_matrix()[:, 3], [0, 0, 0, 1], atol=1e-12)
    # the target projects to the centre; a picking ray through a projected point hits it
    np.testing.assert_allclose(cam.project([1, 2, 3], (320, 180))[:2], [160, 90], atol=1e-3)
    q = np.array([2.0, 2.5, 1.0])
    x, y, _ = cam.project(q, (320, 180))
    o, d = cam.ray(x, y, (320, 180))
    closest = o + np.dot(q - o, d) * d
    np.testing.assert_allclose(closest, q, atol=1e-4)


def test_window_events_reach_the_controller(gl_app):
    """Each event method forwards: a handle drag, a hover, a click, the wheel, a key with the
    event's Shift and with a held Shift key."""
    app, st = gl_app, gl_app.state
    assert st.classes[0] == 2, "blog scene: box 0 contains the segment (red)"
    end_px = app.camera.project(st.end, app.size)[:2]
    drag(app, LEFT, end_px, end_px + [90, 0])
    assert st.classes[0] == 1, "dragging the end out of box 0 makes it INTERSECT (blue)"
    app.render_frame()
    x, y = (int(v) for v in app.camera.project(st.boxes.center[5], app.size)[:2])
    app.on_mouse_position_event(x, y, 0, 0)
    assert st.hovered == 5
    app.on_mouse_press_event(x, y, LEFT)
    app.on_mouse_release_event(x, y, LEFT)
    assert st.selected == 5
    dist = app.camera.distance
    app.on_mouse_scroll_event(0, 2)
    assert app.camera.distance < dist
    s0 = st.start.copy()
    press(app, "E")
    press(app, "Q", shift=True)
    keys = app.wnd.keys
    app.on_key_event(keys.LEFT_SHIFT, keys.ACTION_PRESS, None)
    assert app.controller.shift, "a held Shift key is tracked"
    press(app, "Q")
    app.on_key_event(keys.LEFT_SHIFT, keys.ACTION_RELEASE, None)
    assert not app.controller.shift
    np.testing.assert_allclose(st.start - s0, [0, 0.25 - 0.025 - 0.025, 0])
    press(app, "HOME")
    press(app, "TAB")
    assert st.part == "start"


def test_explain_help_and_animation_draw(gl_app):
    app = gl_app
    press(app, "X")
    press(app, "H")
    press(app, "T")
    assert app.state.explain and app.state.show_help and not app.state.highlight_triangles
    app.render_frame()  # explain + help overlay draw without error
    assert app.view.lesson is not None and "help" in app.view.panels
    press(app, "SPACE")
    app.state.step(1.5)
    app.render_frame()
    press(app, "SPACE")


def test_a_frame_is_wanted_after_input_only(gl_app):
    app = gl_app
    app.on_render(0.0, 0.0)
    assert not app.wants_frame(), "an idle, paused demo draws nothing"
    app.on_mouse_position_event(1, 1, 0, 0)  # over the empty floor: nothing changes
    assert not app.wants_frame(), "a move that hovers nothing new needs no frame"
    press(app, "T")
    assert app.wants_frame(), "a key press asks for a frame"


def test_only_changed_colours_are_uploaded(gl_app):
    app = gl_app
    app.render_frame()
    uploads = app.view.boxes.uploads
    app.render_frame()
    assert app.view.boxes.uploads == uploads, "an idle frame writes no instance data"
    press(app, "E")
    assert len(app.state._recoloured.nonzero()[0]) < len(app.state.boxes)


def test_resize_and_minimise_do_not_crash(gl_app):
    app = gl_app
    app.on_resize(0, 0)
    app.view.draw(app.state, app.camera, (0, 0))
    app.on_resize(200, 100)
    app.render_frame()


def test_headless_window_adapter_matches_moderngl_window(gl_app):
    """app.headless_window relies on moderngl-window's shapes: buffer_size / buffer_width /
    buffer_height are BaseWindow properties the headless window does not define itself, and
    its ``size`` setter makes a framebuffer of the new size. Fails when upstream changes."""
    for name in ("buffer_size", "buffer_width", "buffer_height", "size"):
        assert isinstance(BaseWindow.__dict__.get(name), property), (
            f"moderngl-window's BaseWindow.{name} is no longer a property")
    for name in ("buffer_size", "buffer_width", "buffer_height"):
        assert name not in MglwHeadlessWindow.__dict__, (
            f"moderngl-window's headless window defines {name} now: is the adapter needed?")
    from app.headless import headless_app

    app = headless_app(None, (317, 211))
    try:
        assert app.wnd.fbo.size == (317, 211) == app.wnd.buffer_size, (
            f"expected a 317x211 framebuffer and buffer size, got {app.wnd.fbo.size} and "
            f"{app.wnd.buffer_size}")
        assert (app.wnd.buffer_width, app.wnd.buffer_height) == (317, 211)
        assert app.read_image().shape == (211, 317, 3)
    finally:
        headless_app(None, (320, 180))


def test_app_camera_is_the_only_module_that_sees_pyglm():
    """PyGLM matrices (column vectors) become pyrr's in app.camera alone: no other module of
    app/ imports glm or reads a camera's glm ``matrix`` / ``projection``."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "app"
    seen = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "camera.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] in ("glm", "pyglm") for n in names):
                seen.append(f"{path.name}:{node.lineno} imports glm")
            if isinstance(node, ast.Attribute) and node.attr in ("matrix", "projection") and \
                    isinstance(node.value, ast.Attribute) and node.value.attr == "camera":
                seen.append(f"{path.name}:{node.lineno} reads camera.{node.attr}")
    assert not seen, f"expected glm only in app/camera.py, found: {seen}"


def test_a_moved_hit_writes_its_own_row_of_the_hits_copy(gl_app):
    """Crowded scenes draw the hits again from a copy: moving a hit box (its class kept)
    writes that one row, with the box's new pose; a class change rebuilds the copy."""
    from app.presets import random_scene
    from app.renderers.boxes import model_matrices

    app = gl_app
    app.show_scene(random_scene(400, 0))
    st, hits = app.state, app.view.box_view.hits
    app.render_frame()
    box = 0  # random_scene's box 0 encloses the segment: INCLUDE, the copy's first row
    assert st.classes[box] == 2, "expected box 0 to be INCLUDE"
    before = hits.uploads
    st.move_box(box, (0.0, 1e-3, 0.0))
    app.render_frame()
    assert st.classes[box] == 2 and hits.uploads == before + 1, (
        f"expected one row written, got {hits.uploads - before} writes")
    got = np.frombuffer(hits.models.read(64), dtype="f4").reshape(4, 4)
    np.testing.assert_allclose(got, model_matrices(st.boxes.subset([box]))[0], rtol=1e-6,
                               err_msg="expected the moved box's pose in its row")
    st.move_segment((0.0, 0.0, 0.25))  # classes change: the copy is rebuilt
    app.render_frame()
    assert hits.count == int((st.classes != 0).sum()), "expected the copy to hold every hit"
