"""Each board's SAN is worked out once a move and stays the rules' own SAN through a
game that grows, a takeback, a new game and a different start (Chess960)."""

from __future__ import annotations

import random

import pytest
from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.position import Position
from reedboard.rules.san import san
from reedboard.sim.games import random_game
from reedboard_relay import san_memo
from reedboard_relay.san_memo import SanMemo


def test_the_memo_says_what_the_rules_say_as_a_game_grows_and_changes() -> None:
    memo = SanMemo()
    played = random_game(Position.standard(), random.Random(5), max_plies=40)
    game = Game(played.start)
    for move in played.moves:
        game.push(move)
        assert memo.of("b1", game) == game.san_moves()
    game.pop()  # a takeback
    assert memo.of("b1", game) == game.san_moves()
    other = random_game(Position.standard(), random.Random(6), max_plies=30)
    assert memo.of("b1", other) == other.san_moves()  # a new game on the same board
    fischer = random_game(Position.chess960_start(519), random.Random(7), max_plies=20)
    assert memo.of("b1", fischer) == fischer.san_moves()
    assert memo.of("b2", played) == played.san_moves()  # boards apart


def test_a_grown_game_costs_only_its_new_move(monkeypatch: pytest.MonkeyPatch) -> None:
    counted: list[str] = []

    def counting(before: Position, move: Move) -> str:
        counted.append(move.uci())
        return san(before, move)

    monkeypatch.setattr(san_memo, "san", counting)
    memo = SanMemo()
    played = random_game(Position.standard(), random.Random(9), max_plies=30)
    game = Game(played.start)
    for move in played.moves:
        game.push(move)
        memo.of("b1", game)
    assert len(counted) == len(played.moves)


def test_a_grown_game_writes_its_start_as_fen_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page and the PGN ask for every move; writing the start's FEN at each ask cost
    more than the SAN itself."""
    played = random_game(Position.standard(), random.Random(11), max_plies=30)
    written: list[int] = []
    fen = Position.fen

    def counting(position: Position) -> str:
        written.append(1)
        return fen(position)

    monkeypatch.setattr(Position, "fen", counting)
    memo = SanMemo()
    game = Game(played.start)
    for move in played.moves:
        game.push(move)
        assert memo.of("b1", game) == game.san_moves()
    assert len(written) == 1
