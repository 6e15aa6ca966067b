"""The arbiter's console in a real browser (Debian's chromium, driven by Playwright), used
with the keyboard: a result, the players and a correction typed and sent with Enter, the
correction withdrawn, and the broadcast showing each at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker
from tests.relay.browser import TIMEOUT_MS
from tests.relay.test_arbiter_console import QUICK, relay_urls, scripted_board, summary, until
from tests.relay.test_relay_end_to_end import get
from tests.relay.test_spectator_page import broker

__all__ = ["broker"]  # the fixture: chromium and a real Mosquitto


def test_the_arbiter_works_the_console_with_the_keyboard(
    broker: Broker, tmp_path: Path, chromium: Any
) -> None:
    with (
        relay_urls(broker, tmp_path / "relay.sqlite") as (page_url, console, _relay),
    ):
        quick = scripted_board(broker, tmp_path, "b1", QUICK)
        with board_of(quick):
            until(lambda: summary(page_url, "b1").get("ply") == 3, "b1's three plies")
        context: Any = chromium.new_context()
        try:
            page = context.new_page()
            page.goto(console)
            page.wait_for_selector('body[data-board="b1"][data-ply="3"]', timeout=TIMEOUT_MS)
            # The token left the address bar at once: the page works from its cookie,
            # under a policy that allows its own script only.
            assert page.url == console.partition("?")[0]
            assert "1:e4 2:e5 3:Nf3" in page.inner_text("#moves")

            page.focus("#result-value")
            page.keyboard.press("ArrowDown")  # 1-0, then 0-1
            page.focus("#result-reason")
            page.keyboard.type("Black's flag fell")
            page.keyboard.press("Enter")
            page.wait_for_selector('body[data-result="0-1"]', timeout=TIMEOUT_MS)
            assert "Result set on b1" in page.inner_text("#status")
            assert summary(page_url, "b1")["result"] == "0-1"

            page.focus("#white")
            page.keyboard.press("Control+A")
            page.keyboard.type("Anand, Viswanathan")
            page.keyboard.press("Tab")
            page.keyboard.type("2750")
            page.keyboard.press("Enter")
            until(lambda: summary(page_url, "b1")["white"] == "Anand, Viswanathan", "White")
            assert '[WhiteElo "2750"]' in get(page_url + "boards/b1.pgn")

            page.focus("#ply")
            page.keyboard.type("3")
            page.keyboard.press("Enter")
            page.wait_for_selector('body[data-ply="2"]', timeout=TIMEOUT_MS)
            assert "ply 3 (Nf3) cancelled: sent" in page.inner_text("#corrections")
            assert summary(page_url, "b1")["ply"] == 2

            page.focus("#ply")
            page.keyboard.press("Control+A")
            page.keyboard.type("9")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => document.getElementById('status').textContent.startsWith('Refused')",
                timeout=TIMEOUT_MS,
            )
            assert "the game has plies 1 to 2" in page.inner_text("#status")
            listed = json.loads(get(page_url + "api/boards"))
            assert listed[0]["ply"] == 2  # the refusal changed nothing

            # The board is gone and never answered: the arbiter withdraws the correction.
            page.focus('button[aria-label="Withdraw the correction at ply 3"]')
            page.keyboard.press("Enter")
            page.wait_for_selector('body[data-ply="3"]', timeout=TIMEOUT_MS)
            assert "ply 3 (Nf3) cancelled: withdrawn" in page.inner_text("#corrections")
            assert "Correction at ply 3 withdrawn on b1" in page.inner_text("#status")
            assert page.query_selector("#corrections button") is None  # nothing to withdraw
            assert "cancelled" not in get(page_url + "boards/b1.pgn")
        finally:
            context.close()
