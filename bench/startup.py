"""Start-up benchmark: `reedboard --help`, and `reedboard run --fake` to its first scan
and to the board ready, and with board.example.toml (`--config`, as a board's service
starts it) to its first scan.

    sudo .venv/bin/python bench/startup.py [--runs N] [--cpu-fraction F]

Each is started `--runs` times on this machine, then as many times held to `F` of one
core in a cgroup (default 1/15: a Pi Zero 2 W's speed, see bench/cpu_limit.py), and the
medians printed: wall time, the CPU time the program used, and the ratio of the limited
wall time to the plain one. The run's first scan is the moment the matrix is first read
(`first scan`, logged at `REEDBOARD_LOG=debug`; the line says when the read was taken on
the monotonic clock, which this bench shares, since it is written once the log is set up,
after the read: that moment is the figure); the board is ready
when it tells the host it started (`started: told the host`, after the game is loaded
and has taken what was read meanwhile); the run is then stopped with SIGTERM. Both come
from the same runs (the CPU time is what the program had used by then: the first scan's
line says it; the whole run's, to ready, for ready). On a busy machine a limited process
gets less than its share, so its wall times hold only on a quiet one; the CPU times,
times 15, are the steadier estimate of a Zero 2 W's. The package is
byte-compiled first, as an installed board's is. The interpreter started with nothing
to do is timed too: the floor under both. `--cpu-fraction 0`: this machine only.
Goal: `--help` and the first scan within 1 s at a Zero 2 W's speed.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import reedboard
from cpu_limit import PI_ZERO_2_W, CpuLimitError, cpu_limited

FIRST_SCAN = b"first scan"
# The first scan's line says how much CPU the program had used by then.
CPU_SO_FAR = re.compile(rb"after ([0-9.]+) s of CPU")
# ... and when it was taken, on the monotonic clock (`time.monotonic()`, this process's too).
TAKEN_AT = re.compile(rb"at ([0-9.]+) s of the monotonic clock")
READY = b"started: told the host"
GOAL_S = 1.0
EXAMPLE_FILE = Path(__file__).resolve().parents[1] / "board.example.toml"


def command() -> list[str]:
    """The installed `reedboard` command beside this Python, as a board runs it."""
    script = Path(sys.executable).parent / "reedboard"
    return [str(script)] if script.exists() else [sys.executable, "-m", "reedboard.cli"]


def timed(
    argv: list[str], until: tuple[bytes, ...], join: Callable[[], None] | None
) -> tuple[list[float], list[float]]:
    """Start `argv`; the wall time until it exits (or, with `until`, until a line of its
    stderr holds each of those bytes in turn, when it is stopped after the last), and
    the CPU time it used."""
    env = dict(os.environ, REEDBOARD_LOG="debug")
    begin = time.monotonic()
    child = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=join,  # into the limited group before the program starts
    )
    assert child.stderr is not None
    seen: list[float] = []
    noted: list[float | None] = []  # the CPU time a mark's line says the program had used
    try:
        if until:
            for line in child.stderr:
                if until[len(seen)] in line:
                    taken = TAKEN_AT.search(line)
                    at = float(taken.group(1)) if taken else time.monotonic()
                    seen.append(at - begin)
                    found = CPU_SO_FAR.search(line)
                    noted.append(float(found.group(1)) if found else None)
                    if len(seen) == len(until):
                        child.send_signal(signal.SIGTERM)
                        break
        child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - begin
    finally:
        if child.returncode is None:
            child.kill()
            child.wait()
    if len(seen) < len(until):
        missing = until[len(seen)]
        raise SystemExit(f"{' '.join(argv)} ended (status {child.returncode}) before {missing!r}")
    if not until and child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {child.returncode}")
    total = usage.ru_utime + usage.ru_stime
    return seen or [wall], [total if cpu is None else cpu for cpu in noted] or [total]


def medians(
    argv: list[str], until: tuple[bytes, ...], runs: int, join: Callable[[], None] | None = None
) -> list[tuple[float, float]]:
    """Per mark (or the exit): the median wall time and the median CPU time of `runs`."""
    walls: list[list[float]] = []
    cpus: list[list[float]] = []
    for _ in range(runs):
        wall, cpu = timed(argv, until, join)
        walls.append(wall)
        cpus.append(cpu)
    return [
        (statistics.median(marks), statistics.median(used))
        for marks, used in zip(zip(*walls, strict=True), zip(*cpus, strict=True), strict=True)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description="reedboard start-up times, plain and limited")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--cpu-fraction", type=float, default=PI_ZERO_2_W, help="share of a core, 0: plain only"
    )
    args = parser.parse_args()
    compileall.compile_dir(Path(reedboard.__file__).parent, quiet=1)
    base = command()
    # Each case's marks, named; a case without marks is timed to its exit.
    cases: dict[str, tuple[list[str], tuple[bytes, ...], tuple[str, ...]]] = {
        "floor": ([sys.executable, "-c", "pass"], (), ("python -c pass (the floor)",)),
        "help": ([*base, "--help"], (), ("reedboard --help",)),
        "run": (
            [*base, "run", "--fake"],
            (FIRST_SCAN, READY),
            ("reedboard run --fake, first scan", "reedboard run --fake, ready"),
        ),
        # As the service starts a board: with its file (the example's keys, all given).
        "file": (
            [*base, "run", "--fake", "--config", str(EXAMPLE_FILE)],
            (FIRST_SCAN,),
            ("... --config board.example.toml, first scan",),
        ),
    }
    plain: dict[str, tuple[float, float]] = {}
    for argv, until, names in cases.values():
        plain.update(zip(names, medians(argv, until, args.runs), strict=True))
    limited: dict[str, tuple[float, float]] = {}
    label = "not run"
    if args.cpu_fraction:
        try:
            with cpu_limited(args.cpu_fraction) as limit:
                label = limit.describe()
                for argv, until, names in cases.values():
                    found = medians(argv, until, args.runs, limit.join)
                    limited.update(zip(names, found, strict=True))
        except CpuLimitError as error:
            raise SystemExit(f"bench/startup.py: {error}") from None
    print(f"reedboard start-up: median of {args.runs} runs; limited: {label}")
    # A busy machine starves a limited process below its share: its walls mean little then.
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':34} {'wall':>8} {'CPU':>8}   {'limited wall':>12} {'CPU':>8} {'ratio':>6}")
    for name in plain:
        wall, cpu = plain[name]
        line = f"{name:34} {wall:7.3f}s {cpu:7.3f}s"
        if name in limited:
            slow_wall, slow_cpu = limited[name]
            line += f"   {slow_wall:11.3f}s {slow_cpu:7.3f}s {slow_wall / wall:6.1f}"
            if name.startswith(("reedboard", "...")) and not name.endswith("ready"):
                verdict = "met" if slow_wall <= GOAL_S else "MISSED"
                line += f"  (goal <= {GOAL_S:.0f} s: {verdict})"
        print(line)


if __name__ == "__main__":
    main()
