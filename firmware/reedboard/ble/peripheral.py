"""The board as a Bluetooth LE peripheral, through BlueZ's D-Bus API (dbus-fast): its
GATT services registered, its name advertised, centrals' writes and connections heard.

The board's loop never waits on Bluetooth: the D-Bus conversation runs on an asyncio
loop in a thread of its own. The loop hands over what it sends (`send`: queued, at most
`QUEUE_LIMIT` notifications, the oldest dropped and counted beyond) and takes what came
in (`take`), both at once, whatever the radio does. Only `start` and `close` wait, for at
most a few seconds, before and after the board runs.

Imported only by a board that speaks Bluetooth (`[ble]`, `reedboard run --ble`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from dbus_fast import BusType, Message, MessageType, Variant
from dbus_fast.aio import MessageBus
from dbus_fast.errors import DBusError

from reedboard.ble.gatt_objects import Advertisement, GattCharacteristic, GattService, unwrap
from reedboard.errors import ReedboardError

logger = logging.getLogger(__name__)

QUEUE_LIMIT = 256  # notifications waiting for the D-Bus thread; beyond, the oldest go
START_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 3.0
# After bluetoothd restarts: its adapters may come a little after its name; tried again
# every REREGISTER_EVERY_S until REREGISTER_S have passed.
REREGISTER_S = 30.0
REREGISTER_EVERY_S = 0.5
APP_PATH = "/org/reedboard/ble"
DEVICE = "org.bluez.Device1"


class BluetoothError(ReedboardError, OSError):
    """Bluetooth could not be set up: no BlueZ, no adapter, a registration refused."""


@dataclass(frozen=True, slots=True)
class SerialService:
    """A GATT service that carries a serial line: the central writes `rx_uuid`, the
    peripheral notifies `tx_uuid`. `key` names it for the board."""

    key: str
    uuid: str
    rx_uuid: str
    tx_uuid: str


@dataclass(frozen=True, slots=True)
class Received:
    """Bytes a central wrote to a service's `rx` characteristic."""

    service: str
    data: bytes
    device: str  # the central's D-Bus path on the board's adapter


@dataclass(frozen=True, slots=True)
class Connection:
    """A central connected (`connected`) or went away."""

    device: str
    address: str
    connected: bool
    name: str = ""  # the name the central gives itself (its phone's), when BlueZ has one


Incoming = Received | Connection


