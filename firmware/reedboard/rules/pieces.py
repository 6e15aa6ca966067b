"""Colours, piece types and pieces."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.errors import InvalidInputError

Color = bool
WHITE: Color = True
BLACK: Color = False
COLORS: tuple[Color, Color] = (WHITE, BLACK)
COLOR_NAMES = {WHITE: "white", BLACK: "black"}

PieceType = int
PAWN: PieceType = 1
KNIGHT: PieceType = 2
BISHOP: PieceType = 3
ROOK: PieceType = 4
QUEEN: PieceType = 5
KING: PieceType = 6
PIECE_TYPES: tuple[PieceType, ...] = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
PIECE_SYMBOLS = ("", "p", "n", "b", "r", "q", "k")
PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
PROMOTION_TYPES: tuple[PieceType, ...] = (QUEEN, ROOK, BISHOP, KNIGHT)


def piece_type_from_symbol(symbol: str) -> PieceType:
    """'n' or 'N' -> KNIGHT."""
    try:
        index = PIECE_SYMBOLS.index(symbol.lower()) if len(symbol) == 1 else 0
    except ValueError:
        index = 0
    if index == 0:
        raise InvalidInputError(f"{symbol!r} is not a piece letter (p, n, b, r, q, k)")
    return index


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its type and colour.

    >>> Piece.from_symbol("N")
    Piece.from_symbol('N')
    >>> Piece(KNIGHT, BLACK).symbol()
    'n'
    """

    piece_type: PieceType
    color: Color

    def symbol(self) -> str:
        """The FEN letter: upper case for white."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color else letter

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        return cls(piece_type_from_symbol(symbol), symbol.isupper())

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"

    def __str__(self) -> str:
        return self.symbol()
