"""What each legal move of a position looks like on a board that only senses presence.

For every legal move the table holds the placement it leaves (a 64-character string, one
FEN letter or '.' per square, a1 first), the pieces it takes off the board, and its
footprint: every square whose sensor the move may change on the way, including the
squares a sliding piece passes over and both castling paths. The reader matches what the
hands did against these, and asks the table whether a half-done state can still become a
move (a prefix) and whether a finished move can still grow into a longer one.
"""

from __future__ import annotations

from typing import NamedTuple

from reedboard.rules.attacks import BETWEEN
from reedboard.rules.fen import piece_cells
from reedboard.rules.moves import (
    FLAG_CASTLE,
    FLAG_EN_PASSANT,
    PIECE_SHIFT,
    Move,
    move_of_code,
)
from reedboard.rules.pieces import KING, PIECE_SYMBOLS, QUEEN, ROOK
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square

EMPTY = "."
_PIECE_BITS = 7 << PIECE_SHIFT  # the moving piece's type within a move code


def placement_of(position: Position) -> str:
    """The position's placement as 64 characters, a1 first."""
    return "".join(piece_cells(position, EMPTY))


class MoveShape(NamedTuple):
    """One legal move as the sensors can know it. (A named tuple rather than a frozen
    dataclass: a table is built for every position the game reaches, some thirty shapes
    each, and a frozen dataclass takes about five times as long to construct.)"""

    move: Move
    code: int
    piece: str  # the moving piece's FEN letter
    placement: str  # after the move, with a promoted pawn still shown as a pawn
    captured: str  # FEN letters of what the move takes off the board ('' or one)
    footprint: Bitboard
    occupancy: Bitboard  # after the move
    is_capture: bool
    is_castling: bool
    is_promotion: bool
    king_step: bool  # a king move of one square that castling may still follow
    movers: Bitboard = 0  # the squares of the pieces it moves (the king's and the rook's)

    @property
    def from_square(self) -> Square:
        return self.move.from_square

    @property
    def to_square(self) -> Square:
        return self.move.to_square


