"""The start-up self-test on scans read from the fake matrix by the real scanner."""

from __future__ import annotations

import pytest
from reedboard.config import MatrixConfig
from reedboard.errors import HardwareError
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import BB_RANKS, bitboard_of, parse_square, squares_of
from reedboard.sensing.selftest import SelfTestReport, self_test
from reedboard.wiring import matrix_wiring

START = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]
CONFIG = MatrixConfig()
LAYOUT = MatrixLayout()
WIRING = matrix_wiring(CONFIG)


def bb(names: str) -> int:
    return bitboard_of([parse_square(n) for n in names.split()])


def fake_with(occupancy: int, diodes: bool = True) -> tuple[FakeGPIO, MatrixScanner]:
    gpio = FakeGPIO(CONFIG.rows, CONFIG.columns, diodes=diodes)
    gpio.set_closed(LAYOUT.cell_of(sq) for sq in squares_of(occupancy))
    return gpio, MatrixScanner(gpio, CONFIG.rows, CONFIG.columns, sleep=lambda _s: None)


def kinds(report: SelfTestReport) -> list[str]:
    return [fault.kind for fault in report.faults]


def test_a_good_board_passes() -> None:
    _, scanner = fake_with(START)
    report = self_test(scanner.scan(), START, WIRING)
    assert report.ok
    assert str(report) == "self-test passed: all 64 squares read as expected"
    report.raise_if_faulty()


def test_stuck_closed_switch_is_named_with_its_pins() -> None:
    gpio, scanner = fake_with(START)
    gpio.stick_switch(*LAYOUT.cell_of(parse_square("e4")))
    report = self_test(scanner.scan(), START, WIRING)
    assert kinds(report) == ["stuck_occupied"]
    assert report.faults[0].squares == (parse_square("e4"),)
    assert report.faults[0].pins == (12, 22)  # ROW4 = GPIO22, COL5 = GPIO12
    assert "e4 (ROW4 (GPIO22) x COL5 (GPIO12)) reads occupied" in str(report)


def test_stuck_open_switch_is_reported_empty() -> None:
    gpio, scanner = fake_with(START)
    gpio.stick_switch(*LAYOUT.cell_of(parse_square("d7")), closed=False)
    report = self_test(scanner.scan(), START, WIRING)
    assert kinds(report) == ["stuck_empty"]
    assert "d7" in str(report) and "reads empty" in str(report)
    with pytest.raises(HardwareError, match="d7"):
        report.raise_if_faulty()


def test_broken_column_is_one_line_fault_not_four_squares() -> None:
    gpio, scanner = fake_with(START)
    gpio.break_column(2)  # file c
    report = self_test(scanner.scan(), START, WIRING)
    assert kinds(report) == ["column_dead"]
    assert "COL3 (GPIO24) reads nothing although 4 pieces" in str(report)


def test_broken_row_is_one_line_fault() -> None:
    gpio, scanner = fake_with(START)
    gpio.break_row(6)  # rank 7
    report = self_test(scanner.scan(), START, WIRING)
    assert kinds(report) == ["row_dead"]
    assert report.faults[0].pins == (13,)


def test_column_reading_high_on_every_row_is_a_short() -> None:
    _, scanner = fake_with(0)
    scan = scanner.scan() | bitboard_of(LAYOUT.squares_on_column(5))
    report = self_test(scan, 0, WIRING)
    assert kinds(report) == ["column_short"]
    assert "COL6 (GPIO16)" in str(report)


def test_row_reaching_every_column_is_a_short() -> None:
    report = self_test(BB_RANKS[3], 0, WIRING)
    assert kinds(report) == ["row_short"]
    assert "ROW4 (GPIO22)" in str(report)


def test_ghost_from_a_missing_diode_names_the_diode_and_its_rectangle() -> None:
    pattern = bb("c3 c6 f3")
    _, scanner = fake_with(pattern, diodes=False)
    report = self_test(scanner.scan(), pattern, WIRING)
    assert kinds(report) == ["diode"]
    # c3 is the corner opposite the ghost on f6: current runs back up through its switch.
    assert report.faults[0].squares == (parse_square("c3"), parse_square("f6"))
    assert "the diode at c3 (ROW3 (GPIO27) x COL3 (GPIO24)) is missing" in str(report)
    assert "rectangle c3 c6 f6 f3" in str(report)


def test_ghosts_no_single_diode_explains_still_name_their_rectangle() -> None:
    # Two ghosts of two different diodes and a stuck switch: no one diode reads like that,
    # nor a board without diodes.
    pattern = bb("c3 c6 f3 a1 a8 h1")
    report = self_test(pattern | bb("d4 f6 h8"), pattern, WIRING)
    assert kinds(report) == ["stuck_occupied", "ghost", "ghost"]
    assert "opposite the ghost, c3" in str(report)
    assert "opposite the ghost, a1" in str(report)


def test_flickering_square_across_scans_is_unstable() -> None:
    report = self_test([START, START | bb("e5"), START], START, WIRING)
    assert kinds(report) == ["unstable"]
    assert "e5" in str(report)


def test_report_orientation_follows_the_config() -> None:
    matrix = MatrixConfig(a1="R8C8", rows_are="files")
    report = self_test(bb("a1"), 0, matrix_wiring(matrix))
    assert "a1 (ROW8 (GPIO19) x COL8 (GPIO21))" in str(report)


def test_needs_a_scan() -> None:
    with pytest.raises(ValueError):
        self_test([], 0, WIRING)
