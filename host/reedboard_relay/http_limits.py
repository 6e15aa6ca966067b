"""Bounds on what the relay's web sides hold for their clients: requests in progress (a
spectator's event stream is one for as long as it is open), event streams among them,
and open connections. The excess is answered `503` at once, with one log line per kind
every ten seconds: a crowd, or one client opening connection after connection, cannot
take the relay's memory or its loop."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from reedboard_relay.refusals import RateLimitedLog

MAX_REQUESTS = 1000  # in progress at once, event streams included
MAX_STREAMS = 800  # spectators' event streams (`/events`) open at once
MAX_CONNECTIONS = 1200  # open connections, idle ones included
EVENTS_PATH = "/events"

logger = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class HttpLimits:
    requests: int = MAX_REQUESTS
    streams: int = MAX_STREAMS
    connections: int = MAX_CONNECTIONS


class Gate:
    """Counts what is in progress; `middleware` refuses what is beyond the limits.
    `connections` says how many connections are open (the server's own count)."""

    def __init__(self, limits: HttpLimits, connections: Callable[[], int] = lambda: 0) -> None:
        self.limits = limits
        self.connections = connections
        self.requests = 0
        self.streams = 0
        self.log = RateLimitedLog(logger)

    def _refusal(self, request: web.Request) -> tuple[str, str] | None:
        """(the kind, the words) of why `request` is refused, or None."""
        if self.connections() > self.limits.connections:
            return "connections", f"more than {self.limits.connections} connections open"
        if self.requests >= self.limits.requests:
            return "requests", f"{self.limits.requests} requests in progress"
        if request.path == EVENTS_PATH and self.streams >= self.limits.streams:
            return "streams", f"{self.limits.streams} event streams open"
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = self._refusal(request)
        if refused is not None:
            kind, words = refused
            self.log.warn(kind, f"refused a request: {words}")
            return web.Response(
                status=503, text=f"busy: {words}\n", headers={"Connection": "close"}
            )
        stream = request.path == EVENTS_PATH
        self.requests += 1
        self.streams += stream
        try:
            return await handler(request)
        finally:
            self.requests -= 1
            self.streams -= stream
