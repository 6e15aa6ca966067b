"""The board's serial link to the host, kept open: a port that fails is closed, and one
that is not there (a USB gadget port appears only when a PC plugs in) or goes away is
opened again every `REOPEN_MS` (`reedboard.link.reopening`, the host's loop too), so the
board never stops for want of a link. One log line when the wait begins, one when the
port is back, quiet in between.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from reedboard.errors import LinkError
from reedboard.hal.clock import Clock
from reedboard.link.port import LinkPort
from reedboard.link.reopening import Reopening

REOPEN_MS = 1000

logger = logging.getLogger(__name__)


def _close(port: LinkPort) -> None:
    close = getattr(port, "close", None)  # a scripted port has nothing to close
    if close is not None:
        close()


class KeptLink:
    def __init__(
        self, port: LinkPort | None, reopen: Callable[[], LinkPort] | None, clock: Clock
    ) -> None:
        self.reopen = reopen
        self._kept = Reopening(
            reopen, _close, every_s=REOPEN_MS / 1000, now_s=lambda: clock.now_ms() / 1000,
            logger=logger, port=port, back_line="the serial link is open again",
        )  # fmt: skip

    @property
    def port(self) -> LinkPort | None:
        return self._kept.port

    def read(self, wait_s: float) -> bytes:
        """What the host sent, waiting up to `wait_s`; nothing while the link is down."""
        port = self._kept.port
        if port is None:
            return b""
        try:
            return port.read(wait_s)
        except LinkError as error:
            self._kept.lost(error)
            return b""

    def write(self, data: bytes) -> None:
        """Send `data`, after trying the port again if it is due; with no port, `data` is
        dropped: a host that connects later asks for what it missed."""
        port = self._kept.get()
        if port is None:
            return
        try:
            port.write(data)
        except LinkError as error:
            self._kept.lost(error)
