"""Shared test setup: hypothesis profiles, strict float errors, and geometry strategies.

Profiles (pick one with HYPOTHESIS_PROFILE=<name>; CI=<anything> selects "ci"):

* ``dev`` (default): derandomized, 50 examples per property test, for quick local runs;
* ``ci``: derandomized, 200 examples per property test, no deadline, failure blobs printed.
  Most property tests draw a *batch* of 1-10 cases per example (:func:`batches`), about 7 on
  average, so each sees ~1400 cases and each function family ~10 000 -- within the suite's
  3-minute budget, where hypothesis' data generation (~1 ms a case) is the cost;
* ``explore``: random seeds, 5000 examples -- for hunting new counterexamples by hand (fix
  any it finds as a named example, so that the committed suite stays deterministic).

The strategies build inputs with *exact* degeneracies from integers: endpoints on faces, edges
and corners, segments in face planes or through edges and corners, direction components of
+0.0 and -0.0. They live in ``tests/strategies.py``; test modules import them from there.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# --- hypothesis profiles -------------------------------------------------------------------
_COMMON = dict(
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=50, **_COMMON)
settings.register_profile("ci", max_examples=200, **_COMMON)
settings.register_profile(
    "explore",
    max_examples=5000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture(autouse=True)
def _raise_on_float_errors():
    """Run every test with numpy float errors raised, so a stray NaN / inf / overflow fails."""
    with np.errstate(all="raise"):
        yield


@pytest.fixture(params=["jit", "interpreted"])
def each_backend(request):
    """Run a test twice: with batches in compiled loops and in the interpreter
    (``geometry.set_jit``). Modules opt in with
    ``pytestmark = pytest.mark.usefixtures("each_backend")``."""
    import geometry

    before = geometry.get_jit()
    geometry.set_jit(request.param == "jit")
    yield request.param
    geometry.set_jit(before)


def pytest_addoption(parser):
    """``--update-golden``: rewrite tests/golden/*.png from this renderer (the screenshot tests
    read it, and SLABLAB_UPDATE_GOLDEN=1, in tests/screenshots/screenshot_compare.py)."""
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite the screenshot tests' golden PNGs (tests/golden/) instead of "
                          "comparing; look at every changed image before committing it")
