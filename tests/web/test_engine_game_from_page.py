"""A timed game against Stockfish at level 5, from the page and the board alone: a phone
(Debian's Chromium, 360 px) pairs with the code lit on the board, chooses the engine at
level 5 and starts a timed game (1+0); the person's moves are made on the fake switches, the
engine's are read off the page (the move lit on the board) and carried out on them too;
the page shows the moves in SAN, the clocks, and the result when the person resigns.

The board here is the very one `reedboard run --fake --web 127.0.0.1:0` assembles (its
parser, `assemble`, its page and its opponents), its loop on a thread of this process, its
fake switches driven directly; test_whole_game_from_page plays a whole game with the
board as a process of its own, its switches played live from its stdin. The board's
engine is Stockfish searching a few thousand nodes a move (`quick_engine`)."""

from __future__ import annotations

import itertools
import os
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from reedboard.cli import build_parser
from reedboard.commands import run_board
from reedboard.commands.board_assembly import Assembled, board_page, close_board
from reedboard.config import load_config
from reedboard.hal.fake_board import FakeBoard
from reedboard.link.board_messages import StateMessage
from reedboard.link.clients import Client
from reedboard.link.messages import AskState
from reedboard.rules.game import Game
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position
from reedboard.web.running import PageThread

from tests.app.games import move_lines
from tests.simweb.waiting import wait_for
from tests.web.page_waits import wait_selector, wait_shown
from tests.web.quick_engine import STOCKFISH, quick_engine_config

pytestmark = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason="needs stockfish")

PHONE = {"width": 360, "height": 740}
PERSON_MOVES = 4  # then the person resigns: a whole game to mate would take minutes
# Stockfish's own time management spends about 30 s on a move at 5+3 here (its first,
# with Skill Level 5): a one-minute game keeps each answer to a few seconds.
TIME_CONTROL = "1+0"
ENGINE_MS = 60_000  # a loaded machine's Stockfish answers far sooner
HAND_MS = 200  # between a hand's switches: each state held beyond the settle time (150 ms)
LIT = re.compile(r"Black to play the move lit on the board: ([a-h][1-8])-([a-h][1-8])")
# Each text written to a clock, as [clock, text], from when the clocks show.
WATCH_CLOCKS = """() => {
  window.clockWrites = [];
  new MutationObserver(records => {
    for (const r of records) {
      const clock = r.target.nodeType === Node.TEXT_NODE ? r.target.parentElement : r.target;
      if (clock.id.startsWith("clock-")) clockWrites.push([clock.id, clock.textContent]);
    }
  }).observe(document.getElementById("clocks"), {subtree: true, childList: true, characterData: true});
}"""
# Whole seconds, tenths only in the last ten.
CLOCK_TEXT = re.compile(r"(▶ )?(White|Black) ([1-9]?[0-9]:[0-5][0-9]|0:0[0-9]\.[0-9])")


@dataclass
class LiveBoard:
    """`reedboard run --fake`'s board, running, with its fake switches in reach."""

    assembled: Assembled
    page: PageThread
    fake: FakeBoard
    asker: Client

    @property
    def url(self) -> str:
        url = self.page.url
        assert url is not None
        return url

    def make(self, position: Position, uci: str) -> None:
        """Carry out `uci` on the switches by a clean hand, from the board's now."""
        lines, _ = move_lines(position, uci, 0, gap=HAND_MS)
        self.fake.schedule(lines, start_ms=self.assembled.app.clock.now_ms() + 50)

    def marked(self) -> list[str]:
        """The squares the board marks with its LEDs (a pairing code), from its state."""
        self.asker.take()
        self.asker.ask(AskState(id=1))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for message in self.asker.wait(1.0):
                if isinstance(message, StateMessage) and message.id == 1:
                    return sorted(message.marked or ())
        raise AssertionError("the board did not answer its state")


