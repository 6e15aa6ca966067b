"""`reedboard scan --settle-test`: how long the column lines need to settle, measured.

After a row is driven, a column that the previous row pulled HIGH must discharge through
its pull-down before it reads LOW; with floating rows and long wires that takes some
microseconds, and `[matrix] settle_us` must cover it. The test reads the board as it stands
(pieces on it, nothing moving) with a long wait for the truth, then with shorter and
shorter waits, many scans each, and reports the shortest wait that still read the truth
every time, and a setting with a margin of 2 over it. The judging is pure; the scans come
from the real scanner (or the fake matrix with `--discharge-us`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import Bitboard, square_names_of

REFERENCE_US = 1000.0  # long enough for any line: the truth the others are held to
CANDIDATES_US = (200.0, 100.0, 50.0, 40.0, 30.0, 25.0, 20.0, 15.0, 12.0, 10.0, 8.0, 6.0,
                 5.0, 4.0, 3.0, 2.0, 1.0, 0.0)  # fmt: skip
SCANS_EACH = 20
MARGIN = 2.0
SHORTEST_SETTING_US = 2.0  # what to set when even no wait reads right (the reads take time)


@dataclass(frozen=True)
class SettleTrial:
    settle_us: float  # the wait asked for
    row_us: float  # the median time one row took: the wait and 8 reads
    wrong: Bitboard  # squares read otherwise than with the long wait, in any scan


@dataclass(frozen=True)
class SettleResult:
    trials: tuple[SettleTrial, ...]
    shortest_us: float | None  # the shortest wait that read right, longer ones too
    recommended_us: float | None


def judge_settle(trials: Sequence[SettleTrial]) -> SettleResult:
    """The shortest wait that read right, with every longer one right too (`trials` from
    the longest wait down), and the setting with the margin."""
    shortest = None
    for trial in sorted(trials, key=lambda t: -t.settle_us):
        if trial.wrong:
            break
        shortest = trial.settle_us
    if shortest is None:
        return SettleResult(tuple(trials), None, None)
    recommended = max(SHORTEST_SETTING_US, math.ceil(shortest * MARGIN))
    return SettleResult(tuple(trials), shortest, float(recommended))


def shows_settling(reading: Bitboard, layout: MatrixLayout) -> bool:
    """Whether a reading can show a slow column: some column HIGH on one row and LOW on
    the row scanned next (the last row is followed by the first of the next scan)."""
    for row in range(8):
        here = {c for c in range(8) if reading >> layout.square_at(row, c) & 1}
        after = {c for c in range(8) if reading >> layout.square_at((row + 1) % 8, c) & 1}
        if here - after:
            return True
    return False


def run_settle_test(
    scanner: MatrixScanner, out: TextIO, *, clock: Callable[[], float], configured_us: float
) -> int:
    """Measure, print the table and the verdict; the exit status (0, or 1 when the
    configured wait is too short or the test could not run)."""
    configured_s = scanner.settle_s
    try:
        reference, _ = _scans(scanner, REFERENCE_US, clock)
        if len(set(reference)) != 1:
            out.write(
                "settle test: the board changed while it was read: keep still and try again\n"
            )
            return 1
        truth = reference[0]
        if not shows_settling(truth, scanner.layout):
            out.write(
                "settle test: nothing to measure: put pieces on the board (the start position "
                "does), so that a column is HIGH on one row and LOW on the next\n"
            )
            return 1
        trials = []
        for settle_us in CANDIDATES_US:
            scans, rows_us = _scans(scanner, settle_us, clock)
            wrong = 0
            for scan in scans:
                wrong |= scan ^ truth
            trials.append(SettleTrial(settle_us, statistics.median(rows_us), wrong))
    finally:
        scanner.settle_s = configured_s
    result = judge_settle(trials)
    _report(result, out, configured_us)
    return 0 if result.recommended_us is not None and configured_us >= result.recommended_us else 1


def _scans(
    scanner: MatrixScanner, settle_us: float, clock: Callable[[], float]
) -> tuple[list[Bitboard], list[float]]:
    scanner.settle_s = settle_us / 1e6
    scans, rows_us = [], []
    for _ in range(SCANS_EACH):
        start = clock()
        scans.append(scanner.scan())
        rows_us.append((clock() - start) * 1e6 / 8)
    return scans, rows_us


def _report(result: SettleResult, out: TextIO, configured_us: float) -> None:
    out.write(f"settle_us  row took (median)  {SCANS_EACH} scans\n")
    for t in result.trials:
        verdict = "right" if not t.wrong else "wrong: " + ", ".join(square_names_of(t.wrong))
        out.write(f"{t.settle_us:9g}  {t.row_us:10.1f} us       {verdict}\n")
    if result.shortest_us is None or result.recommended_us is None:
        out.write(
            f"even {CANDIDATES_US[0]:g} us read wrongly: look for a line without its pull-down\n"
        )
        return
    out.write(
        f"shortest wait that reads right: {result.shortest_us:g} us; with a margin of "
        f"{MARGIN:g}: settle_us = {result.recommended_us:g}\n"
    )
    if configured_us >= result.recommended_us:
        out.write(f"[matrix] settle_us = {configured_us:g} is enough\n")
    else:
        out.write(
            f"[matrix] settle_us = {configured_us:g} is too short: set it to at least "
            f"{result.recommended_us:g} in the board's TOML file\n"
        )


__all__ = [
    "CANDIDATES_US",
    "MARGIN",
    "SettleResult",
    "SettleTrial",
    "judge_settle",
    "run_settle_test",
    "shows_settling",
]
