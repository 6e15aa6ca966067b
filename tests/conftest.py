"""Settings for the whole suite."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis fails a test whose inputs are slow to make (too_slow) or whose example runs past
# a deadline, by the wall clock: on a shared machine under load, with the suite in parallel
# workers, that measures the machine's load and not the code. Speed goals live in bench/.
settings.register_profile(
    "suite",
    settings.get_profile("default"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI (`CI` set, as `.ci/run` is started) draws the same examples every run: a red run is
# the code's doing, not the draw's, and runs again the same. `--hypothesis-profile=ci` runs
# it so anywhere; `suite`, the default elsewhere, draws anew each run and keeps the failing
# examples it finds (`.hypothesis/`) to try first next time.
settings.register_profile(
    "ci", settings.get_profile("suite"), derandomize=True, database=None, print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "suite")


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
