"""The simulated board's serial side: a pseudo-terminal whose other end (`path`) a host
opens like the board's USB serial device, so `reedboard-host` works against it unchanged.

The board keeps the far end open itself: a host may come and go, and without a holder
the master end would read as failed each time the last one left.
"""

from __future__ import annotations

import contextlib
import os
import select
import tty

from reedboard.errors import LinkError
from reedboard.link.outbox import Outbox


class PtyLink:
    """A `LinkPort` on the master end of a fresh pty."""

    def __init__(self) -> None:
        self.outbox = Outbox()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: a byte pipe like a serial line
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)

    def read(self, wait_s: float = 0.0) -> bytes:
        try:
            ready, _, _ = select.select([self._master], [], [], max(0.0, wait_s))
            if not ready:
                return b""
            return os.read(self._master, 4096)
        except BlockingIOError:
            return b""
        except OSError as error:
            raise LinkError(f"the pty failed: {error.strerror}") from None

    def write(self, data: bytes) -> None:
        # What the pty does not take now waits for later turns; with no host reading, the
        # oldest whole batches are dropped (a host asks for what it missed), never half
        # a frame.
        self.outbox.add(data)
        try:
            self.outbox.drain(self._write_some)
        except OSError as error:
            raise LinkError(f"the pty failed: {error.strerror}") from None

    def _write_some(self, data: bytes) -> int:
        try:
            return os.write(self._master, data)
        except BlockingIOError:
            return 0  # the pty's buffer is full

    def close(self) -> None:
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
