"""The engine's own promises: ``out=`` buffers, one-item calls that stay in Python, the call
depth from a public function to its filter, and a package without import cycles."""

from __future__ import annotations

import ast
import os
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

import geometry
from geometry import (
    _background,
    _engine,
    _floats,
    _validate,
    classify_segment_aabb,
    intersect_ray_aabb,
    ray_obb,
    segment_obb,
)

pytestmark = pytest.mark.usefixtures("each_backend")

LO = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [0.25, 0.25, 0.25]])
HI = np.array([[1.0, 1.0, 1.0], [3.0, 3.0, 3.0], [0.75, 0.75, 0.75]])


def test_out_receives_the_classes_and_is_returned():
    out = np.full(3, 7, dtype=np.int8)
    got = classify_segment_aabb([0.5, 0.5, -1.0], [0.5, 0.5, 0.5], LO, HI, out=out)
    assert got is out and out.tolist() == [1, 0, 1], f"expected [1, 0, 1] in out, got {out}"


def test_out_receives_the_ray_results():
    out = (np.empty(3, bool), np.empty(3), np.empty(3))
    got = intersect_ray_aabb([0.5, 0.5, -1.0], [0.0, 0.0, 1.0], LO, HI, out=out)
    assert all(g is o for g, o in zip(got, out, strict=True)), (
        "the RayHit holds the caller's arrays"
    )
    assert out[0].tolist() == [True, False, True] and out[1].tolist() == [1.0, np.inf, 1.25]
    out32 = (np.empty(3, bool), np.empty(3, np.float32), np.empty(3, np.float32))
    intersect_ray_aabb(np.float32([0.5, 0.5, -1.0]), np.float32([0, 0, 1]), LO.astype(np.float32),
                       HI.astype(np.float32), out=out32)
    assert out32[2].tolist() == [2.0, np.inf, 1.75]


@pytest.mark.parametrize("bad, match", [
    (np.empty(4, np.int8), r"out must be a int8 array of shape \(3,\), got int8 \(4,\)"),
    (np.empty(3, np.int64), r"out must be a int8 array of shape \(3,\), got int64"),
    ([0, 0, 0], r"out must be a int8 array"),
    (np.empty(6, np.int8)[::2], "C-contiguous"),
])
def test_out_is_checked_for_shape_and_dtype(bad, match):
    with pytest.raises(ValueError, match=match):
        classify_segment_aabb([0.5, 0.5, -1.0], [0.5, 0.5, 0.5], LO, HI, out=bad)


def test_ray_out_is_checked_per_array():
    with pytest.raises(ValueError, match=r"out\[1\] must be a float64 array"):
        intersect_ray_aabb([0.0] * 3, [1.0, 0.0, 0.0], LO, HI,
                           out=(np.empty(3, bool), np.empty(3, np.float32), np.empty(3)))
    with pytest.raises(ValueError, match="out must hold 3 arrays"):
        intersect_ray_aabb([0.0] * 3, [1.0, 0.0, 0.0], LO, HI, out=(np.empty(3, bool),))
    read_only = np.empty(3)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        intersect_ray_aabb([0.0] * 3, [1.0, 0.0, 0.0], LO, HI,
                           out=(np.empty(3, bool), np.empty(3), read_only))


