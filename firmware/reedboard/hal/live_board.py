"""A fake switch matrix that something outside the loop sets while the loop scans it: the
simulator's page closes and opens switches as pieces are placed and lifted.

Like `ScriptedBoard`, it is read through the real `MatrixScanner` on a `FakeGPIO` wired
like the board's matrix, so the firmware sees exactly what it would on the board. A
lock keeps a scan from seeing the switches half set.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import Bitboard, squares_of


class LiveBoard:
    """A thread-safe `SwitchMatrix`: `set_occupancy` from any thread, `scan` from the loop."""

    def __init__(
        self,
        occupancy: Bitboard = 0,
        *,
        rows: Sequence[int] = FAKE_ROWS,
        columns: Sequence[int] = FAKE_COLUMNS,
        layout: MatrixLayout | None = None,
    ) -> None:
        """`rows`, `columns` and `layout`: the matrix's wiring, as `MatrixScanner` takes it."""
        self._lock = threading.Lock()
        self._layout = layout or MatrixLayout()
        self._gpio = FakeGPIO(rows, columns)
        self._scanner = MatrixScanner(self._gpio, rows, columns, self._layout, sleep=_no_wait)
        self._occupancy: Bitboard = 0
        self.set_occupancy(occupancy)

    @property
    def occupancy(self) -> Bitboard:
        """What the switches are set to (not what a scan reads)."""
        return self._occupancy

    def set_occupancy(self, occupancy: Bitboard) -> None:
        """Close the switches of these squares and open all others."""
        with self._lock:
            self._occupancy = occupancy
            self._gpio.set_closed(self._layout.cell_of(sq) for sq in squares_of(occupancy))

    def set_square(self, square: int, occupied: bool) -> None:
        bit = 1 << square
        self.set_occupancy(self._occupancy | bit if occupied else self._occupancy & ~bit)

    def scan(self) -> Bitboard:
        with self._lock:
            return self._scanner.scan()

    def close(self) -> None:
        with self._lock:
            self._scanner.close()


def _no_wait(_seconds: float) -> None:
    """A fake matrix settles at once."""
