"""Chess960 start positions by their Scharnagl number (0..959; 518 is standard chess)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from reedboard.errors import InvalidChess960Error
from reedboard.rules.pieces import BISHOP, KING, KNIGHT, PIECE_SYMBOLS, QUEEN, ROOK, PieceType

if TYPE_CHECKING:
    from reedboard.rules.position import Position

# Where the two knights stand among the five squares left after bishops and queen.
_KNIGHT_PLACES = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))


def back_rank(number: int) -> tuple[PieceType, ...]:
    """The white back rank, files a..h, of start position `number`.

    >>> "".join("xpnbrqk"[t] for t in back_rank(518))
    'rnbqkbnr'
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 959:
        raise InvalidChess960Error(f"Chess960 start positions are numbered 0..959, not {number!r}")
    rank: list[PieceType | None] = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = BISHOP  # light-squared bishop on b, d, f or h
    n, dark = divmod(n, 4)
    rank[2 * dark] = BISHOP  # dark-squared bishop on a, c, e or g
    n, queen = divmod(n, 6)
    free = [f for f in range(8) if rank[f] is None]
    rank[free[queen]] = QUEEN
    free = [f for f in range(8) if rank[f] is None]
    for index in _KNIGHT_PLACES[n]:
        rank[free[index]] = KNIGHT
    left, middle, right = (f for f in range(8) if rank[f] is None)
    rank[left], rank[middle], rank[right] = ROOK, KING, ROOK
    return tuple(t for t in rank if t is not None)


def chess960_number(rank: tuple[PieceType, ...] | list[PieceType]) -> int:
    """The Scharnagl number of a white back rank (files a..h); the inverse of `back_rank`.

    Read off the rank by undoing `back_rank`'s steps (bishops, queen, knights) and then
    checked by building that number's rank: one construction instead of a search through
    all 960 (a sensed Chess960 setup and every journal of one ask for it).
    """
    rank = tuple(rank)
    number = _number_of(rank)
    if number is None or back_rank(number) != rank:
        letters = "".join(PIECE_SYMBOLS[t] if 0 < t < len(PIECE_SYMBOLS) else "?" for t in rank)
        raise InvalidChess960Error(f"{letters!r} is not a Chess960 start position")
    return number


def _number_of(rank: tuple[PieceType, ...]) -> int | None:
    """The number `back_rank` would have built `rank` from, if its pieces allow one."""
    if len(rank) != 8:
        return None
    bishops = [f for f in range(8) if rank[f] == BISHOP]
    light = [f for f in bishops if f % 2 == 1]
    dark = [f for f in bishops if f % 2 == 0]
    if len(light) != 1 or len(dark) != 1:
        return None
    free = [f for f in range(8) if rank[f] != BISHOP]
    queens = [i for i, f in enumerate(free) if rank[f] == QUEEN]
    if len(queens) != 1:
        return None
    free = [f for f in free if rank[f] != QUEEN]
    knights = tuple(i for i, f in enumerate(free) if rank[f] == KNIGHT)
    if knights not in _KNIGHT_PLACES:
        return None
    n = _KNIGHT_PLACES.index(knights)
    return light[0] // 2 + 4 * (dark[0] // 2 + 4 * (queens[0] + 6 * n))


def chess960_fen(number: int) -> str:
    """The FEN of start position `number` with Shredder-FEN castling rights."""
    rank = back_rank(number)
    white = "".join(PIECE_SYMBOLS[t].upper() for t in rank)
    rooks = [f for f in range(8) if rank[f] == ROOK]
    rights = "".join("ABCDEFGH"[f] for f in reversed(rooks))
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights}{rights.lower()} - 0 1"


def random_chess960_number(rng: random.Random) -> int:
    return rng.randrange(960)


def start_number_of(position: Position) -> int | None:
    """The number of the Chess960 start position that `position` is, or None when it is
    none. The move counters do not count: a GUI or a server may number them otherwise."""
    rank = [kind for sq in range(8) if (kind := position.piece_type_at(sq)) is not None]
    try:
        number = chess960_number(rank)
    except InvalidChess960Error:
        return None
    start = type(position).chess960_start(number)
    same = start.fen(shredder=True).split()[:4] == position.fen(shredder=True).split()[:4]
    return number if same else None
