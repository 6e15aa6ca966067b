"""What a person running a board, a bridge or a relay must hear of its MQTT connection,
and no more: one line when the broker cannot be reached or refuses the connection (what,
where, and that paho keeps trying), one line when it is reached after that, and one line
when the broker keeps closing a connection it has just accepted, which is what MQTT
brokers do to the older of two clients with the same client id. Everything else (a
connection closed, opened again at once) is a debug line.

paho calls in from its own thread; the owner of the client passes on its `on_connect`
and `on_disconnect` (they already have their own), and `attach` takes `on_connect_fail`.
"""

from __future__ import annotations

import logging
import ssl
import sys
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt

# A connection the broker closes within this many seconds of accepting it, this many times
# in a row, was most likely taken over by another client with the same id. (A takeover
# comes about a second after paho reconnects; a keepalive timeout, 1.5 x 10 s, is longer.)
SHORT_S = 5.0
SHORT_IN_A_ROW = 3

logger = logging.getLogger(__name__)


def why(error: BaseException | None) -> str:
    """The reason an attempt to connect failed, in a few words."""
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS: {error.verify_message}"
    if isinstance(error, ssl.SSLError):
        return f"TLS: {error.reason or error}"
    if isinstance(error, OSError):
        return error.strerror or str(error) or type(error).__name__
    return str(error) if error is not None else "no reason given"


class BrokerHealth:
    def __init__(
        self, where: str, client_id: str, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.where = where  # HOST:PORT
        self.client_id = client_id
        self._clock = clock
        self._said: str | None = None  # the kind of trouble told, until connected again
        self._since: float | None = None  # when the broker accepted the current connection
        self._short = 0  # connections in a row the broker closed right after accepting
        self._told_taken = False

    def attach(self, client: mqtt.Client) -> None:
        client.on_connect_fail = self.failed

    def failed(self, _client: object = None, _userdata: object = None) -> None:
        """paho could not open a connection. It calls this from inside its `except
        OSError`, so the exception at hand is the reason."""
        self._trouble(
            "unreachable", f"cannot reach the MQTT broker at {self.where}", why(sys.exception())
        )

    def connected(self, reason: object) -> bool:
        """The broker's answer to a connection (its reason code); whether it accepted."""
        if getattr(reason, "is_failure", False):
            self._trouble(
                "refused", f"the MQTT broker at {self.where} refused the connection", str(reason)
            )
            return False
        self._since = self._clock()
        if self._said is not None:
            logger.info("connected to the MQTT broker at %s", self.where)
            self._said = None
        else:
            logger.debug("connected to the MQTT broker at %s", self.where)
        return True

    def disconnected(self, reason: object) -> None:
        """The connection ended (by us, by the broker, or by the network)."""
        since, self._since = self._since, None
        if since is None:
            return  # a connection never accepted: `failed` or `connected` said it
        logger.debug("the connection to the MQTT broker at %s ended (%s)", self.where, reason)
        if not getattr(reason, "is_failure", True):
            return  # we said goodbye
        if self._clock() - since >= SHORT_S:
            self._short = 0
            return
        self._short += 1
        if self._short >= SHORT_IN_A_ROW and not self._told_taken:
            self._told_taken = True
            logger.warning(
                "the MQTT broker at %s keeps closing the connection right after accepting "
                "it: another client with the same client id (%s) may be connected",
                self.where, self.client_id,
            )  # fmt: skip

    def _trouble(self, kind: str, what: str, reason: str) -> None:
        if kind != self._said:
            logger.warning("%s (%s); trying again every few seconds", what, reason)
            self._said = kind
        else:
            logger.debug("%s (%s); trying again", what, reason)
