"""The console's form that adds time, in a real browser (Debian's chromium, driven by
Playwright), used with the keyboard: the default two minutes to a player, sent with
Enter, listed on the page with the board's answer and said in the broadcast; a bad
amount refused with its reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker
from tests.relay.browser import TIMEOUT_MS
from tests.relay.test_arbiter_console import relay_urls, scripted_board, summary, until
from tests.relay.test_arbiter_time import TIMED
from tests.relay.test_relay_end_to_end import get
from tests.relay.test_spectator_page import broker

__all__ = ["broker"]  # the fixture: chromium and a real Mosquitto


def test_the_arbiter_adds_time_with_the_keyboard(
    broker: Broker, tmp_path: Path, chromium: Any
) -> None:
    # The board plays on (Black thinks for a while after 2.Nf3): it answers the form.
    command = scripted_board(broker, tmp_path, "b1", TIMED)
    with (
        relay_urls(broker, tmp_path / "relay.sqlite") as (page_url, console, _relay),
        board_of(command),
    ):
        until(lambda: summary(page_url, "b1").get("ply") == 3, "b1's three plies")
        context: Any = chromium.new_context()
        try:
            page = context.new_page()
            page.goto(console)
            page.wait_for_selector('body[data-board="b1"][data-ply="3"]', timeout=TIMEOUT_MS)

            page.focus("#time-color")
            page.keyboard.press("ArrowDown")  # white, then black
            page.focus("#time-note")  # two minutes and FIDE 7.5.5 as they stand
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => document.getElementById('added').textContent.endsWith('done')",
                timeout=TIMEOUT_MS,
            )
            assert "Time added on b1" in page.inner_text("#status")
            assert page.inner_text("#added") == (
                "ply 3: Arbiter: two minutes added to Black's clock (FIDE 7.5.5): done"
            )
            shown = " ".join(get(page_url + "boards/b1.pgn").split())
            assert "Arbiter: two minutes added to Black's clock (FIDE 7.5.5)}" in shown

            # Over the hour: the field's own bound stops it in the browser; sent anyway
            # (a script, an older browser), the relay refuses it with its reason.
            page.evaluate("document.getElementById('add-time').noValidate = true")
            page.focus("#time-minutes")
            page.keyboard.press("Control+A")
            page.keyboard.type("90")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => document.getElementById('status').textContent.startsWith('Refused')",
                timeout=TIMEOUT_MS,
            )
            assert "at most 60" in page.inner_text("#status")
            assert page.inner_text("#added").count("Arbiter") == 1  # nothing added
        finally:
            context.close()