class Peripheral:
    """The GATT peripheral on adapter `adapter` (hci0), advertising as `name`."""

    def __init__(
        self, name: str, services: Sequence[SerialService], *, adapter: str = "hci0"
    ) -> None:
        self.name = name  # "": reedboard-XXXX, the last four hex digits of the adapter's address
        self.services = tuple(services)
        self.adapter = adapter
        self.adapter_path = f"/org/bluez/{adapter}"
        self.dropped = 0  # notifications dropped because the D-Bus thread fell behind
        self._incoming: deque[Incoming] = deque()
        self._outgoing: deque[tuple[str, bytes]] = deque()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._bus: MessageBus | None = None
        self._tx: dict[str, GattCharacteristic] = {}
        self._addresses: dict[str, str] = {}
        self._names: dict[str, str] = {}
        self._connected: set[str] = set()
        self._stopped: asyncio.Event | None = None
        self._reregistering: asyncio.Task[None] | None = None
        self.registrations = 0  # times the services and advertisement were registered

    # ----- the board's side: never waits -----

    def send(self, service: str, data: bytes) -> None:
        """Notify `data` on `service`'s tx characteristic, off the caller's thread."""
        loop = self._loop
        if loop is None:
            return
        with self._lock:
            if len(self._outgoing) >= QUEUE_LIMIT:
                self._outgoing.popleft()
                self.dropped += 1
            wake = not self._outgoing  # one wake-up for a turn's notifications, not each
            self._outgoing.append((service, data))
        if wake:
            with contextlib.suppress(RuntimeError):  # the loop has closed: the board stops
                loop.call_soon_threadsafe(self._drain)

    def take(self) -> list[Incoming]:
        """What came in since the last call: writes and connections, in order."""
        with self._lock:
            taken = list(self._incoming)
            self._incoming.clear()
        return taken

    def disconnect(self, device: str) -> None:
        """Ask BlueZ to drop a central (a second one, while another controls the board)."""
        loop = self._loop
        if loop is not None:
            asyncio.run_coroutine_threadsafe(self._disconnect(device), loop)

    # ----- start and stop: before and after the board runs -----

    def start(self) -> None:
        """Register the services and the advertisement; `BluetoothError` naming what
        failed when BlueZ (or the adapter) is not there."""
        ready: list[BaseException | None] = []
        started = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._serve(ready, started))
            finally:
                started.set()
                loop.close()

        self._thread = threading.Thread(target=run, name="ble", daemon=True)
        self._thread.start()
        if not started.wait(START_TIMEOUT_S):
            self.close()
            raise BluetoothError(
                f"{self._which()}: BlueZ did not answer in {START_TIMEOUT_S:.0f} s"
            )
        error = ready[0] if ready else None
        if error is not None:
            self.close()
            raise BluetoothError(f"{self._which()}: {error}")

    def _which(self) -> str:
        return f"Bluetooth on {self.adapter} as {self.name or 'reedboard-XXXX'}"

    def close(self) -> None:
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopped.set)
        if self._thread is not None:
            self._thread.join(CLOSE_TIMEOUT_S)
        self._loop = None

    # ----- the D-Bus thread -----

    async def _serve(self, ready: list[BaseException | None], started: threading.Event) -> None:
        self._stopped = asyncio.Event()
        try:
            bus = await MessageBus(bus_type=BusType.SYSTEM).connect()
        except (OSError, DBusError, ValueError) as error:
            ready.append(OSError(f"cannot reach the system bus: {error}"))
            return
        self._bus = bus
        try:
            self._export(bus)
            await self._watch()
            await self._register()
        except (DBusError, OSError) as error:
            ready.append(error)
            bus.disconnect()
            return
        ready.append(None)
        started.set()
        await self._stopped.wait()
        await self._unregister(bus)
        bus.disconnect()

    def _export(self, bus: MessageBus) -> None:
        """The application's objects on the bus, for BlueZ to read when it registers them."""
        for index, spec in enumerate(self.services):
            path = f"{APP_PATH}/service{index}"
            bus.export(path, GattService(spec.uuid))
            rx = GattCharacteristic(
                spec.rx_uuid,
                path,
                ["write", "write-without-response"],
                written=partial(self._written, spec.key),
            )
            tx = GattCharacteristic(spec.tx_uuid, path, ["read", "notify"])
            bus.export(f"{path}/char0", rx)
            bus.export(f"{path}/char1", tx)
            self._tx[spec.key] = tx
        bus.add_message_handler(self._on_message)

    async def _watch(self) -> None:
        """BlueZ's signals about the adapter's devices (who connects), and its name
        leaving the bus and coming back (bluetoothd restarted)."""
        for rule in (
            f"type='signal',sender='org.bluez',path_namespace='{self.adapter_path}'",
            "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'",
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',"
            "arg0='org.bluez'",
        ):
            await self._call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                             "org.freedesktop.DBus", "AddMatch", "s", [rule])  # fmt: skip

    async def _register(self) -> None:
        """The adapter powered and discoverable, the services and the advertisement
        registered: at start, and again whenever bluetoothd comes back."""
        adapter = "org.bluez.Adapter1"
        if not self.name:
            address = await self._call("org.bluez", self.adapter_path, "org.freedesktop.DBus.Properties",
                                       "Get", "ss", [adapter, "Address"])  # fmt: skip
            digits = str(getattr(address[0], "value", "")).replace(":", "")
            self.name = f"reedboard-{digits[-4:].upper() or '0000'}"
        if self.registrations == 0:
            bus = self._bus
            assert bus is not None
            uuids = [spec.uuid for spec in self.services]
            bus.export(f"{APP_PATH}/advertisement0", Advertisement(self.name, uuids))
        await self._call("org.bluez", self.adapter_path, "org.freedesktop.DBus.Properties",
                         "Set", "ssv", [adapter, "Powered", Variant("b", True)])  # fmt: skip
        try:
            # Some centrals (and BlueZ's mock) find only a discoverable adapter's board.
            await self._call("org.bluez", self.adapter_path, "org.freedesktop.DBus.Properties",
                             "Set", "ssv", [adapter, "Discoverable", Variant("b", True)])  # fmt: skip
        except DBusError as error:
            logger.warning("Bluetooth: the adapter could not be made discoverable: %s", error)
        for interface, method, path in (
            ("org.bluez.GattManager1", "RegisterApplication", APP_PATH),
            ("org.bluez.LEAdvertisingManager1", "RegisterAdvertisement", f"{APP_PATH}/advertisement0"),
        ):  # fmt: skip
            try:
                await self._call("org.bluez", self.adapter_path, interface, method, "oa{sv}",
                                 [path, {}])  # fmt: skip
            except DBusError as error:
                # Registered by an attempt that failed further on: tried again, it stands.
                if error.type != "org.bluez.Error.AlreadyExists":
                    raise
        self.registrations += 1
        logger.info("Bluetooth: advertising as %s", self.name)

    async def _register_again(self) -> None:
        """bluetoothd is back: register with it until it takes the board (its adapter may
        come after its name), or say why it would not."""
        deadline = asyncio.get_running_loop().time() + REREGISTER_S
        while True:
            try:
                await self._register()
                return
            except (DBusError, OSError) as error:
                if asyncio.get_running_loop().time() > deadline:
                    logger.error("Bluetooth: BlueZ restarted and refuses the board: %s", error)
                    return
            await asyncio.sleep(REREGISTER_EVERY_S)

    def _bluez_changed(self, old_owner: str, new_owner: str) -> None:
        if old_owner:
            # bluetoothd went away, and its connections with it.
            logger.warning("Bluetooth: BlueZ left the bus; the board waits for it")
            for path in sorted(self._connected):
                self._device_changed(path, {"Connected": False})
        if new_owner:
            logger.info("Bluetooth: BlueZ is back; registering the board again")
            if self._reregistering is not None:
                self._reregistering.cancel()
            self._reregistering = asyncio.ensure_future(self._register_again())

    async def _unregister(self, bus: MessageBus) -> None:
        for interface, method, path in (
            ("org.bluez.LEAdvertisingManager1", "UnregisterAdvertisement", f"{APP_PATH}/advertisement0"),
            ("org.bluez.GattManager1", "UnregisterApplication", APP_PATH),
        ):  # fmt: skip
            try:
                await asyncio.wait_for(
                    self._call("org.bluez", self.adapter_path, interface, method, "o", [path]),
                    CLOSE_TIMEOUT_S / 2,
                )
            except (DBusError, OSError, TimeoutError) as error:
                logger.debug("Bluetooth: %s: %s", method, error)

    async def _call(
        self,
        destination: str,
        path: str,
        interface: str,
        member: str,
        signature: str,
        body: list[object],
    ) -> list[object]:
        bus = self._bus
        assert bus is not None
        reply = await bus.call(
            Message(
                destination=destination,
                path=path,
                interface=interface,
                member=member,
                signature=signature,
                body=body,
            )
        )
        assert reply is not None
        if reply.message_type == MessageType.ERROR:
            raise DBusError(
                reply.error_name or "org.bluez.Error",
                str(reply.body[0] if reply.body else ""),
                reply,
            )
        return list(reply.body)

    async def _disconnect(self, device: str) -> None:
        try:
            await self._call("org.bluez", device, DEVICE, "Disconnect", "", [])
        except (DBusError, OSError) as error:
            logger.info("Bluetooth: could not drop %s: %s", device, error)

    def _drain(self) -> None:
        with self._lock:
            waiting = list(self._outgoing)
            self._outgoing.clear()
        for key, data in waiting:
            characteristic = self._tx.get(key)
            if characteristic is not None:
                characteristic.notify(data)

    def _written(self, key: str, data: bytes, device: str) -> None:
        with self._lock:
            self._incoming.append(Received(key, data, device))

    def _on_message(self, message: Message) -> None:
        """BlueZ's signals about the devices on the board's adapter: who connects."""
        if message.message_type != MessageType.SIGNAL or len(message.body) < 2:
            return
        if message.member == "NameOwnerChanged" and message.body[0] == "org.bluez":
            self._bluez_changed(message.body[1], message.body[2])
        elif message.member == "InterfacesAdded" and message.body:
            path, interfaces = message.body[0], message.body[1]
            if DEVICE in interfaces:
                self._device_changed(path, unwrap(interfaces[DEVICE]))
        elif message.member == "PropertiesChanged" and message.body[0] == DEVICE:
            self._device_changed(message.path or "", unwrap(message.body[1]))
        elif message.member == "InterfacesRemoved" and DEVICE in message.body[1]:
            self._device_changed(message.body[0], {"Connected": False})

    def _device_changed(self, path: str, properties: dict[str, object]) -> None:
        if not path.startswith(self.adapter_path + "/"):
            return
        address = properties.get("Address")
        if isinstance(address, str):
            self._addresses[path] = address
        name = properties.get("Alias", properties.get("Name"))
        if isinstance(name, str):
            self._names[path] = name
        connected = properties.get("Connected")
        if not isinstance(connected, bool) or (path in self._connected) == connected:
            return
        if connected:
            self._connected.add(path)
        else:
            self._connected.discard(path)
        with self._lock:
            self._incoming.append(
                Connection(
                    path, self._addresses.get(path, ""), connected, self._names.get(path, "")
                )
            )
