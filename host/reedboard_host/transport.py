"""What carries the host's end of the link, and the host's time: seams, so that the same
connection, reconnection and bridges run on a serial port in the field and on a board in
memory in a test, where waiting moves a virtual clock on instead of passing real time.

- `open_port(url) -> BoardPort`: a serial device, a pty path or a pyserial URL; any
  other opener with that signature (a board in memory) does as well.
- `HostClock`: `monotonic()` and `sleep(seconds)`; `REAL_TIME` is the computer's."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from reedboard.link.port import LinkPort
from reedboard.link.serial_port import open_port as open_serial_port


class BoardPort(LinkPort, Protocol):
    """A `LinkPort` the host opened, and so closes."""

    def close(self) -> None: ...


PortOpener = Callable[[str], BoardPort]


def open_port(url: str) -> BoardPort:
    """The serial port at `url`; a `LinkError` in one line when it is absent or busy."""
    return open_serial_port(url)


class HostClock(Protocol):
    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class RealTime:
    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


REAL_TIME = RealTime()
