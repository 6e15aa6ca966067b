"""Benchmark: one full matrix scan plus debouncing, on the fake GPIO.

    python bench/scan.py [--runs N]

Prints the median time per scan, per scan + debounce, and per debounce of an unchanged and
of a changing board, and the GPIO calls one scan makes. The fake GPIO costs more per call
than the real module's register access, but the board also waits the settling time per
row, which is left out here (the sleep is a no-op) so the figures show the code's own cost.
Goal: scan + debounce under 0.3 ms here.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from reedboard.config import MatrixConfig
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import BB_RANKS, squares_of
from reedboard.sensing.debounce import Debouncer

START = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]


def median_us(step: Callable[[int], object], runs: int) -> float:
    times = []
    for i in range(runs):
        begin = time.perf_counter_ns()
        step(i)
        times.append(time.perf_counter_ns() - begin)
    return statistics.median(times) / 1000


def board(diodes: bool) -> tuple[FakeGPIO, MatrixScanner]:
    matrix, layout = MatrixConfig(), MatrixLayout()
    gpio = FakeGPIO(matrix.rows, matrix.columns, diodes=diodes)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(START))
    return gpio, MatrixScanner(gpio, matrix.rows, matrix.columns, layout, sleep=lambda _s: None)


def main() -> None:
    parser = argparse.ArgumentParser(description="scan + debounce benchmark")
    parser.add_argument("--runs", type=int, default=5000)
    runs = parser.parse_args().runs

    gpio, scanner = board(diodes=True)
    before = gpio.calls
    scanner.scan()
    calls = gpio.calls - before

    scan_us = median_us(lambda _i: scanner.scan(), runs)
    debouncer = Debouncer(START)
    scan_debounce_us = median_us(lambda i: debouncer.feed(scanner.scan(), 5 * i), runs)

    _, plain = board(diodes=False)
    no_diodes_us = median_us(lambda _i: plain.scan(), runs)

    still = Debouncer(START)
    debounce_still_us = median_us(lambda i: still.feed(START, 5 * i), runs)
    # A piece lifted and put back every 100 ms with chatter: the debouncer's busy path.
    busy = Debouncer(START)
    e2 = 1 << 12
    pattern = [START, START ^ e2, START, START ^ e2] + [START ^ e2] * 8 + [START] * 8

    def feed_busy(i: int) -> None:
        busy.feed(pattern[i % len(pattern)], 5 * i)

    debounce_busy_us = median_us(feed_busy, runs)

    print(f"runs per figure:                 {runs} (median)")
    print(f"GPIO calls per scan:             {calls}")
    print(f"scan, diodes:                    {scan_us:8.1f} us")
    print(f"scan, no diodes (connectivity):  {no_diodes_us:8.1f} us")
    print(f"debounce, board unchanged:       {debounce_still_us:8.2f} us")
    print(f"debounce, a square chattering:   {debounce_busy_us:8.2f} us")
    verdict = "met" if scan_debounce_us < 300 else "MISSED"
    print(f"scan + debounce:                 {scan_debounce_us:8.1f} us (goal < 300 us: {verdict})")


if __name__ == "__main__":
    main()
