"""What the spectator page shows of a game besides its position: its moves in SAN with
their numbers, both clocks, the result's reason in words, the event, round and board.
Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from reedboard_host.mirror import MirroredGame
from reedboard_host.pgn_file import reason_comment

from reedboard_relay.pairing import Pairing


class GameShown(TypedDict):
    moves: str  # "1. e4 e5 2. Nf3", numbered as a score sheet is
    white_ms: int | None  # the clocks after the latest move that told of them
    black_ms: int | None
    reason: str | None  # in words: "Black resigns", "Draw by agreement"
    event: str
    round: str
    board_number: str


def game_shown(
    game: MirroredGame | None, pairing: Pairing, sans: Sequence[str] | None = None
) -> GameShown:
    clocks: tuple[int | None, int | None] = (None, None)
    if game is not None and game.clocks:
        clocks = game.clocks[max(game.clocks)]
    reason = None
    if game is not None and game.reason:
        reason = reason_comment(game.reason, game.result)
    return {
        "moves": numbered(game, sans) if game is not None else "",
        "white_ms": clocks[0],
        "black_ms": clocks[1],
        "reason": reason,
        "event": pairing.event,
        "round": pairing.round,
        "board_number": pairing.board_number,
    }


def numbered(game: MirroredGame, sans: Sequence[str] | None = None) -> str:
    """The moves as a score sheet writes them; `12... Nf6` where Black's move comes first
    (`sans`: the moves in SAN, where known)."""
    played = game.game
    words: list[str] = []
    known = sans if sans is not None else played.san_moves()
    for ply, (before, san) in enumerate(zip(played.positions, known, strict=False)):
        if before.turn:
            words.append(f"{before.fullmove_number}.")
        elif ply == 0:
            words.append(f"{before.fullmove_number}...")
        words.append(san)
    return " ".join(words)
