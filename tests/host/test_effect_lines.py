"""`reedboard-host watch`'s lines for the board's effects: moves numbered as players
count them, not by plies."""

from __future__ import annotations

import chess
from reedboard.events import MoveMade
from reedboard.link.board_messages import EffectMessage, read_board_message
from reedboard_host.board_text import effect_line


def line_of(board: chess.Board, uci: str) -> str:
    """The watch's line for `uci` played next on `board`, as the board sends it."""
    move = chess.Move.from_uci(uci)
    san = board.san(move)
    board.push(move)
    effect = MoveMade(1000, uci, san, board.fen(), board.ply())
    read, _problem = read_board_message(EffectMessage(effect, 1, seq=1).to_wire())
    assert isinstance(read, EffectMessage)
    return effect_line(read)


def test_moves_are_numbered_as_players_count_them() -> None:
    board = chess.Board()
    lines = [line_of(board, uci) for uci in ("e2e4", "e7e5", "g1f3", "b8c6")]
    assert lines == [
        "move       1. e4 (e2e4)",
        "move       1... e5 (e7e5)",
        "move       2. Nf3 (g1f3)",
        "move       2... Nc6 (b8c6)",
    ]
