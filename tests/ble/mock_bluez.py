"""A radio-free Bluetooth for a test: a private `dbus-daemon` (its own configuration, a
socket in the test's folder) with BlueZoo, a user-space mock of BlueZ, serving three
virtual adapters on it: hci0 for the board, hci1 and hci2 for phones (bleak centrals).

`mock_bluez(folder)` yields BlueZoo (`MockBluez`: the bus's `address`, and `restart`)
once it has its adapters up, with `DBUS_SYSTEM_BUS_ADDRESS` pointing there for the block
(dbus-fast, and so bleak and the board's peripheral, read it when they connect); both
programs are stopped when the block ends, whatever happened in it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from dbus_fast import BusType, Message, MessageType
from dbus_fast.aio import MessageBus

from tests.children import child, stop

DBUS_DAEMON = "/usr/bin/dbus-daemon"
BOARD_ADAPTER = "00:AA:00:00:00:01"
PHONE_ADAPTER = "00:AA:00:00:00:02"
SECOND_PHONE_ADAPTER = "00:AA:00:00:00:03"
START_S = 20.0

_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


def _bluezoo() -> list[str]:
    found = shutil.which("bluezoo", path=os.path.dirname(sys.executable))
    return (
        [found] if found else [sys.executable, "-c", "from bluezoo import bluezoo; bluezoo.main()"]
    )


async def _adapters_up(address: str) -> bool:
    """Whether BlueZoo answers with both adapters on the bus at `address`."""
    try:
        bus = await MessageBus(bus_address=address, bus_type=BusType.SYSTEM).connect()
    except OSError:
        return False
    try:
        reply = await bus.call(
            Message(
                destination="org.bluez",
                path="/",
                interface="org.freedesktop.DBus.ObjectManager",
                member="GetManagedObjects",
            )
        )
        if reply is None or reply.message_type != MessageType.METHOD_RETURN:
            return False
        paths = set(reply.body[0])
        return {"/org/bluez/hci0", "/org/bluez/hci1", "/org/bluez/hci2"} <= paths
    finally:
        bus.disconnect()


class MockBluez:
    """BlueZoo on the private bus at `address`; `restart` stops it and starts it again,
    as a Pi's bluetoothd restarting (its name leaves the bus and comes back)."""

    def __init__(self, folder: Path, address: str) -> None:
        self.folder = folder
        self.address = address
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": self.address}
        command = [*_bluezoo(), "--auto-enable", "--scan-interval", "1"]
        command += ["-a", BOARD_ADAPTER, "-a", PHONE_ADAPTER, "-a", SECOND_PHONE_ADAPTER]
        with self.folder.joinpath("bluezoo.log").open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + START_S
        while not asyncio.run(_adapters_up(self.address)):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("BlueZoo did not bring its adapters up")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@contextlib.contextmanager
def mock_bluez(folder: Path) -> Iterator[MockBluez]:
    folder.mkdir(parents=True, exist_ok=True)
    socket = folder / "system_bus_socket"
    config = folder / "bus.conf"
    config.write_text(_CONFIG.format(socket=socket))
    address = f"unix:path={socket}"
    daemon_cmd = [DBUS_DAEMON, f"--config-file={config}", "--nofork", "--nopidfile"]
    with child(daemon_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        deadline = time.monotonic() + START_S
        while not socket.exists():
            if time.monotonic() > deadline:
                raise RuntimeError("dbus-daemon did not open its socket")
            time.sleep(0.02)
        bluez = MockBluez(folder, address)
        try:
            bluez.start()
            before = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS")
            os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = address
            try:
                yield bluez
            finally:
                if before is None:
                    os.environ.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
                else:
                    os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = before
        finally:
            bluez.stop()
