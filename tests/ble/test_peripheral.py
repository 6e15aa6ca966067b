"""The peripheral's side that the board's loop calls: it never waits on Bluetooth, and
what it holds for the D-Bus thread is bounded; and what it makes of BlueZ leaving the bus."""

from __future__ import annotations

import asyncio

from dbus_fast import Message
from reedboard.ble.peripheral import QUEUE_LIMIT, Connection, Peripheral
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


def test_bluez_leaving_the_bus_takes_the_connected_central_as_gone() -> None:
    peripheral = Peripheral("", SERVICES)
    device = "/org/bluez/hci0/dev_00_AA_00_00_00_02"
    peripheral._device_changed(device, {"Address": "00:AA:00:00:00:02", "Connected": True})
    assert peripheral.take() == [Connection(device, "00:AA:00:00:00:02", True)]
    gone = Message.new_signal(
        "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", "sss",
        ["org.bluez", ":1.7", ""],
    )  # fmt: skip
    peripheral._on_message(gone)
    assert peripheral.take() == [Connection(device, "00:AA:00:00:00:02", False)]
    peripheral._on_message(gone)  # told twice: nothing more to tell
    assert peripheral.take() == []
