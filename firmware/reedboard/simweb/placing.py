"""Which held piece a played script puts down: a script says only "place e4", and with
two pieces in hand (a capture, a castling) the world must still show the right one."""

from __future__ import annotations

from reedboard.rules.position import Position
from reedboard.rules.squares import Square
from reedboard.simweb.world import Held


def likeliest(hand: list[Held], target: Square, position: Position) -> int:
    """The index of the held piece that most likely goes to `target`: with a king and its
    rook in hand, the one whose castling square it is; then one with a legal move there;
    then one of the side to move; then the last taken."""
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
