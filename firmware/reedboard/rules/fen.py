"""FEN: reading and writing positions, with X-FEN and Shredder-FEN castling fields."""

from __future__ import annotations

from reedboard.errors import InvalidFenError
from reedboard.rules.pieces import KING, PAWN, PIECE_SYMBOLS, ROOK, WHITE, Color
from reedboard.rules.position import Position
from reedboard.rules.squares import (
    BB_RANKS,
    FILE_NAMES,
    SQUARE_NAMES,
    Bitboard,
    Square,
    parse_square,
)

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def parse_fen(fen: str, chess960: bool = False) -> Position:
    """Read a FEN, or an EPD's first four fields (then the clocks are 0 and 1).

    The castling field may be `KQkq` (X-FEN: K and Q name the outermost rook on that side),
    rook files (Shredder-FEN: `HAha`), or a mix. Rights that only Chess960 allows make the
    position a Chess960 one. Anything inconsistent is an `InvalidFenError` saying what.
    """
    if not isinstance(fen, str):
        raise InvalidFenError(f"a FEN is text, not {type(fen).__name__}")
    fields = fen.split()
    if len(fields) not in (4, 6):
        raise InvalidFenError(
            f"a FEN has 6 fields (or 4 without the clocks), {fen!r} has {len(fields)}"
        )
    pieces, colors = _parse_placement(fields[0])
    turn = _parse_turn(fields[1])
    # The pieces alone first: the castling and en passant fields are read relative to
    # them (the kings before all). The position returned is built whole from every field:
    # a position caches its legal moves once asked, so none is completed after the fact.
    pieces_only = Position(pieces, colors, turn, 0, None, 0, 1, chess960)
    _validate_kings(pieces_only)
    castling, needs_960 = _parse_castling(fields[2], pieces_only)
    ep_square = _parse_ep(fields[3], pieces_only)
    halfmove, fullmove = 0, 1
    if len(fields) == 6:
        halfmove = _parse_int(fields[4], "halfmove clock", 0)
        fullmove = _parse_int(fields[5], "fullmove number", 1)
    position = Position(
        pieces, colors, turn, castling, ep_square, halfmove, fullmove, chess960 or needs_960
    )
    _validate(position)
    return position


def _parse_placement(text: str) -> tuple[list[Bitboard], list[Bitboard]]:
    pieces = [0] * 7
    colors = [0, 0]
    rows = text.split("/")
    if len(rows) != 8:
        raise InvalidFenError(f"the placement {text!r} needs 8 ranks separated by '/'")
    for row_index, row in enumerate(rows):
        rank = 7 - row_index
        file = 0
        previous_digit = False
        for char in row:
            if char in "12345678":
                if previous_digit:
                    raise InvalidFenError(f"rank {rank + 1} ({row!r}) has two digits in a row")
                file += int(char)
                previous_digit = True
            elif char.lower() in PIECE_SYMBOLS[1:]:
                if file >= 8:
                    raise InvalidFenError(
                        f"rank {rank + 1} ({row!r}) describes more than 8 squares"
                    )
                bit = 1 << (rank * 8 + file)
                pieces[PIECE_SYMBOLS.index(char.lower())] |= bit
                colors[char.isupper()] |= bit
                file += 1
                previous_digit = False
            else:
                raise InvalidFenError(f"{char!r} in rank {rank + 1} is neither a piece nor 1-8")
        if file != 8:
            raise InvalidFenError(f"rank {rank + 1} ({row!r}) does not describe 8 squares")
    return pieces, colors


def _parse_turn(text: str) -> Color:
    if text not in ("w", "b"):
        raise InvalidFenError(f"the side to move is 'w' or 'b', not {text!r}")
    return text == "w"


