"""Pixel checks that do not trust any golden: the answer comes from ``geometry`` and pyrr maths,
the position from the app's own camera, the colour from the rendered frame.

* The camera's matrices are exactly pyrr's ``create_look_at`` / ``create_perspective_projection``
  for the scene's yaw/pitch/distance (row-vector convention, SEMANTICS.md "Matrices"), and
  ``project`` is ``[p, 1] @ V @ P`` mapped to pixels (y down).
* For every box whose camera-facing face can be seen unobstructed (no other box, triangle, line,
  marker or HUD over it), the pixel nearest the face centre has the hue of the documented colour
  (green / blue / red, SEMANTICS.md; not read from app.colors) of the class
  ``geometry.classify_segment_aabb`` / ``classify_segment_obb`` gives that box.
* The segment's handles are drawn at its projected endpoints; every ray's hit marker is drawn at
  the projected nearest entry point ``geometry.intersect_ray_aabb/obb`` gives.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pyrr
import pytest
from PIL import Image, ImageDraw
from tests.screenshots.screenshot_helpers import (HUE_TOLERANCE, class_hues, hue_distance, load_scene, median_rgb,
                                render_app, resize_headless, rgb_to_hsv)

import geometry

SIZE = (640, 480)
HUD_BOTTOM = 150  # px: the HUD's text block (5-6 lines at 15 px) is above this line
#: a scene built for this test: every class, AABBs and OBBs, rays that hit and miss; the boxes
#: overlap only a little on screen so that every box has an unobstructed face
DESIGNED = {
    "camera": {"target": [0.0, 1.0, 0.0], "distance": 13.0, "yaw": 25.0, "pitch": 30.0,
               "fov": 50.0},
    "segment": {"start": [-1.5, 1.0, 0.0], "end": [1.5, 1.0, 0.0]},
    "boxes": [
        {"min": [-1.8, 0.7, -0.3], "max": [1.8, 1.3, 0.3]},  # INCLUDE (red)
        {"min": [1.5, 0.0, -1.0], "max": [3.5, 2.0, 1.0]},  # the end on its face: INTERSECT
        {"min": [-4.0, 0.0, -1.0], "max": [-1.2, 2.2, 1.0]},  # holds the start: INTERSECT
        {"min": [-1.0, 0.0, -4.5], "max": [1.0, 1.5, -2.5]},  # NONE (green)
        {"center": [0.0, 0.8, 3.2], "half_size": [0.7, 0.7, 0.7], "rotation": [0, 30, 0]},
        {"center": [0.0, 2.6, 0.0], "half_size": [0.3, 1.7, 0.3], "rotation": [0, 45, 20]},
        {"center": [-4.5, 0.8, 3.0], "half_size": [0.8, 0.5, 0.5], "rotation": [10, -30, 0]},
    ],
    "rays": [
        {"origin": [6.0, 0.5, -3.5], "direction": [-1.0, 0.0, 0.0]},
        {"origin": [-1.0, 0.7, 7.0], "direction": [-0.35, 0.0, -1.0]},
        {"origin": [4.0, 0.3, 5.0], "direction": [1.0, 0.0, 0.3]},
    ],
}


def _designed_scene():
    from app.scene import parse_scene

    return parse_scene(DESIGNED, source="test_semantics.DESIGNED", name="designed")


def _show(egl_app, scene, size=SIZE, camera=None, anim_time=0.0):
    """The headless app showing ``scene`` (help, explain, selection off) at ``size``."""
    from app.headless import headless_app

    resize_headless(size)
    app = headless_app(scene, size)
    st = app.state
    st.explain = st.show_help = st.playing = False
    st.selected = st.hovered = None
    if camera:
        app.camera.reset(replace(scene.camera, **camera))
    if anim_time:
        st.playing = True
        st.step(anim_time)
        st.playing = False
    return app, render_app(app)


# --- geometry, independently of the app ------------------------------------------------------
def _axes(rotation_deg) -> np.ndarray:
    """Rows = the box's unit axes for rotations about X, then Y, then Z (scene file format)."""
    rx, ry, rz = np.radians(rotation_deg)
    mx = np.array([[1, 0, 0], [0, math.cos(rx), -math.sin(rx)], [0, math.sin(rx), math.cos(rx)]])
    my = np.array([[math.cos(ry), 0, math.sin(ry)], [0, 1, 0], [-math.sin(ry), 0, math.cos(ry)]])
    mz = np.array([[math.cos(rz), -math.sin(rz), 0], [math.sin(rz), math.cos(rz), 0], [0, 0, 1]])
    return (mz @ my @ mx).T


