"""What either end of the serial link needs of the line that carries its bytes: a port. A
serial device (a USB gadget port, a UART), a pty or a test's memory all look alike through
it, so the board and the host never care which one carries them. (The board's MQTT side is
no port: it publishes frames through its endpoint, mqtt_endpoint.py.)"""

from __future__ import annotations

from typing import Protocol


class LinkPort(Protocol):
    def read(self, wait_s: float = 0.0) -> bytes:
        """What has arrived; with `wait_s`, wait up to that long for the first byte."""
        ...

    def write(self, data: bytes) -> None:
        """Queue `data` for the other end; never waits for the line."""
        ...
