"""A radio-free Bluetooth for a test: a private `dbus-daemon` (its own configuration, a
socket in the test's folder) with BlueZoo, a user-space mock of BlueZ, serving three
virtual adapters on it: hci0 for the board, hci1 and hci2 for phones (bleak centrals).

`mock_bluez(folder)` yields the bus's address once BlueZoo has both adapters up, with
`DBUS_SYSTEM_BUS_ADDRESS` pointing there for the block (dbus-fast, and so bleak and the
board's peripheral, read it when they connect); both programs are stopped when the
block ends, whatever happened in it."""

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

from tests.children import child

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


@contextlib.contextmanager
def mock_bluez(folder: Path) -> Iterator[str]:
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
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": address}
        zoo_cmd = [
            *_bluezoo(),
            "--auto-enable",
            "--scan-interval",
            "1",
        ]
        zoo_cmd += ["-a", BOARD_ADAPTER, "-a", PHONE_ADAPTER, "-a", SECOND_PHONE_ADAPTER]
        with child(zoo_cmd, env=env, stdout=subprocess.DEVNULL, stderr=folder.joinpath(
            "bluezoo.log").open("wb")):  # fmt: skip
            while not asyncio.run(_adapters_up(address)):
                if time.monotonic() > deadline:
                    raise RuntimeError("BlueZoo did not bring its adapters up")
                time.sleep(0.1)
            before = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS")
            os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = address
            try:
                yield address
            finally:
                if before is None:
                    os.environ.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
                else:
                    os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = before