def _boxes(state):
    """[(kind, center, axes, half_size, args for geometry)] of the boxes as shown."""
    b = state.boxes
    out = []
    for i in range(len(b)):
        if b.is_obb[i]:
            ax = _axes(b.rotation[i])
            out.append(("obb", b.center[i], ax, b.half_size[i], (b.center[i], ax, b.half_size[i])))
        else:
            c, h = (b.box_min[i] + b.box_max[i]) / 2, (b.box_max[i] - b.box_min[i]) / 2
            out.append(("aabb", c, np.eye(3), h, (b.box_min[i], b.box_max[i])))
    return out


def _classify(state, box) -> int:
    kind, *_, args = box
    fn = geometry.classify_segment_obb if kind == "obb" else geometry.classify_segment_aabb
    return int(fn(state.start, state.end, *args))


def _nearest_hit(origin, direction, boxes):
    best = (math.inf, None)
    for i, (kind, *_, args) in enumerate(boxes):
        fn = geometry.intersect_ray_obb if kind == "obb" else geometry.intersect_ray_aabb
        r = fn(origin, direction, *args)
        if r.hit and r.t_enter < best[0]:
            best = (float(r.t_enter), i)
    return best


def _corners(center, axes, half):
    s = np.array([[(k >> i) & 1 for i in range(3)] for k in range(8)]) * 2 - 1
    return center + (s * half) @ axes


# --- screen-space masks ---------------------------------------------------------------------
def _hull(points: np.ndarray) -> list[tuple[float, float]]:
    pts = sorted(map(tuple, points.tolist()))
    if len(pts) < 3:
        return pts

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return half(pts) + half(pts[::-1])


class Occluders:
    """A mask of every pixel where something other than the box under test may be drawn."""

    def __init__(self, size, margin=5):
        self.img = Image.new("L", size, 0)
        self.draw = ImageDraw.Draw(self.img)
        self.margin = margin
        self.draw.rectangle([0, 0, size[0], HUD_BOTTOM], fill=255)

    def polygon(self, px):
        if np.isfinite(px).all() and len(px) >= 3:
            hull = _hull(px)
            self.draw.polygon(hull, fill=255)
            self.draw.line(hull + hull[:1], fill=255, width=2 * self.margin + 1)

    def line(self, a, b, width):
        if np.isfinite([*a, *b]).all():
            self.draw.line([tuple(a), tuple(b)], fill=255, width=int(width + 2 * self.margin))

    def disc(self, p, radius):
        if np.isfinite(p).all():
            r = radius + self.margin
            self.draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=255)

    def mask(self) -> np.ndarray:
        return np.asarray(self.img) > 0


