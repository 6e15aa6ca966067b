"""Writes to spectators shared out over the loop's turns: at most `per_turn` of them in
one turn of the loop, the others waiting, in the order they asked, for the turns after.

A message of the page's event stream wakes every listener at once, and each wrote it in
the same turn of the loop: 300 listeners made a turn of tens of milliseconds during
which no board's message was read. Between two slices of writes now, the loop reads the
boards' socket (mqtt_loop.py), so a crowd of spectators delays the boards by one slice,
and a spectator gets its message a few turns later."""

from __future__ import annotations

import asyncio
from collections import deque

WRITES_PER_TURN = 32


class WritesPerTurn:
    def __init__(self, per_turn: int = WRITES_PER_TURN) -> None:
        self.per_turn = per_turn
        self._used = 0  # writes let go in this turn of the loop
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._turning = False  # `_next_turn` is due at the loop's next turn

    @property
    def waiting(self) -> int:
        """Writes waiting for a later turn."""
        return sum(not waited.done() for waited in self._waiting)

    async def slot(self) -> None:
        """Returns once this write may go: at once while this turn has room and no one
        waits before it, else in a later turn."""
        if self._used < self.per_turn and not self._waiting:
            self._used += 1
            self._turn_after()
            return
        waited: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waited)
        self._turn_after()
        await waited  # a listener that goes meanwhile: its future is cancelled, skipped

    def _turn_after(self) -> None:
        if not self._turning:
            self._turning = True
            asyncio.get_running_loop().call_soon(self._next_turn)

    def _next_turn(self) -> None:
        self._turning = False
        self._used = 0
        while self._waiting and self._used < self.per_turn:
            waited = self._waiting.popleft()
            if not waited.done():
                waited.set_result(None)
                self._used += 1
        if self._used:  # those let go write in the next turn: count that turn's room
            self._turn_after()
