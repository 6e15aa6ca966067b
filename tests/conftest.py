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

# The modules with the longest single tests, by `--cpu-costs` (tests/support/cpu_costs.py)
# and `--durations` (the page's whole game and the relay's broker faults mostly wait), the
# longest first: they start the run instead of ending it. pytest-xdist hands the tests
# out in the order collected, and one long test handed out last (the rules' differential
# run sat alphabetically near the end) kept the run going on one worker while the others
# stood idle. The order within each module is kept, and so are its module fixtures.
LONGEST_FIRST = (
    "tests/web/test_whole_game_from_page.py",  # one test, a minute or more of wall time
    "tests/relay/test_broker_trouble.py",  # waits on brokers started and stopped
    "tests/relay/test_relay_faults.py",
    "tests/rules/test_differential.py",
    "tests/app/test_hostile_commands.py",
    "tests/sim/test_replay_property.py",
    "tests/rules/test_perft.py",
    "tests/link/test_emulated_input_fuzz.py",
    "tests/host/test_commands.py",
    "tests/link/test_serial_writes.py",
    "tests/sim/test_behaviours.py",
    "tests/host/test_play.py",
    "tests/link/test_emulation_pty.py",
    "tests/app/test_board_speaks.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: place for place, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


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