class MoveTable:
    """The shapes of every legal move of one position, indexed for matching."""

    def __init__(self, position: Position, legal: bool = True) -> None:
        """`legal=False` gives a table without moves: the game is over."""
        self.position = position
        self.placement = placement_of(position)
        self.occupancy = position.occupied
        self.shapes: list[MoveShape] = []
        self.by_state: dict[tuple[str, str], list[MoveShape]] = {}
        castling_kings = 0
        codes = position.legal_codes() if legal else []
        for code in codes:
            if code & FLAG_CASTLE:
                castling_kings |= 1 << (code & 63)
        shapes = self.shapes
        by_state = self.by_state
        board = self.placement
        occupancy = self.occupancy
        king_code = KING << PIECE_SHIFT
        new_shape = tuple.__new__
        for code in codes:
            if code & (FLAG_CASTLE | FLAG_EN_PASSANT):
                shape = self._shape(position, code, castling_kings)
            else:
                # The common case, spelt out: two squares change. A table is built for
                # every position the game reaches, so this is on the reader's hot path;
                # the shape is made as the tuple it is (`MoveShape(...)` by keywords
                # took about twice as long).
                move = move_of_code(code)
                f = code & 63
                t = (code >> 6) & 63
                piece = board[f]
                captured = board[t]
                if captured == EMPTY:
                    captured = ""
                if f < t:
                    placement = board[:f] + EMPTY + board[f + 1 : t] + piece + board[t + 1 :]
                else:
                    placement = board[:t] + piece + board[t + 1 : f] + EMPTY + board[f + 1 :]
                shape = new_shape(
                    MoveShape,
                    (
                        move,
                        code,
                        piece,
                        placement,
                        captured,
                        (1 << f) | (1 << t) | BETWEEN[f][t],
                        (occupancy & ~(1 << f)) | (1 << t),
                        bool(captured),
                        False,
                        bool(code >> 12 & 7),
                        code & _PIECE_BITS == king_code and bool(castling_kings >> f & 1),
                        1 << f,
                    ),
                )
            shapes.append(shape)
            key = (shape.placement, shape.captured)
            same = by_state.get(key)
            if same is None:
                by_state[key] = [shape]
            else:
                same.append(shape)

    def _shape(self, position: Position, code: int, castling_kings: Bitboard) -> MoveShape:
        """The shape of a castling or an en passant capture, where more than two squares
        change (the other moves' are made in `__init__`)."""
        move = move_of_code(code)
        f, t = move.from_square, move.to_square
        board = self.placement
        piece = board[f]
        captured = ""
        footprint = (1 << f) | (1 << t) | BETWEEN[f][t]
        movers = 1 << f
        is_castling = bool(code & FLAG_CASTLE)
        cells = list(board)
        if is_castling:
            king_from, king_to, rook_from, rook_to = position.castling_squares(move)
            rook = cells[rook_from]
            movers |= 1 << rook_from
            cells[king_from] = cells[rook_from] = EMPTY
            cells[king_to], cells[rook_to] = piece, rook
            footprint = (
                (1 << king_from)
                | (1 << king_to)
                | BETWEEN[king_from][king_to]
                | (1 << rook_from)
                | (1 << rook_to)
                | BETWEEN[rook_from][rook_to]
            )
        else:
            if cells[t] != EMPTY:
                captured = cells[t]
            cells[f] = EMPTY
            cells[t] = piece  # a promoted pawn is still a pawn to the hands
            if code & FLAG_EN_PASSANT:
                victim = t - 8 if position.turn else t + 8
                captured = cells[victim]
                cells[victim] = EMPTY
                footprint |= 1 << victim
        placement = "".join(cells)
        occupancy = self.occupancy
        if is_castling:
            occupancy &= ~((1 << king_from) | (1 << rook_from))
            occupancy |= (1 << king_to) | (1 << rook_to)
        else:
            occupancy = (occupancy & ~(1 << f)) | (1 << t)
            if code & FLAG_EN_PASSANT:
                occupancy &= ~(1 << victim)
        piece_type = (code >> PIECE_SHIFT) & 7
        king_step = (
            not is_castling
            and piece_type == PIECE_SYMBOLS.index("k")
            and bool(castling_kings & (1 << f))
        )
        return MoveShape(
            move=move,
            code=code,
            piece=piece,
            placement=placement,
            captured=captured,
            footprint=footprint,
            occupancy=occupancy,
            is_capture=bool(captured),
            is_castling=is_castling,
            is_promotion=bool(move.promotion),
            king_step=king_step,
            movers=movers,
        )

    def is_prefix(self, changed: Bitboard) -> bool:
        """Whether a board whose sensors differ from the position on `changed` can still
        become some legal move: every changed square lies in one move's footprint."""
        return any(not changed & ~shape.footprint for shape in self.shapes)

    def in_progress(self, changed: Bitboard, sensors: Bitboard) -> bool:
        """Whether a board reading `sensors`, which differ from the position on `changed`,
        can be a legal move under way (`is_prefix`), its pieces told apart: a square
        filled on the way can hold only a piece of that move, so with a square emptied
        too, one of the move's pieces must be off its own square. (A piece put down with
        nothing taken off may be a move seen arriving before it is seen leaving: see
        verdicts.stray.)"""
        placed, emptied = changed & sensors, changed & ~sensors
        return any(
            not changed & ~shape.footprint and (not placed or not emptied or emptied & shape.movers)
            for shape in self.shapes
        )

    def growth(self, shape: MoveShape, changed: Bitboard, rook_first: bool) -> str | None:
        """How the finished `shape` may still be the first part of a longer move:
        "castling" when castling may follow (a Chess960 king step towards its castling
        square, or, with `rook_first` in casual mode, a rook on its castling square that
        the king may follow), "slide" when the piece may go on along its line, None when
        it is final. In standard chess the king's castling square is two steps away, so a
        king that stopped one step along can only go on by sliding: a "slide"."""
        if shape.is_capture or shape.is_castling or shape.is_promotion:
            return None
        found = None
        for other in self.shapes:
            if other.is_castling and self._rook_on_its_way(shape, other):
                found = "slide"  # a Chess960 rook castling over its own king, resting
                continue
            if changed & ~other.footprint:
                continue
            if other.is_castling and (
                (other.from_square == shape.from_square and self.position.chess960)
                or (rook_first and self._rook_half(shape, other))
            ):
                return "castling"
            if other.is_castling and other.from_square == shape.from_square:
                found = "slide"
                continue
            if (
                other.from_square == shape.from_square
                and other.to_square != shape.to_square
                and not other.is_castling
            ):
                found = "slide"
        return found

    def _rook_on_its_way(self, shape: MoveShape, castling: MoveShape) -> bool:
        """The rook of `castling` stopped short of its castling square, on a square it
        passes: in Chess960 its own king may stand further along the way (rook a8 to d8
        over a king on c8), so the rook's move is not final though it cannot go on."""
        _king_from, _king_to, rook_from, rook_to = self.position.castling_squares(castling.move)
        return (
            self.position.piece_type_at(shape.from_square) == ROOK
            and shape.from_square == rook_from
            and bool(BETWEEN[rook_from][rook_to] >> shape.to_square & 1)
        )

    def _rook_half(self, shape: MoveShape, castling: MoveShape) -> bool:
        """The rook of `castling` moved first to its castling square: castling may follow."""
        king_from, _king_to, rook_from, rook_to = self.position.castling_squares(castling.move)
        del king_from
        piece_type = self.position.piece_type_at(shape.from_square)
        return piece_type == ROOK and shape.from_square == rook_from and shape.to_square == rook_to


def shown_move(table: MoveTable, sensors: Bitboard) -> MoveShape | None:
    """The one legal move whose board the sensors show (a promotion as a queen), or None
    when they show the position itself, no move, or several (a piece that could have
    taken on either of two squares leaves the same sensors)."""
    if sensors == table.occupancy:
        return None
    shapes = [shape for shape in table.shapes if shape.occupancy == sensors]
    if len({(shape.from_square, shape.to_square) for shape in shapes}) != 1:
        return None
    return next((shape for shape in shapes if shape.move.promotion in (None, QUEEN)), shapes[0])
