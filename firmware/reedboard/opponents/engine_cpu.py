"""Whether an engine that is late is hung or only starved of the CPU.

On the board the engine runs at SCHED_IDLE: it gets only the time nobody else wants, so
on a busy machine a healthy engine may wait seconds for the CPU with its answer unfound.
Wall time alone would take it for a hung one. What tells them apart is the engine's own
CPU time and whether it is waiting for the CPU: an engine still runnable and short of
the CPU time its answer may take is starved, not hung; one that sleeps past its time (a
deadlock, a wait on nothing) or has spent all that CPU time without answering is hung.

`cpu_s(pid)` and `usage(pid)` read Linux's /proc (where it is missing, None: wall time alone decides);
`hung` decides, pure."""

from __future__ import annotations

import os
from dataclasses import dataclass

_TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Usage:
    cpu_s: float  # the process's CPU time so far, every thread's, user and system
    runnable: bool  # one of its threads runs or waits for a CPU


def cpu_s(pid: int) -> float | None:
    """The process's CPU time so far, from /proc; None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = _fields(handle.read())
        return (int(fields[11]) + int(fields[12])) / _TICKS_PER_S  # utime, stime
    except (OSError, ValueError, IndexError):
        return None


def usage(pid: int) -> Usage | None:
    """The engine process's CPU time and whether it wants the CPU, from /proc; None when
    that cannot be read (no /proc, the process gone)."""
    spent = cpu_s(pid)
    if spent is None:
        return None
    runnable = False
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/stat", encoding="ascii") as handle:
                runnable = runnable or _fields(handle.read())[0] == "R"
    except (OSError, ValueError, IndexError):
        return None
    return Usage(spent, runnable)


def _fields(stat: str) -> list[str]:
    """The fields after the command's name (which may hold spaces and parentheses):
    state first, then ppid ... utime (12th), stime (13th)."""
    return stat[stat.rindex(")") + 2 :].split()


def hung(waited_s: float, allowed_s: float, before_s: float | None, now: Usage | None) -> bool:
    """Whether an engine that has not answered after `waited_s` of wall time, allowed
    `allowed_s`, is hung; `before_s`: its CPU time when the wait began, `now` its usage."""
    if waited_s < allowed_s:
        return False
    if before_s is None or now is None:
        return True  # no account of its CPU: its wall time decides
    if now.cpu_s - before_s >= allowed_s:
        return True  # it had all its time on the CPU and more, and found nothing
    return not now.runnable  # asleep past its time: waiting on nothing that will come
