"""The window's main loop, drawing on demand.

A frame is drawn only when :meth:`~app.window.SlabLabWindow.wants_frame` says something changed
(input that changed the picture, the animation playing, a HUD message expiring), and once per
``REFRESH_S`` so that a window uncovered on a non-compositing X server is repainted. Between
frames the loop sleeps ``IDLE_WAIT_S`` and polls input: a paused, untouched demo costs next to
no CPU. The HUD's frame time is what the last drawn frame cost (drawing, buffer swap and the
input handled with it), not the time between frames.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

#: how long the loop sleeps between two looks at the input while nothing needs drawing
IDLE_WAIT_S = 1 / 120
#: an idle window is still repainted this often (seconds)
REFRESH_S = 1.0
#: the animation never jumps by more than this (seconds) between two frames
MAX_STEP_S = 0.1


def _poll_input(wnd) -> None:
    """Dispatch pending window-system events, as ``swap_buffers`` does after a frame: those of
    pyglet's open windows (``pyglet.app.windows``, its public registry). pyglet is loaded only
    by a real window; a headless one has no events."""
    pyglet = sys.modules.get("pyglet")
    if pyglet is not None:
        for window in list(pyglet.app.windows):
            window.dispatch_events()


def run_on_demand(app, tick: Callable[[], None] | None = None) -> None:
    """Run ``app``'s window until it closes, then destroy it. ``tick`` (tests, tools) is
    called once per loop iteration, after drawing or polling."""
    wnd = app.wnd
    start = last_frame = last_draw = time.perf_counter()
    while not wnd.is_closing:
        now = time.perf_counter()
        if app.wants_frame() or now - last_draw >= REFRESH_S:
            wnd.use()
            wnd.render(now - start, min(now - last_frame, MAX_STEP_S))
            if not wnd.is_closing:
                wnd.swap_buffers()  # also dispatches the input that came meanwhile
            last_frame = last_draw = time.perf_counter()
            cost_ms = app.frame_ms_last = (last_draw - now) * 1e3
            app.frame_ms = cost_ms if app.frame_ms == 0 else 0.8 * app.frame_ms + 0.2 * cost_ms
        else:
            time.sleep(IDLE_WAIT_S)
            _poll_input(wnd)
            last_frame = time.perf_counter()  # time spent idle is not animation time
        if tick is not None:
            tick()
    wnd.destroy()
