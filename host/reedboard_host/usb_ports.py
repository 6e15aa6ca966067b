"""The serial ports that may be a board: USB serial ports only (a Pi in USB gadget mode
shows up as ttyACM, a USB-serial adapter wired to its UART as ttyUSB). A PC's built-in
ttyS ports are never a board, so they are never chosen on their own."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from typing import Protocol

from serial.tools import list_ports

# Linux, macOS and the BSDs name USB serial devices so; on Windows (COMn) only the USB
# vendor id tells.
_USB_NAME = re.compile(r"tty(ACM|USB)\d+|cu\.usb(modem|serial).*|ttyU\d+")


class PortInfo(Protocol):
    device: str
    vid: int | None


def usb_serial_ports(
    comports: Callable[[], Iterable[PortInfo]] = list_ports.comports,
) -> list[str]:
    """The USB serial ports, likeliest first: ttyACM (a Pi's gadget port), then the rest."""
    found = [
        port.device
        for port in comports()
        if port.vid is not None or _USB_NAME.fullmatch(os.path.basename(port.device))
    ]
    return sorted(found, key=lambda device: ("ACM" not in device, "modem" not in device, device))
