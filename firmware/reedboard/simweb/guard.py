"""Only the simulator's own page may drive it.

A browser lets any web page open a WebSocket to any address, sending the page's own
`Origin`; and a page whose host name the attacker re-points at this machine (DNS
rebinding) is even allowed to read the answers. Either would let a page the user happens
to visit play moves on the board, which a host on the pty then records or sends to
Lichess. So every request must name the simulator itself in `Host` (a local name or the
address it serves on, with its port), and the WebSocket must come from a page of that
same origin: anything else is refused before the handshake.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from aiohttp.typedefs import Handler, Middleware

# Names that always mean this machine; the address served on and any name given on the
# command line come on top.
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")

WEBSOCKET_PATH = "/ws"


def host_name(name: str) -> str:
    """`name` as it appears in a Host header: IPv6 addresses in brackets, lower case."""
    name = name.strip().lower()
    if ":" in name and not name.startswith("["):
        return f"[{name}]"
    return name


def split_host(value: str) -> tuple[str, int] | None:
    """The name and port of a Host header (port 80 when left out); None if malformed."""
    value = value.strip().lower()
    if value.startswith("["):  # an IPv6 address: its colons are not the port's
        end = value.find("]") + 1
        name, rest = value[:end], value[end:]
    else:
        cut = value.find(":")
        name, rest = (value, "") if cut < 0 else (value[:cut], value[cut:])
    if not name:
        return None
    if not rest:
        return name, 80
    digits = rest[1:]
    if not rest.startswith(":") or not digits.isdigit() or len(digits) > 5:
        return None
    return name, int(digits)


def is_own(value: str | None, names: Iterable[str], port: int) -> bool:
    """Whether a Host header (`name[:port]`) names this server."""
    if not value:
        return False
    parsed = split_host(value)
    return parsed is not None and parsed[1] == port and parsed[0] in {host_name(n) for n in names}


def is_own_origin(origin: str | None, names: Iterable[str], port: int) -> bool:
    """Whether an `Origin` header is a page served by this server (plain http)."""
    if not origin or not origin.lower().startswith("http://"):
        return False
    return is_own(origin[len("http://") :], names, port)


def same_site_only(extra_names: Iterable[str] = ()) -> Middleware:
    """Middleware: 403 for a request whose Host is not this server, and for a WebSocket
    handshake from any other origin (or none)."""
    extra = tuple(extra_names)

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        if not sockname:
            raise web.HTTPForbidden(text="no local address")
        address, port = sockname[0], sockname[1]
        # Served on "::", an IPv4 client's address reads as IPv4-mapped IPv6.
        address = address.removeprefix("::ffff:") if "." in address else address
        names = (*LOCAL_NAMES, address, *extra)
        if not is_own(request.headers.get("Host"), names, port):
            raise web.HTTPForbidden(text="this server answers only to its own address\n")
        websocket = "Upgrade" in request.headers or request.path == WEBSOCKET_PATH
        if websocket and not is_own_origin(request.headers.get("Origin"), names, port):
            raise web.HTTPForbidden(text="the board takes moves only from its own page\n")
        return await handler(request)

    return guard
