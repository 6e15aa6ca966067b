"""The arbiter's console against a page elsewhere, with a real relay and a real
Mosquitto: a request from another origin or site, or naming another host (DNS
rebinding), does nothing even with the token; the token leaves the URL for an HttpOnly,
SameSite=Strict cookie; every answer carries the headers that keep it out of caches,
frames and `Referer`s, and the public pages carry theirs."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import relay_urls

SECURITY = ("Content-Security-Policy", "Referrer-Policy", "X-Frame-Options", "Cache-Control")


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: str


@dataclass
class Console:
    host: str  # 127.0.0.1:PORT, as the relay printed it
    token: str
    page: str  # the spectators' page's URL

    def ask(self, method: str, path: str, body: object = None, **headers: str) -> Answer:
        """One request, as given: no redirect followed, no header added but `Host`."""
        connection = http.client.HTTPConnection(self.host, timeout=10)
        try:
            data = None if body is None else json.dumps(body).encode()
            sent = {"Host": self.host} | {k.replace("_", "-"): v for k, v in headers.items()}
            connection.request(method, path, body=data, headers=sent)
            answer = connection.getresponse()
            return Answer(answer.status, answer.headers, answer.read().decode())
        finally:
            connection.close()

    def tournament(self) -> bool:
        answer = self.ask("GET", "/arbiter/api/boards", X_Arbiter_Token=self.token)
        assert answer.status == 200, answer.body
        on: bool = json.loads(answer.body)["tournament"]
        return on


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Console]:
    with running_broker(tmp_path) as broker, relay_of(broker, tmp_path) as running:
        yield running


@contextmanager
def relay_of(broker: Broker, tmp_path: Path) -> Iterator[Console]:
    with relay_urls(broker, tmp_path / "relay.sqlite") as (page, console_url, _relay):
        address = urlsplit(console_url)
        yield Console(address.netloc, address.query.removeprefix("token="), page)


def test_a_page_elsewhere_cannot_make_the_console_act(console: Console) -> None:
    on = {"on": True}
    key = {"X_Arbiter_Token": console.token, "Content_Type": "application/json"}
    spectators = console.page.rstrip("/")  # the same machine, another port: another origin
    foreign = [
        {"Origin": "http://evil.example"},
        {"Origin": spectators},
        {"Origin": "null"},  # a sandboxed frame, a file
        {"Sec_Fetch_Site": "cross-site"},
        {"Sec_Fetch_Site": "same-site"},
        {"Host": "evil.example"},  # a name of another site made to resolve here
        {
            "Host": f"evil.example:{console.host.rpartition(':')[2]}",
            "Origin": "http://evil.example",
        },
    ]
    for headers in foreign:
        answer = console.ask("POST", "/arbiter/api/tournament", on, **key, **headers)
        assert answer.status == 403, (headers, answer.status, answer.body)
        assert "refused" in answer.body or "does not answer" in answer.body
    assert not console.tournament()  # nothing was done
    rebound = console.ask("GET", "/arbiter/api/boards", X_Arbiter_Token=console.token,
                          Host="evil.example")  # fmt: skip
    assert rebound.status == 403 and "boards" not in rebound.body  # nor read
    own = f"http://{console.host}"
    for headers in ({"Origin": own, "Sec_Fetch_Site": "same-origin"}, {}):
        answer = console.ask("POST", "/arbiter/api/tournament", on, **key, **headers)
        assert answer.status == 200, answer.body
    assert console.tournament()
    localhost = console.host.replace("127.0.0.1", "localhost")
    answer = console.ask("GET", "/arbiter/api/boards", X_Arbiter_Token=console.token,
                         Host=localhost)  # fmt: skip
    assert answer.status == 200


def test_the_token_leaves_the_url_for_a_strict_httponly_cookie(console: Console) -> None:
    first = console.ask("GET", f"/arbiter?token={console.token}", Sec_Fetch_Site="none")
    assert first.status == 303 and first.headers["Location"] == "/arbiter"
    cookie = first.headers["Set-Cookie"]
    name_value, *attributes = [part.strip() for part in cookie.split(";")]
    assert name_value.endswith(f"={console.token}")
    assert {"HttpOnly", "SameSite=Strict", "Path=/arbiter"} <= set(attributes), cookie
    clean = console.ask("GET", "/arbiter", Cookie=name_value)
    assert clean.status == 200 and "<h1>Arbiter</h1>" in clean.body
    assert console.token not in clean.body
    api = console.ask("GET", "/arbiter/api/boards", Cookie=name_value)
    assert api.status == 200 and "boards" in api.body
    # A wrong token in the URL sets nothing; the API takes no token from a URL.
    wrong = console.ask("GET", "/arbiter?token=wrong")
    assert wrong.status == 403 and "Set-Cookie" not in wrong.headers
    assert console.ask("GET", f"/arbiter/api/boards?token={console.token}").status == 403
    assert console.ask("GET", "/arbiter").status == 403
    # The cookie is this console's: another port's (another relay's) is not it.
    other = name_value.replace(console.host.rpartition(":")[2], "1", 1)
    assert console.ask("GET", "/arbiter", Cookie=other).status == 403


def test_the_console_and_the_public_pages_carry_their_headers(console: Console) -> None:
    token = {"X_Arbiter_Token": console.token}
    answers = [
        console.ask("GET", "/arbiter", **token),
        console.ask("GET", "/arbiter/api/boards", **token),
        console.ask("GET", "/arbiter"),  # a refusal too
    ]
    for answer in answers:
        for name in SECURITY:
            assert name in answer.headers, (name, answer.status)
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        policy = answer.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
        assert "unsafe-inline" not in policy and "'sha256-" in policy
    public = Console(urlsplit(console.page).netloc, "", console.page)
    page = public.ask("GET", "/")
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "'sha256-" in policy
    assert "frame-ancestors" not in policy  # a club's site may embed the broadcast
    for path in ("/", "/games.pgn", "/api/boards"):
        answer = public.ask("GET", path)
        assert answer.status == 200
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
        assert answer.headers["Cache-Control"] == "no-cache"
