"""Input checks: the kinds of arguments the engine's queries take (:class:`Kind`), numbers as
float arrays (:func:`as_float_array`), and the checks of the value types (AABB, OBB, Segment,
Ray, Triangle) and of the queries that do not run on the engine (which checks its queries'
arguments itself).

Messages name the argument, what was expected and what came, e.g.
``box_min must have shape (3,) or (N, 3), got (4, 2)``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ._floats import axes_orthonormal, axes_residuals
from ._tolerances import ORTHONORMAL_ATOL

__all__ = [
    "AXES",
    "BOX_MAX",
    "BOX_MIN",
    "DIRECTION",
    "EXACT_INT",
    "FRUSTUM_AABB_AXES",
    "FRUSTUM_AXES",
    "FRUSTUM_PLANES",
    "POINT",
    "SCALAR",
    "RADIUS",
    "T_MAX",
    "T_MIN",
    "Kind",
    "as_float_array",
    "as_points",
    "as_finite_points",
    "as_boxes",
    "broadcast_lead",
    "as_axes",
    "as_matrix44",
    "as_scalars",
    "check_argument",
    "check_elements",
    "check_finite",
    "check_box_bounds",
    "check_nonzero_direction",
    "check_orthonormal",
    "compute_dtype",
    "elements_ok",
    "items_ok",
    "nonzero_rows",
    "orthonormal_ok",
]


#: Integers up to this magnitude are exact in float64.
EXACT_INT = 2.0**53


class Kind(NamedTuple):
    """What an argument holds: ``width`` scalars per item, ``item_dims`` trailing dimensions."""

    name: str
    width: int
    item_dims: int


POINT = Kind("point", 3, 1)  #: finite
BOX_MIN = Kind("box_min", 3, 1)  #: finite, or +inf (an empty box)
BOX_MAX = Kind("box_max", 3, 1)  #: finite, or -inf (an empty box)
DIRECTION = Kind("direction", 3, 1)  #: finite and not the zero vector
AXES = Kind("axes", 9, 2)  #: finite, rows orthonormal within ORTHONORMAL_ATOL
T_MIN = Kind("t_min", 1, 0)  #: not NaN, not +inf
T_MAX = Kind("t_max", 1, 0)  #: not NaN, not -inf
SCALAR = Kind("scalar", 1, 0)  #: finite (a plane's offset)
RADIUS = Kind("radius", 1, 0)  #: finite and not negative
#: a frustum's constants for the box filters, one (W,) array shared by every box (``Frustum``)
FRUSTUM_PLANES = Kind("frustum_planes", 32, 1)  #: finite
FRUSTUM_AXES = Kind("frustum_axes", 61, 1)  #: finite
FRUSTUM_AABB_AXES = Kind("frustum_aabb_axes", 109, 1)  #: finite


def as_float_array(name: str, value: Any) -> np.ndarray:
    """``value`` as a float32 or float64 array in the machine's byte order (native float input
    uncopied), refusing integers and extended floats that float64 would round: a ``ValueError``
    naming the argument."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an array of numbers, got {type(value).__name__}: "
                         f"{exc}") from None
    if a.dtype.kind == "f" and a.dtype.itemsize > 8:
        wide = a
        a = a.astype(np.float64)
        if not ((a == wide) | np.isnan(wide) | np.isinf(wide)).all():
            raise ValueError(f"{name} holds values float64 cannot represent exactly "
                             f"({wide.dtype} input); round them to float64 first")
    elif a.dtype.kind in "iuO":
        a = _exact_floats(name, a)
    elif a.dtype.kind == "b" or (a.dtype.kind == "f" and a.dtype.itemsize < 4):
        a = a.astype(np.float64)
    elif a.dtype.kind != "f":
        raise ValueError(f"{name} must be an array of numbers, got dtype {a.dtype}")
    if not a.dtype.isnative:  # big-endian data (from a file, say): the same values, swapped
        a = a.astype(a.dtype.newbyteorder("="))
    return a


