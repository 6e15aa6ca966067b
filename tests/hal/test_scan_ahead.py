"""`ScanAhead` keeps what the matrix read while the board loaded: its first reads, then
each change with its board time, at most a cap of them; its thread stops whatever
happens, and a scan that failed on it is raised to the loop."""

from __future__ import annotations

import logging
import threading

import pytest
from reedboard.errors import HardwareError
from reedboard.hal.clock import MonotonicClock, VirtualClock
from reedboard.hal.scan_ahead import FIRST_READS, ScanAhead
from reedboard.rules.squares import Bitboard


class Readings:
    """A matrix that reads the given occupancies in turn, then the last one again."""

    def __init__(self, *reads: Bitboard) -> None:
        self.reads = list(reads)

    def scan(self) -> Bitboard:
        return self.reads.pop(0) if len(self.reads) > 1 else self.reads[0]


def read_all(ahead: ScanAhead, clock: VirtualClock, times: list[int]) -> None:
    for t_ms in times:
        clock.t_ms = t_ms
        ahead.read()


def test_the_first_reads_are_kept_then_only_the_changes_with_their_times() -> None:
    clock = VirtualClock()
    ahead = ScanAhead(Readings(7, 7, 5, 5, 5, 4, 4, 6), clock)
    read_all(ahead, clock, [10, 15, 20, 25, 30, 35, 40, 45])
    backlog = ahead.stop()
    assert backlog is not None
    assert (backlog.first_ms, backlog.first) == (10, [7, 7, 5])
    assert backlog.changes == [(35, 4), (45, 6)]
    assert backlog.overflow == 0


def test_the_backlog_is_read_in_time_order() -> None:
    clock = VirtualClock()
    ahead = ScanAhead(Readings(*[3] * FIRST_READS, 1, 0), clock)
    read_all(ahead, clock, [0, 5, 10, 100, 200])
    backlog = ahead.stop()
    assert backlog is not None
    assert backlog.next_change_ms() == 100
    assert backlog.reading_at(99) == 3
    assert backlog.reading_at(150) == 1
    assert backlog.next_change_ms() == 200
    assert backlog.reading_at(200) == 0
    assert backlog.next_change_ms() is None


def test_the_backlog_is_bounded_keeping_the_oldest(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    flicker = [1, 0] * 10
    ahead = ScanAhead(Readings(*[0] * FIRST_READS, *flicker), clock, cap=4)
    read_all(ahead, clock, list(range(0, 5 * (FIRST_READS + len(flicker)), 5)))
    with caplog.at_level(logging.WARNING):
        backlog = ahead.stop()
    assert backlog is not None
    assert backlog.changes == [(15, 1), (20, 0), (25, 1), (30, 0)]
    assert backlog.overflow == len(flicker) - 4
    assert "16 switch changes during start-up were not kept" in caplog.text


def test_nothing_read_is_no_backlog() -> None:
    assert ScanAhead(Readings(0), VirtualClock()).stop() is None


def test_the_thread_reads_until_stopped() -> None:
    read = threading.Event()

    class Seen(Readings):
        def scan(self) -> Bitboard:
            read.set()
            return super().scan()

    ahead = ScanAhead(Seen(0xFF), MonotonicClock(), period_ms=1).start()
    try:
        assert read.wait(30)
        assert ahead.running
    finally:
        backlog = ahead.stop()
    assert not ahead.running
    assert backlog is not None and backlog.first[0] == 0xFF


def test_the_thread_is_stopped_when_the_loading_fails() -> None:
    ahead = ScanAhead(Readings(0), MonotonicClock(), period_ms=1)
    with pytest.raises(RuntimeError, match="loading failed"), ahead.start():
        assert ahead.running
        raise RuntimeError("loading failed")
    assert not ahead.running


def test_a_scan_that_fails_on_the_thread_is_raised_to_the_loop() -> None:
    class Broken:
        def scan(self) -> Bitboard:
            raise HardwareError("the matrix's pins were taken")

    ahead = ScanAhead(Broken(), MonotonicClock(), period_ms=1).start()
    with pytest.raises(HardwareError, match="pins were taken"):
        ahead.stop()
    assert not ahead.running
