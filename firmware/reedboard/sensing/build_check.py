"""The build check's setups and their verdicts: what `reedboard scan --check` asks a maker
to place, in order, and what each reading means. Pure; the command drives it.

1. The empty board: a switch stuck closed, a short, a stray magnet.
2. Pieces on a1 and b1: which way the matrix lies (`sensing.orientation`). An orientation
   other than the configured one stops the check, since every later setup would read
   through it.
3. The four diagonal setups (`sensing.diode_check`): every switch closed once, two pieces
   on every row and column line, so every missing or reversed diode, dead switch and
   broken line shows, ranks 3 to 6 included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reedboard.hal.matrix_layout import MatrixWiring
from reedboard.rules.squares import Bitboard
from reedboard.sensing.diode_check import PATTERN_COUNT, diode_patterns
from reedboard.sensing.orientation import PIECES, find_orientation
from reedboard.sensing.selftest import self_test


@dataclass(frozen=True)
class CheckStep:
    """One setup: its name, the squares that get a piece (lit on the board), what to do."""

    name: str
    squares: Bitboard
    instruction: str
    orientation: bool = False


@dataclass(frozen=True)
class StepVerdict:
    ok: bool
    lines: tuple[str, ...]
    faulty: Bitboard  # squares to light as faulty
    stop: bool = False  # later steps would mislead


def check_steps() -> tuple[CheckStep, ...]:
    """The setups in the order the maker places them."""
    steps = [
        CheckStep("empty board", 0, "take every piece off the board"),
        CheckStep(
            "orientation",
            PIECES,
            "put one piece on a1 and one on b1, nothing else",
            orientation=True,
        ),
    ]
    for number, pattern in enumerate(diode_patterns(), start=1):
        steps.append(
            CheckStep(
                f"diagonals {number} of {PATTERN_COUNT}",
                pattern,
                "put a piece on each of the 16 lit squares, nothing else",
            )
        )
    return tuple(steps)


def judge(step: CheckStep, scans: Sequence[Bitboard], wiring: MatrixWiring) -> StepVerdict:
    """What the scans taken with `step`'s pieces in place say."""
    if step.orientation:
        steady = scans[0]
        for scan in scans[1:]:
            steady &= scan
        finding = find_orientation(steady, wiring.layout)
        # Only an orientation other than the configured one stops the check: a count that
        # is off is a faulty switch or wire, which the setups that follow name.
        wrong_way = not finding.ok and finding.found is not None
        return StepVerdict(finding.ok, finding.lines, 0 if finding.ok else steady, wrong_way)
    report = self_test(scans, step.squares, wiring)
    faulty = 0
    for fault in report.faults:
        for sq in fault.squares:
            faulty |= 1 << sq
    return StepVerdict(report.ok, tuple(report.lines()), faulty)


__all__ = ["CheckStep", "StepVerdict", "check_steps", "judge"]
