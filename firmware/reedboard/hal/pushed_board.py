"""A `FakeBoard` whose lines are pushed while it runs, their times counted from the moment
of the push on the board's own clock: for a player model that reacts to what the board
shows (a move lit by the host), from outside the loop's thread."""

from __future__ import annotations

from collections.abc import Iterable

from reedboard.hal.clock import Clock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import SensorLine, action_named
from reedboard.rules.squares import Bitboard

# Lines start this long after the push: the loop may be about to scan at the time the
# push reads, and a line must never land before a moment the loop has already seen.
LEAD_MS = 50


class PushedBoard(FakeBoard):
    """Never `done`: more lines may always come."""

    def __init__(self, occupancy: Bitboard, clock: Clock) -> None:
        super().__init__(occupancy, electrical=False)
        self.clock = clock

    def push(self, lines: Iterable[tuple[int, str, str]]) -> int:
        """Schedule `(t_ms, action, square or piece)` lines, times relative to now;
        returns the board time of the last."""
        checked: list[SensorLine] = []
        for t_ms, action, what in lines:
            known = action_named(action)
            if known is None:
                raise ValueError(f"unknown action {action!r}")
            checked.append(SensorLine(t_ms, known, what))
        return self.schedule(checked, start_ms=self.clock.now_ms() + LEAD_MS)