def _scene_occluders(app, boxes, skip: int | None) -> Occluders:
    cam, size, st = app.camera, app.size, app.state
    occ = Occluders(size)
    for j, (_, c, ax, h, _) in enumerate(boxes):
        if j != skip:
            occ.polygon(cam.project(_corners(c, ax, h), size)[:, :2])
    for tri in st.scene.triangles:
        occ.polygon(cam.project(tri, size)[:, :2])
    ends = cam.project(np.stack([st.start, st.end]), size)[:, :2]
    occ.line(ends[0], ends[1], 6)
    for e in ends:
        occ.disc(e, 9)
    for o, d in zip(st.scene.ray_origins, st.scene.ray_directions):
        t, _ = _nearest_hit(o, d, boxes)
        far = o + (t if math.isfinite(t) else 12.0 / np.linalg.norm(d)) * d
        p = cam.project(np.stack([o, far]), size)[:, :2]
        occ.line(p[0], p[1], 6)
        occ.disc(p[0], 5)
        occ.disc(p[1], 7)
    gizmo = cam.project(np.array([[0, 0, 0], [1.5, 0, 0], [0, 1.5, 0], [0, 0, 1.5]]),
                        size)[:, :2]
    for k in range(1, 4):
        occ.line(gizmo[0], gizmo[k], 6)
    return occ


def _visible_face_pixel(app, boxes, i):
    """A pixel of box ``i``'s camera-facing faces, nearest a face centre, where nothing else is
    drawn; None when every candidate is covered."""
    cam, size = app.camera, app.size
    eye = np.linalg.inv(cam.view_matrix())[3, :3]  # pyrr convention: translation in row 3
    _, c, ax, h, _ = boxes[i]
    free = ~_scene_occluders(app, boxes, skip=i).mask()
    best = None
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = sign * ax[axis]
            centre = c + n * h[axis]
            if np.dot(eye - centre, n) <= 1e-6:
                continue  # back face
            j, k = [a for a in range(3) if a != axis]
            quad = np.stack([centre + su * h[j] * ax[j] + sv * h[k] * ax[k]
                             for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
            face = Image.new("L", size, 0)
            qd = cam.project(quad, size)[:, :2]
            if not np.isfinite(qd).all():
                continue
            d = ImageDraw.Draw(face)
            d.polygon([tuple(p) for p in qd], fill=255)
            d.line([tuple(p) for p in qd] + [tuple(qd[0])], fill=0, width=9)  # stay off edges
            ok = (np.asarray(face) > 0) & free
            ys, xs = np.nonzero(ok)
            if len(xs) < 9:
                continue
            cp = cam.project(centre, size)[:2]
            dist = (xs - cp[0]) ** 2 + (ys - cp[1]) ** 2
            m = int(np.argmin(dist))
            if best is None or dist[m] < best[0]:
                best = (dist[m], (int(xs[m]), int(ys[m])))
    return None if best is None else best[1]


# --- tests -----------------------------------------------------------------------------------
CAMERA_CASES = [("blog", None), ("obb", None), ("designed", None),
                ("blog", {"yaw": -120.0, "pitch": -20.0, "distance": 7.0, "fov": 70.0})]


@pytest.mark.parametrize("name,camera", CAMERA_CASES)
@pytest.mark.parametrize("size", [(640, 480), (333, 517)])
def test_camera_matrices_are_pyrr_look_at_and_perspective(egl_app, name, camera, size):
    from app.camera import FAR, NEAR

    scene = _designed_scene() if name == "designed" else load_scene(name)
    app, _ = _show(egl_app, scene, size, camera)
    spec = replace(scene.camera, **(camera or {}))
    yaw, pitch = math.radians(spec.yaw), math.radians(spec.pitch)
    target = np.array(spec.target, dtype=float)
    eye = target + spec.distance * np.array([math.sin(yaw) * math.cos(pitch), math.sin(pitch),
                                             math.cos(yaw) * math.cos(pitch)])
    view = pyrr.matrix44.create_look_at(eye, target, [0.0, 1.0, 0.0])
    proj = pyrr.matrix44.create_perspective_projection(spec.fov, size[0] / size[1], NEAR, FAR)
    np.testing.assert_allclose(app.camera.view_matrix(), view, atol=1e-5, err_msg=(
        f"view matrix is not pyrr.create_look_at(eye={eye}, target={target}, up=+y) for yaw "
        f"{spec.yaw}, pitch {spec.pitch} (0 yaw = camera on +z, 90 = on +x)"))
    np.testing.assert_allclose(app.camera.projection_matrix(), proj, rtol=1e-5, atol=1e-6,
                               err_msg="projection is not pyrr.create_perspective_projection")
    pts = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, -3.0], target])
    clip = np.c_[pts, np.ones(3)] @ view @ proj
    ndc = clip[:, :3] / clip[:, 3:]
    px = np.c_[(ndc[:, 0] + 1) / 2 * size[0], (1 - ndc[:, 1]) / 2 * size[1]]
    np.testing.assert_allclose(app.camera.project(pts, size)[:, :2], px, atol=1e-3)
    np.testing.assert_allclose(px[2], np.array(size) / 2, atol=1e-6,
                               err_msg="the camera target is not at the image centre")


