"""A fake switch matrix that something outside the loop sets while the loop scans it: the
simulator's page closes and opens switches as pieces are placed and lifted.

Like `ScriptedBoard`, it is read through the real `MatrixScanner` on a `FakeGPIO` wired
like the configured matrix, so the firmware sees exactly what it would on the board. A
lock keeps a scan from seeing the switches half set.
"""

from __future__ import annotations

import threading

from reedboard.config import MatrixConfig
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import Bitboard


class LiveBoard:
    """A thread-safe `SwitchMatrix`: `set_occupancy` from any thread, `scan` from the loop."""

    def __init__(self, occupancy: Bitboard = 0, matrix: MatrixConfig | None = None) -> None:
        config = matrix or MatrixConfig()
        self._lock = threading.Lock()
        self._layout = MatrixLayout(config.a1, config.rows_are)
        self._gpio = FakeGPIO(config.rows, config.columns)
        self._scanner = MatrixScanner(
            self._gpio, config.rows, config.columns, self._layout, sleep=_no_wait
        )
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
            self._gpio.set_closed(
                self._layout.cell_of(sq) for sq in range(64) if occupancy >> sq & 1
            )

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
