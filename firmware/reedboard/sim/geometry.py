"""Board geometry the hands need: neighbours, the squares a slide passes, and the squares
each legal move may touch on its way (the same footprint the arbiter reasons with)."""

from __future__ import annotations

from reedboard.rules.attacks import BETWEEN, KING_ATTACKS
from reedboard.rules.moves import FLAG_CASTLE, FLAG_EN_PASSANT, move_of_code
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, squares_of


def distance(a: Square, b: Square) -> int:
    """King distance."""
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def neighbours(sq: Square) -> list[Square]:
    return list(squares_of(KING_ATTACKS[sq]))


def path(from_square: Square, to_square: Square) -> list[Square]:
    """The squares strictly between two squares on a line, nearest to `from_square` first
    (empty when they share no line or are adjacent)."""
    return sorted(
        squares_of(BETWEEN[from_square][to_square]), key=lambda s: distance(from_square, s)
    )


def footprints(position: Position) -> list[Bitboard]:
    """For each legal move, every square whose sensor it may change on the way."""
    prints = []
    for code in position.legal_codes():
        move = move_of_code(code)
        f, t = move.from_square, move.to_square
        if code & FLAG_CASTLE:
            kf, kt, rf, rt = position.castling_squares(move)
            bb = 1 << kf | 1 << kt | 1 << rf | 1 << rt | BETWEEN[kf][kt] | BETWEEN[rf][rt]
        else:
            bb = 1 << f | 1 << t | BETWEEN[f][t]
            if code & FLAG_EN_PASSANT:
                bb |= 1 << (t - 8 if position.turn else t + 8)
        prints.append(bb)
    return prints


def ep_victim(position: Position, to_square: Square) -> Square:
    """The square of the pawn an en passant capture to `to_square` takes."""
    return to_square - 8 if position.turn else to_square + 8
