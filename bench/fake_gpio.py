"""Benchmark: what the fake GPIO's scans cost, with its solutions kept and without.

    python bench/fake_gpio.py [--samples N] [--idle-s S] [--runs N] [--idle-only]

A fake board (`reedboard run --fake`, the simulator, most tests) scans its fake matrix 200
times a second, and the fake works out the matrix's electrics for each row line it drives.
It keeps each solution until the switches or the wiring change (`FakeGPIO(cache=True)`,
the default); `cache=False` works everything out again on every read, as it did before.

Prints the median CPU per scan of the start position through the real `MatrixScanner`,
both ways: the matrix unchanged between scans (a board at rest, the common case) and one
switch changed before every scan (the cache's worst case: every kept answer dropped).
Then the CPU an idle `reedboard run --fake --web off` uses per second of wall time, once
it has told the host it started (the median of `--runs`); `--idle-only` measures only that,
so that run with another checkout's package first on PYTHONPATH it gives that one's figure.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import BB_RANKS, squares_of
from startup import READY, command

START = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]
SCANS_PER_SAMPLE = 50  # the process clock's steps are fine, but one scan is a few µs


def scanner(cache: bool) -> tuple[FakeGPIO, MatrixScanner]:
    layout = MatrixLayout()
    gpio = FakeGPIO(FAKE_ROWS, FAKE_COLUMNS, cache=cache)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(START))
    return gpio, MatrixScanner(gpio, FAKE_ROWS, FAKE_COLUMNS, layout, sleep=lambda _s: None)


def cpu_us_per_scan(step: Callable[[], object], samples: int) -> float:
    """The median process CPU of one `step`, over `samples` batches."""
    times = []
    for _ in range(samples):
        begin = time.process_time_ns()
        for _ in range(SCANS_PER_SAMPLE):
            step()
        times.append((time.process_time_ns() - begin) / SCANS_PER_SAMPLE)
    return statistics.median(times) / 1000


def still(cache: bool, samples: int) -> float:
    _, matrix = scanner(cache)
    assert matrix.scan() == START
    return cpu_us_per_scan(matrix.scan, samples)


def changing(cache: bool, samples: int) -> float:
    gpio, matrix = scanner(cache)
    flips = 0

    def step() -> None:
        nonlocal flips
        flips += 1
        gpio.set_switch(3, 4, flips % 2 == 1)  # a piece put down and lifted, scan by scan
        matrix.scan()

    return cpu_us_per_scan(step, samples)


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_share(seconds: float) -> float:
    """The CPU an idle fake board uses per second of wall time, once started."""
    child = subprocess.Popen(
        [*command(), "run", "--fake", "--web", "off"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(os.environ, REEDBOARD_LOG="debug"),
    )
    try:
        assert child.stderr is not None
        for line in child.stderr:
            if READY in line:
                break
        else:
            raise SystemExit(f"the fake board ended (status {child.wait()}) before starting")
        begin_cpu, begin = cpu_s(child.pid), time.monotonic()
        time.sleep(seconds)
        used, wall = cpu_s(child.pid) - begin_cpu, time.monotonic() - begin
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    return used / wall


def main() -> None:
    parser = argparse.ArgumentParser(description="the fake GPIO's CPU per scan")
    parser.add_argument("--samples", type=int, default=400, help="batches of 50 scans")
    parser.add_argument("--idle-s", type=float, default=5.0, help="seconds of idle board")
    parser.add_argument("--runs", type=int, default=3, help="idle boards measured")
    parser.add_argument("--idle-only", action="store_true", help="only the idle board")
    args = parser.parse_args()

    if not args.idle_only:
        print(f"CPU per scan, median of {args.samples} x {SCANS_PER_SAMPLE} scans")
        for label, measure in (("matrix unchanged", still), ("a switch changed", changing)):
            solved, kept = measure(False, args.samples), measure(True, args.samples)
            print(
                f"  {label + ':':20} solved every read {solved:7.1f} us, "
                f"kept {kept:7.1f} us ({kept / solved:.2f} times)"
            )
    shares = [idle_share(args.idle_s) for _ in range(args.runs)]
    print(
        f"idle `reedboard run --fake --web off`: {statistics.median(shares) * 100:.1f}% of a "
        f"core (median of {args.runs} x {args.idle_s:g} s: "
        + ", ".join(f"{share * 100:.1f}%" for share in shares)
        + ")"
    )


if __name__ == "__main__":
    main()
