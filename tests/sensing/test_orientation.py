"""Orientation from pieces on a1 and b1, read through the real scanner on the fake matrix."""

from __future__ import annotations

import pytest
from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout, all_layouts
from reedboard.rules.squares import bitboard_of, parse_square
from reedboard.sensing.orientation import PIECES, find_orientation

CONFIGURED = MatrixLayout()


def reading_of(wired: MatrixLayout, squares: str = "a1 b1") -> int:
    """What a board wired as `wired` reads through the configured layout."""
    gpio = FakeGPIO(FAKE_ROWS, FAKE_COLUMNS)
    gpio.set_closed(wired.cell_of(parse_square(n)) for n in squares.split())
    scanner = MatrixScanner(gpio, FAKE_ROWS, FAKE_COLUMNS, CONFIGURED, sleep=lambda _s: None)
    return scanner.scan()


@pytest.mark.parametrize("wired", all_layouts(), ids=str)
def test_every_orientation_is_found(wired: MatrixLayout) -> None:
    finding = find_orientation(reading_of(wired), CONFIGURED)
    assert finding.found == wired
    assert finding.ok == (wired == CONFIGURED)
    if not finding.ok:
        assert f'a1 = "{wired.a1}" and rows_are = "{wired.rows_are}"' in finding.lines[-1]


def test_a_transposed_matrix_is_named_as_such() -> None:
    finding = find_orientation(reading_of(MatrixLayout("R1C1", "files")), CONFIGURED)
    assert finding.lines[0] == (
        "the matrix is transposed: its row lines run along files, not ranks"
    )
    # One piece could not tell: a1 reads where it should in both layouts.
    assert reading_of(MatrixLayout("R1C1", "files"), "a1") == bitboard_of([parse_square("a1")])


def test_wrong_count_and_impossible_cells_are_explained() -> None:
    assert "reads 1 square (a1), not 2" in find_orientation(1, CONFIGURED).lines[0]
    assert "reads 0 squares (nothing)" in find_orientation(0, CONFIGURED).lines[0]
    swapped = bitboard_of([parse_square("a1"), parse_square("c1")])
    assert "no orientation gives" in find_orientation(swapped, CONFIGURED).lines[0]
    assert find_orientation(PIECES, CONFIGURED).ok