def _exact_floats(name: str, a: np.ndarray) -> np.ndarray:
    """Integers (or Python objects: ints, floats, Fractions, Decimals, numpy scalars) as
    float64, refusing any value float64 would round, and anything that is not a number."""
    if a.dtype.kind in "iu" and a.size and np.abs(a.astype(np.float64)).max() < EXACT_INT:
        return a.astype(np.float64)
    out = np.empty(a.shape, dtype=np.float64)
    for index, v in np.ndenumerate(a):
        if isinstance(v, (str, bytes)) or not isinstance(v, numbers.Number):
            raise ValueError(f"{name} must hold numbers, got {v!r} at index {index}")
        try:
            x = float(v)  # type: ignore[arg-type]  # a complex: TypeError
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"{name} must hold numbers float64 can represent, got {v!r} at "
                             f"index {index}: {exc}") from None
        if not math.isfinite(x) and isinstance(v, Decimal) and v.is_finite():
            raise ValueError(f"{name} holds {v!r} at index {index}, beyond float64")
        if math.isfinite(x) and not _same_value(v, x):
            shown = int(v) if isinstance(v, (int, np.integer)) else repr(v)
            raise ValueError(f"{name} holds {shown} at index {index}, which float64 cannot "
                             "represent exactly; pass it as a float if rounding is intended")
        out[index] = x
    return out


def _same_value(v: Any, x: float) -> bool:
    """Whether the number ``v`` is exactly the float ``x`` (for Fractions and Decimals, by
    their exact values; an infinity or NaN is left to the value checks)."""
    try:
        return Fraction(v) == Fraction(x)
    except (TypeError, ValueError, OverflowError):
        return bool(v == x)  # numbers Fraction does not take compare exactly with a float


def as_points(name: str, value: object) -> np.ndarray:
    """``value`` as a (..., 3) float array: (3,) for one point, (N, 3) for many.

    Only the shape and dtype are checked here; finiteness is checked by :func:`check_finite`
    (or chunk by chunk for large box arrays).
    """
    arr = as_float_array(name, value)
    if arr.ndim == 0 or arr.shape[-1] != 3:
        raise ValueError(f"{name} must have shape (3,) or (N, 3), got {arr.shape}")
    return arr


def as_axes(name: str, value: object) -> np.ndarray:
    """``value`` as a (..., 3, 3) float array of row axes; not yet checked for orthonormality."""
    arr = as_float_array(name, value)
    if arr.ndim < 2 or arr.shape[-2:] != (3, 3):
        raise ValueError(f"{name} must have shape (3, 3) or (N, 3, 3), got {arr.shape}")
    return arr


def as_matrix44(name: str, value: object, *, affine: bool = True) -> np.ndarray:
    """A finite 4x4 float64 matrix in pyrr's convention (row vectors, translation in row 3).

    With ``affine=True`` the last column must be (0, 0, 0, 1): a projective matrix has no
    box-to-box image.
    """
    arr = as_float_array(name, value).astype(np.float64, copy=False)
    if arr.shape != (4, 4):
        raise ValueError(f"{name} must have shape (4, 4), got {arr.shape}")
    check_finite(name, arr)
    if affine and not np.array_equal(arr[:, 3], [0.0, 0.0, 0.0, 1.0]):
        raise ValueError(
            f"{name} must be affine in pyrr's row-vector convention (last column 0, 0, 0, 1), "
            f"got last column {arr[:, 3].tolist()}; is it transposed or a projection?"
        )
    return arr


def as_scalars(name: str, value: object, *, allow: str = "") -> np.ndarray:
    """``value`` as a float array of any shape (a per-item scalar such as ``t_min``).

    ``allow`` may contain ``"+"`` / ``"-"`` to accept +inf / -inf; NaN is never accepted.
    """
    arr = as_float_array(name, value)
    _raise_unless(name, arr, _scalars_ok(arr, allow), f"not be NaN{_inf_words(allow)}")
    return arr


# --- the value checks: one of each, for the engine (on the items its filters doubt), the value
# types and explain. Each raises a ValueError naming the argument, the first bad index and value.

def _scalars_ok(a: np.ndarray, allow: str) -> np.ndarray:
    """Per element, not NaN, and not an infinity unless ``allow`` holds its sign."""
    ok: np.ndarray = ~np.isnan(a)
    if "+" not in allow:
        ok &= a != np.inf
    if "-" not in allow:
        ok &= a != -np.inf
    return ok


def _inf_words(allow: str) -> str:
    if "+" in allow and "-" in allow:
        return ""
    if "+" in allow:
        return " or -inf"
    if "-" in allow:
        return " or +inf"
    return " or infinite"


def _bound_ok(a: np.ndarray, empty: float) -> np.ndarray:
    """Per element, finite or ``empty``: the infinity that only makes a box empty."""
    ok: np.ndarray = np.isfinite(a) | (a == empty)
    return ok


