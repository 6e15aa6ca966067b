"""How a game ended."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.rules.pieces import Color

CHECKMATE = "checkmate"
STALEMATE = "stalemate"
INSUFFICIENT_MATERIAL = "insufficient_material"
SEVENTYFIVE_MOVES = "seventyfive_moves"
FIVEFOLD_REPETITION = "fivefold_repetition"
FIFTY_MOVES = "fifty_moves"
THREEFOLD_REPETITION = "threefold_repetition"
RESIGNATION = "resignation"
AGREEMENT = "agreement"
TIME = "time"  # a flag fell (FIDE 6.9)
TIME_INSUFFICIENT_MATERIAL = "time_insufficient_material"  # ... with no mate left to win


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: `winner` is None for a draw; `reason` one of the names above."""

    reason: str
    winner: Color | None

    @property
    def result(self) -> str:
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"
