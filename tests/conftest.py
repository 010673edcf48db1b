"""Shared test setup: hypothesis profiles, strict float errors, and geometry strategies.

Profiles (pick one with HYPOTHESIS_PROFILE=<name>; CI=<anything> selects "ci"):

* ``dev`` (default): derandomized, 50 examples per property test, for quick local runs that draw
  the same inputs every time;
* ``ci``: random inputs, a fresh seed every run, 45 examples per property test, no deadline,
  failure blobs printed. The seed is printed in the report header: rerun a failure with
  ``CI=true pytest --hypothesis-seed=<seed> ...`` (or paste the ``@reproduce_failure`` blob).
  Most property tests draw a *batch* of 1-10 cases per example (:func:`batches`), about 7 on
  average, so each sees ~300 new cases a run (the strategies reach every class and face in
  each run: tests/geometry/test_strategies.py) -- within the suite's time budget of 300 s on
  two cores, where hypothesis' data generation and the exact reference are the cost;
* ``explore``: random seeds, 5000 examples -- for hunting new counterexamples by hand (fix
  any it finds as a named example).

The strategies build inputs with *exact* degeneracies from integers: endpoints on faces, edges
and corners, segments in face planes or through edges and corners, direction components of
+0.0 and -0.0. They live in ``tests/strategies.py``; test modules import them from there.
"""

from __future__ import annotations

import contextlib
import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# --- hypothesis profiles -------------------------------------------------------------------
_COMMON = dict(
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=50, derandomize=True, database=None, **_COMMON)
settings.register_profile("ci", max_examples=45, database=None, **_COMMON)
# explore keeps hypothesis' example database, so that a counterexample it finds replays
settings.register_profile("explore", max_examples=5000, **_COMMON)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Under the ``ci`` profile, draw this run's hypothesis seed here (unless
    ``--hypothesis-seed`` gives one) so that the report header can print it: hypothesis' plugin,
    whose ``pytest_configure`` runs after this one, seeds every property test with it."""
    if settings.get_current_profile_name() == "ci" and config.option.hypothesis_seed is None:
        config.option.hypothesis_seed = str(random.SystemRandom().getrandbits(32))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Repeat the seed at the end (the header is hidden under ``-q``), where a failure is read."""
    seed = config.option.hypothesis_seed
    if seed is not None:
        terminalreporter.write_line(
            f"hypothesis seed {seed}: rerun these draws with --hypothesis-seed={seed}")


def pytest_report_header(config):
    """The hypothesis profile and, where one is set, the seed to rerun this run's draws with."""
    seed = config.option.hypothesis_seed
    rerun = f", seed {seed} (rerun with --hypothesis-seed={seed})" if seed is not None else ""
    return f"hypothesis profile {settings.get_current_profile_name()!r}{rerun}"


@pytest.fixture(autouse=True)
def _raise_on_float_errors():
    """Run every test with numpy float errors raised, so a stray NaN / inf / overflow fails."""
    with np.errstate(all="raise"):
        yield


@pytest.fixture(autouse=True, scope="session")
def _first_batches_compile():
    """Every batch runs a compiled loop where jit is on, the first of its pattern included:
    outside the tests a small first batch runs interpreted while its loop compiles
    (``geometry._background``), which would leave the compiled backend's tests testing the
    interpreter. (Its own test turns it back on.)"""
    from geometry import _background

    before = _background.INTERPRETED_FIRST
    _background.INTERPRETED_FIRST = 0
    yield
    _background.INTERPRETED_FIRST = before


@pytest.fixture(params=["jit", "interpreted"])
def each_backend(request):
    """Run a test twice: with batches in compiled loops and in the interpreter
    (``geometry.set_jit``). Modules opt in with
    ``pytestmark = pytest.mark.usefixtures("each_backend")``."""
    with jit_set(request.param == "jit"):
        yield request.param


@pytest.fixture
def jit_on():
    """Compiled loops for the test (``geometry.set_jit(True)``), the setting put back after."""
    with jit_set(True):
        yield


@pytest.fixture
def jit_off():
    """The interpreter for the test (``geometry.set_jit(False)``), the setting put back after."""
    with jit_set(False):
        yield


@contextlib.contextmanager
def jit_set(enabled: bool):
    """``geometry.set_jit(enabled)`` within, the setting found put back after."""
    import geometry

    before = geometry.get_jit()
    geometry.set_jit(enabled)
    try:
        yield
    finally:
        geometry.set_jit(before)


def pytest_addoption(parser):
    """``--update-golden``: rewrite tests/golden/*.png from this renderer (the screenshot tests
    read it, and SLABLAB_UPDATE_GOLDEN=1, in tests/screenshots/screenshot_compare.py)."""
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite the screenshot tests' golden PNGs (tests/golden/) instead of "
                          "comparing; look at every changed image before committing it")
