"""Who plays on one board: what the PGN's tags and the page say of its game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    round: str = "?"
    board_number: str = ""
    white: str = "?"
    black: str = "?"
    white_elo: str = ""
    black_elo: str = ""
    white_title: str = ""
    black_title: str = ""
    white_fide_id: str = ""
    black_fide_id: str = ""
    event: str = ""  # the tournament's name, when the file gives it
