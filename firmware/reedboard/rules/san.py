"""Standard Algebraic Notation (SAN): writing and reading moves like `Nbd7`, `exd8=Q+`,
`O-O-O#`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reedboard.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from reedboard.rules.moves import (
    CODE_MOVE,
    FLAG_CASTLE,
    FLAG_EN_PASSANT,
    PIECE_SHIFT,
    Move,
    code_key,
    move_of_code,
)
from reedboard.rules.pieces import KING, PAWN, PIECE_SYMBOLS, PieceType, piece_type_from_symbol
from reedboard.rules.position import Position
from reedboard.rules.squares import FILE_NAMES, RANK_NAMES, SQUARE_NAMES, Square, parse_square

# The target square and the moving piece's type within a move code: what two moves that
# may need telling apart share.
_TARGET = (63 << 6) | (7 << PIECE_SHIFT)
_SAN = re.compile(
    r"^(?P<piece>[NBRQK])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<capture>x)?"
    r"(?P<to>[a-h][1-8])(?:=?(?P<promotion>[NBRQnbrq]))?$"
)


def san(position: Position, move: Move) -> str:
    """The SAN of a legal move (castling as king takes rook or as `e1g1`)."""
    move = position.normalize(move)
    codes = position.legal_codes()  # generated once: finding, capture and disambiguation
    key = code_key(move)
    code = next((c for c in codes if c & CODE_MOVE == key), None)
    if code is None:
        raise IllegalMoveError(f"{move.uci()} is not legal in {position.fen()}")
    rivals = []
    if (code >> PIECE_SHIFT) & 7 not in (PAWN, KING):
        target = code & _TARGET
        rivals = [c & 63 for c in codes if c & _TARGET == target and not c & FLAG_CASTLE]
    text = _san_without_suffix(position, move, code, rivals)
    if position.gives_check(code):
        text += "#" if not position.play_code(code).legal_codes() else "+"
    return text


def legal_sans(position: Position) -> dict[Move, str]:
    """The SAN of every legal move, generating the legal moves once for all of them."""
    codes = position.legal_codes()
    # The squares of the pieces of each kind that can reach each square, found in one
    # pass for every move's disambiguation (one pass per move made this quadratic).
    rivals: dict[int, list[Square]] = {}
    for code in codes:
        if not code & FLAG_CASTLE:
            rivals.setdefault(code & _TARGET, []).append(code & 63)
    sans: dict[Move, str] = {}
    for code in codes:
        move = move_of_code(code)
        text = _san_without_suffix(position, move, code, rivals.get(code & _TARGET, []))
        if position.gives_check(code):
            text += "#" if not position.play_code(code).legal_codes() else "+"
        sans[move] = text
    return sans


def _san_without_suffix(position: Position, move: Move, code: int, rivals: list[Square]) -> str:
    """The SAN but for `+` and `#`; `rivals` holds the squares of every piece of the
    mover's kind that can move to its target square (its own among them)."""
    if code & FLAG_CASTLE:
        return "O-O" if move.to_square > move.from_square else "O-O-O"
    piece_type = (code >> PIECE_SHIFT) & 7
    is_capture = bool(
        code & FLAG_EN_PASSANT or position.occupied_by(not position.turn) >> move.to_square & 1
    )
    to_name = SQUARE_NAMES[move.to_square]
    if piece_type == PAWN:
        text = FILE_NAMES[move.from_square & 7] + "x" + to_name if is_capture else to_name
        if move.promotion:
            text += "=" + PIECE_SYMBOLS[move.promotion].upper()
        return text
    text = PIECE_SYMBOLS[piece_type].upper()
    if piece_type != KING:
        text += _disambiguation(move, rivals)
    return text + ("x" if is_capture else "") + to_name


def _disambiguation(move: Move, rivals: list[Square]) -> str:
    """File if it tells the pieces apart, else rank, else both."""
    others = [sq for sq in rivals if sq != move.from_square]
    if not others:
        return ""
    file, rank = move.from_square & 7, move.from_square >> 3
    same_file = any(sq & 7 == file for sq in others)
    same_rank = any(sq >> 3 == rank for sq in others)
    if not same_file:
        return FILE_NAMES[file]
    if not same_rank:
        return RANK_NAMES[rank]
    return FILE_NAMES[file] + RANK_NAMES[rank]


