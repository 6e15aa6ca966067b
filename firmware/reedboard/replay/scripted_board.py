"""A fake board played from an event script: its switches start as the script's sensors
read and its lines (a clock's presses too) fall due at their times, as on the board
that wrote it."""

from __future__ import annotations

from collections.abc import Sequence

from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.replay.script import Script


def scripted_board(
    script: Script,
    *,
    rows: Sequence[int] = FAKE_ROWS,
    columns: Sequence[int] = FAKE_COLUMNS,
    layout: MatrixLayout | None = None,
    electrical: bool = True,
    finished: bool = True,
) -> FakeBoard:
    """A `FakeBoard` that plays `script` and is `done` after its last line (unless not
    `finished`: more lines are to come); `rows`, `columns` and `layout` are the matrix's
    wiring, `electrical` as `FakeBoard` takes it."""
    board = FakeBoard(
        script.first_sensors, rows=rows, columns=columns, layout=layout, electrical=electrical
    )
    board.schedule(script.lines)
    if finished:
        board.finish()
    return board
