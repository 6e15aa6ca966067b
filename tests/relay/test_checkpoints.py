"""The store's log is copied into its database by a connection of its own, never by a
commit of the relay's: a checkpoint's `fsync`s held the loop for up to a second on a
busy disk. A real SQLite file in WAL mode, as the relay keeps it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard_relay.checkpoints import AUTOMATIC_PAGES, Checkpoints
from reedboard_relay.store import RelayStore

ROW = "x" * 3000  # about one page a row


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RelayStore]:
    made = RelayStore(str(tmp_path / "relay.sqlite"))
    try:
        yield made
    finally:
        made.close()


def write_pages(store: RelayStore, pages: int, first: int = 0) -> None:
    """About `pages` pages of the log, a commit every ten rows, as turns of messages."""
    for start in range(first, first + pages, 10):
        with store.db:
            store.db.executemany(
                "INSERT INTO relay (key, value) VALUES (?, ?)",
                [(f"k{n}", ROW) for n in range(start, start + 10)],
            )


def test_the_relays_commits_leave_the_log_whole(store: RelayStore) -> None:
    checkpoints = Checkpoints(store.db)
    try:
        write_pages(store, 2 * AUTOMATIC_PAGES)
        pages, copied = checkpoints.checkpoint()
        # Not one page copied by a commit: SQLite's own would have begun the log again
        # past 1,000 pages.
        assert pages >= 2 * AUTOMATIC_PAGES
        assert copied == pages
    finally:
        checkpoints.close()


def test_a_checkpoint_in_another_thread_copies_what_was_committed(store: RelayStore) -> None:
    checkpoints = Checkpoints(store.db)
    try:
        write_pages(store, 100)
        done: list[tuple[int, int]] = []
        worker = threading.Thread(target=lambda: done.append(checkpoints.checkpoint()))
        worker.start()
        write_pages(store, 50, first=100)  # the relay writes on meanwhile
        worker.join(30)
        # A passive checkpoint copies what was committed when it looked, never waiting on
        # the writer: the frames the writer adds while it copies may be left for the next.
        assert done and 100 <= done[0][1] <= done[0][0]
        pages, copied = checkpoints.checkpoint()  # the rest, once the writes are done
        assert copied == pages
        (count,) = store.db.execute("SELECT count(*) FROM relay WHERE key LIKE 'k%'").fetchone()
        assert count == 150
    finally:
        checkpoints.close()


def test_closing_gives_sqlite_its_own_checkpoints_back(store: RelayStore) -> None:
    checkpoints = Checkpoints(store.db)
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    checkpoints.close()
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone() == (AUTOMATIC_PAGES,)
    assert checkpoints.checkpoint() == (0, 0)
