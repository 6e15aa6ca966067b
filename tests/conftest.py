"""Settings for the whole suite."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# `--cpu-costs=FILE`: each test module's CPU, with the programs it starts.
pytest_plugins = ["tests.support.cpu_costs"]

# Hypothesis fails a test whose inputs are slow to make (too_slow) or whose example runs past
# a deadline, by the wall clock: on a shared machine under load, with the suite in parallel
# workers, that measures the machine's load and not the code. Speed goals live in bench/.
settings.register_profile(
    "suite",
    settings.get_profile("default"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# The suite's run, here and in CI: the same examples every run and no example database, so
# a red run is the code's doing, not the draw's, and runs again the same.
settings.register_profile(
    "ci", settings.get_profile("suite"), derandomize=True, database=None, print_blob=True
)
# A deeper search, by hand (`pytest --hypothesis-profile=deep`): new draws each run, ten
# times the examples (`tests/support/examples.py` scales the tests that set their own
# count), and the failing examples kept in `.hypothesis/` to be tried first next time.
settings.register_profile("deep", settings.get_profile("suite"), max_examples=1000)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def signal_handlers_kept() -> Iterator[None]:
    """SIGINT's and SIGTERM's handlers as they were before each test: a test that runs a
    command in-process and signals it leaves them ignored (the command's clean-up must
    not be cut short), which would change the next test's start in the same worker."""
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
