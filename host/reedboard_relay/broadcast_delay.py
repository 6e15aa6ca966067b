"""The broadcast delay: every public output shows each game as it stood a set time ago
(FIDE's anti-cheating guidelines ask for one at top events: a spectator relaying moves to
a player learns nothing fresh), while the arbiter's console stays live.

`DelayedBoards` is a second set of boards replayed from the relay's store: each message
counts once it was heard (the store keeps when) at least the delay ago. The store is the
one source: a relay restarted mid-round shows what it showed before, and the delay holds
for what it heard just before it stopped. Replay only goes forward: a delay made longer
mid-round holds the broadcast where it stands until the new delay has passed, never
taking back a move spectators saw. Used under the relay's lock, as the boards are.

The arbiter sets the delay on the console (`/arbiter/api/delay`), or `--delay MINUTES` at
start; it is kept in the store for the round, and read again by a relay restarted."""

from __future__ import annotations

import math
import sqlite3
from typing import Protocol

from aiohttp import web
from reedboard.link.board_messages import read_message_text

from reedboard_relay import snapshots
from reedboard_relay.arbiter_console import DESK_KEY, Refused, _body
from reedboard_relay.boards import Board, Boards
from reedboard_relay.store import RelayStore

BATCH = 500  # messages read at a time: a long replay does not hold every row at once
MAX_MINUTES = 24 * 60.0
SETTING = "delay_minutes"  # in arbiter_settings (arbiter_store.py), beside the round's mode
SHOWN = "delay_shown"  # the same: the message the public had seen when the delay was set


class DelayedBoards:
    def __init__(self, store: RelayStore, delay_s: float, cutoff: float, shown: int = 0) -> None:
        """Every message heard until `cutoff` (seconds since the epoch) replayed, and
        every one up to number `shown`, which the public saw before (`shown_mark`)."""
        self.store = store
        self.db = store.db
        self.delay_s = delay_s
        self.shown = shown
        self.boards: dict[str, Board] = {}
        self.applied = 0  # the number of the last message replayed
        self.next_due: float | None = None  # when the first message not replayed is
        self.unannounced: set[str] = set()  # boards changed since the web side last asked
        self._versions: dict[str, int] = {}  # each board's version as last kept
        self._resume()
        self.kept = self.applied  # the message the kept snapshots stand at
        self.replay(cutoff)

    def _resume(self) -> None:
        """The boards as last kept (`keep`), when they were: only the messages after them
        are replayed. (Replaying the whole store again, after the live boards' own
        rebuilding, doubled a restart's time.) Kept boards shown already are never taken
        back, whatever the delay is now; a snapshot that cannot be trusted means the
        whole store is replayed."""
        applied, kept = self.store.delayed_snapshots()
        if not applied:
            return
        boards = {}
        for board_id, text in kept.items():
            mirror = snapshots.read(text)
            if mirror is None:
                return
            boards[board_id] = Board(board_id, mirror=mirror)
        self.boards, self.applied = boards, applied
        self._versions = {board_id: 0 for board_id in boards}

    def keep(self) -> None:
        """Snapshots of the boards, if they moved on since they were last kept (under the
        relay's lock, as every use of them)."""
        if self.applied == self.kept:
            return
        changed = [b for b in self.boards.values() if self._versions.get(b.id) != b.version]
        self.store.keep_delayed(
            self.applied, [(b.id, snapshots.written(b.mirror)) for b in changed]
        )
        self.kept = self.applied
        self._versions.update((b.id, b.version) for b in changed)

    def catch_up(self, live: Boards, now: float) -> None:
        """What is due at `now` replayed; each board's online state and twins followed
        live (they are no part of a game)."""
        self.replay(now - self.delay_s)
        for board_id, board in live.boards.items():
            shown = self._board(board_id)
            if (shown.online, shown.cut, shown.twins) != (board.online, board.cut, board.twins):
                shown.online, shown.cut, shown.twins = board.online, board.cut, board.twins
                shown.version += 1
                self.unannounced.add(board_id)

    def replay(self, cutoff: float) -> None:
        """The messages heard until `cutoff`, in the order the relay took them; the first
        heard later, and everything after it, waits."""
        self.next_due = None
        while self.next_due is None:
            # Only what is committed: the same connection sees a held turn's rows.
            rows = self.db.execute(
                "SELECT number, board, wire, heard FROM messages WHERE number > ? "
                "AND number <= ? ORDER BY number LIMIT ?",
                (self.applied, self.store.committed, BATCH),
            ).fetchall()
            for number, board_id, wire, heard in rows:
                if heard is not None and heard > cutoff and number > self.shown:
                    self.next_due = heard + self.delay_s
                    break
                board = self._board(board_id)
                message = read_message_text(wire)  # stored: read once
                if message is not None and board.deliver(message):
                    board.version += 1
                    self.unannounced.add(board_id)
                self.applied = number
            if len(rows) < BATCH:
                break

    def _board(self, board_id: str) -> Board:
        board = self.boards.get(board_id)
        if board is None:
            board = self.boards[board_id] = Board(board_id)
        return board


