"""Readings that are right but in the wrong places: the matrix laid another way, or two
row (or two column) wires swapped at the Pi. Pure.

Such a board has every switch and diode in order, yet squares read where other squares
stand: taken square by square, the self-test would blame stuck switches, open switches
and diodes that are all fine. So before anything else it asks whether the pieces, seen
through another orientation or through one swap of two row lines or of two column lines,
read exactly what the board reads, and names that instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from reedboard.hal.matrix_layout import MatrixLayout, MatrixWiring, all_layouts
from reedboard.rules.squares import Bitboard, squares_of

Cell = tuple[int, int]


@dataclass(frozen=True)
class Miswiring:
    """One explanation: `kind` is "orientation", "rows" or "columns"; `lines` the two line
    indices swapped (for a swap), `layout` the orientation the board has (for one)."""

    kind: str
    message: str
    pins: tuple[int, ...]
    lines: tuple[int, int] = (0, 0)
    layout: MatrixLayout | None = None


def reading_through(
    placed: Bitboard, configured: MatrixLayout, move: Callable[[Cell], Cell]
) -> Bitboard:
    """What the scanner, reading through `configured`, shows for pieces on `placed` when
    each piece's switch sits at `move(its configured cell)`."""
    reading = 0
    for sq in squares_of(placed):
        reading |= 1 << configured.square_at(*move(configured.cell_of(sq)))
    return reading


def find_miswiring(reading: Bitboard, placed: Bitboard, wiring: MatrixWiring) -> list[Miswiring]:
    """Every orientation or single swap of two lines that makes pieces on `placed` read
    exactly `reading` (none when the reading is right, or no such change explains it)."""
    configured = wiring.layout
    if reading == placed:
        return []
    found: list[Miswiring] = []
    for layout in all_layouts():
        if layout == configured:
            continue
        moved = reading_through(
            placed, configured, partial(_through, layout=layout, configured=configured)
        )
        if moved == reading:
            found.append(_orientation(layout, configured))
    for kind, pins in (("rows", wiring.rows), ("columns", wiring.columns)):
        for a in range(8):
            for b in range(a + 1, 8):
                moved = reading_through(placed, configured, _swap(kind, a, b))
                if moved == reading:
                    found.append(_swapped(kind, a, b, pins))
    return found


def _through(cell: Cell, layout: MatrixLayout, configured: MatrixLayout) -> Cell:
    # The square the configured layout puts at `cell`, and where the real layout puts it.
    return layout.cell_of(configured.square_at(*cell))


def _swap(kind: str, a: int, b: int) -> Callable[[Cell], Cell]:
    def other(line: int) -> int:
        return b if line == a else a if line == b else line

    if kind == "rows":
        return lambda cell: (other(cell[0]), cell[1])
    return lambda cell: (cell[0], other(cell[1]))


def _orientation(found: MatrixLayout, configured: MatrixLayout) -> Miswiring:
    what = []
    if found.rows_are != configured.rows_are:
        what.append(
            f"the matrix is transposed: its row lines run along {found.rows_are}, "
            f"not {configured.rows_are}"
        )
    if found.a1 != configured.a1:
        what.append(f"a1's switch sits at matrix corner {found.a1}, not {configured.a1}")
    message = (
        f"{'; '.join(what)} (the switches work, but read as other squares); set in [matrix]: "
        f'a1 = "{found.a1}" and rows_are = "{found.rows_are}", then run the check again'
    )
    return Miswiring("orientation", message, (), layout=found)


def _swapped(kind: str, a: int, b: int, pins: tuple[int, ...]) -> Miswiring:
    prefix = "ROW" if kind == "rows" else "COL"
    name_a, name_b = f"{prefix}{a + 1}", f"{prefix}{b + 1}"
    message = (
        f"{kind[:-1]} lines {name_a} (GPIO{pins[a]}) and {name_b} (GPIO{pins[b]}) are "
        f"swapped: {name_a}'s wire reaches GPIO{pins[b]} and {name_b}'s GPIO{pins[a]} (their "
        f"switches and diodes work, but read as the other line's squares); swap the two wires at "
        f"J1, or swap {pins[a]} and {pins[b]} in [matrix] {kind}, then run the check again"
    )
    return Miswiring(kind, message, (pins[a], pins[b]), lines=(a, b))


__all__ = ["Miswiring", "find_miswiring", "reading_through"]
