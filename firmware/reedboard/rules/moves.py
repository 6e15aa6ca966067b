"""Moves as values, and their raw UCI form."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.errors import InvalidMoveError
from reedboard.rules.pieces import KING, PAWN, PIECE_SYMBOLS, PieceType
from reedboard.rules.squares import SQUARE_NAMES, Square, parse_square


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another, with the piece a pawn promotes to.

    Castling is stored as the king taking its own rook (`e1h1`), so that every kind of
    Chess960 castling has one unambiguous form; `Position.uci` writes the standard
    `e1g1` where the game is not Chess960.

    >>> Move.from_uci("e7e8n")
    Move.from_uci('e7e8n')
    """

    from_square: Square
    to_square: Square
    promotion: PieceType | None = None

    def uci(self) -> str:
        """The raw UCI text of this value (castling as king takes rook)."""
        text = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        if self.promotion:
            text += PIECE_SYMBOLS[self.promotion]
        return text

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse `e2e4` or `e7e8q`; the legality is not checked here."""
        if not isinstance(text, str) or len(text) not in (4, 5):
            raise InvalidMoveError(f"{text!r} is not a UCI move (like e2e4 or e7e8q)")
        try:
            from_square = parse_square(text[0:2])
            to_square = parse_square(text[2:4])
        except ValueError:
            raise InvalidMoveError(f"{text!r} is not a UCI move (like e2e4 or e7e8q)") from None
        promotion = None
        if len(text) == 5:
            letter = text[4]
            if letter not in "nbrq":
                raise InvalidMoveError(f"{text!r}: a pawn promotes to n, b, r or q, not {letter!r}")
            promotion = PIECE_SYMBOLS.index(letter)
        if from_square == to_square:
            raise InvalidMoveError(f"{text!r}: a move must leave its square")
        return cls(from_square, to_square, promotion)

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    def __str__(self) -> str:
        return self.uci()


# Internal move codes: the generator works on ints for speed; `Move` is the public value.
# bits 0-5 from, 6-11 to, 12-14 promotion, 15-17 moving piece type, then flags.
CODE_SQUARES = (1 << 12) - 1
CODE_MOVE = (1 << 15) - 1  # from, to and promotion: what a `Move` holds
FLAG_CASTLE = 1 << 18
FLAG_EN_PASSANT = 1 << 19
FLAG_DOUBLE_PUSH = 1 << 20
PIECE_SHIFT = 15
PAWN_CODE = PAWN << PIECE_SHIFT
KING_CODE = KING << PIECE_SHIFT


_MOVES: dict[int, Move] = {}  # moves are values: one object per (from, to, promotion)


def move_of_code(code: int) -> Move:
    key = code & CODE_MOVE
    move = _MOVES.get(key)
    if move is None:
        promotion = (key >> 12) & 7
        move = _MOVES[key] = Move(key & 63, (key >> 6) & 63, promotion or None)
    return move


def code_key(move: Move) -> int:
    """The part of a code that a `Move` determines."""
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12
