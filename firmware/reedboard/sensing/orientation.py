"""Which way the matrix lies under the board, from two pieces: one on a1, one on b1.

One piece tells the corner of a1's switch but not which way the lines run from it, so a
matrix laid transposed (row lines along files where the configuration says ranks) would
read every later setup wrongly and be reported as shorts and broken wires. Two pieces
next to each other on rank 1 settle it: a1's crossing is the corner, and the line that
joins it to b1's crossing runs along rank 1. The reading is taken through the configured
layout, so this works back to the matrix cells and compares them with every orientation.
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.hal.matrix_layout import MatrixLayout, all_layouts
from reedboard.rules.squares import Bitboard, bitboard_of, parse_square, square_name, squares_of

PIECES: Bitboard = bitboard_of([parse_square("a1"), parse_square("b1")])
_A1 = parse_square("a1")
_B1 = parse_square("b1")


@dataclass(frozen=True)
class OrientationFinding:
    """What two pieces on a1 and b1 say: `found` is the layout the wiring has (None when
    the reading fits no orientation); `lines` says it in words for the maker."""

    ok: bool
    found: MatrixLayout | None
    lines: tuple[str, ...]


def find_orientation(reading: Bitboard, configured: MatrixLayout) -> OrientationFinding:
    """Compare a reading taken with pieces on a1 and b1 alone with the configured layout."""
    squares = list(squares_of(reading))
    if len(squares) != 2:
        read = ", ".join(square_name(sq) for sq in squares) or "nothing"
        return OrientationFinding(
            False,
            None,
            (
                f"with pieces on a1 and b1 alone the board reads {len(squares)} square"
                f"{'' if len(squares) == 1 else 's'} ({read}), not 2: check that only a1 and "
                "b1 hold pieces; otherwise a switch, wire or diode there is faulty "
                "(the steps that follow name it)",
            ),
        )
    cells = {configured.cell_of(sq) for sq in squares}
    for layout in all_layouts():
        if {layout.cell_of(_A1), layout.cell_of(_B1)} != cells:
            continue
        # a1's cell is always a corner and b1's never is, so the pair fits one layout.
        if layout == configured:
            return OrientationFinding(
                True,
                layout,
                (
                    f"orientation as configured: a1 at {_cell_name(layout.cell_of(_A1))}, "
                    f"row lines along {layout.rows_are}",
                ),
            )
        return OrientationFinding(False, layout, _wrong(layout, configured))
    cell_names = " and ".join(_cell_name(cell) for cell in sorted(cells))
    return OrientationFinding(
        False,
        None,
        (
            f"a1 and b1 read at {cell_names}, which no orientation gives (a1 must sit in a "
            "corner of the matrix, b1 next to it): two row or two column wires are swapped, "
            "or the pieces are not on a1 and b1",
        ),
    )


def _wrong(found: MatrixLayout, configured: MatrixLayout) -> tuple[str, ...]:
    what = []
    if found.rows_are != configured.rows_are:
        what.append(
            f"the matrix is transposed: its row lines run along {found.rows_are}, "
            f"not {configured.rows_are}"
        )
    if found.a1 != configured.a1:
        what.append(f"a1's switch sits at matrix corner {found.a1}, not {configured.a1}")
    return (
        "; ".join(what),
        f'set in [matrix]: a1 = "{found.a1}" and rows_are = "{found.rows_are}", then run '
        "the check again",
    )


def _cell_name(cell: tuple[int, int]) -> str:
    return f"ROW{cell[0] + 1} x COL{cell[1] + 1}"


__all__ = ["PIECES", "OrientationFinding", "find_orientation"]
