"""`ScanAhead`: the matrix read from the board's first moments, while the rest loads.

A small Pi takes seconds to load the game (the rules, the arbiter, the link, the lights),
and a board that read nothing meanwhile would lose what the players did: a piece lifted
and put down during start-up would then stand in the game's first position as if it had
always been there. So the switch matrix and the clock are opened first (cheap modules), and
a thread reads the matrix at the scan rate and keeps every change with its board time. The
loop, once loaded, takes that backlog (`stop()`) and feeds it to the game, each reading at
its own time, as a scanner that had kept up would have seen it.

The backlog is bounded: the first reads (the start-up self-test's), then at most `cap`
changes. Once full, the oldest are kept (the moves the game must read in order) and the
rest is only counted: a flickering switch cannot fill the memory of a board that never
loads. The thread stops whatever happens (`stop()`, or leaving the `with` block), and
a scan that fails stops it and is raised again in `stop()`, for the loop to report.

The first read is taken by `start()` itself, before the thread and before the log is set
up: `logging` is not imported until a line is written (`log_first_read()`), since on a Pi
Zero 2 W importing it is a tenth of a second that the first scan need not wait for. The
line says when the read was taken (bench/startup.py times the first scan from it).
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only names: the scanner needs none of the rules
    import logging

    from reedboard.hal.clock import Clock
    from reedboard.hal.ports import SwitchMatrix
    from reedboard.rules.squares import Bitboard

FIRST_READS = 3  # the reads the start-up self-test compares (a flaky switch shows in them)
BACKLOG_CAP = 4096  # changes kept: at 200 scans a second, 20 s of a switch changing on every one


def _logger() -> logging.Logger:
    import logging  # when a line is written: see the module's doc

    return logging.getLogger(__name__)


class FirstRead:
    """The board's first read of its matrix: what it read, the process's CPU time by then
    (at a Pi's speed start-up is mostly CPU, a figure steadier than a wall time on a busy
    machine) and its moment on the monotonic clock (`time.monotonic()`)."""

    def __init__(self, scanner: SwitchMatrix) -> None:
        self.occupancy = scanner.scan()
        self.cpu_s = time.process_time()
        self.at_s = time.monotonic()

    def log(self) -> None:
        """The first scan's debug line: the moment the board senses (bench/startup.py)."""
        _logger().debug(
            "first scan: %d squares occupied, after %.3f s of CPU, at %.4f s of the "
            "monotonic clock",
            self.occupancy.bit_count(),
            self.cpu_s,
            self.at_s,
        )


def first_scan(scanner: SwitchMatrix) -> Bitboard:
    """The board's first read of its matrix, logged, for a board not read ahead."""
    first = FirstRead(scanner)
    first.log()
    return first.occupancy


class Backlog:
    """What the matrix read while the game loaded: the first reads (`first`, the first at
    board time `first_ms`), then each change as (board time, occupancy) in time order;
    `overflow` counts the changes read once `changes` was full, which were not kept. The
    loop reads it in time order: `next_change_ms()`, then `reading_at(t_ms)`."""

    def __init__(self, first_ms: int, first: Bitboard) -> None:
        self.first_ms = first_ms
        self.first = [first]
        self.changes: list[tuple[int, Bitboard]] = []
        self.overflow = 0
        self._taken = 0  # the changes the loop has read

    def next_change_ms(self) -> int | None:
        """The board time of the next change the loop has not read (None: none left)."""
        return self.changes[self._taken][0] if self._taken < len(self.changes) else None

    def reading_at(self, t_ms: int) -> Bitboard:
        """What the matrix read at board time `t_ms` (not before the last time asked)."""
        while self._taken < len(self.changes) and self.changes[self._taken][0] <= t_ms:
            self._taken += 1
        return self.changes[self._taken - 1][1] if self._taken else self.first[-1]


class ScanAhead:
    """Reads `scanner` every `period_ms` of `clock`'s time on a thread of its own, from
    `start()` until `stop()`, keeping its first reads and then each change (at most `cap`)."""

    def __init__(
        self, scanner: SwitchMatrix, clock: Clock, *, period_ms: int = 5, cap: int = BACKLOG_CAP
    ) -> None:
        self.scanner = scanner
        self.clock = clock
        self.period_ms = max(1, period_ms)
        self.cap = cap
        self._backlog: Backlog | None = None
        self._last: Bitboard = 0  # the latest read, kept or not
        self._failure: BaseException | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._first: FirstRead | None = None  # until its line is logged

    def start(self) -> ScanAhead:
        """Read the matrix once, here, then go on reading on a thread (daemon: a board that
        fails to load must still exit). A first read that fails is raised by `stop()`."""
        try:
            self.read()
        except BaseException as error:  # handed to the loop by stop(), as the thread's are
            self._failure = error
            return self
        self._thread = threading.Thread(target=self._scan_on, name="scan-ahead", daemon=True)
        self._thread.start()
        return self

    def log_first_read(self) -> None:
        """Log the first read's line (once; `stop()` does, if nobody did before)."""
        first, self._first = self._first, None
        if first is not None:
            first.log()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def read(self) -> None:
        """One read of the matrix, kept if it is among the first or a change."""
        now = self.clock.now_ms()
        backlog = self._backlog
        if backlog is None:
            self._first = FirstRead(self.scanner)
            self._last = self._first.occupancy
            self._backlog = Backlog(now, self._last)
            return
        occupancy = self.scanner.scan()
        if len(backlog.first) < FIRST_READS and not backlog.changes:
            backlog.first.append(occupancy)
        elif occupancy != self._last:
            if len(backlog.changes) < self.cap:
                backlog.changes.append((now, occupancy))
            else:
                backlog.overflow += 1
        self._last = occupancy

    def stop(self) -> Backlog | None:
        """Stop the thread and hand over what it read (None if it read nothing); a scan
        that failed on the thread is raised here."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        self.log_first_read()
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        backlog, self._backlog = self._backlog, None
        if backlog is not None and backlog.overflow:
            _logger().warning(
                "%d switch changes during start-up were not kept (the first %d were)",
                backlog.overflow,
                len(backlog.changes),
            )
        return backlog

    def _scan_on(self) -> None:
        try:
            # The self-test's reads back to back (the first was start()'s), as the loop
            # takes them: a hand that moves a piece between them would be taken for a
            # flickering switch.
            for _ in range(FIRST_READS - 2):
                self.read()
            while not self._stopping.is_set():
                self.read()
                wait = self.clock.real_seconds_until(self.clock.now_ms() + self.period_ms)
                self._stopping.wait(wait)
        except BaseException as error:  # handed to the loop by stop()
            self._failure = error

    def __enter__(self) -> ScanAhead:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
