"""The build check's setups and their verdicts: what `reedboard scan --check` asks a maker
to place, in order, and what each reading means. Pure; the command drives it.

1. The empty board: a switch stuck closed, a short, a stray magnet.
2. Pieces on a1 and b1: which way the matrix lies (`sensing.orientation`). An orientation
   other than the configured one stops the check, since every later setup would read
   through it.
3. The four diagonal setups (`sensing.diode_check`): every switch closed once, two pieces
   on every row and column line, so every missing or reversed diode, dead switch and
   broken line shows, ranks 3 to 6 included.

Two row (or two column) wires swapped at the Pi are named, with their GPIO pins, in the
first setup they show in, and stop the check like a wrong orientation. What the empty board
read (a switch stuck closed, a short) is named there once: the later setups count those
switches as closed, so they are not blamed on the diodes and switches around them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reedboard.hal.matrix_layout import MatrixWiring
from reedboard.rules.squares import Bitboard, square_names_of
from reedboard.sensing.diode_check import PATTERN_COUNT, diode_patterns
from reedboard.sensing.miswiring import find_miswiring
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


def judge(
    step: CheckStep,
    scans: Sequence[Bitboard],
    wiring: MatrixWiring,
    *,
    already_closed: Bitboard = 0,
) -> StepVerdict:
    """What the scans taken with `step`'s pieces in place say; `already_closed` is what
    the empty board read, faults named then."""
    steady = scans[0]
    for scan in scans[1:]:
        steady &= scan
    if step.orientation:
        return _judge_orientation(steady & ~(already_closed & ~PIECES), wiring)
    report = self_test(scans, step.squares, wiring, already_closed=already_closed)
    faulty = 0
    for fault in report.faults:
        for sq in fault.squares:
            faulty |= 1 << sq
    miswired = any(fault.kind == "miswired" for fault in report.faults)
    lines = report.lines()
    if report.ok and already_closed & ~step.squares:
        names = ", ".join(square_names_of(already_closed & ~step.squares))
        lines = [f"{lines[0]} (counting {names} as closed: named on the empty board)"]
    return StepVerdict(report.ok, tuple(lines), faulty, miswired)


def _judge_orientation(steady: Bitboard, wiring: MatrixWiring) -> StepVerdict:
    finding = find_orientation(steady, wiring.layout)
    if finding.ok:
        return StepVerdict(True, finding.lines, 0)
    # Two swapped wires at a1's corner can read like a turned matrix: two pieces cannot
    # tell them apart, so both are said.
    swaps = [m.message for m in find_miswiring(steady, PIECES, wiring) if m.kind != "orientation"]
    if finding.found is not None:
        alternatives = tuple(f"or, if the matrix lies as configured: {m}" for m in swaps)
        return StepVerdict(False, finding.lines + alternatives, steady, True)
    if swaps:
        return StepVerdict(False, tuple(swaps), steady ^ PIECES, True)
    # A count that is off is a faulty switch or wire, which the setups that follow name;
    # only a wrong orientation or swapped wires stop the check.
    return StepVerdict(False, finding.lines, steady)


__all__ = ["CheckStep", "StepVerdict", "check_steps", "judge"]
