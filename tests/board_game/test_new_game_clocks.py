"""A new game's clocks: the host's time control for a game (and those set up after it),
and none left over when the next game is untimed, whether the timed one was still going
or had ended."""

from __future__ import annotations

import random

from reedboard.board_game import BoardGame, Settings
from reedboard.link.board_messages import Ack
from reedboard.link.messages import StartGame
from reedboard.rules.game import Game
from reedboard.rules.position import Position

START = Position.standard().occupied
HOUR_MS = 3_600_000


def untimed_board() -> BoardGame:
    return BoardGame(Game(), START, Settings(), rng=random.Random(1))


def test_a_timed_game_then_an_untimed_one_has_no_clocks_and_no_flag() -> None:
    board = untimed_board()
    assert isinstance(board.command(StartGame(clock="1+0"), 0).reply, Ack)
    assert board.clock_now(1_000) is not None  # White's minute runs
    assert isinstance(board.command(StartGame(), 2_000).reply, Ack)  # the board's own: none
    assert board.clock_now(3_000) is None
    assert board.next_deadline() is None
    board.advance(HOUR_MS)  # the timed game's minute long gone: no flag in this game
    assert not board.game.is_game_over()


def test_an_untimed_game_after_a_flag_has_no_clocks() -> None:
    board = untimed_board()
    board.command(StartGame(clock="1+0"), 0)
    board.advance(61_000)
    assert board.game.is_game_over()  # White's flag
    board.command(StartGame(), 62_000)
    assert board.clock_now(63_000) is None


def test_a_timed_game_after_an_untimed_one_starts_its_clocks() -> None:
    board = untimed_board()
    board.command(StartGame(), 0)
    board.command(StartGame(clock="5+3"), 1_000)
    clock = board.clock_now(2_000)
    assert clock is not None and (clock.white_ms, clock.black_ms) == (299_000, 300_000)
