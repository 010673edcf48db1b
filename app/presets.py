"""Scene presets: the shipped JSON scenes and generated random scenes (keys 1-9, R, --boxes)."""

from __future__ import annotations

import numpy as np

from app.scene import Boxes, CameraSpec, Scene, resolve_scene

#: what the number keys load: a preset file name, or ("random", box count)
NUMBER_KEY_PRESETS: list[str | tuple[str, int]] = [
    "blog", "grid", "obb", "triangles", "rays", "edges",
    ("random", 150), ("random", 1500), ("random", 6000),
]


def number_key_names() -> str:
    """What the number keys load, in order, as the help says it ("blog grid ... random
    150/1500/6000")."""
    files = [p for p in NUMBER_KEY_PRESETS if isinstance(p, str)]
    counts = [str(p[1]) for p in NUMBER_KEY_PRESETS if not isinstance(p, str)]
    return " ".join(files + ([f"random {'/'.join(counts)}"] if counts else []))


def random_scene(n: int, seed: int = 0) -> Scene:
    """``n`` boxes (about a fifth of them rotated) around a short segment, reproducible from
    ``seed`` (any integer: negative seeds draw from their own stream, apart from every
    non-negative one). One box is made to enclose the segment, so all three colours appear."""
    # SeedSequence takes non-negative entropy only; a spawn key keeps -s apart from s
    rng = np.random.default_rng(np.random.SeedSequence(abs(seed), spawn_key=(1,) if seed < 0
                                                       else ()))
    spread = max(4.0, 1.1 * n ** (1 / 3))
    start = np.array([-0.6 * spread, 0.25 * spread, -0.2 * spread])
    end = np.array([0.6 * spread, 0.3 * spread, 0.25 * spread])
    centers = rng.uniform([-spread, 0.3, -spread], [spread, 0.6 * spread, spread], (n, 3))
    half = rng.uniform(0.15, 0.65, (n, 3))
    obb = rng.random(n) < 0.2
    if n:
        obb[0] = False  # box 0 encloses the segment: INCLUDE
        centers[0] = (start + end) / 2 + rng.uniform(-0.2, 0.2, 3)
        half[0] = np.abs(end - start) / 2 + rng.uniform(0.2, 0.4, 3)
    rot = np.where(obb[:, None], rng.uniform(-180, 180, (n, 3)), 0.0)
    boxes = Boxes.build(
        aabbs=[(c - h, c + h) for c, h in zip(centers[~obb], half[~obb], strict=True)],
        obbs=[(c, h, r) for c, h, r in zip(centers[obb], half[obb], rot[obb], strict=True)],
        order=obb.tolist())
    camera = CameraSpec(target=(0.0, 1.5, 0.0), distance=2.6 * spread + 6, yaw=30.0,
                        pitch=30.0, fov=50.0)
    return Scene(name=f"random-{n}-seed{seed}", boxes=boxes, camera=camera,
                 segment_start=start, segment_end=end)


def number_key_scene(number: int, seed: int = 0) -> Scene | None:
    """Scene for number key ``number`` (1-9), or None when that key has no preset."""
    if not 1 <= number <= len(NUMBER_KEY_PRESETS):
        return None
    preset = NUMBER_KEY_PRESETS[number - 1]
    if isinstance(preset, tuple):
        return random_scene(preset[1], seed)
    return resolve_scene(preset)
