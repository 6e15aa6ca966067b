"""The issue's whole game: from a fresh start, `reedboard run --fake` (a real process, its
switches played live from its stdin) and a phone-sized Chromium (360 px) play a whole
timed game against Stockfish at level 5, from the page and the board alone, to a result
the rules give (mate, most often).

The phone pairs with the code lit on the board, chooses the engine at level 5 and starts
a timed game. The person at the board is a second Stockfish at full strength searching a
fixed number of nodes (a real engine choosing its moves, not scripted answers: as strong
whatever the machine's load), its moves made on the
switches by a clean hand; the engine's moves are read off the page (the move lit on the board) and
carried out on the switches too. Nobody resigns: the game ends by rule, and the page
says how.

The board's engine is Stockfish searching a few thousand nodes a move (`quick_engine`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard.errors import IllegalMoveError
from reedboard.opponents.uci_engine import UciEngine
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.simweb.words import result_words

from tests.app.games import move_lines
from tests.web.board_process import RunningBoard, running_board
from tests.web.page_waits import wait_selector, wait_shown
from tests.web.quick_engine import STOCKFISH, quick_engine_config

pytestmark = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason="needs stockfish")

PHONE = {"width": 360, "height": 740}
TIME_CONTROL = "3+2"  # the engine at level 5 thinks 2 s a move at most: time to spare
PERSON_NODES = 10_000  # the person's engine: full strength, some 10 ms a move
PERSON_MS = 10_000  # the longest the person's engine may take, on a loaded machine
# A brisk hand: its switches HAND_MS apart, each state held longer than the board's settle
# time (SETTLE_MS here), and a capture's victim off its square 2 * HAND_MS before the
# capturer lands: longer than a neighbour knocked by the hand stays off (the reader's
# KNOCK_MS, 250 ms), so every capture reads as one, as a hand makes it.
HAND_MS = 150
SETTLE_MS = 100
ENGINE_MS = 120_000  # a loaded machine's Stockfish answers far sooner
MAX_PLIES = 400  # far beyond any game here: the fifty-move rule ends a shuffle long before
LIT = re.compile(r"Black to play the move lit on the board: ([a-h][1-8])-([a-h][1-8])")
# The ends the Laws give a game nobody resigns or agrees to draw.
RULES = {
    "checkmate", "stalemate", "insufficient_material", "threefold_repetition", "fifty_moves",
    "fivefold_repetition", "seventyfive_moves", "time", "time_insufficient_material",
}  # fmt: skip


@pytest.fixture
def board(tmp_path: Path) -> Iterator[RunningBoard]:
    config = quick_engine_config(tmp_path)
    with running_board(
        tmp_path, None, "--config", str(config), live="", settle_ms=SETTLE_MS
    ) as running:
        yield running


@pytest.fixture
def person() -> Iterator[UciEngine]:
    engine = UciEngine(STOCKFISH)
    try:
        engine.start()
        yield engine
    finally:
        engine.close()


def carry_out(board: RunningBoard, position: Position, uci: str) -> None:
    """`uci` made on the switches by a clean hand: its lines a live script's, each after
    the one before (`+N`), the person's promotion piece chosen first. The engine's
    promotion comes as its squares alone (the board was told the piece): the hand's
    lines are a queen's, the same for any piece a switch cannot tell apart."""
    try:
        lines, _ = move_lines(position, uci, 0, gap=HAND_MS)
    except IllegalMoveError:
        lines, _ = move_lines(position, uci + "q", 0, gap=HAND_MS)  # a promotion's squares
    live = [f"+0 choose {uci[4]}"] if len(uci) == 5 else []
    previous = 0
    for line in lines:
        live.append(f"+{line.t_ms - previous} {line.action} {line.what}")
        previous = line.t_ms
    board.play(live)


# The plies the page's move list shows (its SAN, without the move numbers).
SHOWN_PLIES = (
    "[...document.querySelectorAll('#moves li')].map(li => li.textContent)"
    ".join(' ').split(/\\s+/).filter(w => w && !/^[0-9]+\\.$/.test(w)).length"
)
# The page's result once it shows `n` plies or a result: [plies, result].
PLIES_OR_RESULT = f"""n => {{
  const plies = {SHOWN_PLIES}, result = document.querySelector('#result').textContent;
  return (plies >= n || result !== '') && [plies, result];
}}"""
# What the page says the board waits for, once it lights the engine's move or the game
# is over.
LIT_OR_RESULT = """() => {
  const waiting = document.querySelector('#waiting').textContent;
  return (/lit on the board/.test(waiting) || document.querySelector('#result').textContent !== '')
    && waiting;
}"""


def shown_plies(phone: Any) -> int:
    return int(phone.evaluate(SHOWN_PLIES))


def wait_for_plies(phone: Any, plies: int) -> str:
    """Wait until the page shows `plies` plies, or a result: the result ("": none)."""
    _shown, result = wait_shown(phone, PLIES_OR_RESULT, plies, ENGINE_MS)
    return str(result)


def board_game(moves: list[str]) -> Game:
    """The game the board's moves (in UCI, over the serial link) make."""
    game = Game(Position.standard())
    for uci in moves:
        game.push_uci(uci)
    return game


def start_game(phone: Any, board: RunningBoard) -> None:
    phone.goto(board.url)
    wait_selector(phone, '.sq[data-square="e1"] .piece.w')
    phone.click("#pair-start")
    phone.fill("#pair-code", board.host.pairing_code())
    phone.press("#pair-code", "Enter")
    wait_selector(phone, "#controls:not([hidden])")
    phone.fill("#opponent-spec", "engine 5")
    phone.press("#opponent-spec", "Enter")
    wait_shown(
        phone, "() => document.querySelector('#opponent-now').textContent.includes('level 5')"
    )
    phone.fill("#time-control", TIME_CONTROL)
    phone.click("#new-game")
    wait_selector(phone, "#clocks:not([hidden])")


@pytest.mark.timeout(1200)
def test_a_whole_timed_game_against_the_engine_at_level_5_ends_by_rule(
    board: RunningBoard, phone: Any, person: UciEngine
) -> None:
    start_game(phone, board)
    game = Game(Position.standard())
    moves: list[str] = []
    result = ""
    while not result and len(game) < MAX_PLIES:
        if len(game) % 2 == 0:  # the person's move, found by their own engine
            uci = person.think(game.start.fen(), moves, f"nodes {PERSON_NODES}", PERSON_MS).best
        else:  # the engine's, as the page says the board lights it
            lit = LIT.fullmatch(str(wait_shown(phone, LIT_OR_RESULT, None, ENGINE_MS)))
            if lit is None:
                break  # the game is over
            # A promotion's piece the board was told by the engine: only squares are lit.
            uci = lit.group(1) + lit.group(2)
        carry_out(board, game.position, uci)
        result = wait_for_plies(phone, len(game) + 1)
        moves = board_moves(board)
        game = board_game(moves)
    wait_shown(phone, "() => document.querySelector('#result').textContent !== ''")
    state = board.host.state()
    print(f"{state['result']} by {state['reason']} after {len(state['moves'])} plies")
    assert state["reason"] in RULES, state
    assert phone.locator("#result").inner_text() == result_words(state["result"], state["reason"])
    # The page showed the whole game, move for move, as the board has it.
    assert shown_plies(phone) == len(state["moves"]) == len(game) > 10
    assert board.process.poll() is None  # the board plays on, ready for the next game
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def board_moves(board: RunningBoard) -> list[str]:
    return [str(uci) for uci in board.host.state()["moves"]]
