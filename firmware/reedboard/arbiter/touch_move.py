"""Touch-move (FIDE 4.3, 4.4): which pieces the player to move has touched this turn.

The record keeps every lifted piece of the turn in order, the player's own and the
opponent's. Strict mode asks it what the touches oblige the player to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.rules.position import Position
from reedboard.rules.squares import Square


@dataclass(frozen=True, slots=True)
class Touch:
    square: Square
    piece: str  # FEN letter
    own: bool  # a piece of the player to move


@dataclass
class TouchRecord:
    """The touches of the player to move since their turn began."""

    touches: list[Touch] = field(default_factory=list)

    def touch(self, square: Square, piece: str, position: Position) -> None:
        own = piece.isupper() == position.turn
        if any(t.square == square and t.piece == piece for t in self.touches):
            return  # a piece counts once: the first touch is what binds
        self.touches.append(Touch(square, piece, own))
