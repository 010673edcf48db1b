"""One item runs its filter compiled once a query has answered ``_engine._COMPILE_AFTER`` items
one at a time: the same answers and doubts as the interpreted filter, bit for bit, down to the
types of what it returns; ``set_jit(False)`` (and a query not called that often) keeps the
interpreter."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import geometry
from geometry import (
    _background,
    _engine,
    aabb_frustum,
    obb_obb,
    point_obb,
    ray_obb,
    segment_aabb,
    triangle_obb,
)
from geometry._one import parse
from tests.geometry.test_frustum import MATRICES
from tests.geometry.test_point_obb import random_axes


def items(module, n, seed):
    """``n`` one-item argument tuples for ``module``'s query: generic values, and grid values
    that put faces, edges and corners on each other exactly (the doubtful cases)."""
    rng = np.random.default_rng(seed)

    def point(grid):
        return rng.integers(-2, 3, 3).astype(float) if grid else rng.uniform(-1.5, 1.5, 3)

    def half(grid):
        return rng.integers(0, 2, 3).astype(float) if grid else rng.uniform(0.0, 1.0, 3)

    out = []
    for k in range(n):
        grid = k % 2 == 1
        frame = np.eye(3) if grid else random_axes(rng, 1)[0]
        if module is segment_aabb:
            lo, hi = np.sort([point(grid), point(grid)], axis=0)
            out.append((point(grid), point(grid), lo, hi))
        elif module is ray_obb:
            direction = point(grid)
            direction[0] = direction[0] or 1.0
            out.append((point(grid), direction, point(grid), frame, half(grid),
                        float(rng.choice([0.0, -np.inf, 0.25])),
                        float(rng.choice([np.inf, 2.0]))))
        elif module is point_obb:
            out.append((point(grid), point(grid), frame, half(grid)))
        elif module is triangle_obb:
            out.append((point(grid), point(grid), point(grid), point(grid), frame, half(grid)))
        elif module is obb_obb:
            other = np.eye(3) if grid else random_axes(rng, 1)[0]
            out.append((point(grid), frame, half(grid), point(grid), other, half(grid)))
    return out


def bits(value):
    """A value with its type and, for a float, its bits (a -0.0 differs from a +0.0)."""
    return (type(value), struct.pack("<d", value) if isinstance(value, float) else value)


@pytest.fixture
def compiled_one():
    """Compile a query's filter for one item in the test (as its hot one-item calls would in a
    thread), and give the query back its interpreted filter afterwards."""
    made = []

    def make(query):
        query.python_filter()
        query._compile_one()
        made.append(query)
        return query

    yield make
    for query in made:
        query._scalar = None
        query._choose_one()


@pytest.mark.parametrize("module", [segment_aabb, ray_obb, point_obb, triangle_obb, obb_obb])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_compiled_filter_equals_the_interpreted_one_bit_for_bit(compiled_one, module, dtype):
    query = compiled_one(module._QUERY)
    assert query._python is query._scalar
    doubts = 0
    for values in items(module, 400, seed=7):
        values = tuple(v.astype(dtype) if isinstance(v, np.ndarray) else v for v in values)
        flat, all32 = parse(values, query._shapes)
        flags = query._flags[all32]
        want = query._inlined(*flat, *flags)
        got = query._scalar(*flat, *flags)
        assert [bits(v) for v in got] == [bits(v) for v in want], (values, got, want)
        doubts += bool(want[-1])
    assert doubts  # the grid items include doubtful ones


def test_frustum_answers_equal_with_the_compiled_filter(compiled_one):
    frustum = geometry.Frustum.from_matrix(MATRICES["perspective"])
    rng = np.random.default_rng(3)
    boxes = [np.sort(rng.uniform(-4, 4, (2, 3)), axis=0) for _ in range(300)]
    before = [geometry.classify_aabb_frustum(lo, hi, frustum) for lo, hi in boxes]
    assert len(set(before)) == 3  # boxes outside, across the frustum's boundary and inside
    query = compiled_one(aabb_frustum._QUERY)
    assert query._python is query._scalar
    after = [geometry.classify_aabb_frustum(lo, hi, frustum) for lo, hi in boxes]
    assert [(type(a), a) for a in after] == [(type(b), b) for b in before]


def fresh_query(module):
    """A new query of ``module``'s filter (its one-item calls counted from 0)."""
    q = module._QUERY
    return _engine.Query(q.filter, q.exact, args=list(zip(q.names, q.kinds, strict=True)),
                         outputs=list(q.outputs), t32=q.t32, case=q.case,
                         second_pass=q.second_pass, contract=q.contract)


def test_hot_one_item_calls_run_compiled_and_set_jit_false_runs_them_interpreted(monkeypatch):
    monkeypatch.setattr(_engine, "_COMPILE_AFTER", 40)
    query = fresh_query(point_obb)
    point, center, half = np.array([1.5, 0.2, 0.3]), np.array([0.5, 0.5, 0.5]), np.full(3, 0.5)
    axes = random_axes(np.random.default_rng(1), 1)[0]
    want = query(point, center, axes, half, out=None)
    for _ in range(45):  # the generated call and the general one (lists) both count
        assert query(point, center, axes, half) == want
        assert query(point.tolist(), center.tolist(), axes.tolist(), half.tolist()) == want
    _background.wait()
    assert query._python is query._scalar is not None
    assert query(point, center, axes, half) == want
    geometry.set_jit(False)
    try:
        assert query._python is query._inlined
        assert query(point, center, axes, half) == want
    finally:
        geometry.set_jit(True)
    assert query._python is query._scalar


def test_hot_while_set_jit_false_compiles_only_once_set_jit_true(monkeypatch):
    monkeypatch.setattr(_engine, "_COMPILE_AFTER", 40)
    query = fresh_query(point_obb)
    geometry.set_jit(False)
    try:
        for _ in range(60):
            query([1.5, 0.2, 0.3], [0.5, 0.5, 0.5], np.eye(3), [0.5, 0.5, 0.5])
        _background.wait()
        assert query._scalar is None and query._python is query._inlined
    finally:
        geometry.set_jit(True)
    _background.wait()
    assert query._python is query._scalar is not None
