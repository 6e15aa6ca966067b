"""The peripheral's side that the board's loop calls: it never waits on Bluetooth, and
what it holds for the D-Bus thread is bounded."""

from __future__ import annotations

import asyncio

from reedboard.ble.peripheral import QUEUE_LIMIT, Peripheral
from reedboard.ble.phone import SERVICES


def test_sending_with_no_bluetooth_running_is_dropped_at_once() -> None:
    peripheral = Peripheral("", SERVICES)
    peripheral.send("cpp", b"move e2e4")  # never started: nothing to hand it to
    assert peripheral.take() == []
    assert peripheral.dropped == 0


def test_a_d_bus_thread_that_falls_behind_loses_the_oldest_notifications() -> None:
    peripheral = Peripheral("", SERVICES)
    stalled = asyncio.new_event_loop()  # a loop that never runs: its thread is stuck
    peripheral._loop = stalled
    try:
        for n in range(QUEUE_LIMIT + 44):
            peripheral.send("cpp", f"state {n}".encode())
        assert peripheral.dropped == 44
        waiting = list(peripheral._outgoing)  # what the thread sends when it catches up
        assert len(waiting) == QUEUE_LIMIT
        assert waiting[0] == ("cpp", b"state 44")
        assert waiting[-1] == ("cpp", f"state {QUEUE_LIMIT + 43}".encode())
    finally:
        stalled.close()