SEMANTIC_SCENES = [
    ("designed", None, 0.0),
    ("blog", None, 0.0),
    ("blog", {"yaw": -40.0, "pitch": 70.0, "distance": 13.0}, 0.0),
    ("blog", None, 1.5),  # the animation frozen at t = 1.5 s: other classes
    ("obb", None, 0.0),
    ("edges", None, 0.0),
    ("triangles", None, 0.0),
    ("rays", None, 0.0),
]


@pytest.mark.parametrize("name,camera,anim_time", SEMANTIC_SCENES,
                         ids=[f"{n}-{'cam' if c else 'own'}-t{t}" for n, c, t in SEMANTIC_SCENES])
def test_box_face_has_colour_of_geometry_class(egl_app, name, camera, anim_time):
    _check_face_colours(egl_app, name, camera, anim_time)


@pytest.mark.parametrize("name,camera", [("designed", None), ("blog", None), ("obb", None),
                                         ("blog", {"yaw": -40.0, "pitch": 70.0})])
def test_dense_drawing_shows_the_faces_facing_the_camera(egl_app, monkeypatch, name, camera):
    """Scenes of DENSE_BOXES boxes or more draw opaque boxes from a 3-face mesh that the shader
    mirrors towards the eye: the same face-centre checks hold (a wrong mirror shows back faces,
    or nothing, there)."""
    import app.box_view

    monkeypatch.setattr(app.box_view, "DENSE_BOXES", 1)
    _check_face_colours(egl_app, name, camera, 0.0)


def _check_face_colours(egl_app, name, camera, anim_time):
    scene = _designed_scene() if name == "designed" else load_scene(name)
    app, image = _show(egl_app, scene, SIZE, camera, anim_time)
    boxes = _boxes(app.state)
    hues = class_hues()
    checked, skipped, problems = {}, [], []
    for i, box in enumerate(boxes):
        expected = _classify(app.state, box)
        xy = _visible_face_pixel(app, boxes, i)
        if xy is None:
            skipped.append(i)
            continue
        rgb = median_rgb(image, xy, radius=1)
        h, s, v = rgb_to_hsv(rgb / 255.0)
        got = min(hues, key=lambda k: hue_distance(h, hues[k]))
        checked[i] = expected
        if got != expected or hue_distance(h, hues[expected]) > HUE_TOLERANCE or s < 0.3:
            problems.append(f"box {i} ({box[0]}) at pixel {xy}: geometry says class {expected} "
                            f"(hue {hues[expected]:.0f}), pixel RGB {rgb.astype(int).tolist()} "
                            f"has hue {h:.0f}, saturation {s:.2f}")
    if problems:
        Image.fromarray(image).save(_out(f"semantics_{name}.png"))
    assert not problems, "\n".join(problems) + f"\n(image: {_out(f'semantics_{name}.png')})"
    classes_present = {_classify(app.state, b) for b in boxes}
    assert set(checked.values()) == classes_present, (
        f"every class on screen must be checked at least once: present {classes_present}, "
        f"checked {set(checked.values())} (boxes without a free face: {skipped})")
    if name == "designed":
        assert not skipped, f"the designed scene must show a free face of every box: {skipped}"
        assert classes_present == {0, 1, 2}


