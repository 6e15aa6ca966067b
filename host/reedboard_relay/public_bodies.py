"""The bodies of the heavy reads (`/games.pgn`, `/api/boards`), each kept as bytes until
a board changes. Each board's part (its PGN, its summary as JSON) is kept by the web
side as of the board's version (written again only when that board changed); a body is
those parts joined and encoded, done in a worker thread off the loop from parts that no
one changes (strings and bytes), at most once for all the requests that ask while it is
made. A poller asking every second of a quiet round is answered from the kept bytes;
one asking while boards move waits at most for one joining, never for every game to be
written again. A change the web side is not told of (a pairings file edited, a board's
acknowledgement of the round's mode) shows within about `FRESH_S` (`Rechecks`).

A body is joined at most once every `EVERY_S` of its kind: a request that finds the kept
bytes older than a change waits for the next joining, shared with every request made
meanwhile, which holds every change made before it was asked (never an older body). At
a thousand boards moving, some board changed before nearly every request: twenty
pollers of `/games.pgn` and a page polling `/api/boards` fifty times a second each had
a body joined again, a megabyte or more of it, and the loop that reads the boards'
messages wrote little else."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

FRESH_S = 1.0  # kept bytes are used this long at most, told of a change or not
# At most one joining of a kind in this long (a kind not named: no wait).
EVERY_S = {"games": 0.5, "boards": 0.1}

T = TypeVar("T", str, bytes)


class PublicBodies:
    def __init__(self, fresh_s: float = FRESH_S, every_s: Mapping[str, float] = EVERY_S) -> None:
        self.fresh_s = fresh_s
        self.every_s = every_s
        self.version = 0  # one more at each change the web side is told of
        self._kept: dict[str, tuple[int, float, bytes]] = {}
        self._joined_at: dict[str, float] = {}  # when each kind's last joining began
        self._next: dict[str, asyncio.Task[bytes]] = {}  # a joining that has not read yet
        self._last: dict[str, asyncio.Task[bytes]] = {}  # the latest joining begun
        # Which boards to check for what the web side is not told of, at each read.
        self.rechecks = Rechecks(fresh_s)

    def changed(self) -> None:
        self.version += 1

    async def body(
        self, kind: str, parts: Callable[[], list[T]], join: Callable[[list[T]], bytes]
    ) -> bytes:
        """The body of `kind`: as kept, or joined again from `parts()` (read on the loop
        after this request, joined off it)."""
        kept = self._kept.get(kind)
        if (
            kept is not None
            and kept[0] == self.version
            and time.monotonic() - kept[1] < self.fresh_s
        ):
            return kept[2]
        making = self._next.get(kind)
        if making is None:
            before = self._last.get(kind)
            making = asyncio.get_running_loop().create_task(self._make(kind, parts, join, before))
            self._next[kind] = self._last[kind] = making
        # Shielded: a client that goes does not end the making others wait for.
        return await asyncio.shield(making)

    async def _make(
        self,
        kind: str,
        parts: Callable[[], list[T]],
        join: Callable[[list[T]], bytes],
        before: asyncio.Task[bytes] | None,
    ) -> bytes:
        try:
            if before is not None and not before.done():  # one joining of a kind at a time
                await asyncio.wait([before])
            due = self._joined_at.get(kind, -math.inf) + self.every_s.get(kind, 0.0)
            if due > time.monotonic():
                # Those who ask meanwhile share this joining, made of what they asked.
                await asyncio.sleep(due - time.monotonic())
        finally:
            if self._next.get(kind) is asyncio.current_task():
                del self._next[kind]  # those who ask from now on wait for the next
        version, at = self.version, time.monotonic()
        self._joined_at[kind] = at
        taken = parts()
        data = await asyncio.to_thread(join, taken)
        self._kept[kind] = (version, at, data)
        return data


def joined_pgn(texts: list[str]) -> bytes:
    return "\n".join(text for text in texts if text).encode()


def joined_json(fragments: list[bytes]) -> bytes:
    return b"[" + b", ".join(fragments) + b"]"


B = TypeVar("B")
P = TypeVar("P")


class KeptParts(Generic[B, P]):
    """Each board's part of a body (its PGN, its JSON), kept: a body joined again asks
    only the boards told changed since for their part (every board when the boards shown
    are others: a board came or went, a delay was set). A thousand boards' parts, checked
    at every poll of a page that polls fifty times a second, took more of the relay than
    its boards; read again whole once a second for each body, about 50 ms of the loop
    each time (what the web side is not told of is found by `Rechecks` instead)."""

    def __init__(self) -> None:
        self._parts: dict[str, P] = {}
        self._order: list[str] = []
        self._dirty: set[str] = set()
        self._whole = True

    def changed(self, board: str) -> None:
        self._dirty.add(board)

    def forget(self) -> None:
        """Every board asked again at the next joining (the boards shown changed)."""
        self._whole = True

    def read(
        self,
        boards: Mapping[str, B],
        part: Callable[[B], P],
        order: Callable[[Mapping[str, B]], list[str]],
    ) -> list[P]:
        if self._whole or self._parts.keys() != boards.keys():
            self._whole = False
            self._order = order(boards)
            self._parts = {board: part(boards[board]) for board in self._order}
        else:
            for board in self._dirty:
                self._parts[board] = part(boards[board])
        self._dirty.clear()
        return [self._parts[board] for board in self._order]


class Rechecks:
    """Which boards to check again for a change the web side is not told of (a pairings
    file edited, a board's acknowledgement of the round's mode): a share of them at each
    read, from where the last stopped, as much of them as the time since is of `fresh_s`,
    so that every board is checked within about `fresh_s` and no read checks them all."""

    def __init__(self, fresh_s: float = FRESH_S) -> None:
        self.fresh_s = fresh_s
        self._at = time.monotonic()
        self._next = 0  # where the next check starts, in the boards' order

    def due(self, boards: Sequence[str]) -> list[str]:
        now = time.monotonic()
        share = min(1.0, max(0.0, now - self._at) / self.fresh_s)
        count = min(len(boards), math.ceil(len(boards) * share))
        if not count:
            return []
        self._at = now
        first = self._next % len(boards)
        self._next = first + count
        return [boards[(first + n) % len(boards)] for n in range(count)]