def _bound_words(empty: float) -> str:
    return f"be finite (or {'+inf' if empty > 0 else '-inf'}, which only makes a box empty)"


def elements_ok(a: np.ndarray, kind: Kind) -> np.ndarray:
    """Per element of ``a``, whether it is a valid coordinate of an argument of ``kind``: finite,
    but a box bound may be the infinity of an empty box and a t bound any but NaN and the
    infinity on its wrong side."""
    if kind is BOX_MIN:
        return _bound_ok(a, np.inf)
    if kind is BOX_MAX:
        return _bound_ok(a, -np.inf)
    if kind is T_MIN:
        return _scalars_ok(a, "-")
    if kind is T_MAX:
        return _scalars_ok(a, "+")
    if kind is RADIUS:
        radius_ok: np.ndarray = np.isfinite(a) & (a >= 0)
        return radius_ok
    finite: np.ndarray = np.isfinite(a)
    return finite


def _expected(kind: Kind) -> str:
    if kind is BOX_MIN:
        return _bound_words(np.inf)
    if kind is BOX_MAX:
        return _bound_words(-np.inf)
    if kind is T_MIN:
        return f"not be NaN{_inf_words('-')}"
    if kind is T_MAX:
        return f"not be NaN{_inf_words('+')}"
    if kind is RADIUS:
        return "be finite and not negative"
    return "be finite"


def _raise_unless(name: str, arr: np.ndarray, ok: np.ndarray, expected: str) -> None:
    if not ok.all():
        index = tuple(int(i) for i in np.argwhere(~ok)[0])
        raise ValueError(f"{name} must {expected}, got {arr[index]} at index {index}")


def check_elements(name: str, arr: np.ndarray, kind: Kind) -> None:
    """Raise unless every element of ``arr`` is valid for ``kind`` (:func:`elements_ok`)."""
    _raise_unless(name, arr, elements_ok(arr, kind), _expected(kind))


def check_finite(name: str, arr: np.ndarray) -> None:
    """Raise ``ValueError`` naming ``name`` if ``arr`` holds NaN or an infinity."""
    check_elements(name, arr, POINT)


def check_box_bounds(min_name: str, box_min: np.ndarray, max_name: str,
                     box_max: np.ndarray) -> bool:
    """Check box corners; return True when some box uses the empty-box infinities.

    NaN is never accepted. +inf in the min corner and -inf in the max corner are accepted: they
    only make a box empty (``AABB.empty()`` is min = +inf, max = -inf). Any other infinity
    (an unbounded box) is a ``ValueError``.
    """
    check_elements(min_name, box_min, BOX_MIN)
    check_elements(max_name, box_max, BOX_MAX)
    return not (np.isfinite(box_min).all() and np.isfinite(box_max).all())


