"""The game fetched page by page: pieced together right while the game grows, and as the
board has it when takebacks change it under the fetch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from reedboard.board_game import BoardGame
from reedboard.game_report import Addressed
from reedboard.link.board_messages import Reply
from reedboard.link.messages import AskMoves, WireCommand
from reedboard.rules.game import Game
from reedboard_host.fetch import fetch_game

from tests.app.games import random_game

MOVES = random_game(2, 30)


class Board:
    """A board game answering `moves` pages; `between(n)` runs before the n-th page."""

    def __init__(self, plies: int) -> None:
        game = Game()
        for uci in MOVES[:plies]:
            game.push_uci(uci)
        self.board_game = BoardGame(game, game.position.occupied)
        self.asked = 0
        self.seq = 0

    def between(self, n: int) -> None:
        """Nothing happens between pages."""

    def request_many(self, commands: Sequence[WireCommand], **_options: Any) -> list[Reply]:
        replies: list[Reply] = []
        for command in commands:
            self.asked += 1
            self.between(self.asked)
            assert isinstance(command, AskMoves)
            self.seq += 1
            page = self.board_game.moves_page(command.start, 0, Addressed(command.id, game=1))
            replies.append(replace(page, seq=self.seq))
        return replies


def test_a_long_game_arrives_whole() -> None:
    state = fetch_game(Board(30))
    assert list(state.moves) == MOVES and state.start_fen == Game().start.fen()


class Growing(Board):
    def between(self, n: int) -> None:
        game = self.board_game.game
        if n in (2, 4) and len(game) < len(MOVES):
            game.push_uci(MOVES[len(game)])  # a move made while the pages come


def test_moves_made_during_the_fetch_are_picked_up() -> None:
    board = Growing(20)
    assert list(fetch_game(board).moves) == MOVES[:22]


class TakenBack(Board):
    def between(self, n: int) -> None:
        if n == 3:  # five moves taken back, another one played: pages already read are stale
            for _ in range(5):
                self.board_game.game.pop()
            self.board_game.game.push_uci(_other(self.board_game.game))


def _other(game: Game) -> str:
    """A legal move other than the one the list had."""
    position = game.position
    played = MOVES[len(game)] if len(game) < len(MOVES) else ""
    return next(position.uci(m) for m in position.legal_moves() if position.uci(m) != played)


def test_takebacks_under_the_fetch_give_the_game_as_it_now_stands() -> None:
    board = TakenBack(20)
    state = fetch_game(board)
    game = board.board_game.game
    assert list(state.moves) == [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]
    assert list(state.moves) != MOVES[:20]
