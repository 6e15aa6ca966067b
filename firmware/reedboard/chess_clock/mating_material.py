"""Whether a side could still checkmate by any series of legal moves (FIDE 6.9: a player
whose flag falls draws when the opponent could not), judged from the material of both
sides.

Any help counts, the flagged player's own pieces included: a lone knight mates a king
hemmed in by its own pawn, a lone bishop one whose neighbours of the other colour are
taken by its own pieces. So the lone minor pieces are the only cases:

- a bare king never mates;
- one knight (and nothing else) mates only a king that has some piece of its own to
  stand in its way;
- bishops all on squares of one colour (and nothing else) mate only a king that has a
  piece able to stand on the other colour: a pawn, a knight, a rook, a queen, or a
  bishop of the other colour.

Everything else (a pawn, which may promote; a rook; a queen; two knights; a knight and
a bishop; bishops on both colours) can mate. Positions dead for deeper reasons (pawns
locked against each other) are not seen: the flag then wins, as an arbiter's doubt would.
"""

from __future__ import annotations

from reedboard.rules.pieces import BISHOP, KNIGHT, PAWN, QUEEN, ROOK, Color
from reedboard.rules.position import Position
from reedboard.rules.squares import BB_DARK_SQUARES, BB_LIGHT_SQUARES


def can_checkmate(position: Position, color: Color) -> bool:
    """Whether `color` could checkmate the other side by some series of legal moves."""
    heavy = (
        position.pieces_of(PAWN, color)
        | position.pieces_of(ROOK, color)
        | position.pieces_of(QUEEN, color)
    )
    if heavy:
        return True
    knights = position.pieces_of(KNIGHT, color)
    bishops = position.pieces_of(BISHOP, color)
    if knights and bishops:
        return True
    if knights:
        if knights & (knights - 1):
            return True  # two knights: a helpmate exists even against a bare king
        return _has_men_besides_king(position, not color)
    if not bishops:
        return False  # a bare king
    if bishops & BB_LIGHT_SQUARES and bishops & BB_DARK_SQUARES:
        return True
    other_colour = BB_DARK_SQUARES if bishops & BB_LIGHT_SQUARES else BB_LIGHT_SQUARES
    defender = not color
    blockers = (
        position.pieces_of(PAWN, defender)
        | position.pieces_of(KNIGHT, defender)
        | position.pieces_of(ROOK, defender)
        | position.pieces_of(QUEEN, defender)
        | position.pieces_of(BISHOP, defender) & other_colour
    )
    return bool(blockers)


def _has_men_besides_king(position: Position, color: Color) -> bool:
    return any(
        position.pieces_of(piece_type, color) for piece_type in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN)
    )
