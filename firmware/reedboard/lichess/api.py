"""The Lichess API client, on aiohttp: the few calls the Board API bridge makes, in the
bridge's one asyncio loop, and the relay's broadcast push (`post_text`), a task on the
relay's one loop.

Lichess streams events and games as ndjson: one JSON object a line, with empty lines as
keep-alives. The token goes in the `Authorization` header and nowhere else: it is in no
message, no log line and no exception text this module makes, and it goes to the server
given and no other: a redirect is followed only on the server's own scheme, host and
port (aiohttp would copy the header to any host, so redirects are followed here, by hand).

Lichess asks one thing of clients on rate limits: after an answer of 429 (Too Many
Requests), wait a full minute before using the API again. So a 429 on any call pauses
every call for `RATE_LIMIT_S` (or longer, if its Retry-After says so; a client may be
made with a longer pause, never a shorter one but in a test): a call made
meanwhile is refused here without reaching Lichess (`RateLimited`, which says when the
pause ends), and the tasks that would call wait for its end on the API's clock (a test's
clock need not wait a real minute).

aiohttp is imported when the first call is made, not with this module: every
`reedboard-host` command reads the `lichess` command's arguments, and none of them should
wait for aiohttp's import to do so."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Protocol

from reedboard.errors import ReedboardError
from reedboard.lichess.settings import server_url

if TYPE_CHECKING:
    import aiohttp

DEFAULT_SERVER = "https://lichess.org"
REQUEST_S = 15.0
# Lichess sends a keep-alive line every few seconds on its streams: a stream silent for
# this long is dead and is opened again.
STREAM_IDLE_S = 30.0
RATE_LIMIT_S = 60.0  # Lichess: after a 429, "wait a full minute before resuming"
LONGEST_PAUSE_S = 3600.0  # a Retry-After longer than this is read as this
MAX_REDIRECTS = 5

JsonObject = dict[str, Any]  # a JSON object as Lichess sent it, before it is read


class LichessError(ReedboardError, RuntimeError):
    """A refused or failed call, in one line fit for the user."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class RateLimited(LichessError):
    """A 429 from Lichess, or a call held back while the pause after one lasts."""

    def __init__(self, message: str, resume_at: float) -> None:
        super().__init__(message, 429)
        self.resume_at = resume_at


