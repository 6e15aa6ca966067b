"""The spectator page in a real browser (Debian's chromium, driven by Playwright): a
board's game appears on it as it is played, pushed by server-sent events, drawn by the
firmware's own SVG renderer; and on a phone's 360 px, a timed game shows its event,
round and board, both clocks, its moves in SAN with their numbers, its result and why,
a board with alt text that can be turned round, and nothing wider than the screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.relay import board_scripts
from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, running_broker
from tests.relay.browser import TIMEOUT_MS, need_browser
from tests.relay.fake_board import quiet_board
from tests.relay.test_arbiter_console import relay_urls
from tests.relay.test_relay_end_to_end import BIN, board, boards_moves

SPEED = 10  # the games at ten times a person's pace: each change still pushed, and drawn

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    need_browser()
    with running_broker(tmp_path) as running:
        yield running


def test_the_page_shows_the_game_live(broker: Broker, tmp_path: Path, chromium: Any) -> None:
    with relay_urls(broker, tmp_path / "relay.sqlite") as (url, _console, _relay):
        context: Any = chromium.new_context()
        try:
            page = context.new_page()
            page.goto(url)
            with board_of(board(broker, "b1", SPEED)) as b1:
                # The page was open before the game began: what it shows was pushed.
                page.wait_for_selector('[data-board="b1"][data-ply="7"]', timeout=TIMEOUT_MS)
                assert len(boards_moves(b1.output())) == 7  # then stopped, as a board is
            moves = page.inner_text('[data-board="b1"] .moves')
            assert moves == "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O"
            page.wait_for_function(
                "() => document.querySelector('[data-board=\"b1\"] img').naturalWidth > 0",
                timeout=TIMEOUT_MS,
            )
            svg = page.request.get(url + "boards/b1.svg?ply=7").text()
            assert svg.startswith("<svg") and "\u265a" in svg
        finally:
            context.close()


def test_a_timed_game_on_a_phone(broker: Broker, tmp_path: Path, chromium: Any) -> None:
    pairings = tmp_path / "round.csv"
    pairings.write_text("board,round,board_number,white,black,event\n"
                        "b1,3,1,Ann Smith,Bob Jones,Spring Open\n")  # fmt: skip
    script = tmp_path / "flag.events"
    script.write_text(board_scripts.flag().text())  # 1.e4 e5 2.Nf3, Black's flag falls
    played = [str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed",
              str(SPEED), "--until-done", "--mqtt", broker.url, "--board-id", "b1", *quiet_board(tmp_path)]  # fmt: skip
    relay = relay_urls(broker, tmp_path / "relay.sqlite", "--pairings", str(pairings))
    with relay as (url, _console, _relay):
        context: Any = chromium.new_context(
            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
        )  # fmt: skip
        try:
            page = context.new_page()
            page.goto(url)
            with board_of(played) as b1:
                assert b1.wait(120) == 0
            card = '[data-board="b1"]'
            page.wait_for_function(
                f"() => document.querySelector('{card} .result')?.textContent.startsWith('1-0')",
                timeout=TIMEOUT_MS,
            )
            assert page.inner_text(f"{card} h2") == "Spring Open, round 3, board 1"
            assert page.inner_text(f"{card} .moves") == "1. e4 e5 2. Nf3"
            assert page.inner_text(f"{card} .result") == "1-0: White wins on time"
            clocks = [page.inner_text(f"{card} .{side} .clock") for side in ("top", "bottom")]
            assert all(re.fullmatch(r"\d+:\d\d", c) for c in clocks), clocks
            assert "Bob Jones" in page.inner_text(f"{card} .top")  # Black at the top
            alts = page.eval_on_selector_all("img", "imgs => imgs.map((i) => i.alt)")
            assert alts and all(alts)
            assert alts[0] == ("Board 1: Ann Smith (White) against Bob Jones (Black), after "
                               "2. Nf3, 1-0, White at the bottom")  # fmt: skip
            page.tap(f"{card} .flip")  # a finger on a phone
            page.wait_for_selector(f'{card}[data-flipped="1"]', timeout=TIMEOUT_MS)
            assert "Ann Smith" in page.inner_text(f"{card} .top")
            assert page.get_attribute(f"{card} .flip", "aria-pressed") == "true"
            assert page.get_attribute(f"{card} img", "alt").endswith("Black at the bottom")
            page.wait_for_function(
                f"() => {{ const i = document.querySelector('{card} img');"
                " return i.complete && i.naturalWidth > 0 && i.src.includes('flip=1'); }",
                timeout=TIMEOUT_MS,
            )
            wide = page.evaluate("document.documentElement.scrollWidth")
            box = page.locator(f"{card} .flip").bounding_box()
            assert wide <= 360 and box is not None and box["x"] + box["width"] <= 360
            assert box["height"] >= 44  # big enough for a finger
            flipped = page.request.get(url + "boards/b1.svg?flip=1").text()
            assert flipped.index(">h</text>") < flipped.index(">a</text>")  # h on the left
        finally:
            context.close()
