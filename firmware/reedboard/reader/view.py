"""What the board is now, for the lights: a frozen snapshot the reader gives on request.

Everything here is derived from the reader's state (`board_view`, a function of it); the
scenes turn it into colours.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.events import Illegal
from reedboard.reader.marks import HostMarks
from reedboard.reader.setup import SetupProgress
from reedboard.reader.table import MoveShape, MoveTable
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, squares_of


@dataclass(frozen=True, slots=True)
class Targets:
    """Where a lifted piece of the side to move may go, told apart by kind."""

    origin: Square
    quiet: Bitboard = 0
    captures: Bitboard = 0
    en_passant: Bitboard = 0  # the destination square of an en passant capture
    castling: Bitboard = 0  # the king's destination squares of the castlings it may make
    promotions: Bitboard = 0  # destinations on the last rank


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board for the lights.

    - `lifted`: squares whose piece is off the board now (taken from the position).
    - `targets`: for each lifted piece of the side to move, its legal destinations.
    - `capturers`: own pieces that can capture a lifted opponent's piece.
    - `pending`: (from, to) of a finished move that may still grow, and `pending_next`
      the squares that could still complete it (the rest of a slide, the rook's path).
    - `candidates`: a push-capture that two or more captures would explain, the hand
      done: the capturer's square and every target, none guessed.
    - `arriving`: a piece set down with nothing taken off, on a square a legal move may
      still reach (the piece seen arriving before it is seen leaving, a queen set first
      on the promotion square), shown at once; it becomes a mismatch only if it stays
      alone. `arriving_from`: the pieces whose lift would make the board a move.
    - `missing`, `extra`, `pairs`: a mismatch: where pieces must come back, where one must
      leave, and the suggested extra -> missing pairs.
    - `must_move`: strict mode, the touched piece that must move; `violation` the square
      a touch-move breach names.
    - `last_move`: (from, to) of the last committed move; `check`: the checked king.
    - `hint`: a move the host asks the player to carry out (from, to).
    - `marked`, `marked_blink`: squares the host lights for its own reasons (a chess
      program's LED pattern that is not a move), steady and blinking.
    - `result`: the result once the game is over, else None.
    - `setup`: the progress of a guided Chess960 setup (nothing else applies then).
    - `offer`: the result the kings set in the centre tell ("1-0", "0-1", "1/2-1/2"),
      waiting for its confirmation; `offer_squares`: where those kings stand.
    - `faults`: squares whose switch was found faulty during play and is left out.
    """

    fen: str
    turn_white: bool
    sensors: Bitboard
    lifted: Bitboard = 0
    targets: tuple[Targets, ...] = ()
    capturers: Bitboard = 0
    pending: tuple[Square, Square] | None = None
    pending_next: Bitboard = 0
    candidates: Bitboard = 0
    arriving: Bitboard = 0
    arriving_from: Bitboard = 0
    missing: Bitboard = 0
    extra: Bitboard = 0
    pairs: tuple[tuple[Square, Square], ...] = ()
    must_move: Square | None = None
    violation: Square | None = None
    last_move: tuple[Square, Square] | None = None
    check: Square | None = None
    hint: tuple[Square, Square] | None = None
    marked: Bitboard = 0
    marked_blink: Bitboard = 0
    promotion: Square | None = None  # a promotion square while the piece may be chosen
    promotion_choices: Bitboard = 0  # own pieces to touch to choose their kind instead
    result: str | None = None
    reason: str | None = None
    setup: SetupProgress | None = None  # a guided Chess960 setup in progress
    offer: str | None = None  # a result told with the kings, waiting: 1-0, 0-1, 1/2-1/2
    offer_squares: Bitboard = 0
    faults: Bitboard = 0


@dataclass(frozen=True, slots=True)
class Shown:
    """The reader's state beyond the game and the sensors that the lights show."""

    pending: MoveShape | None = None  # a finished move that may still grow
    candidates: Bitboard = 0  # the captures a push may have made, none guessed
    arriving: Bitboard = 0  # a piece set down alone where a move may still reach
    arriving_from: Bitboard = 0  # the pieces whose lift would make it a move
    mismatch: Illegal | None = None
    must_move: Square | None = None
    violation: Square | None = None
    marks: HostMarks = field(default_factory=HostMarks)
    promotion: Square | None = None
    promotion_choices: Bitboard = 0
    setup: SetupProgress | None = None
    offer: str | None = None
    offer_squares: Bitboard = 0
    faults: Bitboard = 0


