"""What either end of the link needs of the line that carries its bytes: a port. A serial
device, a pty, an MQTT topic or a test's memory all look alike through it, so the board and
the host never care which one carries them."""

from __future__ import annotations

from typing import Protocol


class LinkPort(Protocol):
    def read(self, wait_s: float = 0.0) -> bytes:
        """What has arrived; with `wait_s`, wait up to that long for the first byte."""
        ...

    def write(self, data: bytes) -> None:
        """Queue `data` for the other end; never waits for the line."""
        ...
