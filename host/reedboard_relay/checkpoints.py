"""The store's write-ahead log copied into its database off the loop.

In WAL mode with `synchronous = NORMAL` a commit only writes the log; the log is copied
into the database (a checkpoint, with its two `fsync`s) by the commit that finds it
past 1,000 pages. That commit was one of the relay's turns of reading the boards: on a
disk others write to as well, a checkpoint held the loop for up to 1.1 s (10 ms of CPU)
in the 1,000-board bench, while no board's message was read. Now the relay's
connection never checkpoints; a connection of its own does, in a worker thread, every
`EVERY_S` (a PASSIVE checkpoint: it waits for no writer and no writer waits for it).
What is committed is as safe as before: the log holds it until it is copied."""

from __future__ import annotations

import contextlib
import sqlite3
import threading

EVERY_S = 2.0
AUTOMATIC_PAGES = 1000  # SQLite's own checkpoint, given back when this one closes


class Checkpoints:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        path = next((file for _, name, file in db.execute("PRAGMA database_list")
                     if name == "main"), "")  # fmt: skip
        self._lock = threading.Lock()  # a checkpoint running, or the connection closing
        self._own: sqlite3.Connection | None = None
        if path:  # a database in memory has no log
            self._own = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA wal_autocheckpoint = 0")

    def checkpoint(self) -> tuple[int, int]:
        """The log copied into the database as far as no reader needs it (any thread):
        the log's pages, and how many of them are now in the database. Raises
        sqlite3.Error when it cannot be copied (the log keeps everything meanwhile)."""
        with self._lock:
            if self._own is None:
                return 0, 0
            _busy, pages, copied = self._own.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(pages), int(copied)

    def close(self) -> None:
        """The connection closed once a checkpoint running ends; the relay's connection
        checkpoints by itself again."""
        with self._lock:
            own, self._own = self._own, None
        if own is not None:
            own.close()
            with contextlib.suppress(sqlite3.Error):  # the relay's closed before it: none
                self.db.execute(f"PRAGMA wal_autocheckpoint = {AUTOMATIC_PAGES}")