@dataclass(frozen=True)
class _Written:
    """What a SAN text says about its move (castling aside)."""

    text: str
    piece_type: PieceType
    from_file: str | None
    from_rank: str | None
    marks_capture: bool
    to_name: str
    to_square: Square
    promotion: PieceType | None


def parse_san(position: Position, text: str) -> Move:
    """The legal move a SAN string names. Accepts `0-0` for `O-O`, a missing `=` before the
    promotion piece, trailing `+`, `#`, `!` or `?`, and more disambiguation than needed
    (`Ng1f3`); anything else must be exact: a capture needs its `x` and a move without
    one is no capture, and a pawn captures only when its file is named (`exd5`, never
    `d5`)."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"SAN is text, not {type(text).__name__}")
    core = text.strip().rstrip("+#!?")
    if core in ("O-O", "0-0", "O-O-O", "0-0-0"):
        return _parse_castling(position, text, long=len(core) == 5)
    written = _read_written(text, core)
    them = position.occupied_by(not position.turn)
    candidates = []
    wrong_capture = []
    to_bits = written.to_square << 6
    for code in position.legal_codes():
        if code & FLAG_CASTLE or code & (63 << 6) != to_bits:
            continue
        move = move_of_code(code)
        if not _fits(position, move, written):
            continue
        is_capture = bool(code & FLAG_EN_PASSANT or them & (1 << written.to_square))
        if is_capture != written.marks_capture:
            wrong_capture.append(move)
            continue
        candidates.append(move)
    if not candidates:
        raise _no_move(position, written, bool(wrong_capture))
    if len(candidates) > 1:
        names = ", ".join(m.uci() for m in candidates)
        raise AmbiguousMoveError(f"{text!r} is ambiguous: it could be {names}")
    return candidates[0]


def _read_written(text: str, core: str) -> _Written:
    match = _SAN.match(core)
    if not match:
        raise InvalidMoveError(f"{text!r} is not a move in SAN (like e4, Nf3, exd5, O-O, e8=Q)")
    piece_type = piece_type_from_symbol(match["piece"]) if match["piece"] else PAWN
    promotion = piece_type_from_symbol(match["promotion"]) if match["promotion"] else None
    if promotion is not None and piece_type != PAWN:
        raise InvalidMoveError(f"{text!r}: only a pawn promotes")
    return _Written(
        text=text,
        piece_type=piece_type,
        from_file=match["file"],
        from_rank=match["rank"],
        marks_capture=bool(match["capture"]),
        to_name=match["to"],
        to_square=parse_square(match["to"]),
        promotion=promotion,
    )


def _fits(position: Position, move: Move, written: _Written) -> bool:
    """Whether a legal move to the written square is the one written, whether it captures
    left aside."""
    if move.promotion != written.promotion:
        return False
    if position.piece_type_at(move.from_square) != written.piece_type:
        return False
    from_file, from_rank = move.from_square & 7, move.from_square >> 3
    if written.piece_type == PAWN and not written.from_file and from_file != written.to_square & 7:
        return False  # `d5` is a pawn push; a capture must name its file (`exd5`)
    if written.from_file and FILE_NAMES[from_file] != written.from_file:
        return False
    return not written.from_rank or RANK_NAMES[from_rank] == written.from_rank


def _no_move(position: Position, written: _Written, wrong_capture: bool) -> IllegalMoveError:
    """Why no legal move is the one written."""
    text = written.text
    if wrong_capture:
        # The move exists but the text misstates whether it captures: no silent repair.
        if written.marks_capture:
            return IllegalMoveError(
                f"{text!r} marks a capture, but {written.to_name} holds no piece to take"
            )
        return IllegalMoveError(f"{text!r} captures on {written.to_name}: SAN writes it with 'x'")
    last_rank = written.to_square >> 3 in (0, 7)
    if written.piece_type == PAWN and written.promotion is None and last_rank:
        return IllegalMoveError(f"{text!r}: a pawn reaching the last rank must promote (e8=Q)")
    return IllegalMoveError(f"{text!r} is not legal in {position.fen()}")


def _parse_castling(position: Position, text: str, long: bool) -> Move:
    for code in position.legal_codes():
        if code & FLAG_CASTLE:
            move = move_of_code(code)
            if (move.to_square < move.from_square) == long:
                return move
    raise IllegalMoveError(f"{text!r}: castling is not legal in {position.fen()}")
