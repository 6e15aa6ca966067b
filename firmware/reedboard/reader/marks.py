"""What the host asks the lights to show beyond the game: a move for the player to carry
out (an engine's reply), and squares lit for its own reasons, steady and blinking (a chess
program's LED pattern that is not a move). They belong to the position they were given
in: the next move, a takeback or a new game clears them (`HostMarks()`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from reedboard.rules.moves import Move
from reedboard.rules.squares import Bitboard, Square


@dataclass(frozen=True, slots=True)
class HostMarks:
    hint: Move | None = None
    steady: Bitboard = 0
    blinking: Bitboard = 0  # never a square that is also steady

    def hinting(self, move: Move | None) -> HostMarks:
        """With `move` asked for (None clears it)."""
        return replace(self, hint=move)

    def marking(self, steady: Bitboard, blinking: Bitboard) -> HostMarks:
        """With these squares lit (0, 0 clears them)."""
        return replace(self, steady=steady, blinking=blinking & ~steady)

    @property
    def hint_squares(self) -> tuple[Square, Square] | None:
        return (self.hint.from_square, self.hint.to_square) if self.hint else None
