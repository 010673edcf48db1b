"""Run the demo in a REAL pyglet window through the app's own main loop (app.loop), press the
screenshot key and Esc through pyglet's event dispatch, and exit. Used by test_real_window.py
as ``python -m tests.screenshots.real_window_driver OUT_DIR [SCREENSHOT_AT [QUIT_AT]]``
from the repository root, under X (Xvfb in CI).

Events go in at the pyglet level (``on_key_press`` with pyglet key codes), so the path under test
is the real one: pyglet's handlers -> moderngl-window's pyglet window -> SlabLabWindow.on_key_event.
They are dispatched synchronously (``EventDispatcher.dispatch_event``), as pyglet does for a real X
key event inside ``dispatch_events``; ``Window.dispatch_event`` would instead queue them and replay
them before ``dispatch_events`` caches the X window handle, which crashes pyglet when the event
closes the window (an artefact of the injection that a real key press does not have).
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(out_dir: str, screenshot_at: int = 5, quit_at: int = 10) -> int:
    """Press F12 at loop iteration ``screenshot_at`` (0: never) and Esc at ``quit_at``; in
    between, the paused, untouched demo idles. Prints frames drawn and CPU seconds used."""
    import time

    from pyglet.event import EventDispatcher
    from pyglet.window import key

    from app.loop import run_on_demand
    from app.scene import resolve_scene
    from app.window import create_window

    app = create_window(resolve_scene("blog"), size=(320, 240))
    app.screenshot_dir = Path(out_dir)
    wnd = app.wnd
    pyglet_window = wnd._window  # moderngl-window's PygletWrapper (a pyglet.window.Window)
    on_render = wnd.render_func
    frames, ticks = [0], [0]

    def press(symbol):
        EventDispatcher.dispatch_event(pyglet_window, "on_key_press", symbol, 0)
        EventDispatcher.dispatch_event(pyglet_window, "on_key_release", symbol, 0)

    def render(time: float, frame_time: float) -> None:
        on_render(time, frame_time)
        frames[0] += 1

    def tick() -> None:
        ticks[0] += 1
        if ticks[0] == screenshot_at:
            press(key.F12)
        if ticks[0] == quit_at:
            press(key.ESCAPE)
        if ticks[0] > quit_at + 50:
            raise SystemExit("Esc did not close the window")

    wnd.render_func = render
    print(f"backend: {wnd.name}, renderer: {app.ctx.info['GL_RENDERER']}, "
          f"size {tuple(wnd.size)}, buffer {tuple(wnd.buffer_size)}, samples {app.samples}",
          flush=True)
    wall, cpu = time.perf_counter(), time.process_time()
    run_on_demand(app, tick)  # returns when the window is closed; destroys it
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"frames rendered: {frames[0]} in {ticks[0]} iterations; wall {wall:.2f} s, "
          f"cpu {cpu:.2f} s; window closed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], *(int(a) for a in sys.argv[2:4])))
