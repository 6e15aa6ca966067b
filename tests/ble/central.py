"""The phone's app in a test: a bleak central on one of BlueZoo's virtual adapters that
finds the board by name, subscribes to its CPP notifications and writes commands; and a
board that turns on its own thread, so that the central's awaits and the board's loop
run as they do on a real board and a real phone."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from types import TracebackType

from bleak import BleakClient, BleakScanner
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData
from dbus_fast import BusType, Message
from dbus_fast.aio import MessageBus
from reedboard.ble.cpp import CENTRAL_RX_UUID, CENTRAL_TX_UUID

from tests.ble.phone_board import PhoneBoard

WAIT_S = 20.0
FIRST_SCAN_S = 3.0  # BlueZoo scans at once when asked, then every second  # generous: a loaded machine's D-Bus is slow, never this slow


class Central:
    def __init__(
        self,
        name: str,
        adapter: str = "hci1",
        *,
        write_uuid: str = CENTRAL_TX_UUID,
        notify_uuid: str = CENTRAL_RX_UUID,
    ) -> None:
        self.name = name
        self.adapter = adapter
        self.write_uuid, self.notify_uuid = write_uuid, notify_uuid
        self.raw = bytearray()  # every notification's bytes, joined
        self.client: BleakClient | None = None
        self.device: BLEDevice | None = None
        self.heard: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self.disconnected = asyncio.Event()

    async def connect(self) -> None:
        """Found by its name, connected, subscribed (once per central: BlueZoo 1.0 does
        not take down the services it linked for a connection when it ends, and cannot
        link them again between the same two adapters)."""
        assert self.device is None, "BlueZoo connects two adapters once"
        device = self.device = await self._find()
        loop = asyncio.get_running_loop()

        def gone(_client: BleakClient) -> None:
            loop.call_soon_threadsafe(self.disconnected.set)

        self.disconnected.clear()
        client = BleakClient(device, disconnected_callback=gone, bluez={"adapter": self.adapter})
        await client.connect(timeout=WAIT_S)
        self.client = client
        await client.start_notify(self.notify_uuid, self._notified)

    async def _find(self) -> BLEDevice:
        """The board, by its name. BlueZ tells of a device when it adds it, and BlueZoo
        adds it at the first scan, which can come before bleak listens: when the first
        scan brings nothing, the adapter forgets what it found, and finds the board anew
        at BlueZoo's next scan (a second later), bleak listening."""
        loop = asyncio.get_running_loop()
        found: list[asyncio.Future[BLEDevice]] = [loop.create_future()]

        def seen(device: BLEDevice, _ad: AdvertisementData) -> None:
            if device.name == self.name and not found[-1].done():
                found[-1].set_result(device)

        async with BleakScanner(seen, bluez={"adapter": self.adapter}):
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(asyncio.shield(found[-1]), FIRST_SCAN_S)
            # Only a sighting once the adapter has forgotten counts: one while it forgets
            # (BlueZoo's scan of each second updates the device as it goes) is of a device
            # about to be gone, and connecting to it finds no such device.
            await _forget_devices(self.adapter)
            found.append(loop.create_future())
            return await asyncio.wait_for(found[-1], WAIT_S)

    def _notified(self, _char: BleakGATTCharacteristic, data: bytearray) -> None:
        self.raw += data
        self.heard.put_nowait((time.perf_counter(), bytes(data).decode("latin-1")))

    async def write(self, text: str | bytes) -> None:
        assert self.client is not None
        data = text.encode() if isinstance(text, str) else text
        await self.client.write_gatt_char(self.write_uuid, data, response=True)

    async def next(self) -> str:
        _when, text = await asyncio.wait_for(self.heard.get(), WAIT_S)
        return text

    async def until(self, prefix: str) -> str:
        """The next notification that starts with `prefix` (others skipped)."""
        while True:
            text = await self.next()
            if text.startswith(prefix):
                return text

    async def disconnect(self) -> None:
        if self.client is not None:
            await self.client.disconnect()
            self.client = None


async def _forget_devices(adapter: str) -> None:
    bus = await MessageBus(bus_type=BusType.SYSTEM).connect()
    try:
        reply = await bus.call(
            Message(
                destination="org.bluez",
                path="/",
                interface="org.freedesktop.DBus.ObjectManager",
                member="GetManagedObjects",
            )
        )
        assert reply is not None
        for path in reply.body[0]:
            if path.startswith(f"/org/bluez/{adapter}/dev_") and path.count("/") == 4:
                await bus.call(
                    Message(
                        destination="org.bluez",
                        path=f"/org/bluez/{adapter}",
                        interface="org.bluez.Adapter1",
                        member="RemoveDevice",
                        signature="o",
                        body=[path],
                    )
                )
    finally:
        bus.disconnect()


class Turning:
    """The board turning on a thread of its own for the block, a turn every few ms of
    real time (the board's virtual clock moves a turn's worth each time)."""

    def __init__(self, board: PhoneBoard) -> None:
        self.board = board
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._turn, daemon=True)

    def _turn(self) -> None:
        while not self._stop.is_set():
            self.board.run(5)
            time.sleep(0.002)

    def __enter__(self) -> Turning:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(10)


async def board_time(board: PhoneBoard, ms: int) -> None:
    """Until the turning board's clock has moved on by `ms` (board time, not the wall's:
    a lift and a place that the board must see apart, a placement it must take as final)."""
    until = board.now + ms
    while board.now < until:
        await asyncio.sleep(0.005)


async def move(board: PhoneBoard, origin: str, target: str, *, capture: bool = False) -> None:
    """A player's move on the turning board."""
    if capture:
        board.lift(target)
        await board_time(board, 100)
    board.lift(origin)
    await board_time(board, 150)
    board.place(target)
