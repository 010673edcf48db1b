"""The filters as CPython runs them (helpers inlined, ``geometry._inline``) answer as written."""

import dis
import importlib
import math
import pkgutil
import random

import pytest

import geometry
from geometry import _engine, _floats, _inline
from geometry._floats import interpreted

_SPECIAL = (0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 5e-324, 1e300, math.inf, -math.inf, math.nan)


def _queries() -> list[_engine.Query]:
    for module in pkgutil.iter_modules(geometry.__path__):
        importlib.import_module(f"geometry.{module.name}")
    return sorted(_engine._queries, key=lambda q: (q.filter.__module__, q.filter.__name__))


@pytest.mark.parametrize("query", _queries(), ids=lambda q: f"{q.filter.__module__}.{q.names}")
def test_each_filter_inlined_gives_the_same_bits(query):
    python = query.python_filter()
    width = sum(kind.width for kind in query.kinds)
    rng = random.Random(20261126)
    for k in range(60):
        item = [rng.uniform(-2.0, 2.0) for _ in range(width)]
        if k % 3 == 0:  # scales and values the filters doubt
            item[rng.randrange(width)] = rng.choice(_SPECIAL)
        for flags in query._flags:
            want, got = query.filter(*item, *flags), python(*item, *flags)
            assert repr(got) == repr(want), f"{query.names} on {item}: expected {want}, got {got}"


def _helper(a: float, b: float) -> tuple[float, float]:
    s = a + b
    return s, s * a


def _probe(x: float, y: float) -> tuple[float, bool]:
    p, q = _helper(x, y * 2.0)
    r = _helper(x, 1.0)[0] if x > 0.0 else 0.0  # a conditional assigned: written as an if
    s = 1.0 + (_helper(y, 1.0)[1] if y > 0.0 else 0.0)  # a call the statement may skip: left
    here = interpreted()  # a helper without arguments or locals
    return p + q + r + s, here


def test_a_helper_is_written_in_and_a_call_in_a_branch_is_left(monkeypatch):
    # a helper for this test only (marking it @jitable would register it with every loop)
    monkeypatch.setattr(_floats, "JITABLES", [*_floats.JITABLES, _helper])
    python = _inline.inlined(_probe)
    assert python is not _probe, "expected the helper call in _probe to be inlined"
    loads = [i for i in dis.get_instructions(python) if i.argval == "_helper"]
    assert len(loads) == 1, ("expected the call within a conditional expression to stay a call, "
                             f"and the others written in: {len(loads)} calls left")
    for x, y in ((1.5, -0.25), (-2.0, 3.0), (0.0, 0.0)):
        assert python(x, y) == _probe(x, y), f"expected _probe's answer at {(x, y)}"
