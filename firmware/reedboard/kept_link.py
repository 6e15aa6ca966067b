"""The board's serial link to the host, kept open: a port that fails is closed, and one
that is not there (a USB gadget port appears only when a PC plugs in) or goes away is
opened again every `REOPEN_MS`, so the board never stops for want of a link. One log line
when the wait begins, one when the port is back, quiet in between.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from reedboard.errors import LinkError
from reedboard.hal.clock import Clock
from reedboard.link.port import LinkPort

REOPEN_MS = 1000

logger = logging.getLogger(__name__)


class KeptLink:
    def __init__(
        self, port: LinkPort | None, reopen: Callable[[], LinkPort] | None, clock: Clock
    ) -> None:
        self.port = port
        self.reopen = reopen
        self.clock = clock
        # Without a port but able to open one: try at once, then every REOPEN_MS.
        self._down_at: int | None = -REOPEN_MS if port is None and reopen else None
        self._told = False  # the log already says the link is down

    def read(self, wait_s: float) -> bytes:
        """What the host sent, waiting up to `wait_s`; nothing while the link is down."""
        if self.port is None:
            return b""
        try:
            return self.port.read(wait_s)
        except LinkError as error:
            self._failed(error)
            return b""

    def write(self, data: bytes) -> None:
        """Send `data`, after trying the port again if it is due; with no port, `data` is
        dropped: a host that connects later asks for what it missed."""
        if self.port is None:
            self._try_reopen()
        if self.port is None:
            return
        try:
            self.port.write(data)
        except LinkError as error:
            self._failed(error)

    def _failed(self, error: LinkError) -> None:
        logger.warning("%s; trying again every %g s", error, REOPEN_MS / 1000)
        self._told = True
        close = getattr(self.port, "close", None)
        if close is not None:
            close()
        self.port = None
        self._down_at = self.clock.now_ms()

    def _try_reopen(self) -> None:
        if self.reopen is None or self._down_at is None:
            return
        if self.clock.now_ms() - self._down_at < REOPEN_MS:
            return
        try:
            self.port = self.reopen()
        except LinkError as error:
            # An absent port (no PC plugged in yet, a cable pulled) is waited for: one
            # line when the wait begins, then quiet until the port is back.
            if not self._told:
                logger.warning("%s; trying again every %g s", error, REOPEN_MS / 1000)
                self._told = True
            self._down_at = self.clock.now_ms()
            return
        self._down_at = None
        if self._told:
            logger.info("the serial link is open again")
            self._told = False
