"""The console's player fields follow the board's game in a real browser (Debian's
chromium, driven by Playwright): edited on the first game, they show the pairing's names
again once the board starts its next, so Enter on the form then does not carry the
first game's edit over to it. The new game's players read as the first game's did (the
pairing's): the fields follow the game, not only a change of names, which the console
may never have seen (an edit not sent, or a fix whose answer came after the new game)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker
from tests.relay.browser import TIMEOUT_MS
from tests.relay.test_arbiter_console import QUICK, relay_urls, scripted_board, summary, until
from tests.relay.test_game_pairings import ROUND_1, rewrite
from tests.relay.test_spectator_page import broker

__all__ = ["broker"]  # the fixture: chromium and a real Mosquitto

OPENING = "@start standard\n1000 lift e2\n1400 place e4\n"


def field_is(page: Any, name: str, value: str) -> None:
    page.wait_for_function(
        f"() => document.getElementById({name!r}).value === {value!r}", timeout=TIMEOUT_MS
    )


def test_the_player_fields_follow_the_boards_game(
    broker: Broker, tmp_path: Path, chromium: Any
) -> None:
    pairings = tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)  # b1: Ann - Bob
    with (
        relay_urls(broker, tmp_path / "relay.sqlite", "--pairings", str(pairings)) as (
            page_url,
            console,
            _relay,
        ),
    ):
        with board_of(scripted_board(broker, tmp_path, "b1", QUICK)):
            until(lambda: summary(page_url, "b1").get("ply") == 3, "b1's three plies")
        context: Any = chromium.new_context()
        try:
            page = context.new_page()
            page.goto(console)
            page.wait_for_selector('body[data-board="b1"][data-ply="3"]', timeout=TIMEOUT_MS)
            field_is(page, "white", "Ann")
            page.focus("#white")
            page.keyboard.press("Control+A")
            page.keyboard.type("Ann Smith")  # not sent: the arbiter turns to the next field
            page.focus("#black")

            # The board started afresh without a journal: its next game, one move in.
            opening = scripted_board(broker, tmp_path, "b1", OPENING)
            with board_of(opening):
                page.wait_for_selector('body[data-ply="1"]', timeout=TIMEOUT_MS)
            field_is(page, "white", "Ann")
            page.focus("#black")
            page.keyboard.press("Control+A")
            page.keyboard.type("Bob Jones")
            page.keyboard.press("Enter")
            until(lambda: summary(page_url, "b1")["black"] == "Bob Jones", "the next fix")
            assert summary(page_url, "b1")["white"] == "Ann"
        finally:
            context.close()
