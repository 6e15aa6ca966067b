"""A page elsewhere, in a real browser (Debian's chromium, driven by Playwright), tries
to make the arbiter's console act, knowing its token: a form posted across sites (its
body made to read as JSON) and a script's request. The console does nothing; its own
page, opened in the same browser, still works."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.relay.broker import Broker
from tests.relay.browser import TIMEOUT_MS
from tests.relay.test_arbiter_console import relay_urls
from tests.relay.test_console_guard import Console
from tests.relay.test_spectator_page import broker

__all__ = ["broker"]  # the fixture: chromium and a real Mosquitto


def attack(console_url: str) -> str:
    """The other site's page: a text/plain form whose body reads `{"on": true, "x": "="}`
    posted to the console with the token in its URL, and a script's `fetch` with it."""
    base, _, token = console_url.partition("/arbiter?token=")
    target = f"{base}/arbiter/api/tournament?token={token}"
    return f"""<!doctype html><html><body>
<form id="f" method="POST" enctype="text/plain" action="{target}">
<input type="hidden" name='{{"on": true, "x": "' value='"}}'></form>
<script>
fetch("{target}", {{method: "POST", mode: "no-cors", credentials: "include",
  body: JSON.stringify({{on: true}})}}).finally(() => {{
  document.title = "sent";
  document.getElementById("f").submit();
}});
</script></body></html>"""


@contextmanager
def other_site(page: str) -> Iterator[str]:
    """The other site, on 127.0.0.1 and a port of its own: its URL."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page.encode())

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_elsewhere_cannot_make_the_console_act(
    broker: Broker, tmp_path: Path, chromium: Any
) -> None:
    with (
        relay_urls(broker, tmp_path / "relay.sqlite") as (page_url, console_url, _relay),
    ):
        address = urlsplit(console_url)
        console = Console(address.netloc, address.query.removeprefix("token="), page_url)
        context: Any = chromium.new_context()
        try:
            own = context.new_page()
            said_by_page: list[str] = []
            own.on("console", lambda message: said_by_page.append(message.text))
            own.goto(console_url)  # the arbiter's console, logged in (its cookie set)
            own.wait_for_selector("#tournament", timeout=TIMEOUT_MS)
            with other_site(attack(console_url)) as elsewhere:
                evil = context.new_page()
                evil.goto(elsewhere)
                # The form's post navigates the page to the console's answer.
                evil.wait_for_url(lambda url: "/arbiter/api/" in url, timeout=TIMEOUT_MS)
                said = evil.content()
            assert "403" in said and "refused" in said
            assert not console.tournament()  # neither the form nor the script acted
            own.check("#tournament")
            own.click("#round button[type=submit]")
            # A locator, not a function: the console's policy forbids evaluating strings,
            # which a polled function needs.
            own.locator("#status", has_text="Tournament mode").wait_for(timeout=TIMEOUT_MS)
            assert console.tournament()  # the console's own page still acts
            # Its policy lets its own script and style run, and reported nothing blocked.
            assert not [text for text in said_by_page if "Content Security Policy" in text]
        finally:
            context.close()
