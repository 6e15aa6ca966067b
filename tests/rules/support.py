"""Helpers shared by the rules tests."""

from __future__ import annotations

from reedboard.rules import Move, Position


def legal_ucis(position: Position) -> set[str]:
    """The legal moves as UCI text in the position's own convention (e1g1 in standard
    chess, king takes rook in Chess960)."""
    return {position.uci(move) for move in position.legal_moves()}


def is_legal_uci(position: Position, text: str) -> bool:
    return position.is_legal(position.normalize(Move.from_uci(text)))


def board_after(position: Position, text: str) -> str:
    """The board part of the FEN after the move given as UCI text."""
    return position.play(position.parse_uci(text)).board_fen()
