"""The D-Bus objects BlueZ reads a GATT peripheral from: a service, its characteristics
and an LE advertisement, exported with dbus-fast (BlueZ's `GattService1`,
`GattCharacteristic1` and `LEAdvertisement1` interfaces). Imported only by a board that
speaks Bluetooth.

A characteristic that notifies does so by its `Value` changing (BlueZ's `StartNotify`
path). It has no `NotifyAcquired` or `WriteAcquired` property on purpose: BlueZ (and its
mock) then never ask for the file-descriptor path (`AcquireNotify`, `AcquireWrite`),
which a characteristic carrying short strings has no use for.
"""

# No `from __future__ import annotations`: dbus-fast reads the D-Bus signatures from the
# annotations at class creation.

from collections.abc import Callable
from typing import Annotated, Any

from dbus_fast import Variant
from dbus_fast.annotations import DBusSignature
from dbus_fast.constants import PropertyAccess
from dbus_fast.service import ServiceInterface, dbus_method, dbus_property

Options = Annotated[dict[str, Variant], DBusSignature("a{sv}")]
Bytes = Annotated[bytes, DBusSignature("ay")]
Strings = Annotated[list[str], DBusSignature("as")]
Path = Annotated[str, DBusSignature("o")]
Text = Annotated[str, DBusSignature("s")]
Flag = Annotated[bool, DBusSignature("b")]
UInt16 = Annotated[int, DBusSignature("q")]

# What a write hands on: the bytes, and the D-Bus path of the central's device (empty
# when BlueZ does not say).
Written = Callable[[bytes, str], None]


class GattService(ServiceInterface):
    def __init__(self, uuid: str) -> None:
        super().__init__("org.bluez.GattService1")
        self._uuid = uuid

    @dbus_property(access=PropertyAccess.READ)
    def UUID(self) -> Text:
        return self._uuid

    @dbus_property(access=PropertyAccess.READ)
    def Primary(self) -> Flag:
        return True


class GattCharacteristic(ServiceInterface):
    """One characteristic: `written` hears what a central writes; `notify` sends."""

    def __init__(
        self, uuid: str, service_path: str, flags: list[str], written: Written | None = None
    ) -> None:
        super().__init__("org.bluez.GattCharacteristic1")
        self._uuid = uuid
        self._service = service_path
        self._flags = flags
        self._written = written
        self._value = b""
        self.notifying = False

    def notify(self, value: bytes) -> None:
        """The new value, to every central that subscribed."""
        self._value = value
        self.emit_properties_changed({"Value": value})

    @dbus_property(access=PropertyAccess.READ)
    def UUID(self) -> Text:
        return self._uuid

    @dbus_property(access=PropertyAccess.READ)
    def Service(self) -> Path:
        return self._service

    @dbus_property(access=PropertyAccess.READ)
    def Flags(self) -> Strings:
        return self._flags

    @dbus_property(access=PropertyAccess.READ)
    def Value(self) -> Bytes:
        return self._value

    @dbus_method()
    def ReadValue(self, options: Options) -> Bytes:
        return self._value

    @dbus_method()
    def WriteValue(self, value: Bytes, options: Options) -> None:
        if self._written is None:
            return
        device = options.get("device")
        self._written(bytes(value), str(device.value) if device is not None else "")

    @dbus_method()
    def StartNotify(self) -> None:
        self.notifying = True

    @dbus_method()
    def StopNotify(self) -> None:
        self.notifying = False

    @dbus_method()
    def Confirm(self) -> None:
        """An indication confirmed: nothing waits for it."""


class Advertisement(ServiceInterface):
    """A connectable LE advertisement with the board's name and its services."""

    def __init__(self, name: str, service_uuids: list[str]) -> None:
        super().__init__("org.bluez.LEAdvertisement1")
        self._name = name
        self._uuids = service_uuids

    @dbus_property(access=PropertyAccess.READ)
    def Type(self) -> Text:
        return "peripheral"

    @dbus_property(access=PropertyAccess.READ)
    def ServiceUUIDs(self) -> Strings:
        return self._uuids

    @dbus_property(access=PropertyAccess.READ)
    def LocalName(self) -> Text:
        return self._name

    @dbus_property(access=PropertyAccess.READ)
    def Discoverable(self) -> Flag:
        return True

    @dbus_method()
    def Release(self) -> None:
        """BlueZ dropped the advertisement (the adapter went away)."""


def unwrap(properties: dict[str, Any]) -> dict[str, Any]:
    """D-Bus variants' values, by property name."""
    return {name: getattr(value, "value", value) for name, value in properties.items()}
