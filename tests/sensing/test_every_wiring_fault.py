"""Every single wiring fault the fake matrix can make, through the whole build check: the
check fails, names the faulty part or lines, and never blames another part for it.

Each setup is placed on the fake matrix, read three times by the real scanner and judged
as `reedboard scan --check` judges it, carrying what the empty board read forward.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from reedboard.config import MatrixConfig
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import square_name, squares_of
from reedboard.sensing.build_check import check_steps, judge
from reedboard.wiring import matrix_wiring

MATRIX = MatrixConfig()
WIRING = matrix_wiring(MATRIX)
# What the orientation step says when its count is off: it blames nothing (the setups
# that follow name the part).
_COUNT_OFF = "with pieces on a1 and b1 alone the board reads"
# Swaps at a1's corner that read, with pieces on a1 and b1, as a matrix turned round: the
# orientation step offers both explanations, the swap among them.
_LIKE_A_TURNED_MATRIX = ("swapped rows 1,8",)
_ALTERNATIVE = "or, if the matrix lies as configured: "


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[FakeGPIO], None]
    blame: str  # every fault line must match this
    diodes: bool = True
    laid: MatrixLayout = WIRING.layout
    stops: bool = False


def _do(method: str, *args: object) -> Callable[[FakeGPIO], None]:
    """A fault made on the fake matrix: `method` called with `args`."""

    def make(gpio: FakeGPIO) -> None:
        getattr(gpio, method)(*args)

    return make


def _cell(name: str) -> tuple[int, int]:
    return WIRING.layout.cell_of(_square(name))


def _square(name: str) -> int:
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def _cases() -> list[Case]:
    cases = []
    for sq in range(64):
        n = square_name(sq)
        cell = WIRING.layout.cell_of(sq)
        cases += [
            Case(f"no diode {n}", _do("remove_diode", *cell),
                 rf"^the diode at {n} \(.*\) is missing or shorted"),
            Case(f"reversed diode {n}", _do("reverse_diode", *cell),
                 rf"^the diode at {n} \(.*\) is reversed"),
            Case(f"stuck {n}", _do("stick_switch", *cell, True),
                 rf"^{n} \(.*\) reads occupied but should be empty"),
            Case(f"stuck open {n}", _do("stick_switch", *cell, False),
                 rf"^{n} \(.*\) reads empty but should be occupied"),
        ]  # fmt: skip
    for line in range(8):
        row = f"ROW{line + 1} \\(GPIO{MATRIX.rows[line]}\\)"
        column = f"COL{line + 1} \\(GPIO{MATRIX.columns[line]}\\)"
        cases += [
            Case(f"broken row {line + 1}", _do("break_row", line),
                 rf"^row line {row} reads nothing"),
            Case(f"broken column {line + 1}", _do("break_column", line),
                 rf"^column line {column} reads nothing"),
        ]  # fmt: skip
    for a in range(8):
        for b in range(a + 1, 8):
            for kind, pins in (("row", MATRIX.rows), ("column", MATRIX.columns)):
                prefix = "ROW" if kind == "row" else "COL"
                swap = _do(f"swap_{kind}s", a, b)
                blame = (
                    rf"^{kind} lines {prefix}{a + 1} \(GPIO{pins[a]}\) and {prefix}{b + 1} "
                    rf"\(GPIO{pins[b]}\) are swapped"
                )
                cases.append(Case(f"swapped {kind}s {a + 1},{b + 1}", swap, blame, stops=True))
    cases += [
        Case("no diodes", lambda g: None, r"exactly as a matrix without diodes reads", False),
        Case(
            "transposed", lambda g: None, r"^the matrix is transposed|^set in \[matrix\]: a1",
            laid=MatrixLayout("R1C1", "files"), stops=True,
        ),
    ]  # fmt: skip
    return cases


def _run_check(case: Case) -> tuple[list[str], bool]:
    """The fault lines of every failed setup, and whether the check stopped early."""
    gpio = FakeGPIO(MATRIX.rows, MATRIX.columns, diodes=case.diodes)
    case.make(gpio)
    scanner = MatrixScanner(gpio, MATRIX.rows, MATRIX.columns, WIRING.layout, sleep=lambda _s: None)
    lines: list[str] = []
    already_closed = 0
    with scanner:
        for step in check_steps():
            gpio.set_closed(case.laid.cell_of(sq) for sq in squares_of(step.squares))
            scans = [scanner.scan() for _ in range(3)]
            verdict = judge(step, scans, WIRING, already_closed=already_closed)
            if not step.squares:
                already_closed = scans[0] & scans[-1]
            if not verdict.ok:
                lines += [line.strip() for line in verdict.lines]
            if verdict.stop:
                return lines, True
    return lines, False


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_each_fault_is_named_and_no_other_part_blamed(case: Case) -> None:
    lines, stopped = _run_check(case)
    faults = [x.removeprefix(_ALTERNATIVE) for x in lines if not x.startswith("self-test found")]
    assert faults, f"{case.name}: the check passed"
    assert any(re.search(case.blame, x) for x in faults), (case.name, faults)
    for line in faults:
        if line.startswith(_COUNT_OFF) or case.name in _LIKE_A_TURNED_MATRIX:
            continue
        assert re.search(case.blame, line), (case.name, line)
    assert stopped == case.stops


def test_a_stuck_switch_named_on_the_empty_board_is_not_blamed_on_a_diode_later() -> None:
    lines, _ = _run_check(Case("stuck d5", lambda g: g.stick_switch(*_cell("d5"), closed=True), ""))
    assert len([x for x in lines if x.startswith("d5 (")]) == 1  # once, on the empty board
    assert not any("diode" in x for x in lines)