@pytest.mark.parametrize("camera", [None, {"yaw": -140.0, "pitch": -25.0}])
def test_dense_front_face_mesh_draws_what_a_back_face_culled_cube_draws(egl_app, monkeypatch,
                                                                         camera):
    """The mirrored 3-face mesh against an independent reference: the whole cube with OpenGL's
    own back-face culling. Opposite faces shade alike, so face colours cannot tell a wrong
    mirror; the edges can (the near corner's three edges are where the far corner's are not)."""
    import moderngl

    import app.box_view
    from app.presets import random_scene
    from app.renderers.boxes import BoxRenderer

    monkeypatch.setattr(app.box_view, "DENSE_BOXES", 1)
    demo, mirrored = _show(egl_app, random_scene(300, seed=3), SIZE, camera)
    draw = BoxRenderer.draw

    def culled_cube(self, view_projection, light_dir, class_rgb, face_alpha, edge_alpha,
                    front_only_from=None, **kwargs):
        args = (self, view_projection, light_dir, class_rgb, face_alpha, edge_alpha)
        if front_only_from is None:  # the crowded scene's hits, drawn again on top
            return draw(*args, **kwargs)
        self.ctx.enable(moderngl.CULL_FACE)
        draw(*args, **kwargs)
        self.ctx.disable(moderngl.CULL_FACE)

    monkeypatch.setattr(BoxRenderer, "draw", culled_cube)
    reference = render_app(demo)
    differs = np.abs(mirrored.astype(int) - reference.astype(int)).max(axis=-1) > 8
    assert differs.mean() < 0.002, (
        f"{differs.mean():.2%} of pixels differ from the back-face-culled cube")


def test_dense_scene_outlines_touched_boxes_on_top(egl_app, monkeypatch):
    """In a dense scene opaque boxes hide each other, so the boxes the segment touches are
    outlined on top: a red (INCLUDE) box wholly behind a green one still shows its edges, while
    the green box's face, opaque, shows no red through it."""
    import app.box_view
    from app.scene import parse_scene

    monkeypatch.setattr(app.box_view, "DENSE_BOXES", 1)
    scene = parse_scene({
        "camera": {"target": [0, 0, 0], "distance": 12.0, "yaw": 0.0, "pitch": 0.0, "fov": 50},
        "segment": {"start": [-0.5, 0.0, 0.0], "end": [0.5, 0.0, 0.0]},
        "boxes": [{"min": [-1, -1, -1], "max": [1, 1, 1]}, {"min": [-2.5, -2.5, 2], "max": [2.5, 2.5, 3]}],
    }, source="test", name="hidden")
    app, image = _show(egl_app, scene)
    assert app.state.classes.tolist() == [geometry.IntersectionType.INCLUDE,
                                          geometry.IntersectionType.NONE]
    hues = class_hues()
    for point, cls, what in (([0.0, -1.0, 1.0], 2, "the hidden red box's edge"),
                             ([-1.0, 0.5, 1.0], 2, "the hidden red box's edge"),
                             ([1.6, 1.6, 3.0], 0, "the green box's face in front")):
        xy = app.camera.project(np.array(point), app.size)[:2]
        rgb = median_rgb(image, xy, radius=0)
        h, s, _ = rgb_to_hsv(rgb / 255.0)
        assert hue_distance(h, hues[cls]) <= HUE_TOLERANCE and s > 0.3, (
            f"{what} at pixel {np.round(xy).tolist()} should have hue {hues[cls]:.0f}, found RGB "
            f"{rgb.astype(int).tolist()} (hue {h:.0f}, saturation {s:.2f})")


def _out(name):
    from tests.screenshots.screenshot_compare import OUTPUT_DIR

    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    return OUTPUT_DIR / name


