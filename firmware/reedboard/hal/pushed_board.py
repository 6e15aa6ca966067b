"""A fake board whose sensor lines are pushed while it runs, not read from a script file:
for a player model that reacts to what the board shows (a move lit by the host), and for
anything else that drives a running board from outside its loop.

`push(lines)` schedules `(t_ms, action, square)` lines, their times counted from the
moment of the push (and never before the lines already scheduled), on the board's own
clock. The loop then applies each at its own time, exactly as with a script
(`ScriptedBoard`); `push` may be called from another thread."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable

from reedboard.hal.clock import Clock
from reedboard.rules.squares import Bitboard, parse_square

# Lines start this long after the push: the loop may be about to scan at the time the
# push reads, and a line must never land before a moment the loop has already seen.
LEAD_MS = 50


class PushedBoard:
    def __init__(self, occupancy: Bitboard, clock: Clock) -> None:
        self.occupancy: Bitboard = occupancy
        self.clock = clock
        self._lines: deque[tuple[int, str, str]] = deque()
        self._last_ms = 0
        self._lock = threading.Lock()

    def push(self, lines: Iterable[tuple[int, str, str]]) -> int:
        """Schedule lines (times relative to now); returns the board time of the last."""
        with self._lock:
            base = max(self.clock.now_ms() + LEAD_MS, self._last_ms)
            for t_ms, action, what in lines:
                if action not in ("lift", "place", "choose"):
                    raise ValueError(f"unknown action {action!r}")
                self._last_ms = max(self._last_ms, base + t_ms)
                self._lines.append((self._last_ms, action, what))
            return self._last_ms

    @property
    def pending(self) -> int:
        """Lines not applied yet."""
        with self._lock:
            return len(self._lines)

    # ----- the loop's side: an `EventSource` and a `SwitchMatrix` -----

    @property
    def done(self) -> bool:
        return False  # more may always come

    @property
    def end_ms(self) -> int:
        return self._last_ms

    def next_change_ms(self) -> int | None:
        with self._lock:
            return self._lines[0][0] if self._lines else None

    def advance(self, t_ms: int) -> list[str]:
        choices: list[str] = []
        with self._lock:
            while self._lines and self._lines[0][0] <= t_ms:
                _t, action, what = self._lines.popleft()
                if action == "choose":
                    choices.append(what)
                    continue
                bit = 1 << parse_square(what)
                self.occupancy = (
                    self.occupancy | bit if action == "place" else self.occupancy & ~bit
                )
        return choices

    def scan(self) -> Bitboard:
        return self.occupancy
