"""The four diagonal setups, verified on the fake matrix read by the real scanner: every
single missing or reversed diode is named, in every orientation of the matrix."""

from __future__ import annotations

import pytest
from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout, MatrixWiring, all_layouts
from reedboard.rules.squares import BB_ALL, BB_RANKS, bitboard_of, parse_square, squares_of
from reedboard.sensing.diode_check import (
    diode_patterns,
    explain_ghosts,
    pattern_line,
    predicted_reading,
)
from reedboard.sensing.selftest import self_test

START = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]


def board(layout: MatrixLayout, diodes: bool = True) -> tuple[FakeGPIO, MatrixScanner]:
    gpio = FakeGPIO(FAKE_ROWS, FAKE_COLUMNS, diodes=diodes)
    return gpio, MatrixScanner(gpio, FAKE_ROWS, FAKE_COLUMNS, layout, sleep=lambda _s: None)


def read(gpio: FakeGPIO, scanner: MatrixScanner, placed: int) -> int:
    gpio.set_closed(scanner.layout.cell_of(sq) for sq in squares_of(placed))
    return scanner.scan()


def test_four_setups_of_16_cover_the_board_with_two_pieces_on_every_line() -> None:
    patterns = diode_patterns()
    assert [p.bit_count() for p in patterns] == [16, 16, 16, 16]
    union = 0
    for pattern in patterns:
        assert union & pattern == 0
        union |= pattern
        for layout in all_layouts():
            for line in range(8):
                assert len(set(layout.squares_on_row(line)) & set(squares_of(pattern))) == 2
                assert len(set(layout.squares_on_column(line)) & set(squares_of(pattern))) == 2
    assert union == BB_ALL
    assert pattern_line(patterns[0]).startswith("a1,b1,b2,c2,")


@pytest.mark.parametrize("layout", all_layouts(), ids=str)
def test_every_single_missing_diode_is_named_by_exactly_one_setup(layout: MatrixLayout) -> None:
    wiring = MatrixWiring(FAKE_ROWS, FAKE_COLUMNS, layout)
    for diode in range(64):
        gpio, scanner = board(layout)
        gpio.remove_diode(*layout.cell_of(diode))
        failed = []
        for pattern in diode_patterns():
            report = self_test(read(gpio, scanner, pattern), pattern, wiring)
            if not report.ok:
                failed.append(report)
        assert len(failed) == 1, diode
        (fault,) = failed[0].faults
        assert fault.kind == "diode"
        assert fault.squares[0] == diode
        ghost = fault.squares[1]
        assert f"rectangle {_name(diode)} " in fault.message and _name(ghost) in fault.message


@pytest.mark.parametrize("layout", all_layouts()[:2], ids=str)
def test_every_single_reversed_diode_is_named(layout: MatrixLayout) -> None:
    wiring = MatrixWiring(FAKE_ROWS, FAKE_COLUMNS, layout)
    for diode in range(64):
        gpio, scanner = board(layout)
        gpio.reverse_diode(*layout.cell_of(diode))
        messages = []
        for pattern in diode_patterns():
            report = self_test(read(gpio, scanner, pattern), pattern, wiring)
            messages += [f.message for f in report.faults]
        assert len(messages) == 1
        assert messages[0].startswith(f"the diode at {_name(diode)} (")
        assert "is reversed" in messages[0]


def test_start_position_reveals_no_missing_diode_and_setups_do() -> None:
    layout = MatrixLayout()
    wiring = MatrixWiring(FAKE_ROWS, FAKE_COLUMNS, layout)
    for diode in range(64):
        gpio, scanner = board(layout)
        gpio.remove_diode(*layout.cell_of(diode))
        assert self_test(read(gpio, scanner, START), START, wiring).ok


def test_a_board_without_diodes_passes_the_start_check_but_no_setup() -> None:
    layout = MatrixLayout()
    wiring = MatrixWiring(FAKE_ROWS, FAKE_COLUMNS, layout)
    gpio, scanner = board(layout, diodes=False)
    assert self_test(read(gpio, scanner, START), START, wiring).ok
    for pattern in diode_patterns():
        report = self_test(read(gpio, scanner, pattern), pattern, wiring)
        # Two pieces per line join every line into one loop: all 64 squares read.
        assert [f.kind for f in report.faults] == ["no_diodes"]
        assert "without diodes" in str(report)


@pytest.mark.parametrize("broken", ["row", "column"])
def test_a_broken_line_with_no_piece_in_the_start_position_is_found(broken: str) -> None:
    layout = MatrixLayout()
    wiring = MatrixWiring(FAKE_ROWS, FAKE_COLUMNS, layout)
    gpio, scanner = board(layout)
    if broken == "row":
        gpio.break_row(3)  # rank 4: empty in the start position
    else:
        gpio.break_column(3)
    assert self_test(read(gpio, scanner, 0), 0, wiring).ok  # the empty board sees nothing
    if broken == "row":
        assert self_test(read(gpio, scanner, START), START, wiring).ok
    kinds = set()
    for pattern in diode_patterns():
        report = self_test(read(gpio, scanner, pattern), pattern, wiring)
        kinds |= {f.kind for f in report.faults}
    assert kinds == {f"{broken}_dead"}


def test_the_model_matches_the_fake_matrix() -> None:
    layout = MatrixLayout("R8C1", "files")
    placed = bitboard_of([parse_square(n) for n in ("c3", "c6", "f3", "h8", "a1")])
    gpio, scanner = board(layout)
    gpio.remove_diode(*layout.cell_of(parse_square("c3")))
    assert read(gpio, scanner, placed) == predicted_reading(
        placed, layout, missing=1 << parse_square("c3")
    )
    assert explain_ghosts(placed, placed, layout) is None


def _name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)