def _close(rgb, expected, tol=40):
    return bool(np.all(np.abs(np.asarray(rgb, float) - np.asarray(expected, float) * 255) <= tol))


@pytest.mark.parametrize("name", ["designed", "blog", "obb", "rays"])
def test_handles_are_at_the_projected_endpoints(egl_app, name):
    from app import colors

    scene = _designed_scene() if name == "designed" else load_scene(name)
    app, image = _show(egl_app, scene)
    for point, colour, what in ((scene.segment_start, colors.HANDLE_START, "start"),
                                (scene.segment_end, colors.HANDLE_END, "end")):
        xy = app.camera.project(point, app.size)[:2]
        assert xy[1] > HUD_BOTTOM, f"test scene problem: the {what} handle is under the HUD"
        rgb = median_rgb(image, xy, radius=2)
        assert _close(rgb, colour), (
            f"{name}: the {what} handle should be drawn at {np.round(xy, 1).tolist()} (the "
            f"projection of {point.tolist()}) in {colour}, found RGB {rgb.tolist()}")


@pytest.mark.parametrize("name", ["designed", "rays", "blog"])
def test_ray_hit_markers_are_at_the_nearest_entry_point(egl_app, name):
    from app import colors

    scene = _designed_scene() if name == "designed" else load_scene(name)
    app, image = _show(egl_app, scene)
    boxes = _boxes(app.state)
    # markers drawn over a hit marker: ray origins (a ray starting inside a box has its hit
    # marker under its origin marker) and the segment's handles
    others = app.camera.project(np.concatenate([scene.ray_origins, [scene.segment_start,
                                                                    scene.segment_end]]),
                                app.size)[:, :2]
    n_hits, n_checked = 0, 0
    problems = []
    for r, (o, d) in enumerate(zip(scene.ray_origins, scene.ray_directions)):
        t, box = _nearest_hit(o, d, boxes)
        if box is None:
            continue
        n_hits += 1
        hit = o + t * d
        xy = app.camera.project(hit, app.size)[:2]
        if xy[1] <= HUD_BOTTOM or not (8 <= xy[0] < app.size[0] - 8) or xy[1] >= app.size[1] - 8:
            continue
        if (np.linalg.norm(others - xy, axis=1) < 16).any():
            continue
        n_checked += 1
        # the marker is a disc (12 px across, dark rim): its centre and 3 px across the ray (the
        # ray line itself is 4 px wide, so only the marker covers those) are the marker colour
        ahead = app.camera.project(hit + d / np.linalg.norm(d), app.size)[:2] - xy
        along = ahead / (np.linalg.norm(ahead) or 1.0)
        across = np.array([-along[1], along[0]])
        for p in (xy, xy + 3 * across, xy - 3 * across):
            rgb = median_rgb(image, p, radius=0)
            if not _close(rgb, colors.RAY_HIT, tol=45):
                problems.append(f"ray {r}: expected the hit marker ({colors.RAY_HIT}) at "
                                f"{np.round(p, 1).tolist()} (entry into box {box} at t={t:.3f}), "
                                f"found RGB {rgb.tolist()}")
    if name in ("designed", "rays"):
        assert n_checked >= 2, f"test scene problem: only {n_checked} of {n_hits} hit markers free"
    assert not problems, "\n".join(problems)


def test_app_colour_table_uses_the_documented_colours():
    """app.colors (the one class -> colour table) maps NONE, INTERSECT, INCLUDE to green, blue,
    red (SEMANTICS.md)."""
    from app.colors import CLASS_COLORS

    for cls, (name, rgb) in CLASS_COLORS.items():
        hue = float(rgb_to_hsv(rgb)[0])
        want = {0: "green", 1: "blue", 2: "red"}[int(cls)]
        assert name == want and hue_distance(hue, class_hues()[int(cls)]) < HUE_TOLERANCE, (
            f"class {int(cls)} must be {want}: table says {name!r} {rgb} (hue {hue:.0f})")