def shown_mark(db: sqlite3.Connection) -> int:
    """The last message the public saw when the delay was last set: a relay restarted
    shows it still, though a delay made longer mid-round would hide it otherwise."""
    row = db.execute("SELECT value FROM arbiter_settings WHERE name = ?", (SHOWN,)).fetchone()
    return int(row[0]) if row is not None and str(row[0]).isdigit() else 0


def store_shown_mark(db: sqlite3.Connection, number: int) -> None:
    db.execute("INSERT OR REPLACE INTO arbiter_settings VALUES (?, ?)", (SHOWN, str(number)))


def stored_minutes(db: sqlite3.Connection) -> float:
    row = db.execute("SELECT value FROM arbiter_settings WHERE name = ?", (SETTING,)).fetchone()
    try:
        return minutes(row[0]) if row is not None else 0.0
    except ValueError:
        return 0.0  # a file edited by hand: no delay rather than no relay


def store_minutes(db: sqlite3.Connection, value: float) -> None:
    db.execute("INSERT OR REPLACE INTO arbiter_settings VALUES (?, ?)", (SETTING, repr(value)))


def minutes(text: object) -> float:
    """A delay in minutes, decimals allowed (0.5: thirty seconds); ValueError otherwise."""
    if isinstance(text, bool) or not isinstance(text, (int, float, str)):
        raise ValueError(f"delay {text!r}: write minutes, such as 15 or 0.5")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"delay {text!r}: write minutes, such as 15 or 0.5") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_MINUTES:
        raise ValueError(f"delay {text!r}: from 0 to {MAX_MINUTES:g} minutes")
    return value


class Delayable(Protocol):
    """What the console's routes need of the web side (web.py's RelayWeb)."""

    def delay_minutes(self) -> float: ...
    def set_delay(self, value: float) -> None: ...


DELAY_KEY: web.AppKey[Delayable] = web.AppKey("delay", Delayable)


async def _get(request: web.Request) -> web.Response:
    return web.json_response({"minutes": request.app[DELAY_KEY].delay_minutes()})


async def _set(request: web.Request) -> web.Response:
    body = await _body(request)
    try:
        value = minutes(body.get("minutes"))
    except ValueError as error:
        raise Refused(str(error)) from None
    request.app[DELAY_KEY].set_delay(value)
    return web.json_response({"ok": True, "minutes": value})


def with_delay(app: web.Application, relay: Delayable) -> web.Application:
    """The console's app with the delay's routes, inside its guard as every route."""
    assert DESK_KEY in app  # the console's own app
    app[DELAY_KEY] = relay
    app.router.add_get("/arbiter/api/delay", _get)
    app.router.add_post("/arbiter/api/delay", _set)
    return app
