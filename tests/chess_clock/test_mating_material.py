"""FIDE 6.9: a flag loses unless the opponent cannot checkmate by any series of legal
moves. Each case names the side that keeps its time and whether it could still mate."""

from __future__ import annotations

import pytest
from reedboard.chess_clock.mating_material import can_checkmate
from reedboard.rules.pieces import BLACK, WHITE
from reedboard.rules.position import Position


@pytest.mark.parametrize(
    ("fen", "white_could_mate", "why"),
    [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", False, "a bare king never mates"),
        ("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", False, "a knight against a bare king"),
        ("4k3/p7/8/8/8/8/8/4K1N1 w - - 0 1", True, "a knight: the king's own pawn hems it"),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", False, "a bishop against a bare king"),
        ("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", False, "bishops on one colour"),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", False, "bishops all on dark squares"),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", True, "a light bishop can block a dark one"),
        ("4k3/7r/8/8/8/8/8/2B1K3 w - - 0 1", True, "a rook can stand in its king's way"),
        ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", True, "two knights: a helpmate exists"),
        ("4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1", True, "knight and bishop"),
        ("4k3/8/8/8/8/8/8/B3KB2 w - - 0 1", True, "bishops on both colours"),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", True, "a pawn may promote"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", True, "a rook"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", True, "a queen"),
    ],
)
def test_who_could_still_mate(fen: str, white_could_mate: bool, why: str) -> None:
    assert can_checkmate(Position.from_fen(fen), WHITE) is white_could_mate, why


def test_colours_are_symmetric() -> None:
    position = Position.from_fen("4k1n1/8/8/8/8/8/8/4K3 w - - 0 1")
    assert not can_checkmate(position, BLACK)
    assert not can_checkmate(position, WHITE)