def test_one_item_returns_python_scalars_and_needs_no_numba():
    """All-single calls stay in CPython (checked in a fresh interpreter)."""
    import subprocess

    code = ("import sys, geometry; "
            "r = geometry.intersect_ray_aabb((0.5, 0.5, -1.0), [0.0, 0.0, 1.0], [0, 0, 0], "
            "[1, 1, 1]); c = geometry.classify_segment_aabb([0, 0, 0], [1, 1, 1], [0, 0, 0], "
            "[1, 1, 1]); print(type(r.hit).__name__, type(r.t_enter).__name__, repr(c), "
            "'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120).stdout.split()
    assert out == ["bool", "float", "<IntersectionType.INTERSECT:", "1>", "False"], out


@pytest.mark.parametrize("rows", [tuple, list])
def test_points_and_axes_as_python_numbers_answer_one_item_without_arrays(rows, monkeypatch):
    """Points as three Python floats or ints, and a frame as three such rows (nested tuples or
    lists), take the one-item path, as (3,) and (3, 3) arrays do, with the same answer; an int
    float64 cannot hold still takes the general path, which refuses it."""
    c, s = 0.6, 0.8
    frame = ((c, s, 0.0), (-s, c, 0.0), (0.0, 0.0, 1.0))
    args = ((-2, 0.1, 0.2), (1.0, 0.25, 0), (0.5, 0.5, 0.5))
    want = geometry.intersect_ray_obb(*(np.array(a, float) for a in args), np.array(frame),
                                      np.array([0.5, 0.25, 1.0]))
    assert want.hit
    identity = geometry.intersect_ray_obb(*args, np.eye(3), (1, 1, 1))

    def no_arrays(*_):
        raise AssertionError("one item went by the general path")

    monkeypatch.setattr(_engine.Query, "_many", no_arrays)
    assert geometry.intersect_ray_obb(*(rows(a) for a in args), rows(rows(r) for r in frame),
                                      rows((0.5, 0.25, 1))) == want
    assert geometry.intersect_ray_obb(*args, rows(rows(r) for r in np.eye(3, dtype=int).tolist()),
                                      (1, 1, 1)) == identity
    monkeypatch.undo()
    with pytest.raises(ValueError, match="origin holds 9007199254740993"):
        geometry.intersect_ray_obb((2**53 + 1, 0, 0), *args[1:], frame, (1, 1, 1))


def test_one_item_of_float64_arrays_settles_doubt_and_refuses_bad_values():
    """The one-item call written out per query (``geometry._one``, installed with the inlined
    filter) takes float64 arrays by its own test: an item its filter doubts is decided exactly
    there, a bad value raises."""
    for query in (ray_obb._QUERY, segment_obb._QUERY):
        query.python_filter()
        assert type(query) is not _engine.Query, "expected the query's own call once inlined"
    a = np.array
    grazing = geometry.intersect_ray_obb(a([-1.0, 1.0, 0.0]), a([1.0, 0.0, 0.0]), np.zeros(3),
                                         np.eye(3), np.ones(3))
    assert grazing == (True, 0.0, 2.0), f"expected the edge's exact (True, 0.0, 2.0), got {grazing}"
    touching = geometry.classify_segment_obb(a([-2.0, 1.0, 1.0]), a([2.0, 1.0, 1.0]), np.zeros(3),
                                             np.eye(3), np.ones(3))
    assert touching == geometry.IntersectionType.INTERSECT, f"expected INTERSECT, got {touching}"
    with pytest.raises(ValueError, match="half_size must be finite"):
        geometry.intersect_ray_obb(a([0.0, 0.0, 0.0]), a([1.0, 0.0, 0.0]), np.zeros(3),
                                   np.eye(3), a([1.0, np.nan, 1.0]))


@pytest.mark.parametrize("call", [
    lambda: classify_segment_aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0] * 3, [1.0] * 3),
    lambda: intersect_ray_aabb(np.zeros(3), np.ones(3), np.zeros(3), np.ones(3)),
], ids=["segment", "ray"])
def test_public_function_reaches_its_filter_within_three_calls(call):
    depth = {}
    stack = []

    def tracer(frame, event, arg):
        if event == "call":
            stack.append(frame.f_code.co_name)
            if frame.f_code.co_name == "_filter" and "filter" not in depth:
                public = next(i for i, n in enumerate(stack) if n.startswith(("classify",
                                                                               "intersect")))
                depth["filter"] = len(stack) - 1 - public
        elif event == "return" and stack:
            stack.pop()
        return tracer

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    assert depth.get("filter", 99) <= 3, f"the filter is {depth.get('filter')} calls deep"


