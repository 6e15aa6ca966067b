"""Which held piece a played script puts down: a script says only "place e4", and with
two pieces in hand (a capture, a castling) the world must still show the right one."""

from __future__ import annotations

from reedboard.rules.position import Position
from reedboard.rules.squares import Square
from reedboard.simweb.world import Held


def likeliest(hand: list[Held], target: Square, position: Position) -> int:
    """The index of the held piece that most likely goes to `target`: one with a legal
    move there (in a castling, the king to its square and the rook to its own), then
    one of the side to move, then the last taken."""
    landings = _landings(position)

    def score(held: Held) -> tuple[bool, bool]:
        legal = held.origin is not None and target in landings.get(held.origin, set())
        return legal, held.piece.isupper() == position.turn

    best = len(hand) - 1
    for index in range(len(hand) - 1, -1, -1):
        if score(hand[index]) > score(hand[best]):
            best = index
    return best


def _landings(position: Position) -> dict[Square, set[Square]]:
    """{origin: squares its piece may end on} over every legal move of the side to move."""
    out: dict[Square, set[Square]] = {}
    for move in position.legal_moves():
        if position.is_castling(move):
            king_from, king_to, rook_from, rook_to = position.castling_squares(move)
            out.setdefault(king_from, set()).add(king_to)
            out.setdefault(rook_from, set()).add(rook_to)
        else:
            out.setdefault(move.from_square, set()).add(move.to_square)
    return out
