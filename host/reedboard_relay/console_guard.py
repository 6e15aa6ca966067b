"""The arbiter's console's guard: who may make it act, and what a browser is told.

The token alone is not enough. A page on another site that the arbiter's browser opens
could send requests to the console's address (and a name of that site made to resolve
to the relay's machine, DNS rebinding, would make them its own origin). So every
request's `Host` must be an address (an IP, or `localhost`) or a name the arbiter gave
(`--arbiter-host`), a browser's `Origin` and `Sec-Fetch-Site` must say the request comes
from the console's own page, and only then is the token checked.

The token leaves the URL at once: the first load (`/arbiter?token=...`) sets it as a
cookie (HttpOnly: no script reads it; SameSite=Strict: no other site's page sends it)
and redirects to `/arbiter`, so it is not in the address bar, the history, or a
`Referer`. A script (or a test) may send it in the `X-Arbiter-Token` header instead.

Pure functions (`refusal`, `given_token`) and the aiohttp middleware that applies them."""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web

HEADER = "X-Arbiter-Token"
PAGE_PATH = "/arbiter"

NAMES_KEY = web.AppKey("arbiter_hosts", frozenset[str])
TOKEN_KEY: web.AppKey[str] = web.AppKey("token", str)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def cookie_name(port: int | None) -> str:
    """A cookie per port: cookies are shared by every port of a host, and two relays on
    one machine must not log each other's arbiter out."""
    return f"reedboard-arbiter-{port or 0}"


def host_allowed(host: str, names: Iterable[str]) -> bool:
    """Whether a request's `Host` (with or without its port) names this machine by
    address, or by a name the arbiter gave: a rebound name of another site is refused."""
    name = host.strip().lower()
    if name.startswith("["):  # [::1]:8080
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    if not name:
        return False
    if name == "localhost" or name in {n.lower() for n in names}:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def refusal(
    host: str, origin: str | None, fetch_site: str | None, names: Iterable[str]
) -> str | None:
    """Why a request does not come from the console's own page, or None. A request
    without `Origin` or `Sec-Fetch-Site` is not a browser's cross-site one (browsers
    send `Origin` with every cross-site POST and `Sec-Fetch-Site` with every request).
    The page's origin is its host over HTTP, or HTTPS behind a reverse proxy."""
    if not host_allowed(host, names):
        return f"the console does not answer to the name {host!r} (see --arbiter-host)"
    if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
        return f"a request from another page ({origin!r}) is refused"
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return f"a request from another site ({fetch_site}) is refused"
    return None


def given_token(request: web.Request) -> str:
    """The token the request carries: its header, or the console's cookie."""
    return request.headers.get(HEADER) or request.cookies.get(cookie_name(request.url.port)) or ""


def _matches(given: str, token: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), token.encode())


@web.middleware
async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuses a foreign request, trades a token in the URL for the cookie, and checks
    the token: nothing is done before all three pass."""
    names: frozenset[str] = request.app[NAMES_KEY]
    why = refusal(
        request.host, request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), names
    )
    if why is not None:
        return web.Response(status=403, text=f"403: {why}\n")
    token = request.app[TOKEN_KEY]
    in_url = request.query.get("token")
    if in_url is not None and request.method == "GET" and request.path == PAGE_PATH:
        if not _matches(in_url, token):
            return web.Response(status=403, text="403: the arbiter's token is wrong\n")
        moved = web.Response(status=303, headers={"Location": PAGE_PATH})
        moved.set_cookie(
            cookie_name(request.url.port),
            token,
            path=PAGE_PATH,
            httponly=True,
            samesite="Strict",
        )
        return moved
    if not _matches(given_token(request), token):
        return web.Response(status=403, text="403: the arbiter's token is missing or wrong\n")
    return await handler(request)


def _hashes(page: str, tag: str) -> str:
    """The CSP sources allowing exactly the page's own inline `tag` blocks."""
    found = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.DOTALL)
    digests = (hashlib.sha256(block.encode()).digest() for block in found)
    return " ".join(f"'sha256-{base64.b64encode(d).decode()}'" for d in digests)


def page_policy(page: str, *, framed: bool) -> str:
    """A Content-Security-Policy for one of the relay's pages: its own script and
    style, requests to its own origin, nothing else; `framed` lets other sites embed it."""
    policy = (
        f"default-src 'none'; script-src {_hashes(page, 'script')}; "
        f"style-src {_hashes(page, 'style')}; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'self'"
    )
    return policy if framed else policy + "; frame-ancestors 'none'"


def console_headers(policy: str) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """Every answer of the console, a refusal too: not kept by any cache, not framed,
    not named in a `Referer`, and the page's script only."""

    async def add(_request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Content-Security-Policy"] = policy
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"

    return add


def public_headers(policy: str) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """The spectators' answers: the page's script only (other sites may embed the page),
    no type guessed, a live answer revalidated by any cache."""

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        if response.content_type == "text/html":
            response.headers["Content-Security-Policy"] = policy
        response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("Cache-Control", "no-cache")

    return add
