"""The page's event stream (`/events`): what changed, told once to every listener.

A listener's first message holds every board's whole summary. After it, the boards
changed since the last message are gathered, and one message is made of what changed
in each, at most every `EVENTS_EVERY_S`, the same bytes handed to every listener: a
board's id and the fields whose value changed, its moves told as what changed of them
(`moves_at`, the length of the moves' text kept, and `moves_new`, the text after it; a
takeback or a new game keeps less). A game's whole summary and move list went to every
listener at each of its moves before (1 GB a minute at 300 listeners and 1,000 boards).

Every listener that reads holds what was last told to all (a new one is given it), so
one change applies to each alike. A listener that does not read as fast keeps at most
`BEHIND_AT_MOST` messages and `BEHIND_BYTES` of them; beyond either, they are let go
(said in one log line every ten seconds) and it is owed the boards they named instead
(at most every board once, with what it held of each before the messages let go), and
is told what changed since then when it reads again. The listeners' writes are shared
out over the loop's turns (loop_turns.py), the boards' messages read between.
A listener that has read nothing for `STUCK_S` is let go. So a crowd of spectators
costs one message a turn, and one who reads slowly or not at all holds a bounded amount."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from reedboard.errors import ReedboardError

from reedboard_relay.board_order import in_board_order
from reedboard_relay.loop_turns import WritesPerTurn
from reedboard_relay.refusals import RateLimitedLog

EVENTS_EVERY_S = 0.25  # the changes of this long go out in one message (a write per listener)
BEHIND_AT_MOST = 8  # messages a listener may be behind before it is owed boards instead
BEHIND_BYTES = 256 * 1024  # and bytes of them
STUCK_S = 60.0  # a listener whose write has waited this long is let go

logger = logging.getLogger(__name__)
said = RateLimitedLog(logger)


@dataclass(frozen=True)
class Fragment:
    """A board's summary now: its fields, and its whole JSON (the same bytes object
    while the summary is unchanged)."""

    board: str
    summary: Mapping[str, object]
    data: bytes


# The fragments of these boards (None: of every board), in board order.
Fragments = Callable[[Iterable[str] | None], list[Fragment]]


@dataclass(frozen=True)
class Tidings:
    boards: frozenset[str]
    data: bytes  # one event-stream message, `data: [...]\n\n`
    # Each board's summary as told before this message (None: never told): what a
    # listener that lets the message go holds of the board, and is told changes from.
    before: Mapping[str, Mapping[str, object] | None] = field(default_factory=dict)


# The message that brings a listener from what it holds of these boards (None: nothing)
# to what was last told to all.
Told = Callable[[Mapping[str, Mapping[str, object] | None]], bytes]


class ListenerStuck(ReedboardError):
    """A listener whose write waited `STUCK_S`: it reads nothing, and is let go."""


def message(parts: Iterable[bytes]) -> bytes:
    return b"data: [" + b", ".join(parts) + b"]\n\n"


def change_of(before: Mapping[str, object], fragment: Fragment) -> bytes:
    """What changed of a board told as `before` to all: its id, the fields whose value
    changed, and the moves' text past what the two share."""
    moves_before, moves_now = (
        str(before.get("moves") or ""),
        str(fragment.summary.get("moves") or ""),
    )
    fields = {
        key: value
        for key, value in fragment.summary.items()
        if key == "id" or (key != "moves" and before.get(key, _NONE) != value)
    }
    kept = shared_length(moves_before, moves_now)
    return json.dumps({**fields, "moves_at": kept, "moves_new": moves_now[kept:]}).encode()


