"""GPU-side parts of the demo: each draws one kind of thing from numpy arrays it is handed.

They know nothing of intersections; classes arrive as colours picked from ``app.colors``.
"""

import numpy as np


def matrix_bytes(m: np.ndarray) -> bytes:
    """A pyrr-convention (row-vector) matrix as the bytes a GLSL ``mat4`` uniform expects."""
    return np.ascontiguousarray(m, dtype="f4").tobytes()


def write_rows(buffer, rows: np.ndarray, indices: np.ndarray, max_runs: int = 32) -> int:
    """Write only ``rows[indices]`` into ``buffer`` (one write per run of consecutive indices,
    or one spanning write when the changes are scattered). Returns the number of writes."""
    if len(indices) == 0:
        return 0
    rows = np.ascontiguousarray(rows, dtype="f4")
    stride = rows[0].nbytes
    breaks = np.flatnonzero(np.diff(indices) != 1)
    if len(breaks) + 1 > max_runs:
        lo, hi = int(indices[0]), int(indices[-1]) + 1
        buffer.write(rows[lo:hi].tobytes(), offset=lo * stride)
        return 1
    starts = np.concatenate([[indices[0]], indices[breaks + 1]])
    ends = np.concatenate([indices[breaks], [indices[-1]]]) + 1
    for lo, hi in zip(starts.tolist(), ends.tolist()):
        buffer.write(rows[lo:hi].tobytes(), offset=lo * stride)
    return len(starts)
