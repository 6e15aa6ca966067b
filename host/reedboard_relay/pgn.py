"""A board's current game as PGN, with its pairing's tags."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from reedboard_host.mirror import MirroredGame
from reedboard_host.pgn_file import pgn_text

from reedboard_relay.pairings import Pairing


def board_pgn(
    board: str,
    game: MirroredGame | None,
    pairing: Pairing,
    date: datetime.date | None = None,
    sans: Sequence[str] | None = None,
) -> str:
    """The seven-tag roster (the pairing's round and players, `?` where it names none,
    `date` the game's own day: today where none is given), the board's number, ratings
    and titles where known, Chess960's tags, the moves."""
    if game is None:
        return ""
    extra = {
        "Event": pairing.event,
        "Board": pairing.board_number,
        "WhiteElo": pairing.white_elo,
        "BlackElo": pairing.black_elo,
        "WhiteTitle": pairing.white_title,
        "BlackTitle": pairing.black_title,
        "WhiteFideId": pairing.white_fide_id,
        "BlackFideId": pairing.black_fide_id,
    }
    return pgn_text(
        game,
        site=f"reedboard {board}",
        date=date or datetime.date.today(),
        round_=pairing.round,
        players=(pairing.white, pairing.black),
        tags={tag: value for tag, value in extra.items() if value},
        sans=sans,
    )
