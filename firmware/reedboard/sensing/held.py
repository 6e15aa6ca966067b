"""Which piece a hand puts down. A presence-only board's switches say that a square
filled, not which of the pieces in the hand went there: with two in the hand (a capture,
a castling) something must still say which. The simulator's world asks when a script
says only "place e4"; the emulations ask to tell a client that expects piece codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reedboard.rules.position import Position
from reedboard.rules.squares import Square


@dataclass(frozen=True, slots=True)
class Held:
    """A piece in the hand (its FEN letter) and the square it was lifted from (None: it
    came from beside the board)."""

    piece: str
    origin: Square | None


def likeliest(hand: Sequence[Held], target: Square, position: Position) -> int:
    """The index in `hand` (not empty; the last taken last) of the piece that most
    likely goes to `target`: with a king and its rook in hand, the one whose castling
    square it is; then one with a legal move there; then one of the side to move; then
    the last taken."""
    origins = {held.origin for held in hand}
    castled: set[tuple[Square, Square]] = set()  # (origin, landing) of castlings in hand
    landings: set[tuple[Square, Square]] = set()
    for move in position.legal_moves():
        if position.is_castling(move):
            king_from, king_to, rook_from, rook_to = position.castling_squares(move)
            landings |= {(king_from, king_to), (rook_from, rook_to)}
            if king_from in origins and rook_from in origins:
                castled |= {(king_from, king_to), (rook_from, rook_to)}
        else:
            landings.add((move.from_square, move.to_square))

    def score(held: Held) -> tuple[bool, bool, bool]:
        pair = (-1 if held.origin is None else held.origin, target)
        return pair in castled, pair in landings, held.piece.isupper() == position.turn

    best = len(hand) - 1
    for index in range(len(hand) - 1, -1, -1):
        if score(hand[index]) > score(hand[best]):
            best = index
    return best