def _parse_castling(text: str, position: Position) -> tuple[Bitboard, bool]:
    if text == "-":
        return 0, False
    castling = 0
    needs_960 = False
    for char in text:
        color: Color = char.isupper()
        back = 0 if color else 7
        king = _castling_king(char, position, color)
        rook = _castling_rook(char, position, color, king)
        _check_new_right(char, castling, king, rook, back)
        castling |= 1 << rook
        if king != back * 8 + 4 or rook not in (back * 8, back * 8 + 7):
            needs_960 = True
    return castling, needs_960


def _castling_king(char: str, position: Position, color: Color) -> Square:
    """The square of the one king of `color`, which a castling right needs on its back rank."""
    king = position.king(color)
    kings = position.pieces_of(KING, color)
    if king is None or king >> 3 != (0 if color else 7) or kings & (kings - 1):
        name = "white" if color else "black"
        raise InvalidFenError(f"castling right {char!r}: the {name} king is not on its back rank")
    return king


def _castling_rook(char: str, position: Position, color: Color, king: Square) -> Square:
    """The rook a castling right names: the outermost on a side (`K`, `Q`) or by its file."""
    name = "white" if color else "black"
    back = 0 if color else 7
    rooks = position.pieces_of(ROOK, color) & BB_RANKS[back]
    upper = char.upper()
    if upper == "K":
        side = [sq for sq in range(king + 1, back * 8 + 8) if rooks >> sq & 1]
        if not side:
            raise InvalidFenError(f"castling right {char!r}: no {name} rook on the king's right")
        return side[-1]
    if upper == "Q":
        side = [sq for sq in range(back * 8, king) if rooks >> sq & 1]
        if not side:
            raise InvalidFenError(f"castling right {char!r}: no {name} rook on the king's left")
        return side[0]
    if upper not in "ABCDEFGH":
        raise InvalidFenError(f"{char!r} is not a castling right (KQkq or a rook's file A-H, a-h)")
    rook = back * 8 + "ABCDEFGH".index(upper)
    if not rooks >> rook & 1:
        raise InvalidFenError(f"castling right {char!r}: no {name} rook on {SQUARE_NAMES[rook]}")
    if rook == king:
        raise InvalidFenError(f"castling right {char!r} names the king's own file")
    return rook


def _check_new_right(char: str, castling: Bitboard, king: Square, rook: Square, back: int) -> None:
    """One right per rook and per side of the king."""
    if castling >> rook & 1:
        raise InvalidFenError(f"castling right {char!r} is given twice")
    same_side = [
        sq
        for sq in range(back * 8, back * 8 + 8)
        if castling >> sq & 1 and (sq > king) == (rook > king)
    ]
    if same_side:
        raise InvalidFenError(f"castling right {char!r}: that side already has a right")


def _parse_ep(text: str, position: Position) -> Square | None:
    if text == "-":
        return None
    if text not in SQUARE_NAMES:
        raise InvalidFenError(f"the en passant field is a square or '-', not {text!r}")
    sq = parse_square(text)
    turn = position.turn
    if sq >> 3 != (5 if turn else 2):
        raise InvalidFenError(f"en passant square {text} is not on rank {'6' if turn else '3'}")
    pawn = sq - 8 if turn else sq + 8
    start = sq + 8 if turn else sq - 8
    if not position.pieces_of(PAWN, not turn) >> pawn & 1:
        raise InvalidFenError(f"en passant square {text}: no pawn stands on {SQUARE_NAMES[pawn]}")
    if position.occupied & ((1 << sq) | (1 << start)):
        raise InvalidFenError(f"en passant square {text}: the pawn cannot have just passed it")
    return sq


def _parse_int(text: str, what: str, minimum: int) -> int:
    # isdigit() alone would let through digits like '²' that int() refuses.
    if not (text.isascii() and text.isdigit()) or int(text) < minimum:
        raise InvalidFenError(f"the {what} must be a whole number >= {minimum}, not {text!r}")
    return int(text)


def _validate_kings(position: Position) -> None:
    for color in (True, False):
        name = "white" if color else "black"
        kings = position.pieces_of(KING, color).bit_count()
        if kings != 1:
            raise InvalidFenError(f"{name} has {kings} kings; a position needs exactly one")