def shared_length(before: str, now: str) -> int:
    """The length of the text the two start with: at once for a game that grew (its text
    before is all shared), else by halving, slices compared whole rather than a
    character at a time in Python."""
    if now.startswith(before):
        return len(before)
    low, high = 0, min(len(before), len(now))  # before[:low] == now[:low]; high: beyond
    while low < high:
        middle = (low + high + 1) // 2
        if before[:middle] == now[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


_NONE = object()  # a field the summary before did not have


class Listener:
    def __init__(self, stuck_s: float = STUCK_S) -> None:
        self.queue: deque[Tidings] = deque()
        self.queued_bytes = 0
        # Boards to send, for messages let go, with what the listener holds of each.
        self.owed: dict[str, Mapping[str, object] | None] = {}
        self.woken = asyncio.Event()
        self.stuck_s = stuck_s
        self.turns: WritesPerTurn | None = None  # the stream's, once joined

    def offer(self, tidings: Tidings) -> None:
        if (
            self.owed
            or len(self.queue) >= BEHIND_AT_MOST
            or self.queued_bytes + len(tidings.data) > BEHIND_BYTES
        ):
            if not self.owed:
                said.warn(
                    "behind",
                    f"a spectator's event stream fell behind ({len(self.queue) + 1} messages, "
                    f"{self.queued_bytes + len(tidings.data)} bytes): let go; when it reads "
                    "again it is told what changed of their boards since what it held",
                )
            for let_go in (*self.queue, tidings):
                for board in let_go.boards:
                    self.owed.setdefault(board, let_go.before.get(board))
            self.queue.clear()
            self.queued_bytes = 0
        else:
            self.queue.append(tidings)
            self.queued_bytes += len(tidings.data)
        self.woken.set()

    async def follow(self, write: Callable[[bytes], object], told: Told) -> None:
        """Writes what it is offered, for as long as the stream is open; `told` makes
        the message of the boards owed: what changed of them since what it holds."""
        while True:
            await self.woken.wait()
            self.woken.clear()
            while self.queue:
                tidings = self.queue.popleft()
                self.queued_bytes -= len(tidings.data)
                await self._write(write, tidings.data)
            if self.owed:
                owed, self.owed = self.owed, {}
                await self._write(write, told(owed))

    async def _write(self, write: Callable[[bytes], object], data: bytes) -> None:
        if self.turns is not None:
            await self.turns.slot()
        result = write(data)
        if not asyncio.iscoroutine(result):
            return
        try:
            # Not `wait_for`: a task of its own for each write, 300 of them a message.
            async with asyncio.timeout(self.stuck_s):
                await result
        except TimeoutError:
            said.warn("stuck", f"let go a spectator's event stream that read nothing for "
                               f"{self.stuck_s:g} s")  # fmt: skip
            raise ListenerStuck from None


class EventStream:
    def __init__(self, fragments: Fragments) -> None:
        self.fragments = fragments
        self.listeners: set[Listener] = set()
        self._changed: set[str] = set()  # since the last message: at most every board
        self._told: dict[str, Fragment] = {}  # each board as last told to all
        self._woken: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.writes = WritesPerTurn()  # every listener's writes, a slice a turn

    def changed(self, board: str) -> None:
        if not self.listeners:  # one who comes later is told every board as it is
            return
        self._changed.add(board)
        if self._woken is not None:
            self._woken.set()

    def join(self, listener: Listener) -> bytes:
        """Adds a listener; its first message, every board whole. Every board is told
        anew to those already listening, where it changed unseen (such as while no one
        listened), so that all hold the same."""
        every = self.fragments(None)
        self._changed.clear()  # every board is in `every`, as it is now
        self._tell(every)
        listener.turns = self.writes
        self.listeners.add(listener)
        return message(fragment.data for fragment in every)

    def told(self, held: Mapping[str, Mapping[str, object] | None]) -> bytes:
        """The message that brings a listener from what it holds of these boards to what
        was last told to all: what changed, or a board whole where it holds nothing."""
        parts = []
        for board in in_board_order(held):
            now, before = self._told.get(board), held[board]
            if now is not None:
                parts.append(now.data if before is None else change_of(before, now))
        return message(parts)

    def turn(self) -> Tidings | None:
        """One message of what changed of the boards, offered to every listener."""
        changed, self._changed = self._changed, set()
        return self._tell(self.fragments(changed))

    def _tell(self, fragments: list[Fragment]) -> Tidings | None:
        parts: list[bytes] = []
        before: dict[str, Mapping[str, object] | None] = {}
        for fragment in fragments:
            told = self._told.get(fragment.board)
            if told is not None and told.data is fragment.data:
                continue
            self._told[fragment.board] = fragment
            before[fragment.board] = None if told is None else told.summary
            parts.append(fragment.data if told is None else change_of(told.summary, fragment))
        if not before:
            return None
        tidings = Tidings(frozenset(before), message(parts), before)
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
            # The next message once this one is handed out: when the loop is busy with
            # the boards, messages come less often and each tells more, rather than
            # every listener falling behind and owed boards.
            while self.writes.waiting:
                await asyncio.sleep(EVENTS_EVERY_S / 5)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
