"""Where current goes in the switch matrix: which lines a HIGH row reaches. Pure.

Each crossing of a row line and a column line holds a reed switch in series with a diode,
anode on the row side. A closed switch lets current pass from its row into its column
(forward); only a crossing whose diode is missing (or reversed) also lets it back from the
column up into the row. The fake GPIO module and the self-test's explanation of ghosts
both ask this one model, so what the fake shows and what the self-test expects agree.

Lines are indices 0..7; a set of lines is an 8-bit mask.
"""

from __future__ import annotations

from collections.abc import Sequence

ALL_LINES = 0xFF


def lines_reached(sources: int, forward: Sequence[int], backward: Sequence[int]) -> tuple[int, int]:
    """The column lines and row lines that current from the rows in `sources` reaches.

    `forward[r]`: the columns row line r passes current into (closed switches whose diode is
    fitted the right way round or missing); `backward[r]`: the columns that pass current
    back into row r (closed switches whose diode is missing or reversed). Returns
    `(columns, rows)` as masks; `rows` includes the sources.
    """
    rows_high = sources
    columns_high = 0
    frontier = sources
    while frontier:
        reached = 0
        for row in range(8):
            if frontier >> row & 1:
                reached |= forward[row]
        new_columns = reached & ~columns_high & ALL_LINES
        if not new_columns:
            break
        columns_high |= new_columns
        back = 0
        for row in range(8):
            if backward[row] & new_columns:
                back |= 1 << row
        frontier = back & ~rows_high
        rows_high |= frontier
    return columns_high, rows_high


def directions(
    conducting: Sequence[int], missing: Sequence[int], reversed_: Sequence[int]
) -> tuple[list[int], list[int]]:
    """`(forward, backward)` per row line from the closed switches (`conducting`) and the
    crossings whose diode is missing or reversed, all masks of columns per row."""
    forward = [conducting[r] & ~reversed_[r] & ALL_LINES for r in range(8)]
    backward = [conducting[r] & (missing[r] | reversed_[r]) & ALL_LINES for r in range(8)]
    return forward, backward


__all__ = ["ALL_LINES", "directions", "lines_reached"]
