"""The board game's host commands: games started, ended and refused."""

from __future__ import annotations

import random

from reedboard.board_game import BoardGame
from reedboard.link.acks import GameEnded, Marked
from reedboard.link.board_messages import Ack, ErrorReply
from reedboard.link.messages import Draw, Mark, Resign, StartGame
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

START = Position.standard().occupied


def board_game() -> BoardGame:
    return BoardGame(Game(), START, rng=random.Random(1))


def test_a_chess960_game_from_the_host_is_set_up_under_guidance() -> None:
    board = board_game()
    answer = board.command(StartGame("chess960", 0), 100)
    assert isinstance(answer.reply, Ack)
    assert [e.kind for e in answer.effects] == ["setup"]  # the pieces must be rearranged first
    assert board.arbiter.setup is not None
    assert board.arbiter.view().setup is not None


def test_resignation_and_draws_from_the_host() -> None:
    board = board_game()
    answer = board.command(Resign("black"), 100)
    assert answer.reply == Ack(GameEnded("1-0", "resignation"))
    assert board.game.is_game_over()
    again = board.command(Resign(), 200)
    assert isinstance(again.reply, ErrorReply)  # the game is already over

    board = board_game()
    refused = board.command(Draw(), 100)
    assert isinstance(refused.reply, ErrorReply) and "claim" in str(refused.reply.message)
    assert not board.game.is_game_over()
    agreed = board.command(Draw(agreed=True), 200)
    assert agreed.reply == Ack(GameEnded("1/2-1/2", "agreement"))


def test_marked_squares_from_the_host_until_the_next_move() -> None:
    board = board_game()
    answer = board.command(Mark(("c6", "d4"), ("f6",)), 100)
    assert answer.reply == Ack(Marked(("c6", "d4"), ("f6",)))
    assert board.state().marked == ("d4", "c6")
    assert board.state().marked_blink == ("f6",)
    lifted = START & ~(1 << parse_square("e2"))
    placed = lifted | 1 << parse_square("e4")
    for t in range(200, 600, 5):
        board.scan(lifted, t)
    for t in range(600, 10_000, 5):
        board.scan(placed, t)
    assert board.state().moves == ("e2e4",)
    assert board.state().marked == board.state().marked_blink == ()
    board.command(Mark(("a3",)), 10_100)
    assert board.state().marked == ("a3",)
    board.command(Mark(), 10_200)
    assert board.state().marked == ()
