"""A link kept open: the one reconnect loop of the board (its serial link to the host) and
of the host (its link to the board, and the serial line `publish` bridges).

A link that fails is closed and opened again at once (a cable put back may be there
already), then every `every_s` while it cannot be opened: a USB port appears only when
its cable is plugged in. The log says when the wait begins, in one line, and when the link
is back, in one; nothing in between, however long the wait.

The owner turns it: `get` gives the open link, opening it first when it is due; `lost`
says the link failed under a read or a write. No thread and no sleep here: the owner
waits (`wait_s`) on its own clock."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

from reedboard.errors import LinkError

Port = TypeVar("Port")


class Reopening(Generic[Port]):
    def __init__(
        self,
        open_port: Callable[[], Port] | None,
        close: Callable[[Port], None],
        *,
        every_s: float,
        now_s: Callable[[], float],
        logger: logging.Logger,
        port: Port | None = None,
        failures: tuple[type[Exception], ...] = (LinkError,),
        back_line: str | None = None,
    ) -> None:
        """`open_port` opens the link (None: it is never opened again), raising one of
        `failures` when it cannot; `close` closes one; `port`: a link already open.
        `back_line`: the log's line when the link is back after a wait, if any."""
        self.open_port = open_port
        self.port = port
        self._close = close
        self.every_s = every_s
        self._now_s = now_s
        self._logger = logger
        self._failures = failures
        self._back_line = back_line
        self._retry_at: float | None = None  # None: at once
        self._told = False  # the log says the link is down

    def get(self) -> Port | None:
        """The open link, opened first if it is down and a try is due; None while down."""
        if self.port is None and self.open_port is not None and self.wait_s() == 0:
            self._try(self.open_port)
        return self.port

    def wait_s(self) -> float:
        """Seconds before the next try to open the link (0: now)."""
        if self._retry_at is None:
            return 0.0
        return max(0.0, self._retry_at - self._now_s())

    def opened(self, port: Port) -> None:
        """A link its owner opened itself (a first connection, whose failure is the
        user's to hear about)."""
        self.port = port
        self._retry_at = None

    def lost(self, error: BaseException, what: str = "") -> None:
        """The link failed under a read or a write: closed, and opened again from the next
        `get`. `what` begins the log's line (the line is said once a wait)."""
        port, self.port = self.port, None
        self._retry_at = None
        if port is None:
            return  # already down, and already said
        self._close(port)
        self._tell(f"{what}{error}")

    def close(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            self._close(port)

    def _try(self, open_port: Callable[[], Port]) -> None:
        self._retry_at = self._now_s() + self.every_s
        try:
            self.port = open_port()
        except self._failures as error:
            self._tell(str(error))
            return
        self._retry_at = None
        if self._told and self._back_line is not None:
            self._logger.info("%s", self._back_line)
        self._told = False

    def _tell(self, text: str) -> None:
        if not self._told:
            self._logger.warning("%s; trying again every %g s", text, self.every_s)
            self._told = True
