"""How far the board is ahead of the journal, from the sensors alone: the fewest legal
plies that leave the squares the board shows occupied, and nothing when none do."""

from __future__ import annotations

from reedboard.journal.behind import plies_ahead
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square

OPENING = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5"]


def _after(moves: list[str]) -> Game:
    game = Game()
    for uci in moves:
        game.push_uci(uci)
    return game


def test_the_fewest_plies_are_found() -> None:
    journaled = _after(OPENING[:2]).position
    for plies in range(1, 5):
        board = _after(OPENING[: 2 + plies]).position.occupied
        assert plies_ahead(journaled, board) == plies


def test_castling_counts_as_one_ply() -> None:
    journaled = _after(OPENING[:6]).position
    assert plies_ahead(journaled, _after(OPENING[:7]).position.occupied) == 1


def test_the_same_squares_are_no_plies_ahead() -> None:
    position = _after(OPENING).position
    assert plies_ahead(position, position.occupied) is None


def test_a_square_no_move_could_fill_is_not_plies() -> None:
    position = _after(OPENING[:2]).position
    assert plies_ahead(position, position.occupied | 1 << parse_square("d4")) is None


def test_too_far_is_not_told() -> None:
    journaled = Game().position
    assert plies_ahead(journaled, _after(OPENING).position.occupied, most=4) is None
