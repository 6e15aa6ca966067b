"""Where a bench's CPU went: each group of its processes' CPU time over the run, and its
share of the whole machine's (every core's time over the run), the processes others ran
on the machine meanwhile included, as `others`. Read from /proc (Linux)."""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def process_cpu_s(pid: int | None) -> float:
    """A process's CPU time so far, its threads' included (0 for one not started, or gone)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_busy_s() -> float:
    """Every core's busy time so far (user, nice, system, interrupts, stolen)."""
    ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK  # idle and iowait left out


class CpuShares:
    """`start()` then `end()` around the run, with the groups' process ids as they are
    at each (a group started meanwhile counts from 0)."""

    def __init__(self) -> None:
        self._began: dict[str, float] = {}
        self._busy = 0.0
        self._wall = 0.0
        self.used: dict[str, float] = {}  # each group's CPU seconds over the run
        self.wall_s = 0.0
        self.busy_s = 0.0  # the whole machine's busy CPU seconds over the run

    def start(self, groups: dict[str, list[int | None]], wall: float) -> None:
        self._began = {name: sum(map(process_cpu_s, pids)) for name, pids in groups.items()}
        self._busy = machine_busy_s()
        self._wall = wall

    def end(self, groups: dict[str, list[int | None]], wall: float) -> None:
        self.used = {
            name: sum(map(process_cpu_s, pids)) - self._began.get(name, 0.0)
            for name, pids in groups.items()
        }
        self.busy_s = machine_busy_s() - self._busy
        self.wall_s = wall - self._wall

    def said(self) -> str:
        """One line: each group's CPU seconds and share of the machine, then the rest."""
        cores = os.cpu_count() or 1
        whole = max(1e-9, self.wall_s * cores)
        parts = [f"{name} {used:.1f} s ({used / whole:.0%})" for name, used in self.used.items()]
        others = max(0.0, self.busy_s - sum(self.used.values()))
        idle = max(0.0, whole - self.busy_s)
        return (
            f"  CPU over {self.wall_s:.0f} s on {cores} cores: "
            + ", ".join(parts)
            + f", others {others:.1f} s ({others / whole:.0%}), idle {idle:.1f} s"
            f" ({idle / whole:.0%})"
        )