class Clock(Protocol):
    def now(self) -> float:
        """Seconds, from any start."""
        ...

    async def wait_until(self, deadline: float) -> None:
        """Return once `now()` has reached `deadline` (a stop cancels the waiting task)."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()

    async def wait_until(self, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port or default


class LichessApi:
    def __init__(
        self,
        server: str,
        token: str,
        *,
        clock: Clock | None = None,
        rate_limit_s: float = RATE_LIMIT_S,
    ) -> None:
        self.server = server_url(server)
        self._token = token
        self.clock: Clock = clock or SystemClock()
        self.rate_limit_s = rate_limit_s  # the pause after a 429 when it asks for no longer
        self._session: aiohttp.ClientSession | None = None  # made in the loop, when first used
        self._resume_at: float | None = None  # the end of the pause after a 429

    def __repr__(self) -> str:  # never the token
        return f"LichessApi({self.server!r})"

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def paused_for(self) -> float:
        """Seconds before the API may be used again after a 429 (0: it may now)."""
        resume_at = self._resume_at
        return 0.0 if resume_at is None else max(0.0, resume_at - self.clock.now())

    async def wait_turn(self) -> None:
        """Wait out the pause after a 429, if one lasts."""
        if self._resume_at is not None and self.paused_for() > 0:
            await self.clock.wait_until(self._resume_at)

    def _headers(self, accept: str, content_type: str | None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self._token}", "Accept": accept}
        if content_type is not None:
            headers["Content-Type"] = content_type
        return headers

    @asynccontextmanager
    async def _open(
        self,
        method: str,
        path: str,
        form: Mapping[str, Any] | None,
        *,
        accept: str = "application/json",
        text: str | None = None,
        total_s: float | None,
        idle_s: float | None = None,
    ) -> AsyncIterator[aiohttp.ClientResponse]:
        """The server's answer of 2xx to one call (redirects on its own origin followed),
        or the `LichessError` that says in one line why not. The call sends `form`, or
        `text` as plain text, or nothing. `total_s`: the longest the call may take;
        `idle_s`: the longest its answer may be silent."""
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=total_s, sock_connect=REQUEST_S, sock_read=idle_s)
        what = f"{method} {path}"
        paused = self.paused_for()
        if paused > 0:
            raise RateLimited(
                f"{what} waits {paused:.0f} s more: Lichess asked for a minute's pause "
                "(429 Too Many Requests)",
                self.clock.now() + paused,
            )
        if self._session is None:
            self._session = aiohttp.ClientSession()
        data: str | bytes | None = None
        content_type: str | None = None
        if text is not None:
            data, content_type = text.encode("utf-8"), "text/plain; charset=utf-8"
        elif form is not None:
            data = urllib.parse.urlencode({k: str(v) for k, v in form.items()})
            content_type = "application/x-www-form-urlencoded"
        url = self.server + path
        try:
            for _ in range(MAX_REDIRECTS + 1):
                async with self._session.request(
                    method, url, data=data, headers=self._headers(accept, content_type),
                    allow_redirects=False, timeout=timeout,
                ) as response:  # fmt: skip
                    if response.status in (301, 302, 303, 307, 308):
                        url = self._redirected(what, url, response)
                        if response.status == 303:
                            method, data, content_type = "GET", None, None
                        continue
                    if response.status >= 400:
                        raise await self._refused(what, response)
                    yield response
                    return
            raise LichessError(f"cannot reach {self.server}: too many redirects on {what}")
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            raise LichessError(f"cannot reach {self.server}: {_reason(error)}") from None
        except ValueError as error:
            # Not the error's text: a header refused (a ValueError) is quoted in it whole.
            raise LichessError(
                f"cannot reach {self.server}: {type(error).__name__} on {what}"
            ) from None

    def _redirected(self, what: str, url: str, response: aiohttp.ClientResponse) -> str:
        """Where a redirect goes, if that is the server's own origin: elsewhere the token
        would go too."""
        location = urllib.parse.urljoin(url, response.headers.get("Location", ""))
        if _origin(location) != _origin(url):
            scheme, host, port = _origin(location)
            raise LichessError(
                f"the server sent {what} on to {scheme}://{host}:{port}: not followed, the "
                "token goes to the server given and nowhere else"
            )
        return location

    async def _refused(self, what: str, response: aiohttp.ClientResponse) -> LichessError:
        detail = await _error_text(response)
        if response.status == 429:
            pause = _pause_after_429(response.headers.get("Retry-After"), self.rate_limit_s)
            self._resume_at = resume_at = self.clock.now() + pause
            return RateLimited(
                f"Lichess refused {what}: 429 Too Many Requests; no call to Lichess "
                f"for {pause:g} s, as it asks",
                resume_at,
            )
        if response.status == 401:
            return LichessError(
                "Lichess refused the token (401 Unauthorized): check the token and its "
                "board:play scope",
                401,
            )
        return LichessError(f"Lichess refused {what}: {response.status} {detail}", response.status)

    async def get(self, path: str) -> JsonObject:
        async with self._open("GET", path, None, total_s=REQUEST_S) as response:
            return _json_object(await response.read())

    async def post(
        self, path: str, form: Mapping[str, Any] | None = None, *, timeout: float = REQUEST_S
    ) -> JsonObject:
        async with self._open("POST", path, form or {}, total_s=timeout) as response:
            return _json_object(await response.read())

    async def post_text(self, path: str, text: str, *, timeout: float = REQUEST_S) -> bytes:
        """POST `text` (a broadcast round's PGN): the body of the server's answer, as it
        came, for the caller to read."""
        async with self._open("POST", path, None, text=text, total_s=timeout) as response:
            body: bytes = await response.read()
            return body

    async def stream(
        self,
        path: str,
        form: Mapping[str, Any] | None = None,
        *,
        opened: Callable[[], None] = lambda: None,
    ) -> AsyncIterator[JsonObject]:
        """The objects of an ndjson stream until the server ends it: a GET, or a POST of
        `form` (a seek, a challenge kept alive). Lines that are not JSON objects are
        skipped: a stream must not die of one odd line. `opened` is called once the
        server has answered."""
        import aiohttp

        method = "GET" if form is None else "POST"
        async with self._open(
            method, path, form, accept="application/x-ndjson", total_s=None, idle_s=STREAM_IDLE_S
        ) as response:
            opened()
            while True:
                try:
                    line = await response.content.readline()
                except (TimeoutError, aiohttp.ClientError, OSError, ValueError) as error:
                    raise LichessError(f"the stream {path} broke: {_reason(error)}") from None
                if not line:
                    return
                if not line.strip():
                    continue  # keep-alive
                try:
                    item = json.loads(line)
                except ValueError:
                    continue
                if isinstance(item, dict):
                    yield item


def _reason(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "timed out"
    return str(error) or type(error).__name__


def _pause_after_429(retry_after: str | None, least_s: float = RATE_LIMIT_S) -> float:
    """Lichess's minute (`least_s`), or the longer wait its Retry-After asks for (in
    seconds; a date or anything else unreadable leaves the minute)."""
    try:
        asked = float(retry_after or 0)
    except ValueError:
        asked = 0.0
    if asked != asked:  # NaN
        asked = 0.0
    return min(max(least_s, asked), LONGEST_PAUSE_S)


def _json_object(body: bytes) -> JsonObject:
    # Some answers (a seek that was accepted) have no body worth reading.
    try:
        value = json.loads(body or b"{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


async def _error_text(response: aiohttp.ClientResponse) -> str:
    # Lichess explains a refusal as {"error": "..."}; anything else is summed up briefly.
    import aiohttp

    try:
        body = await response.content.read(2000)
    except (TimeoutError, aiohttp.ClientError, OSError):
        body = b""
    value = _json_object(body)
    text = value.get("error") if isinstance(value.get("error"), str) else response.reason
    return " ".join(str(text).split())[:200]
