"""The journal's writes, off the scan loop: the loop hands each moment's writes over as one
batch and gets a ticket; a thread of its own commits the batches in order, one
transaction each, and says which ticket is durable. The loop never waits on the disk
(an SD card's flush can take 150 ms, thirty scans), and what it tells the host waits for
the ticket of the moment it belongs to (`app_outbox`): the host still never hears of a
move a power cut could take back.

`InlineWriter` does the same work at once, in the caller's thread: for tests that step the
loop by hand and read the journal after each step, and for tools."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence

from reedboard.journal.store import Journal, JournalError

Write = Callable[[Journal], None]

logger = logging.getLogger(__name__)


class InlineWriter:
    """Each batch committed as it is handed over."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._latest = 0
        self._failures: list[JournalError] = []

    def submit(self, writes: Sequence[Write]) -> int:
        """Commit `writes` as one transaction; returns the batch's ticket."""
        self._latest += 1
        self._failures += commit_batch(self.journal, writes)
        return self._latest

    @property
    def latest(self) -> int:
        """The ticket of the last batch handed over (0: none yet)."""
        return self._latest

    def done(self) -> int:
        """Every batch up to this ticket is committed, or failed and was reported."""
        return self._latest

    def failures(self) -> list[JournalError]:
        """The writes that failed since the last call, in order."""
        failures, self._failures = self._failures, []
        return failures

    def drain(self) -> None:
        """Every batch handed over is done (nothing to wait for here)."""

    def close(self) -> None:
        """Drain; the journal itself stays open (its owner closes it)."""


class JournalWriter:
    """The batches committed by a thread of their own, in the order handed over."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._changed = threading.Condition()
        self._queue: deque[tuple[int, Sequence[Write]]] = deque()
        self._latest = 0
        self._done = 0
        self._failures: list[JournalError] = []
        self._closing = False
        self._thread = threading.Thread(target=self._work, name="journal-writer", daemon=True)
        self._thread.start()

    def submit(self, writes: Sequence[Write]) -> int:
        """Hand `writes` over as one transaction; returns the batch's ticket at once."""
        with self._changed:
            if self._closing:
                raise RuntimeError("the journal writer is closed")
            self._latest += 1
            self._queue.append((self._latest, writes))
            self._changed.notify_all()
            return self._latest

    @property
    def latest(self) -> int:
        return self._latest

    def done(self) -> int:
        with self._changed:
            return self._done

    def failures(self) -> list[JournalError]:
        with self._changed:
            failures, self._failures = self._failures, []
        return failures

    def drain(self) -> None:
        """Wait until every batch handed over is done: at shutdown, and before the journal
        is read (the start of a game, a test)."""
        with self._changed:
            self._changed.wait_for(lambda: self._done >= self._latest)

    def close(self) -> None:
        """Drain, then stop the thread."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._thread.join()

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._queue or self._closing)
                if not self._queue:
                    return  # closing, and everything is written
                ticket, writes = self._queue.popleft()
            failures = commit_batch(self.journal, writes)
            with self._changed:
                self._failures += failures
                self._done = ticket
                self._changed.notify_all()


def commit_batch(journal: Journal, writes: Sequence[Write]) -> list[JournalError]:
    """`writes` in one transaction: on disk whole or not at all. A write that fails is
    reported and the others go on; a transaction that cannot begin or commit is tried
    again write by write (the game goes on, with as much of its record as can be kept).
    Returns what failed."""
    failures: list[JournalError] = []
    try:
        with journal.together():
            for write in writes:
                _attempt(journal, write, failures)
    except JournalError as error:
        failures.append(error)
        for write in writes:
            _attempt(journal, write, failures)
    return failures


def _attempt(journal: Journal, write: Write, failures: list[JournalError]) -> None:
    try:
        write(journal)
    except JournalError as error:
        failures.append(error)
    except Exception as error:  # a writer that died would hold every message back
        logger.exception("a journal write failed")
        failures.append(JournalError(f"the journal {journal.path} cannot be written: {error}"))