def _validate(position: Position) -> None:
    for color in (True, False):
        name = "white" if color else "black"
        if position.occupied_by(color).bit_count() > 16:
            raise InvalidFenError(f"{name} has more than 16 pieces")
        if position.pieces_of(PAWN, color).bit_count() > 8:
            raise InvalidFenError(f"{name} has more than 8 pawns")
    misplaced = (position.pieces_of(PAWN, True) | position.pieces_of(PAWN, False)) & (
        BB_RANKS[0] | BB_RANKS[7]
    )
    if misplaced:
        sq = misplaced.bit_length() - 1
        raise InvalidFenError(f"a pawn stands on {SQUARE_NAMES[sq]}, on a back rank")
    other_king = position.king(not position.turn)
    assert other_king is not None
    if position.attackers(position.turn, other_king):
        side = "black" if position.turn else "white"
        raise InvalidFenError(f"{side} is in check but it is not {side}'s move")
    if position.checkers().bit_count() > 2:
        raise InvalidFenError(
            "the king is in check by more than two pieces, which no move can give"
        )


def piece_cells(position: Position, empty: str) -> list[str]:
    """The 64 squares, a1 first: each piece's FEN letter, `empty` where there is none.
    The bits are walked by hand rather than through a generator: this runs for every
    position a game reaches (its FEN, the move reader's table)."""
    cells = [empty] * 64
    for piece_type, color, letter in _LETTERS:
        bb = position.pieces_of(piece_type, color)
        while bb:
            low = bb & -bb
            cells[low.bit_length() - 1] = letter
            bb ^= low
    return cells


def write_board_fen(position: Position) -> str:
    # Written once per move made (the reader's path) and at every ply of a game record,
    # so spelt out: the bits walked by hand rather than through a generator, and the runs
    # of empty squares rewritten on the whole board at once (the slashes keep each run
    # within its rank) rather than rank by rank: about half the time.
    cells = piece_cells(position, "1")
    text = "/".join(["".join(cells[start : start + 8]) for start in range(56, -8, -8)])
    for run, length in _EMPTY_RUNS:  # the longest first
        text = text.replace(run, length)
    return text


_LETTERS = tuple(
    (piece_type, color, PIECE_SYMBOLS[piece_type].upper() if color else PIECE_SYMBOLS[piece_type])
    for color in (WHITE, not WHITE)
    for piece_type in range(1, 7)
)
_EMPTY_RUNS = tuple(("1" * n, str(n)) for n in range(8, 1, -1))


def castling_field(position: Position, shredder: bool = False) -> str:
    """KQkq where each letter is unambiguous (X-FEN), or rook files with `shredder`."""
    text = ""
    for color in (WHITE, False):
        back = 0 if color else 7
        king = position.king(color)
        rooks = position.castling & position.occupied_by(color) & BB_RANKS[back]
        all_rooks = position.pieces_of(ROOK, color) & BB_RANKS[back]
        part = ""
        for rook in range(back * 8 + 7, back * 8 - 1, -1):
            if not rooks >> rook & 1 or king is None:
                continue
            letter = FILE_NAMES[rook & 7]
            if not shredder:
                # all_rooks holds the back rank only, so these are the rooks further out.
                outer = all_rooks >> (rook + 1) if rook > king else all_rooks & ((1 << rook) - 1)
                if rook > king and not outer:
                    letter = "k"
                elif rook < king and not outer:
                    letter = "q"
            part += letter.upper() if color else letter
        text += part
    return text or "-"


def write_fen(position: Position, shredder: bool = False) -> str:
    ep = position.ep_square if position.has_legal_en_passant() else None
    return " ".join(
        (
            write_board_fen(position),
            "w" if position.turn else "b",
            castling_field(position, shredder),
            SQUARE_NAMES[ep] if ep is not None else "-",
            str(position.halfmove_clock),
            str(position.fullmove_number),
        )
    )