def empty_box_rows(box_min: np.ndarray, box_max: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes with the empty-box infinities replaced by a finite empty box (min 1, max 0); call
    only after :func:`check_box_bounds` said some box uses them (it copies)."""
    rows = ~(np.isfinite(box_min).all(axis=-1) & np.isfinite(box_max).all(axis=-1))[..., None]
    return (np.where(rows, box_min.dtype.type(1), box_min),
            np.where(rows, box_max.dtype.type(0), box_max))


def nonzero_rows(direction: np.ndarray) -> np.ndarray:
    """Per vector (last axis), whether it is not (+-0, +-0, +-0)."""
    nonzero: np.ndarray = np.any(direction != 0, axis=-1)
    return nonzero


def check_nonzero_direction(name: str, direction: np.ndarray) -> None:
    """Raise ``ValueError`` if any direction vector is (+-0, +-0, +-0)."""
    zero = ~nonzero_rows(direction)
    if np.any(zero):
        where = "" if zero.ndim == 0 else f" at index {tuple(int(i) for i in np.argwhere(zero)[0])}"
        raise ValueError(f"{name} must not be the zero vector{where}: a ray needs a direction")


def _axes_entries(axes: np.ndarray) -> list[Any]:
    """The nine entries of each 3x3 block of ``axes`` (..., 3, 3), row-major, as float64: arrays
    of them, or for one block Python floats (rounded alike, without numpy's cost per scalar)."""
    a = np.asarray(axes, dtype=np.float64)  # the filters widen float32 axes too
    if a.ndim == 2:
        return list(a.ravel().tolist())
    return [a[..., i, j] for i in range(3) for j in range(3)]


def orthonormal_ok(axes: np.ndarray) -> np.ndarray:
    """Per 3x3 block of ``axes``, whether its rows are orthonormal within ORTHONORMAL_ATOL
    (False for a NaN or an infinity): :func:`._floats.axes_orthonormal` on whole arrays, so the
    same products and sums, rounded alike, as the filters' :func:`._floats.axes_doubt`."""
    entries = _axes_entries(axes)
    if isinstance(entries[0], float):  # one block (Python floats overflow quietly)
        return np.asarray(axes_orthonormal(*entries))
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(axes_orthonormal(*entries))


def check_orthonormal(name: str, axes: np.ndarray) -> None:
    """Raise ``ValueError`` unless every 3x3 block of ``axes`` is finite with orthonormal rows
    (within ORTHONORMAL_ATOL, decided by :func:`orthonormal_ok`)."""
    check_finite(name, axes)
    ok = orthonormal_ok(axes)
    if not ok.all():
        with np.errstate(invalid="ignore", over="ignore"):
            error = np.max(np.abs(axes_residuals(*_axes_entries(axes))), axis=0)
        where = "" if ok.ndim == 0 else f" at index {int(np.argmin(ok))}"
        raise ValueError(
            f"{name} must have orthonormal rows (unit box axes) within {ORTHONORMAL_ATOL:g}, "
            f"got rows off by {float(np.max(error))!r}{where}"
        )


def items_ok(rows: np.ndarray, kind: Kind) -> np.ndarray:
    """Per item, a row of ``kind.width`` values, whether it is a valid argument of ``kind``:
    the checks above, as masks (for the engine's doubtful items)."""
    ok = np.asarray(elements_ok(rows, kind).all(axis=-1))
    if kind is DIRECTION:
        ok &= nonzero_rows(rows)
    if kind is AXES:
        ok &= orthonormal_ok(rows.reshape(-1, 3, 3))
    return ok


def check_argument(name: str, arr: np.ndarray, kind: Kind) -> None:
    """Raise ``ValueError`` for the first bad value of an argument of ``kind`` (the checks of
    :func:`items_ok`, with a message)."""
    if kind is AXES:
        check_orthonormal(name, arr)
        return
    check_elements(name, arr, kind)
    if kind is DIRECTION:
        check_nonzero_direction(name, arr)


def compute_dtype(*arrays: Any, bounds: Sequence[tuple[object, Any]] = ()) -> type:
    """The results' float dtype: float32 when every array argument is float32, else float64
    (SEMANTICS.md); an argument without a dtype (a list of Python numbers) is float64.
    ``bounds`` pairs each scalar bound as given (``t_min``, ``t_max``) with its array: a bound
    counts only where given as a numpy array or scalar, so that a Python number (``t_min=0.0``)
    leaves float32 data float32."""
    counted = [*arrays, *(a for given, a in bounds if isinstance(given, (np.ndarray, np.generic)))]
    if all(getattr(a, "dtype", np.float64) == np.float32 for a in counted):
        return np.float32
    return np.float64


def as_boxes(
    min_name: str, box_min: object, max_name: str, box_max: object
) -> tuple[np.ndarray, np.ndarray]:
    """Box corners as (..., 3) float arrays; a single box is also checked for finiteness here.

    A single box using the empty-box infinities is replaced by a finite empty box; a batch's
    values are left to the caller (:func:`check_box_bounds`).
    """
    lo = as_points(min_name, box_min)
    hi = as_points(max_name, box_max)
    if lo.size == 3 and hi.size == 3 and check_box_bounds(min_name, lo, max_name, hi):
        lo, hi = empty_box_rows(lo, hi)
    return lo, hi


def as_finite_points(name: str, value: object) -> np.ndarray:
    """:func:`as_points` followed by :func:`check_finite`."""
    arr = as_points(name, value)
    check_finite(name, arr)
    return arr


def broadcast_lead(*named: tuple[str, np.ndarray, int]) -> tuple[int, ...]:
    """The broadcast shape of the arguments' leading dimensions (each ``(name, array, item
    dims)``), or a ``ValueError`` that names every argument and its shape."""
    try:
        return tuple(np.broadcast_shapes(*(a.shape[:a.ndim - item] for _, a, item in named)))
    except ValueError:
        listed = ", ".join(f"{name} {a.shape}" for name, a, _ in named)
        raise ValueError(f"argument shapes do not broadcast over leading dimensions: "
                         f"{listed}") from None
