"""A game replayed from its moves' codes, as a relay's snapshot keeps them: the same
positions, moves and repetition counts as the game pushed move by move."""

from __future__ import annotations

import random

from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.games import random_game


def test_a_replayed_game_is_the_pushed_game() -> None:
    for seed in range(20):
        start = Position.chess960_start(seed * 47 % 960) if seed % 2 else Position.standard()
        played = random_game(start, random.Random(seed), max_plies=120)
        again = Game.replayed(start, list(played.codes))
        assert len(again) == len(played) and again.moves == played.moves
        assert [p.fen() for p in again.positions] == [p.fen() for p in played.positions]
        assert again.repetitions() == played.repetitions()
        assert again.san_moves() == played.san_moves()
        assert again.codes == played.codes


def test_the_codes_follow_takebacks_and_copies() -> None:
    game = Game()
    for uci in ("e2e4", "e7e5", "g1f3"):
        game.push_uci(uci)
    copy = game.copy()
    game.pop()
    assert len(game.codes) == 2 and len(copy.codes) == 3
    assert Game.replayed(game.start, list(copy.codes)).position.fen() == copy.position.fen()
