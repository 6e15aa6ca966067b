"""`--cpu-costs` charges a program kept running across tests to each test for the CPU it
spent while that test ran, not all at once to the test that waits for it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from tests.support.cpu_costs import CpuCosts

SPIN_S = 0.4  # CPU seconds the program spends in each test, counted by itself
# Spins SPIN_S of its own CPU, says so, waits for a line, spins as much again and ends.
BUSY = """
import sys, time
def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
spin(float(sys.argv[1]))
print("spun", flush=True)
sys.stdin.readline()
spin(float(sys.argv[1]))
"""


def _run(costs: CpuCosts, nodeid: str, body: Callable[[], None]) -> None:
    """`body` run as a test, measured as pytest's run would measure it."""
    protocol = costs.pytest_runtest_protocol(cast(pytest.Item, SimpleNamespace(nodeid=nodeid)))
    next(protocol)
    body()
    with contextlib.suppress(StopIteration):
        next(protocol)


def test_a_program_kept_across_two_tests_is_charged_to_each_for_its_work(
    tmp_path: Path,
) -> None:
    costs = CpuCosts(tmp_path / "costs.json")
    busy = subprocess.Popen(
        [sys.executable, "-c", BUSY, str(SPIN_S)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert busy.stdout is not None
    stdout = busy.stdout
    try:
        # The first test has it spin, the second has it spin again and waits for its end.
        _run(costs, "m.py::first", lambda: _said(stdout.readline()))
        _run(costs, "m.py::second", lambda: _ended(busy))
    finally:
        busy.kill()
        busy.wait()
    first, second = costs.costs["m.py::first"], costs.costs["m.py::second"]
    # Waited for in the second test only, the program's whole CPU (twice SPIN_S and its
    # start) was once charged to that test, the first charged next to nothing.
    assert first >= SPIN_S, costs.costs
    assert SPIN_S <= second < 2 * SPIN_S, costs.costs


def _said(line: str) -> None:
    assert line == "spun\n"


def _ended(busy: subprocess.Popen[str]) -> None:
    assert busy.stdin is not None
    busy.stdin.write("go\n")
    busy.stdin.flush()
    assert busy.wait(timeout=120) == 0