def board_view(game: Game, table: MoveTable, sensors: Bitboard, shown: Shown) -> BoardView:
    """What the board is now, for the lights."""
    position = game.position
    expected = table.occupancy
    lifted = expected & ~sensors
    over = game.outcome()
    targets: tuple[Targets, ...] = ()
    capturers = 0
    if over is None:
        targets = _targets(position, table, lifted)
        capturers = _capturers(position, table, lifted)
    pending = shown.pending
    king = position.king(position.turn)
    mismatch = shown.mismatch
    marks = shown.marks
    return BoardView(
        fen=position.fen(),
        turn_white=position.turn,
        sensors=sensors,
        lifted=lifted,
        targets=targets,
        capturers=capturers,
        pending=(pending.from_square, pending.to_square) if pending is not None else None,
        pending_next=_pending_next(table, sensors, pending),
        candidates=shown.candidates,
        arriving=shown.arriving,
        arriving_from=shown.arriving_from,
        missing=mismatch.missing if mismatch else 0,
        extra=mismatch.extra if mismatch else 0,
        pairs=mismatch.pairs if mismatch else (),
        must_move=shown.must_move,
        violation=shown.violation,
        last_move=_last_move(game),
        check=king if king is not None and position.is_check() else None,
        hint=marks.hint_squares,
        marked=marks.steady,
        marked_blink=marks.blinking,
        promotion=shown.promotion,
        promotion_choices=shown.promotion_choices,
        result=over.result if over else None,
        reason=over.reason if over else None,
        setup=shown.setup,
        offer=shown.offer,
        offer_squares=shown.offer_squares,
        faults=shown.faults,
    )


def _targets(position: Position, table: MoveTable, lifted: Bitboard) -> tuple[Targets, ...]:
    """For each lifted piece, its legal destinations told apart by kind."""
    grouped: dict[Square, dict[str, int]] = {}
    for shape in table.shapes:
        if not lifted >> shape.from_square & 1:
            continue
        kinds = grouped.setdefault(
            shape.from_square,
            {"quiet": 0, "captures": 0, "en_passant": 0, "castling": 0, "promotions": 0},
        )
        kinds[_kind(position, shape)] |= _destination(position, shape)
        if shape.is_promotion:
            kinds["promotions"] |= 1 << shape.to_square
    return tuple(Targets(origin, **kinds) for origin, kinds in sorted(grouped.items()))


def _kind(position: Position, shape: MoveShape) -> str:
    if shape.is_castling:
        return "castling"
    if position.is_en_passant(shape.move):
        return "en_passant"
    return "captures" if shape.is_capture else "quiet"


def _destination(position: Position, shape: MoveShape) -> Bitboard:
    """Where the move takes its piece: for castling, the king's square."""
    if shape.is_castling:
        return 1 << position.castling_squares(shape.move)[1]
    return 1 << shape.to_square


def _capturers(position: Position, table: MoveTable, lifted: Bitboard) -> Bitboard:
    """Own pieces that can capture a lifted opponent's piece."""
    capturers = 0
    for sq in squares_of(lifted):
        piece = position.piece_at(sq)
        if piece is None or piece.color == position.turn:
            continue
        for shape in table.shapes:
            if shape.is_capture and shape.captured and victim_of(position, shape) == sq:
                capturers |= 1 << shape.from_square
    return capturers


def _pending_next(table: MoveTable, sensors: Bitboard, pending: MoveShape | None) -> Bitboard:
    """The squares that could still complete a finished move that may grow: the rest of a
    slide, the rook's path."""
    if pending is None:
        return 0
    changed = sensors ^ table.occupancy
    squares = 0
    for shape in table.shapes:
        if shape is not pending and not changed & ~shape.footprint:
            squares |= shape.footprint & ~changed
    return squares


def _last_move(game: Game) -> tuple[Square, Square] | None:
    """(from, to) of the last move; for castling, the king's."""
    last = game.peek()
    if last is None:
        return None
    before = game.positions[-2]
    if before.is_castling(last):
        king_from, king_to, _rook_from, _rook_to = before.castling_squares(last)
        return (king_from, king_to)
    return (last.from_square, last.to_square)


def victim_of(position: Position, shape: MoveShape) -> Square:
    """The square of the piece a capture takes (behind the target, en passant)."""
    if position.is_en_passant(shape.move):
        return shape.to_square - 8 if position.turn else shape.to_square + 8
    return shape.to_square
