"""A board's current game as PGN, with its pairing's tags."""

from __future__ import annotations

import datetime

from reedboard_host.mirror import MirroredGame
from reedboard_host.pgn_file import pgn_text
from reedboard_host.relay.pairings import Pairing


def board_pgn(board: str, game: MirroredGame | None, pairing: Pairing) -> str:
    """The seven-tag roster (the pairing's round and players, `?` where it names none),
    the board's number, ratings and titles where known, Chess960's tags, the moves."""
    if game is None:
        return ""
    text = pgn_text(
        game,
        site=f"reedboard {board}",
        date=datetime.date.today(),
        round_=pairing.round,
        players=(pairing.white, pairing.black),
    )
    extra = {
        "Board": pairing.board_number,
        "WhiteElo": pairing.white_elo,
        "BlackElo": pairing.black_elo,
        "WhiteTitle": pairing.white_title,
        "BlackTitle": pairing.black_title,
        "WhiteFideId": pairing.white_fide_id,
        "BlackFideId": pairing.black_fide_id,
    }
    lines = text.split("\n")
    if pairing.event:
        lines = [f'[Event "{_escaped(pairing.event)}"]' if line.startswith("[Event ") else line
                 for line in lines]  # fmt: skip
    at = next(i for i, line in enumerate(lines) if line.startswith("[Result "))
    added = [f'[{tag} "{_escaped(value)}"]' for tag, value in extra.items() if value]
    return "\n".join([*lines[: at + 1], *added, *lines[at + 1 :]])


def _escaped(value: str) -> str:
    """A PGN tag's value: a quote or a backslash in a name must not end it."""
    return value.replace("\\", "\\\\").replace('"', '\\"')