@pytest.fixture
def board(tmp_path: Path) -> Iterator[LiveBoard]:
    journal = str(tmp_path / "journal.sqlite")
    command_line = ["run", "--fake", "--web", "127.0.0.1:0", "--settle-ms", "150", "--journal"]
    args = build_parser().parse_args([*command_line, journal])
    assembled = run_board.assemble(args, load_config(quick_engine_config(tmp_path)), None)
    page = board_page(args, assembled)
    stop = threading.Event()
    loop = threading.Thread(target=assembled.app.run, args=(stop.is_set,))
    try:
        tee = assembled.app.tee
        assert page is not None and tee is not None and isinstance(assembled.scanner, FakeBoard)
        asker = tee.clients.attach("test")
        loop.start()
        page.start()
        assert page.wait_ready() is not None
        yield LiveBoard(assembled, page, assembled.scanner, asker)
    finally:
        stop.set()
        if loop.is_alive():
            loop.join(30)
        close_board(assembled, page)


def pair(phone: Any, board: LiveBoard) -> None:
    phone.click("#pair-start")
    wait_for(lambda: len(board.marked()) == 4)
    phone.fill("#pair-code", "".join(square[1] for square in board.marked()))
    phone.press("#pair-code", "Enter")
    wait_selector(phone, "#controls:not([hidden])")


def person_move(position: Position, rng: random.Random) -> str:
    choices = [m for m in position.legal_moves() if m.promotion in (None, 0, QUEEN)]
    return position.uci(rng.choice(choices))


def shown_moves(phone: Any) -> list[str]:
    return " ".join(phone.locator("#moves li").all_inner_texts()).split()


def test_a_timed_game_against_the_engine_at_level_5_from_the_page(
    board: LiveBoard, phone: Any
) -> None:
    phone.goto(board.url)
    wait_selector(phone, '.sq[data-square="e1"] .piece.w')
    pair(phone, board)
    phone.fill("#opponent-spec", "engine 5")
    phone.press("#opponent-spec", "Enter")
    wait_shown(
        phone, "() => document.querySelector('#opponent-now').textContent.includes('level 5')"
    )
    phone.fill("#time-control", TIME_CONTROL)
    phone.click("#new-game")
    wait_selector(phone, "#clocks:not([hidden])")
    phone.evaluate(WATCH_CLOCKS)

    game = Game(Position.standard())
    rng = random.Random(5)
    for _ in range(PERSON_MOVES):
        uci = person_move(game.position, rng)
        board.make(game.position, uci)
        game.push_uci(uci)
        # The engine's answer, as the page says the board lights it.
        wait_shown(
            phone,
            "() => /lit on the board/.test(document.querySelector('#waiting').textContent)",
            None,
            ENGINE_MS,
        )
        lit = LIT.fullmatch(phone.locator("#waiting").inner_text())
        assert lit is not None
        answer = lit.group(1) + lit.group(2)
        board.make(game.position, answer)
        game.push_uci(answer)
        wait_shown(
            phone,
            "n => [...document.querySelectorAll('#moves li')].map(li => li.textContent)"
            ".join(' ').split(/\\s+/).filter(w => w).length >= n",
            len(game),
        )
    assert shown_moves(phone) == game.san_moves()
    # The person's clock has run: under the minute it started from.
    assert re.search(r"0:[0-5][0-9]", phone.locator("#clock-white").inner_text())
    # Each clock was written only when its text changed (once a second, not ten times).
    writes: list[list[str]] = phone.evaluate("() => clockWrites")
    for clock in ("clock-white", "clock-black"):
        texts = [text for written, text in writes if written == clock]
        assert all(CLOCK_TEXT.fullmatch(text) for text in texts), texts
        assert all(a != b for a, b in itertools.pairwise(texts)), texts
    assert len({text for written, text in writes if written == "clock-white"}) >= 2, writes
    assert phone.locator("#waiting").inner_text() == "White to move"
    phone.click("#resign")
    wait_shown(phone, "() => document.querySelector('#result').textContent !== ''")
    assert phone.locator("#result").inner_text() == "Black wins: White resigned"
    assert board.assembled.opponents is not None
    assert board.assembled.opponents.current() == "Stockfish level 5, playing black"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
