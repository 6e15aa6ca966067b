"""Finding missing and reversed diodes: the four diagonal setups and the ghosts they show.

A diode that is missing (or soldered the wrong way round) shows only as a ghost: with
pieces on three corners of a rectangle of matrix cells, current runs from the driven row
into the first corner's column, back up through the diode-less corner into its row, and
down through the third corner, so the fourth corner reads occupied without a piece on it.
The diode-less switch is the corner opposite the ghost. The start position never shows
one: its pieces fill whole rows of the matrix, so every fourth corner holds a piece anyway,
and it leaves ranks 3 to 6 untested.

The setups here put pieces on two neighbouring cyclic diagonals (the squares whose file
minus rank is 2k or 2k+1, modulo 8, for k = 0..3). Each setup holds 16 pieces, exactly two
on every row line and every column line whichever way the matrix lies, and the four
together put a piece on every square once. For a piece p on one of them, the other piece
of p's row and the other piece of p's column close a rectangle whose fourth corner is
always empty (it lies on the diagonal two steps away), so each of the 64 diodes, left out
alone, makes its own ghost. Two pieces on every line also find a broken row or column wire
even where the start position or an empty board has no piece on it.

`explain_ghosts` works back from a reading to the diode: it asks the matrix model
(`hal.matrix_electrics`) what each single missing or reversed diode, or a board with none,
would read, and keeps the one that reads exactly what the switches read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reedboard.hal.matrix_electrics import directions, lines_reached
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import (
    Bitboard,
    Square,
    bitboard_of,
    square_file,
    square_names_of,
    square_rank,
    squares_of,
)

PATTERN_COUNT = 4


def diode_patterns() -> tuple[Bitboard, ...]:
    """The four setups of 16 pieces on two neighbouring cyclic diagonals each."""
    return tuple(
        bitboard_of(
            [
                sq
                for sq in range(64)
                if (square_file(sq) - square_rank(sq)) % 8 in (2 * k, 2 * k + 1)
            ]
        )
        for k in range(PATTERN_COUNT)
    )


def pattern_line(pattern: Bitboard) -> str:
    """A setup as `reedboard scan --expect` takes it: comma-separated squares."""
    return ",".join(square_names_of(pattern))


def predicted_reading(
    placed: Bitboard,
    layout: MatrixLayout,
    *,
    missing: Bitboard = 0,
    reversed_: Bitboard = 0,
    dead_rows: int = 0,
    dead_columns: int = 0,
) -> Bitboard:
    """What the scanner reads with pieces on `placed` when the diodes of the squares in
    `missing` are left out and those in `reversed_` are turned round (rows driven one at a
    time, the others floating, as `MatrixScanner` does). The row and column lines in the
    masks `dead_rows` and `dead_columns` have lost their pins: a dead row is never driven,
    a dead column never read, though current still runs along both."""
    closed = [0] * 8
    no_diode = [0] * 8
    turned = [0] * 8
    for masks, squares in ((closed, placed), (no_diode, missing), (turned, reversed_)):
        for sq in squares_of(squares):
            row, column = layout.cell_of(sq)
            masks[row] |= 1 << column
    forward, backward = directions(closed, no_diode, turned)
    reading = 0
    for row in range(8):
        if dead_rows >> row & 1:
            continue
        columns, _ = lines_reached(1 << row, forward, backward)
        columns &= ~dead_columns
        for column in range(8):
            if columns >> column & 1:
                reading |= 1 << layout.square_at(row, column)
    return reading


DiodeFault = Literal["missing", "reversed", "none_fitted"]


@dataclass(frozen=True)
class GhostExplanation:
    """Why squares read occupied without a piece: one diode (`square`, missing or
    reversed), or a board without diodes (`square` None)."""

    fault: DiodeFault
    square: Square | None
    ghosts: Bitboard
    # For a single diode: per ghost, the rectangle in walking order: the diode's square,
    # the corner sharing its column, the ghost, the corner sharing its row.
    rectangles: tuple[tuple[Square, Square, Square, Square], ...] = ()


def explain_ghosts(
    reading: Bitboard,
    placed: Bitboard,
    layout: MatrixLayout,
    *,
    dead_rows: int = 0,
    dead_columns: int = 0,
) -> GhostExplanation | None:
    """The diode fault that makes pieces on `placed` read exactly `reading`, if one does,
    on a matrix whose `dead_rows` and `dead_columns` have lost their pins."""
    ghosts = reading & ~placed
    if not ghosts:
        return None
    dead = {"dead_rows": dead_rows, "dead_columns": dead_columns}
    for sq in squares_of(placed):
        bit = 1 << sq
        faults: tuple[tuple[DiodeFault, Bitboard], ...] = (
            ("missing", predicted_reading(placed, layout, missing=bit, **dead)),
            ("reversed", predicted_reading(placed, layout, reversed_=bit, **dead)),
        )
        for fault, reads in faults:
            if reads == reading:
                rectangles = tuple(_rectangle(sq, g, layout) for g in squares_of(ghosts))
                return GhostExplanation(fault, sq, ghosts, rectangles)
    if predicted_reading(placed, layout, missing=placed, **dead) == reading:
        return GhostExplanation("none_fitted", None, ghosts)
    return None


def _rectangle(
    diode: Square, ghost: Square, layout: MatrixLayout
) -> tuple[Square, Square, Square, Square]:
    row, column = layout.cell_of(diode)
    ghost_row, ghost_column = layout.cell_of(ghost)
    return (
        diode,
        layout.square_at(ghost_row, column),
        ghost,
        layout.square_at(row, ghost_column),
    )


__all__ = [
    "PATTERN_COUNT",
    "DiodeFault",
    "GhostExplanation",
    "diode_patterns",
    "explain_ghosts",
    "pattern_line",
    "predicted_reading",
]
