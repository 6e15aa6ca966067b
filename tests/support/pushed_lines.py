"""Sensor lines a test pushes onto a running `FakeBoard` from outside the loop's thread (a
player model that reacts to what the board shows), their times counted from the moment
of the push on the board's own clock."""

from __future__ import annotations

from collections.abc import Iterable

from reedboard.hal.clock import Clock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import SensorLine, action_named

# Lines start this long after the push: the loop may be about to scan at the time the
# push reads, and a line must never land before a moment the loop has already seen.
LEAD_MS = 50


def push(board: FakeBoard, clock: Clock, lines: Iterable[tuple[int, str, str]]) -> int:
    """Schedule `(t_ms, action, square or piece)` lines, times relative to now; returns
    the board time of the last."""
    checked: list[SensorLine] = []
    for t_ms, action, what in lines:
        known = action_named(action)
        if known is None:
            raise ValueError(f"unknown action {action!r}")
        checked.append(SensorLine(t_ms, known, what))
    return board.schedule(checked, start_ms=clock.now_ms() + LEAD_MS)
