"""Squares and bitboards: a square is an int 0..63 (a1 = 0, b1 = 1, ..., h8 = 63) and a
bitboard is an int whose bit n says something about square n."""

from __future__ import annotations

from collections.abc import Iterator

from reedboard.errors import InvalidSquareError

Square = int
Bitboard = int

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
_SQUARE_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}

BB_EMPTY: Bitboard = 0
BB_ALL: Bitboard = (1 << 64) - 1
BB_SQUARES: tuple[Bitboard, ...] = tuple(1 << i for i in range(64))
BB_FILES: tuple[Bitboard, ...] = tuple(0x0101010101010101 << f for f in range(8))
BB_RANKS: tuple[Bitboard, ...] = tuple(0xFF << (8 * r) for r in range(8))
BB_LIGHT_SQUARES: Bitboard = 0x55AA55AA55AA55AA
BB_DARK_SQUARES: Bitboard = 0xAA55AA55AA55AA55


def square(file_index: int, rank_index: int) -> Square:
    """The square on file 0..7 (a..h) and rank 0..7 (1..8)."""
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    return sq & 7


def square_rank(sq: Square) -> int:
    return sq >> 3


def square_name(sq: Square) -> str:
    """The name of a square.

    >>> square_name(28)
    'e4'
    """
    if not 0 <= sq < 64:
        raise InvalidSquareError(f"square number {sq} is outside 0..63")
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The square of a name.

    >>> parse_square("e4")
    28
    """
    try:
        return _SQUARE_BY_NAME[name]
    except (KeyError, TypeError):
        raise InvalidSquareError(f"{name!r} is not a square (a1 .. h8)") from None


def squares_of(bb: Bitboard) -> Iterator[Square]:
    """The squares set in a bitboard, from a1 upwards."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def square_names_of(bb: Bitboard) -> list[str]:
    """The names of the squares set in a bitboard, from a1 upwards.

    >>> square_names_of(0x1000_0000 | 0x10_0000_0000)
    ['e4', 'e5']
    """
    return [SQUARE_NAMES[sq] for sq in squares_of(bb)]


def popcount(bb: Bitboard) -> int:
    return bb.bit_count()


def bitboard_of(squares: Iterator[Square] | list[Square] | tuple[Square, ...]) -> Bitboard:
    bb = 0
    for sq in squares:
        bb |= 1 << sq
    return bb
