"""A CPU-limited cgroup for the benchmarks: programs held to a fraction of one core.

A Pi Zero 2 W runs the board's Python about 15 times slower than the PC most figures are
taken on, so 1/15 of a core (`PI_ZERO_2_W`) gives a board's speed on average. The kernel
holds the group to its share by pausing it for the rest of each period once its share is
spent: the CPU does not run slower, it stops. So a figure taken in the group is a wall
time over many periods (a start-up, a batch of scans); one short step times either at
full speed or with a pause in it.

Needs root (the group is made under /sys/fs/cgroup). Works with cgroup v1 (a `cpu`
hierarchy: `cpu.cfs_quota_us`, `cpu.cfs_period_us`) and v2 (`cpu.max`); the group is
removed afterwards, whatever happens.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

PI_ZERO_2_W = 1 / 15  # the share of one core that runs as fast as a Pi Zero 2 W, on average
PERIOD_US = 100_000  # the kernel's default period
MIN_QUOTA_US = 1000  # the kernel refuses a smaller quota
V1_ROOT = Path("/sys/fs/cgroup/cpu")
V2_ROOT = Path("/sys/fs/cgroup")


class CpuLimitError(Exception):
    """The limited group cannot be made (not root, no cpu controller)."""


@dataclass(frozen=True)
class CpuLimit:
    """A group that holds its processes to `fraction` of one core."""

    group: Path
    version: int
    fraction: float
    period_us: int

    def join(self) -> None:
        """Move the calling process into the group: `Popen(preexec_fn=limit.join)` puts the
        child there before it runs the program, so none of its start escapes the limit."""
        (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def describe(self) -> str:
        quota = round(self.fraction * self.period_us)
        return f"1/{1 / self.fraction:.0f} of a core (cgroup v{self.version}, {quota}/{self.period_us} us)"


def _version() -> int:
    if (V1_ROOT / "cpu.cfs_quota_us").exists():
        return 1
    if "cpu" in _read(V2_ROOT / "cgroup.controllers").split():
        return 2
    raise CpuLimitError("no cpu controller under /sys/fs/cgroup (neither cgroup v1 nor v2)")


def leave_group(pid: int) -> None:
    """Move process `pid` out of its limited group into the root one (unlimited): a
    program that a Pi would run on cores of its own."""
    root = V1_ROOT if _version() == 1 else V2_ROOT
    _write(root / "cgroup.procs", str(pid))


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except OSError as error:
        raise CpuLimitError(f"cannot write {text!r} to {path}: {error.strerror}") from None


@contextmanager
def cpu_limited(fraction: float, period_us: int = PERIOD_US) -> Iterator[CpuLimit]:
    """A new cgroup whose processes together get `fraction` of one core per `period_us`;
    its processes are killed (they can only be ours) and the group removed on the way out."""
    if not 0 < fraction <= 1:
        raise CpuLimitError(f"a CPU fraction is over 0 and at most 1, not {fraction}")
    quota = round(fraction * period_us)
    if quota < MIN_QUOTA_US:
        raise CpuLimitError(f"{quota} us per {period_us} us is under the kernel's 1000 us")
    version = _version()
    root = V1_ROOT if version == 1 else V2_ROOT
    group = root / f"reedboard-bench-{os.getpid()}"
    try:
        group.mkdir()
    except OSError as error:
        raise CpuLimitError(f"cannot make {group}: {error.strerror} (run as root)") from None
    try:
        if version == 1:
            _write(group / "cpu.cfs_period_us", str(period_us))
            _write(group / "cpu.cfs_quota_us", str(quota))
        else:
            if "cpu" not in _read(root / "cgroup.subtree_control").split():
                _write(root / "cgroup.subtree_control", "+cpu")
            _write(group / "cpu.max", f"{quota} {period_us}")
        yield CpuLimit(group, version, fraction, period_us)
    finally:
        _remove(group)


def _remove(group: Path) -> None:
    """Kill what is left in the group (a benchmark's own children) and remove it."""
    for _ in range(50):
        pids = [int(p) for p in _read(group / "cgroup.procs").split()]
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.1)  # a killed process leaves the group once it is reaped
    print(f"could not remove {group}: remove it by hand (rmdir)")


def fraction_option(text: str) -> float:
    """An argparse type for `--cpu-fraction`: a share of one core, over 0 and at most 1."""
    value = float(text)
    if not 0 < value <= 1:
        raise ValueError(text)
    return value


def shortest_period_us(fraction: float) -> int:
    """The shortest period the kernel allows at this share: the pauses come as often as
    possible, so a batch of steps spans many of them."""
    return max(PERIOD_US // 100, round(MIN_QUOTA_US / fraction))
