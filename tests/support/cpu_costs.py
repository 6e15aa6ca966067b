"""`pytest --cpu-costs=FILE`: what each test costs in CPU, the test process's own and that
of every program it started, summed by module and the largest shown at the end of the
run.

Wall-clock durations (`--durations`) measure the machine's load as much as the tests; CPU
seconds do not. Each process (each xdist worker) writes its tests' costs to `FILE.<name>`
as JSON; the process that started the run adds them up, writes the sum by module to FILE
and prints the largest.

A program still running is read from /proc at each test's start and end (the process
tree under the test process), so one kept across tests (a process's shared Chromium)
is charged to the tests that ran while it worked, not all at once to the test that
waits for it. What a program's orphans do once it has gone is not counted."""

from __future__ import annotations

import json
import os
import resource
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

SHOWN = 20  # modules listed at the end of the run


TICKS_PER_S = os.sysconf("SC_CLK_TCK")  # /proc's unit of CPU time


def cpu_seconds() -> float:
    """This process's CPU so far, that of its children it has waited for, and that of
    the programs still running under it."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    waited = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return waited + running_cpu_seconds(os.getpid())


def running_cpu_seconds(root: int) -> float:
    """The CPU so far of the processes running under `root` (its children, theirs, ...),
    each with the children it has waited for: once `root` waits for one, its rusage
    counts all that instead. Nothing on a system without /proc."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue  # ended meanwhile
        # After the command's closing parenthesis (a name may hold spaces and parens):
        # state, ppid, ..., then utime, stime, cutime, cstime (fields 14-17).
        fields = stat[stat.rindex(b")") + 2 :].split()
        pid = int(name)
        parents[pid] = int(fields[1])
        ticks[pid] = sum(int(field) for field in fields[11:15])
    below: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        below.setdefault(parent, []).append(pid)
    total, todo = 0, list(below.get(root, []))
    while todo:
        pid = todo.pop()
        total += ticks[pid]
        todo += below.get(pid, [])
    return total / TICKS_PER_S


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu-costs",
        metavar="FILE",
        help="write each test module's CPU seconds (with the programs it starts) to FILE",
    )


class CpuCosts:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.costs: dict[str, float] = {}
        self.by_module: Counter[str] = Counter()  # the sum, in the process that started the run
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        self.part = path.with_name(f"{path.name}.{worker or 'main'}")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        before = cpu_seconds()
        yield
        # Never below nothing: a program orphaned meanwhile leaves the tree with its CPU.
        self.costs[item.nodeid] = max(0.0, cpu_seconds() - before)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.costs:
            self.part.write_text(json.dumps(self.costs))
        if os.environ.get("PYTEST_XDIST_WORKER"):
            return  # the process that started the run adds the parts up
        by_module: Counter[str] = Counter()
        for part in self.path.parent.glob(f"{self.path.name}.*"):
            for nodeid, seconds in json.loads(part.read_text()).items():
                by_module[nodeid.split("::")[0]] += seconds
            part.unlink()
        self.path.write_text(json.dumps(dict(by_module.most_common()), indent=1) + "\n")
        self.by_module = by_module

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        by_module = self.by_module
        if not by_module:
            return
        total = sum(by_module.values())
        terminalreporter.section(f"CPU by module: {total:.1f} s in tests ({self.path})")
        for module, seconds in by_module.most_common(SHOWN):
            terminalreporter.write_line(f"{seconds:7.1f} s  {module}")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--cpu-costs")
    if not path:
        return
    costs = CpuCosts(Path(path).resolve())
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        for stale in costs.path.parent.glob(f"{costs.path.name}.*"):
            stale.unlink()  # an earlier run's parts
    config.pluginmanager.register(costs, "cpu-costs")
