"""Where each square's switch sits in the 8x8 matrix: the board's orientation.

Matrix lines are numbered as on the circuit: rows ROW1..ROW8 (driven by the Pi) and columns
COL1..COL8 (read by the Pi); in code they are indices 0..7. Two choices describe how the
matrix lies under the board:

- `a1`: the matrix corner that holds a1's switch, `"R1C1"`, `"R1C8"`, `"R8C1"` or `"R8C8"`;
- `rows_are`: whether a row line runs along a rank (`"ranks"`: one row line per rank) or
  along a file (`"files"`: one row line per file).

That makes 8 orientations, enough for any way the wiring was laid and the board turned.
"""

from functools import cache
from typing import Literal, NamedTuple, get_args

from reedboard.errors import ConfigError
from reedboard.rules.squares import Square, square_file, square_rank

Corner = Literal["R1C1", "R1C8", "R8C1", "R8C8"]
LineKind = Literal["ranks", "files"]
CORNERS: tuple[Corner, ...] = get_args(Corner)
LINE_KINDS: tuple[LineKind, ...] = get_args(LineKind)


# Named tuples rather than dataclasses: the matrix is opened before the board's first scan,
# which waits for nothing it does not need (see config.py).
class _Orientation(NamedTuple):
    a1: Corner = "R1C1"
    rows_are: LineKind = "ranks"


class MatrixLayout(_Orientation):
    """Maps squares to matrix cells `(row, column)`, both 0..7, and back."""

    __slots__ = ()

    def __new__(cls, a1: Corner = "R1C1", rows_are: LineKind = "ranks") -> "MatrixLayout":
        if a1 not in CORNERS:
            raise ConfigError(f"a1 corner {a1!r} is not one of {', '.join(CORNERS)}")
        if rows_are not in LINE_KINDS:
            raise ConfigError(f"rows_are {rows_are!r} is not one of {', '.join(LINE_KINDS)}")
        return super().__new__(cls, a1, rows_are)

    def cell_of(self, sq: Square) -> tuple[int, int]:
        """The (row, column) line indices whose crossing holds the switch of `sq`."""
        return _cell_of(self.a1, self.rows_are, sq)

    def square_at(self, row: int, column: int) -> Square:
        """The square whose switch sits at the crossing of row line `row` and column `column`."""
        return _squares_at(self.a1, self.rows_are)[row][column]

    def squares_on_row(self, row: int) -> tuple[Square, ...]:
        """The 8 squares on row line `row`, in column order."""
        return _squares_at(self.a1, self.rows_are)[row]

    def squares_on_column(self, column: int) -> tuple[Square, ...]:
        """The 8 squares on column line `column`, in row order."""
        table = _squares_at(self.a1, self.rows_are)
        return tuple(table[row][column] for row in range(8))


def _cell_of(a1: Corner, rows_are: LineKind, sq: Square) -> tuple[int, int]:
    along_rows, along_columns = square_rank(sq), square_file(sq)
    if rows_are == "files":
        along_rows, along_columns = along_columns, along_rows
    row = along_rows if a1[1] == "1" else 7 - along_rows
    column = along_columns if a1[3] == "1" else 7 - along_columns
    return row, column


@cache  # 8 orientations at most: each table is built once
def _squares_at(a1: Corner, rows_are: LineKind) -> tuple[tuple[Square, ...], ...]:
    table = [[0] * 8 for _ in range(8)]
    for sq in range(64):
        row, column = _cell_of(a1, rows_are, sq)
        table[row][column] = sq
    return tuple(tuple(line) for line in table)


class MatrixWiring(NamedTuple):
    """The matrix as wired: the BCM pins of row lines ROW1..ROW8 and column lines
    COL1..COL8, and how the matrix lies under the board."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    layout: MatrixLayout = MatrixLayout()


def all_layouts() -> tuple[MatrixLayout, ...]:
    """Every orientation: 4 corners x rows along ranks or files."""
    return tuple(MatrixLayout(a1, kind) for a1 in CORNERS for kind in LINE_KINDS)


__all__ = [
    "CORNERS",
    "LINE_KINDS",
    "Corner",
    "LineKind",
    "MatrixLayout",
    "MatrixWiring",
    "all_layouts",
]
