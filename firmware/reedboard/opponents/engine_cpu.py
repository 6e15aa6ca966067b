"""Whether an engine that is late is hung or only starved of the CPU.

On the board the engine runs at SCHED_IDLE: it gets only the time nobody else wants, so
on a busy machine a healthy engine may wait seconds for the CPU with its answer unfound.
Wall time alone would take it for a hung one. What tells them apart is the engine's own
CPU time and whether it is waiting for the CPU: an engine still runnable (or waiting for
the disk) and short of the CPU time its answer may take is starved, not hung; one that
sleeps past its time (a deadlock, a wait on nothing) or has spent all that CPU time
without answering is hung. Asleep is judged over two looks: a healthy engine may sleep
a moment (a lock handed between its threads, its answer just written), a hung one
sleeps at both and spends no CPU time between them.

`cpu_s(pid)` and `usage(pid)` read Linux's /proc (where it is missing, None: wall time alone decides);
`hung` decides, pure."""

from __future__ import annotations

import os
from dataclasses import dataclass

_TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Usage:
    cpu_s: float  # the process's CPU time so far, every thread's, user and system
    runnable: bool  # one of its threads runs or waits for a CPU (or for the disk)


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
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/stat", encoding="ascii") as handle:
                # Uninterruptible sleep (D) is a wait for the disk, a page fault on a
                # loaded machine: it ends by itself.
                runnable = runnable or _fields(handle.read())[0] in ("R", "D")
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended while the others were read
    return Usage(spent, runnable)


def _fields(stat: str) -> list[str]:
    """The fields after the command's name (which may hold spaces and parentheses):
    state first, then ppid ... utime (12th), stime (13th)."""
    return stat[stat.rindex(")") + 2 :].split()


def hung(
    waited_s: float,
    allowed_s: float,
    before_s: float | None,
    now: Usage | None,
    last: Usage | None = None,
) -> bool:
    """Whether an engine that has not answered after `waited_s` of wall time, allowed
    `allowed_s`, is hung; `before_s`: its CPU time when the wait began, `now` its usage,
    `last` its usage at the previous look past its time (None: this is the first)."""
    if waited_s < allowed_s:
        return False
    if before_s is None or now is None:
        return True  # no account of its CPU: its wall time decides
    if now.cpu_s - before_s >= allowed_s:
        return True  # it had all its time on the CPU and more, and found nothing
    if now.runnable or last is None or last.runnable:
        return False  # starved, or asleep only a moment so far
    # Asleep at two looks past its time, and not a tick on the CPU between them.
    return now.cpu_s <= last.cpu_s