def test_no_module_of_geometry_imports_another_in_a_circle():
    package = Path(geometry.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    edges.add(node.module.split(".")[0])
                else:
                    edges.update(alias.name for alias in node.names)
        graph[path.stem] = edges

    def visit(module, trail):
        if module in trail:
            raise AssertionError(f"import cycle: {' -> '.join(trail + [module])}")
        for nxt in graph.get(module, ()):
            visit(nxt, trail + [module])

    for module in graph:
        visit(module, [])


def _t32_probe(x: float, t32: bool) -> tuple[float, bool]:
    """A filter that answers ``x + 1`` when told its t output is float32, else ``x``."""
    return (x + 1.0 if t32 else x), False


@pytest.mark.parametrize("jit", [True, False], ids=["compiled", "interpreted"])
def test_a_t32_query_tells_its_filter_whether_t_is_float32(jit):
    query = _engine.Query(_t32_probe, lambda x: x, args=[("x", _validate.T_MIN)],
                          outputs=[_engine.T], t32=True)
    before = geometry.get_jit()
    geometry.set_jit(jit)
    try:
        for dtype, shift in ((np.float32, 1.0), (np.float64, 0.0)):
            got = query(np.arange(5, dtype=dtype))
            assert got.dtype == dtype, f"{dtype.__name__} in, {got.dtype} out"
            np.testing.assert_array_equal(got, np.arange(5) + shift,
                                          err_msg=f"{dtype.__name__}: t32 must be {shift == 1}")
        assert query(np.float32(2.0)) == 3.0, "one float32 item: t32"
        assert query(np.float64(2.0)) == 2.0, "one float64 item: not t32"
    finally:
        geometry.set_jit(before)



def _t32_point_probe(x: float, y: float, z: float, t: float, t32: bool) -> tuple[float, bool]:
    """A filter that answers 1 when told its t output is float32, else 0."""
    return (1.0 if t32 else 0.0), False


@pytest.mark.parametrize("point", [(0.0, 0.0, 0.0), [0, 0, 0], np.zeros(3, np.float32),
                                   np.zeros(3, np.float64), (np.float64(0.0), 0.0, 0)],
                         ids=["tuple", "list", "float32", "float64", "np.float64 tuple"])
@pytest.mark.parametrize("bound", [0.0, 0, np.array(0.0, np.float32), np.array(0.0),
                                   np.float32(0.0), np.float64(0.0)],
                         ids=["float", "int", "0-d float32", "0-d float64", "np.float32",
                              "np.float64"])
def test_one_item_calls_follow_compute_dtype(point, bound):
    """The one-item path works out the output dtype as it reads its arguments: it must be
    compute_dtype's rule for every type that path takes."""
    query = _engine.Query(_t32_point_probe, lambda *a: 0.0,
                          args=[("p", _validate.POINT), ("t", _validate.T_MIN)],
                          outputs=[_engine.T], t32=True)
    want = _validate.compute_dtype(point, bounds=[(bound, np.asarray(bound))]) == np.float32
    assert query(point, bound) == float(want), (
        f"{type(point).__name__} point, {type(bound).__name__} bound: expected t32 {want}")


def _interpreted_probe(x: float) -> tuple[float, bool]:
    """A filter that answers 1 where it runs in Python, else 0 (a filter must never let this
    change its answer; here it shows which way the engine ran it)."""
    return (1.0 if _floats.interpreted() else 0.0), False


@pytest.mark.parametrize("jit", [True, False], ids=["compiled", "interpreted"])
def test_interpreted_is_false_only_in_compiled_loops(jit):
    """``interpreted()`` lets a filter skip, for one item in Python, work its selects discard;
    compiled it must be a constant False, or the loop keeps the branch."""
    query = _engine.Query(_interpreted_probe, lambda x: 1.0, args=[("x", _validate.T_MIN)],
                          outputs=[_engine.T])
    before = geometry.get_jit()
    geometry.set_jit(jit)
    try:
        np.testing.assert_array_equal(query(np.zeros(4)), np.full(4, 0.0 if jit else 1.0))
        assert query(0.0) == 1.0, "one item runs in Python"
    finally:
        geometry.set_jit(before)


@pytest.fixture
def behind(monkeypatch, jit_on):
    """A fresh probe query (:func:`_interpreted_probe`, no loop compiled), with jit on and first
    batches of up to 8 items run interpreted while their loops compile (the suite's conftest
    turns that off, so that the compiled backend's tests run compiled loops)."""
    monkeypatch.setattr(_background, "INTERPRETED_FIRST", 8)
    return _engine.Query(_interpreted_probe, lambda x: 1.0, args=[("x", _validate.T_MIN)],
                         outputs=[_engine.T])


def test_a_first_small_batch_runs_interpreted_while_its_loop_compiles(behind):
    """A pattern's first batch of at most INTERPRETED_FIRST items runs in the interpreter while
    its loop compiles in a thread (:mod:`geometry._background`); once the loop is ready the
    pattern's batches run it; a larger first batch compiles its loop and runs it at once; a
    second pass compiles behind the first batch too."""
    np.testing.assert_array_equal(behind(np.zeros(8)), np.ones(8),
                                  err_msg="a first batch of 8: interpreted")
    _background.wait()
    np.testing.assert_array_equal(behind(np.zeros(8)), np.zeros(8),
                                  err_msg="the loop compiled: it runs the batch")
    np.testing.assert_array_equal(behind(np.zeros(9, np.float32)), np.zeros(9),
                                  err_msg="a first batch of 9 (another dtype): compiled")
    passes = _engine.Query(_second_pass_probe, lambda x: 1.0, args=[("x", _validate.T_MIN)],
                           outputs=[_engine.T], second_pass=True)
    np.testing.assert_array_equal(passes(np.zeros(8)), np.ones(8))
    _background.wait()
    ((_, second),) = passes._loops.values()
    assert second is not None and second.signatures, (
        "the second pass compiles behind the first batch too")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork")
def test_a_fork_waits_for_a_loop_compiling_behind(behind):
    """numba compiles under one process-wide lock: a child forked while the background thread
    held it would wait for ever at its first compiled batch. The fork waits for the thread."""
    behind(np.zeros(8))  # its loop starts compiling behind
    pid = os.fork()
    if pid == 0:  # the child: a batch too large to run interpreted
        signal.alarm(30)  # (a deadlock ends here, as a failure)
        os._exit(0 if behind(np.zeros(9)).tolist() == [0.0] * 9 else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (
        f"expected the child's compiled batch to run, got wait status {status}")


def _second_pass_probe(x: float, first_pass: bool) -> tuple[float, bool]:
    """:func:`_interpreted_probe` for a query with a second pass (that it never needs)."""
    return (1.0 if _floats.interpreted() else 0.0), False


@pytest.mark.parametrize("query", ["aabb", "obb"])
@pytest.mark.parametrize("bound", ["t_min", "t_max"])
@pytest.mark.parametrize("into", [1, 2])
def test_ray_bounds_may_be_the_out_arrays_they_are_answered_into(query, bound, into):
    """``t_min`` or ``t_max`` given as the array that receives ``t_enter`` or ``t_exit`` (as in
    a loop that steps from hit to hit): the answers are those for the bounds given, though the
    loop writes that array before the second and the exact pass read the bounds again. The
    boxes make the float filter doubt: each touches the ray at a corner, or misses it or
    overlaps it by an ulp there."""
    k = np.repeat(np.arange(1.0, 9.0), 3)
    step = np.tile([0.0, 1.0, -1.0], 8)  # y_min on the corner, an ulp above, an ulp below
    lo = np.stack([k, np.nextafter(k + 1.0, k + 1.0 + step), np.full_like(k, -1.0)], -1)
    hi = np.stack([k + 1.0, k + 2.0, np.ones_like(k)], -1)
    given = np.linspace(0.0, 0.5, len(k)) if bound == "t_min" else np.linspace(9.0, 30.0, len(k))
    # every argument per item, the other bound its default repeated: the loops of all-per-item
    # arguments, which the batch tests compile anyway, rather than loops of their own
    other = {"t_max": np.full(len(k), np.inf)} if bound == "t_min" else {"t_min": np.zeros(len(k))}
    origin, direction = np.zeros((len(k), 3)), np.tile([1.0, 1.0, 0.0], (len(k), 1))
    axes = np.tile(np.eye(3), (len(k), 1, 1))

    def call(b, out=None):
        if query == "aabb":
            return intersect_ray_aabb(origin, direction, lo, hi, out=out, **{bound: b}, **other)
        return geometry.intersect_ray_obb(origin, direction, (lo + hi) / 2, axes, (hi - lo) / 2,
                                          out=out, **{bound: b}, **other)

    want = call(given.copy())
    assert 0 < want.hit.sum() < len(k)
    b = given.copy()
    out = [np.empty(len(k), bool), np.empty(len(k)), np.empty(len(k))]
    out[into] = b
    got = call(b, out=tuple(out))
    for name, w, g in zip(("hit", "t_enter", "t_exit"), want, got, strict=True):
        assert np.array_equal(w, g), f"{name} differs where {bound} is out[{into}]"


def test_ray_out_arrays_must_not_overlap():
    t = np.empty(3)
    with pytest.raises(ValueError, match=r"out\[1\] and out\[2\] overlap"):
        intersect_ray_aabb([0.0] * 3, [1.0, 0.0, 0.0], LO, HI, out=(np.empty(3, bool), t, t))


def _constants(code) -> list[float]:
    """The float constants of a code object and of those nested in it."""
    found = []
    for c in code.co_consts:
        if isinstance(c, float):
            found.append(c)
        elif hasattr(c, "co_consts"):
            found += _constants(c)
    return found


def test_no_filter_adds_a_subnormal_constant():
    # a subnormal operand costs a microcode assist per use on x86: classify_sphere_obb's one
    # frame ran three times slower for an underflow slack of 2**-1070 (a normal 2**-1020 bounds
    # the same)
    queries = [q for q in list(_engine._queries) if q.filter.__module__.startswith("geometry.")]
    assert len(queries) >= 18, "expected every query module's Query, made at import"
    tiny = sys.float_info.min
    for fn in [q.filter for q in queries] + list(_floats.JITABLES):
        code = fn.__code__
        values = _constants(code) + [v for name in code.co_names
                                     if isinstance(v := fn.__globals__.get(name), float)]
        bad = [v for v in values if 0.0 < abs(v) < tiny]
        assert not bad, f"{fn.__module__}.{fn.__qualname__} uses subnormal constants {bad}"
