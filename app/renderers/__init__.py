"""GPU-side parts of the demo: each draws one kind of thing from numpy arrays it is handed.

They know nothing of intersections; classes arrive as colours picked from ``app.colors``.
"""

from collections.abc import Callable
from typing import cast

import moderngl
import numpy as np


def uniform(program: moderngl.Program, name: str) -> moderngl.Uniform:
    """``program[name]``, a uniform (moderngl types a lookup as any member of the program)."""
    return cast(moderngl.Uniform, program[name])


def matrix_bytes(m: np.ndarray) -> bytes:
    """A pyrr-convention (row-vector) matrix as the bytes a GLSL ``mat4`` uniform expects."""
    return np.ascontiguousarray(m, dtype="f4").tobytes()


def write_rows(buffer, rows_of: Callable[[int, int], np.ndarray], indices: np.ndarray,
               max_runs: int = 32) -> int:
    """Write rows ``indices`` into ``buffer``, where ``rows_of(lo, hi)`` builds rows ``lo:hi``
    (so nothing is computed for rows that did not change). One write per run of consecutive
    indices, or one spanning write when the changes are scattered. Returns the number of writes."""
    if len(indices) == 0:
        return 0
    breaks = np.flatnonzero(np.diff(indices) != 1)
    if len(breaks) + 1 > max_runs:
        starts, ends = [int(indices[0])], [int(indices[-1]) + 1]
    else:
        starts = np.concatenate([[indices[0]], indices[breaks + 1]]).tolist()
        ends = (np.concatenate([indices[breaks], [indices[-1]]]) + 1).tolist()
    for lo, hi in zip(starts, ends, strict=True):
        rows = np.ascontiguousarray(rows_of(lo, hi), dtype="f4")
        buffer.write(rows.tobytes(), offset=lo * rows[0].nbytes)
    return len(starts)
