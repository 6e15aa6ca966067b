"""A fake board: the switch matrix the loop scans and the source of the changes that fall
due on it, in one object. `reedboard run --fake`, `reedboard replay`, the simulator and
the tests all run the firmware on it.

Its switches change two ways. A hand outside the loop changes them at once (`lift("e2")`,
`place("e4")`, `set_occupancy`), as the simulator's page does. Or sensor lines are
scheduled (`schedule(lines)`) and the loop applies each when its time comes
(`advance(t_ms)`), as a script or a player model does; their `choose` and `press` lines
are handed to the loop as the promotion pieces chosen and the clock buttons pressed, and
`follow` hears of the others as they are applied (the simulator's world of pieces follows
them so).

By default the real `MatrixScanner` reads a `FakeGPIO` wired like the board's matrix, so
the firmware sees exactly what it would on the board; `electrical=False` reads the
occupancy directly (faster, for long test runs). One lock makes every call safe from any
thread, and keeps a scan from seeing the switches half set.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Iterable, Sequence

from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.hal.sensor_line import PlayersAction, SensorLine, players_action
from reedboard.rules.squares import Bitboard, Square, parse_square, squares_of


class FakeBoard:
    """A `SwitchMatrix` and an `EventSource`."""

    def __init__(
        self,
        occupancy: Bitboard = 0,
        *,
        rows: Sequence[int] = FAKE_ROWS,
        columns: Sequence[int] = FAKE_COLUMNS,
        layout: MatrixLayout | None = None,
        electrical: bool = True,
        follow: Callable[[SensorLine], None] | None = None,
    ) -> None:
        """`rows`, `columns` (pin numbers) and `layout`: the matrix's wiring, as
        `MatrixScanner` takes it. `follow(line)` is called as each scheduled lift or
        place is applied (it must not call the board back)."""
        self._lock = threading.Lock()
        self._occupancy: Bitboard = occupancy
        self._follow = follow
        # The lines scheduled, in time order; those from `_next` on are not applied yet.
        self._lines: list[SensorLine] = []
        self._next = 0
        self._last_ms = 0  # the time of the last line scheduled
        self._finished = False
        self._layout = layout or MatrixLayout()
        self._gpio: FakeGPIO | None = None
        self._scanner: MatrixScanner | None = None
        if electrical:
            self._gpio = FakeGPIO(rows, columns)
            self._scanner = MatrixScanner(self._gpio, rows, columns, self._layout, sleep=_no_wait)
            self._show()

    # ----- a hand outside the loop -----

    @property
    def occupancy(self) -> Bitboard:
        """What the switches are set to (not what a scan reads)."""
        return self._occupancy

    def set_occupancy(self, occupancy: Bitboard) -> None:
        """Close the switches of these squares and open all others, now."""
        with self._lock:
            self._occupancy = occupancy
            self._show()

    def lift(self, square: str | Square) -> None:
        """Take the piece off `square` now (its switch opens)."""
        self._set(square, False)

    def place(self, square: str | Square) -> None:
        """Put a piece on `square` now (its switch closes)."""
        self._set(square, True)

    def _set(self, square: str | Square, occupied: bool) -> None:
        bit = 1 << (parse_square(square) if isinstance(square, str) else square)
        with self._lock:
            self._occupancy = self._occupancy | bit if occupied else self._occupancy & ~bit
            self._show()

    # ----- lines that fall due -----

    def schedule(self, lines: Iterable[SensorLine], *, start_ms: int = 0) -> int:
        """Have the loop apply `lines` at their times, counted from board time `start_ms`
        and never before a line already scheduled (so the order holds). Returns the board
        time of the last line scheduled."""
        with self._lock:
            base = max(start_ms, self._last_ms)
            for line in lines:
                self._last_ms = max(self._last_ms, base + line.t_ms)
                self._lines.append(line.at(self._last_ms))
            return self._last_ms

    def insert(self, line: SensorLine) -> None:
        """Have the loop apply `line` at its own board time, among the lines scheduled
        (after those of the same time)."""
        with self._lock:
            bisect.insort(self._lines, line, lo=self._next, key=_time_of)
            self._last_ms = max(self._last_ms, line.t_ms)

    def clear(self) -> None:
        """Drop the lines not applied yet."""
        with self._lock:
            self._lines, self._next, self._last_ms = [], 0, 0

    def finish(self) -> None:
        """No more lines will be scheduled: the board is `done` once they are applied."""
        self._finished = True

    @property
    def pending(self) -> int:
        """Lines scheduled and not applied yet."""
        with self._lock:
            return len(self._lines) - self._next

    # ----- the loop's side -----

    @property
    def done(self) -> bool:
        with self._lock:
            return self._finished and self._next == len(self._lines)

    @property
    def end_ms(self) -> int:
        return self._last_ms

    def next_change_ms(self) -> int | None:
        with self._lock:
            return self._lines[self._next].t_ms if self._next < len(self._lines) else None

    def advance(self, t_ms: int) -> list[PlayersAction]:
        """Apply the lines due by `t_ms`; the host's and the players' own actions among
        them: the promotion pieces chosen (q r b n), the clock presses (white, black) and
        the time the arbiter added (white:120000)."""
        choices: list[PlayersAction] = []
        with self._lock:
            first = self._next
            lines = self._lines
            while self._next < len(lines) and lines[self._next].t_ms <= t_ms:
                line = lines[self._next]
                self._next += 1
                if line.action in ("choose", "press", "add"):
                    action = players_action(line)
                    if action is not None:
                        choices.append(action)
                    continue
                if self._follow is not None:
                    self._follow(line)
                bit = 1 << line.square
                place = line.action == "place"
                self._occupancy = self._occupancy | bit if place else self._occupancy & ~bit
            if self._next > first:
                self._show()
            if self._next == len(lines):  # all applied: the list starts afresh
                self._lines, self._next = [], 0
        return choices

    def scan(self) -> Bitboard:
        with self._lock:
            return self._occupancy if self._scanner is None else self._scanner.scan()

    def close(self) -> None:
        with self._lock:
            if self._scanner is not None:
                self._scanner.close()

    def _show(self) -> None:
        """Set the fake matrix's switches to the occupancy (the lock is held)."""
        if self._gpio is not None:
            self._gpio.set_closed(self._layout.cell_of(sq) for sq in squares_of(self._occupancy))


def _time_of(line: SensorLine) -> int:
    return line.t_ms


def _no_wait(_seconds: float) -> None:
    """A fake matrix settles at once."""
