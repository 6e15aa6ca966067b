"""The page's event stream (`/events`): what changed, told once to every listener. The
boards changed since the last message are gathered; one message is made of their
summaries, at most every `EVENTS_EVERY_S`, and the same bytes are handed to every
listener. A listener that does not read as fast keeps at most `BEHIND_AT_MOST` of them;
beyond that it is owed the boards they named instead (a set: at most every board once),
and gets their summaries as they are when it reads again. So a crowd of spectators costs
one message a turn, and one who reads slowly or not at all holds a bounded amount."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

EVENTS_EVERY_S = 0.25  # the changes of this long go out in one message (a write per listener)
BEHIND_AT_MOST = 8  # messages a listener may be behind before it is owed boards instead

logger = logging.getLogger(__name__)

# The summaries of these boards (in board order, as JSON), each as its own bytes: the
# same object while the board's summary is unchanged.
Fragments = Callable[[Iterable[str]], list[tuple[str, bytes]]]


@dataclass(frozen=True)
class Tidings:
    boards: frozenset[str]
    data: bytes  # one event-stream message, `data: [...]\n\n`


def message(fragments: list[tuple[str, bytes]]) -> bytes:
    return b"data: [" + b", ".join(data for _board, data in fragments) + b"]\n\n"


class Listener:
    def __init__(self) -> None:
        self.queue: deque[Tidings] = deque()
        self.owed: set[str] = set()  # boards to send as they are, for messages let go
        self.woken = asyncio.Event()

    def offer(self, tidings: Tidings) -> None:
        if self.owed or len(self.queue) >= BEHIND_AT_MOST:
            self.owed.update(tidings.boards, *(t.boards for t in self.queue))
            self.queue.clear()
        else:
            self.queue.append(tidings)
        self.woken.set()

    async def follow(self, write: Callable[[bytes], object], fragments: Fragments) -> None:
        """Writes what it is offered, for as long as the stream is open."""
        while True:
            await self.woken.wait()
            self.woken.clear()
            while self.queue:
                await _written(write(self.queue.popleft().data))
            if self.owed:
                owed, self.owed = self.owed, set()
                await _written(write(message(fragments(owed))))


async def _written(result: object) -> None:
    if asyncio.iscoroutine(result):
        await result


class EventStream:
    def __init__(self, fragments: Fragments) -> None:
        self.fragments = fragments
        self.listeners: set[Listener] = set()
        self._changed: set[str] = set()  # since the last message: at most every board
        self._told: dict[str, bytes] = {}  # each board's summary as last told
        self._woken: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def changed(self, board: str) -> None:
        if not self.listeners:  # one who comes later starts from every board as it is
            return
        self._changed.add(board)
        if self._woken is not None:
            self._woken.set()

    def turn(self) -> Tidings | None:
        """One message of the boards whose summary changed, offered to every listener."""
        changed, self._changed = self._changed, set()
        fresh = [(b, data) for b, data in self.fragments(changed) if self._told.get(b) is not data]
        self._told.update(fresh)
        if not fresh:
            return None
        tidings = Tidings(frozenset(board for board, _data in fresh), message(fresh))
        for listener in self.listeners:
            listener.offer(tidings)
        return tidings

    def ensure_running(self) -> None:
        """On the loop: the turns go on while anyone listens (started at the first)."""
        if self._task is None or self._task.done():
            self._woken = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self._woken is not None
        while True:
            await self._woken.wait()
            self._woken.clear()
            try:
                self.turn()
            except Exception:  # one bad turn must not end the page's events
                logger.exception("telling the page's listeners failed")
            await asyncio.sleep(EVENTS_EVERY_S)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
