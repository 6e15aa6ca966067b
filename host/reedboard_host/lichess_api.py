"""The few Lichess API calls the Board API bridge needs, on the standard library alone, so
the host needs no extra package for them.

Lichess streams events and games as ndjson: one JSON object a line, with empty lines as
keep-alives. The token goes in the `Authorization` header and nowhere else: it is in no
message, no log line and no exception text this module makes, and it goes to the server
given and no other: a redirect to another host is not followed.

Lichess asks one thing of clients on rate limits: after an answer of 429 (Too Many
Requests), wait a full minute before using the API again. So a 429 on any call pauses
every call for `RATE_LIMIT_S` (or longer, if its Retry-After says so): a call made meanwhile is refused here without reaching
Lichess (`RateLimited`, which says when the pause ends), and the threads that would call
wait for its end on the API's clock (a test's clock need not wait a real minute)."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from reedboard_host.connection import HostError
from reedboard_host.lichess_settings import server_url

DEFAULT_SERVER = "https://lichess.org"
REQUEST_S = 15.0
# Lichess sends a keep-alive line every few seconds on its streams: a stream silent for
# this long is dead and is opened again.
STREAM_IDLE_S = 30.0
RATE_LIMIT_S = 60.0  # Lichess: after a 429, "wait a full minute before resuming"
LONGEST_PAUSE_S = 3600.0  # a Retry-After longer than this is read as this


class LichessError(HostError):
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

    def wait_until(self, deadline: float, stop: Callable[[], bool]) -> None:
        """Return once `now()` has reached `deadline`, or sooner once `stop()`."""
        ...


class SystemClock:
    STEP_S = 0.25  # how soon a wait notices `stop`

    def now(self) -> float:
        return time.monotonic()

    def wait_until(self, deadline: float, stop: Callable[[], bool]) -> None:
        while not stop():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, self.STEP_S))


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port or default


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only on the server's own scheme, host and port: elsewhere the
    token, which urllib copies into the redirected request, would go too."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        if _origin(newurl) != _origin(req.full_url):
            scheme, host, port = _origin(newurl)
            fp.close()
            raise LichessError(
                f"the server sent {req.get_method()} {req.selector} on to "
                f"{scheme}://{host}:{port}: not followed, the token goes to the server "
                "given and nowhere else"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class LichessApi:
    def __init__(self, server: str, token: str, *, clock: Clock | None = None) -> None:
        self.server = server_url(server)
        self._token = token
        self.clock: Clock = clock or SystemClock()
        self._opener = urllib.request.build_opener(_SameOriginRedirects)
        self._lock = threading.Lock()  # calls come from several threads
        self._resume_at: float | None = None  # the end of the pause after a 429

    def __repr__(self) -> str:  # never the token
        return f"LichessApi({self.server!r})"

    def paused_for(self) -> float:
        """Seconds before the API may be used again after a 429 (0: it may now)."""
        with self._lock:
            resume_at = self._resume_at
        return 0.0 if resume_at is None else max(0.0, resume_at - self.clock.now())

    def wait_turn(self, stop: Callable[[], bool]) -> None:
        """Wait out the pause after a 429, if one lasts (or until `stop`)."""
        with self._lock:
            resume_at = self._resume_at
        if resume_at is not None:
            self.clock.wait_until(resume_at, stop)

    def _request(
        self, method: str, path: str, form: Mapping[str, Any] | None
    ) -> urllib.request.Request:
        data = None
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        if form is not None:
            data = urllib.parse.urlencode({k: str(v) for k, v in form.items()}).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        return urllib.request.Request(self.server + path, data=data, headers=headers, method=method)

    def _open(self, request: urllib.request.Request, timeout: float) -> Any:
        what = f"{request.get_method()} {request.selector}"
        paused = self.paused_for()
        if paused > 0:
            raise RateLimited(
                f"{what} waits {paused:.0f} s more: Lichess asked for a minute's pause "
                "(429 Too Many Requests)",
                self.clock.now() + paused,
            )
        try:
            return self._opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            detail = _error_text(error)
            error.close()
            if error.code == 429:
                pause = _pause_after_429(error.headers.get("Retry-After"))
                with self._lock:
                    self._resume_at = resume_at = self.clock.now() + pause
                raise RateLimited(
                    f"Lichess refused {what}: 429 Too Many Requests; no call to Lichess "
                    f"for {pause:g} s, as it asks",
                    resume_at,
                ) from None
            if error.code == 401:
                raise LichessError(
                    "Lichess refused the token (401 Unauthorized): check the token and its "
                    "board:play scope",
                    401,
                ) from None
            raise LichessError(
                f"Lichess refused {what}: {error.code} {detail}", error.code
            ) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", None) or error
            raise LichessError(f"cannot reach {self.server}: {reason}") from None
        except (http.client.HTTPException, ValueError) as error:
            # Not the error's text: a header refused (a ValueError) is quoted in it whole.
            raise LichessError(
                f"cannot reach {self.server}: {type(error).__name__} on {what}"
            ) from None

    def get(self, path: str) -> dict[str, Any]:
        with self._open(self._request("GET", path, None), REQUEST_S) as response:
            return _json_object(response.read())

    def post(
        self, path: str, form: Mapping[str, Any] | None = None, *, timeout: float = REQUEST_S
    ) -> dict[str, Any]:
        with self._open(self._request("POST", path, form or {}), timeout) as response:
            return _json_object(response.read())

    def stream(
        self,
        path: str,
        form: Mapping[str, Any] | None = None,
        *,
        closed: Callable[[], bool] = lambda: False,
        opened: Callable[[], None] = lambda: None,
    ) -> Iterator[dict[str, Any]]:
        """The objects of an ndjson stream until the server ends it (or `closed`): a GET,
        or a POST of `form` (a seek, a challenge kept alive). Lines that are not JSON
        objects are skipped: a stream must not die of one odd line. `opened` is called
        once the server has answered."""
        request = self._request("GET" if form is None else "POST", path, form)
        request.add_header("Accept", "application/x-ndjson")
        with self._open(request, STREAM_IDLE_S) as response:
            opened()
            while not closed():
                try:
                    line = response.readline()
                except (OSError, ValueError, http.client.HTTPException) as error:
                    reason = str(error) or type(error).__name__
                    raise LichessError(f"the stream {path} broke: {reason}") from None
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


def _pause_after_429(retry_after: str | None) -> float:
    """Lichess's minute, or the longer wait its Retry-After asks for (in seconds; a date
    or anything else unreadable leaves the minute)."""
    try:
        asked = float(retry_after or 0)
    except ValueError:
        asked = 0.0
    if asked != asked:  # NaN
        asked = 0.0
    return min(max(RATE_LIMIT_S, asked), LONGEST_PAUSE_S)


def _json_object(body: bytes) -> dict[str, Any]:
    # Some answers (a seek that was accepted) have no body worth reading.
    try:
        value = json.loads(body or b"{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _error_text(error: urllib.error.HTTPError) -> str:
    # Lichess explains a refusal as {"error": "..."}; anything else is summed up briefly.
    try:
        body = error.read(2000)
    except OSError:
        body = b""
    value = _json_object(body)
    text = value.get("error") if isinstance(value.get("error"), str) else error.reason
    return " ".join(str(text).split())[:200]
