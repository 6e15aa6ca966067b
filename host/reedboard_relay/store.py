"""The relay's SQLite store: every board's session, its latest delivered number, and the
messages delivered, so a relay killed at any moment comes back with everything it
acknowledged to the broker, and nothing twice. The messages of one turn of reading the
broker's socket are written in one transaction (`hold`), committed before their
acknowledgements go out (`commit`): a transaction per message spent as much of the
relay's CPU as all the rest of storing them. Their rows (the messages, the boards'
places, the evidence) are written at the commit, each table's in one `executemany`, a
message's number given by the store as it is heard (this connection is the only one that
writes them); a row that fails fails the turn, none of it kept. Each message
keeps when the relay heard it (`heard`, seconds since the epoch): the broadcast delay
(broadcast_delay.py) shows a game as it stood that long ago, after a restart too.
A message is kept as the JSON of its frame (the `wire` column, `message_text`), as every
relay has kept it, and read back typed."""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence

from reedboard.link.board_messages import BoardMessage, message_text, read_message_text

from reedboard_relay import evidence_store
from reedboard_relay.evidence import Evidence

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    board TEXT PRIMARY KEY,
    session TEXT,
    last INTEGER NOT NULL DEFAULT 0,
    online INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS messages (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL,
    wire TEXT NOT NULL,
    heard REAL
);
CREATE INDEX IF NOT EXISTS messages_board ON messages (board, number);
CREATE TABLE IF NOT EXISTS snapshots (
    board TEXT PRIMARY KEY,
    number INTEGER NOT NULL,
    mirror TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS delayed_snapshots (
    board TEXT PRIMARY KEY,
    mirror TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS relay (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class RelayStore:
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.executescript(SCHEMA)
        evidence_store.create(self.db)
        columns = [row[1] for row in self.db.execute("PRAGMA table_info(messages)")]
        if "heard" not in columns:  # a store of an older relay: its messages heard long ago
            self.db.execute("ALTER TABLE messages ADD COLUMN heard REAL")
        self.clock: Callable[[], float] = time.time  # when a message is heard
        self._holding = False  # writes join one open transaction until `commit`
        # The number of the last message committed: the relay's other readers of this
        # connection (the broadcast delay) would see a turn's rows before its commit,
        # and must not show what a turn rolled back loses.
        (self.committed,) = self.db.execute(
            "SELECT coalesce(max(number), 0) FROM messages"
        ).fetchone()
        self._held_last = 0  # the last message written in the held turn
        # A held turn's rows, written at its commit: each board's place, its messages
        # (number, board, text, heard), the evidence, in the order heard.
        self._places: dict[str, tuple[str | None, int]] = {}
        self._messages: list[tuple[int, str, str, float]] = []
        self._evidence: list[evidence_store.Row] = []
        self._next = self._next_number()

    def _next_number(self) -> int:
        """The number the next message gets: past every one ever given (AUTOINCREMENT's
        promise, kept for the numbers the store gives itself)."""
        (given,) = self.db.execute(
            "SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'messages'"
        ).fetchone()
        return max(int(given), int(self.committed)) + 1

    def client_id(self) -> str:
        """This store's MQTT client id, made the first time and kept: two relays on one
        broker must not share an id (the broker would close one whenever the other
        connects), and a relay started again on its store finds its session there."""
        with self._transaction():
            self.db.execute(
                "INSERT OR IGNORE INTO relay (key, value) VALUES ('client_id', ?)",
                (f"reedboard-relay-{secrets.token_hex(4)}",),
            )
            row = self.db.execute("SELECT value FROM relay WHERE key = 'client_id'").fetchone()
        value: str = row[0]
        return value

    def boards(self) -> Iterator[tuple[str, str | None, int, bool]]:
        for board, session, last, online in self.db.execute(
            "SELECT board, session, last, online FROM boards ORDER BY board"
        ):
            yield board, session, last, bool(online)

    def messages(self, board: str, after: int = 0) -> Iterator[BoardMessage]:
        """The board's messages stored after number `after` (a snapshot's), in order; one
        that cannot be read (a store damaged by hand) is passed over."""
        rows = self.db.execute(
            "SELECT wire FROM messages WHERE board = ? AND number > ? ORDER BY number",
            (board, after),
        )
        for (text,) in rows:
            message = read_message_text(text)
            if message is not None:
                yield message

    def last_numbers(self) -> dict[str, int]:
        """Each board's last stored message's number."""
        rows = self.db.execute("SELECT board, max(number) FROM messages GROUP BY board")
        return {board: number for board, number in rows}

    def snapshots(self) -> dict[str, tuple[int, str]]:
        """Each board's snapshot (snapshots.py): the last message it holds, and its text."""
        rows = self.db.execute("SELECT board, number, mirror FROM snapshots")
        return {board: (number, mirror) for board, number, mirror in rows}

    def keep_snapshots(self, kept: list[tuple[str, int, str]]) -> None:
        """(board, the last message each holds, its text), at once."""
        with self._transaction():
            self.db.executemany("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)", kept)

    def delayed_snapshots(self) -> tuple[int, dict[str, str]]:
        """The broadcast delay's boards (broadcast_delay.py) as last kept: the number of the
        last message they hold, and each board's snapshot."""
        row = self.db.execute("SELECT value FROM relay WHERE key = 'delayed_applied'").fetchone()
        if row is None or not str(row[0]).isdigit():
            return 0, {}
        rows = self.db.execute("SELECT board, mirror FROM delayed_snapshots")
        return int(row[0]), {board: mirror for board, mirror in rows}

    def keep_delayed(self, applied: int, kept: list[tuple[str, str]]) -> None:
        """The delay's boards changed since they were last kept, and the message they
        now stand at, at once."""
        with self._transaction():
            self.db.executemany("INSERT OR REPLACE INTO delayed_snapshots VALUES (?, ?)", kept)
            self.db.execute(
                "INSERT OR REPLACE INTO relay (key, value) VALUES ('delayed_applied', ?)",
                (str(applied),),
            )

    def hold(self) -> None:
        """The writes from now on join one transaction (opened at the first), each still
        all or nothing on its own (a savepoint), until `commit`."""
        self._holding = True

    def commit(self) -> bool:
        """What was held, committed (True: there was some); writes go one transaction
        each again. A commit that fails (a full disk) raises, with nothing of what was
        held kept (SQLite rolls most such failures back itself; the rest are rolled back
        here)."""
        self._holding = False
        held, self._held_last = self._held_last, 0
        try:
            self._write_held()
            if not self.db.in_transaction:
                return False
            self.db.execute("COMMIT")
        except sqlite3.Error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            self._next = self._next_number()  # the numbers rolled back are given again
            raise
        self.committed = max(self.committed, held)
        return True

    def _write_held(self) -> None:
        """The held turn's rows, each table's at once (raises as any write)."""
        places, self._places = self._places, {}
        messages, self._messages = self._messages, []
        evidence, self._evidence = self._evidence, []
        if not (places or messages or evidence):
            return
        if not self.db.in_transaction:
            self.db.execute("BEGIN IMMEDIATE")
        evidence_store.record_rows(self.db, evidence)
        self.db.executemany(
            "INSERT INTO boards (board, session, last) VALUES (?, ?, ?) ON CONFLICT (board) "
            "DO UPDATE SET session = excluded.session, last = excluded.last",
            [(board, session, last) for board, (session, last) in places.items()],
        )
        self.db.executemany(
            "INSERT INTO messages (number, board, wire, heard) VALUES (?, ?, ?, ?)", messages
        )

    def discard(self) -> None:
        """What was held, rolled back (a write in the turn failed: none of it is
        acknowledged, the broker sends it all again); writes go one transaction each."""
        self._holding, self._held_last = False, 0
        self._places, self._messages, self._evidence = {}, [], []
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        self._next = self._next_number()

    def board(self, board: str) -> tuple[str | None, int, bool, int, tuple[int, str]] | None:
        """One board as stored (None: not at all): its session, last number and online
        flag, its last stored message's number, and its snapshot (number and text)."""
        row = self.db.execute(
            "SELECT session, last, online FROM boards WHERE board = ?", (board,)
        ).fetchone()
        if row is None:
            return None
        session, last, online = row
        (number,) = self.db.execute(
            "SELECT coalesce(max(number), 0) FROM messages WHERE board = ?", (board,)
        ).fetchone()
        snapshot = self.db.execute(
            "SELECT number, mirror FROM snapshots WHERE board = ?", (board,)
        ).fetchone()
        return session, last, bool(online), number, snapshot or (0, "")

    def delivered(
        self,
        board: str,
        session: str | None,
        last: int,
        messages: Sequence[BoardMessage],
        evidence: list[Evidence] | None = None,
    ) -> int | None:
        """The board's new place in its stream, the messages that took it there and the
        evidence they are (evidence.py), at once; the last message's number, if any.
        Held (`hold`): written at the commit."""
        if self._holding:
            return self._held(board, session, last, messages, evidence or [])
        with self._transaction():
            if evidence:
                evidence_store.record(self.db, board, evidence)
            self.db.execute(
                "INSERT INTO boards (board, session, last) VALUES (?, ?, ?) ON CONFLICT (board) "
                "DO UPDATE SET session = excluded.session, last = excluded.last",
                (board, session, last),
            )
            if not messages:
                return None
            heard = self.clock()
            insert = "INSERT INTO messages (board, wire, heard) VALUES (?, ?, ?)"
            number: int | None = None
            for message in messages:  # one at a time: each insert's row number is told
                number = self.db.execute(insert, (board, message_text(message), heard)).lastrowid
        if number is not None:
            self.committed = number
            self._next = max(self._next, number + 1)
        return number

    def _held(
        self,
        board: str,
        session: str | None,
        last: int,
        messages: Sequence[BoardMessage],
        evidence: list[Evidence],
    ) -> int | None:
        # All or nothing, as a write of its own: everything made before anything is held.
        noted = evidence_store.rows(board, evidence)
        heard = self.clock()
        texts = [message_text(message) for message in messages]
        self._evidence += noted
        self._places[board] = (session, last)
        if not texts:
            return None
        first = self._next
        self._messages += [(first + n, board, text, heard) for n, text in enumerate(texts)]
        self._held_last = first + len(texts) - 1
        self._next = self._held_last + 1
        return self._held_last

    def set_online(self, board: str, online: bool, evidence: list[Evidence] | None = None) -> None:
        with self._transaction():
            self._record(board, evidence or [])
            self._board(board)
            self.db.execute("UPDATE boards SET online = ? WHERE board = ?", (online, board))

    def evidence(self, board: str, entries: list[Evidence]) -> None:
        with self._transaction():
            self._record(board, entries)

    def _record(self, board: str, entries: list[Evidence]) -> None:
        """Evidence, in the order heard: held with the turn's, or written now."""
        if self._holding:
            self._evidence += evidence_store.rows(board, entries)
        else:
            evidence_store.record(self.db, board, entries)

    def _board(self, board: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO boards (board) VALUES (?)", (board,))

    def _transaction(self) -> _Transaction:
        if self._holding and not self.db.in_transaction:
            self.db.execute("BEGIN IMMEDIATE")
        return _Transaction(self)

    def close(self) -> None:
        self.db.close()


class _Transaction:
    """All or nothing: a transaction of its own, or a savepoint inside one already open
    (a held one, `RelayStore.hold`), committed with it; the held rows not yet written
    are taken back with the savepoint."""

    def __init__(self, store: RelayStore) -> None:
        self.store = store
        self.db = store.db
        self.nested = self.db.in_transaction
        self.held = (
            dict(store._places), len(store._messages), len(store._evidence), store._next,
            store._held_last,
        )  # fmt: skip

    def __enter__(self) -> None:
        self.db.execute("SAVEPOINT one" if self.nested else "BEGIN IMMEDIATE")

    def __exit__(self, kind: object, _value: object, _trace: object) -> None:
        if kind is not None:
            store = self.store
            places, messages, evidence, store._next, store._held_last = self.held
            store._places = places
            del store._messages[messages:], store._evidence[evidence:]
        if not self.nested:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
            return
        if kind is not None:
            self.db.execute("ROLLBACK TO one")
        self.db.execute("RELEASE one")
