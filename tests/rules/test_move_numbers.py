"""Moves numbered as chess writes them, from the board's ply count and the position."""

from __future__ import annotations

import chess
import pytest
from reedboard.rules.move_numbers import numbered_move


@pytest.mark.parametrize(
    ("ply", "san", "shown"),
    [(1, "e4", "1. e4"), (2, "e5", "1... e5"), (3, "e4", "2. e4"), (4, "Nc6", "2... Nc6")],
)
def test_plies_of_a_game_from_the_start(ply: int, san: str, shown: str) -> None:
    assert numbered_move(san, ply) == shown


def test_the_position_after_the_move_numbers_a_game_from_a_fen() -> None:
    """Black moves first from this FEN, its 40th move: the ply count alone would say 1."""
    board = chess.Board("4k3/8/8/8/8/8/3r4/4K3 b - - 0 40")
    board.push_san("Rd7")
    assert numbered_move("Rd7", 1, board.fen()) == "40... Rd7"
    board.push_san("Ke2")
    assert numbered_move("Ke2", 2, board.fen()) == "41. Ke2"


def test_agrees_with_python_chess_over_a_game() -> None:
    board = chess.Board()
    for ply, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"], 1):
        move = chess.Move.from_uci(uci)
        san = board.san(move)
        white, number = board.turn, board.fullmove_number
        board.push(move)
        expected = f"{number}{'.' if white else '...'} {san}"
        assert numbered_move(san, ply, board.fen()) == expected
        assert numbered_move(san, ply) == expected
