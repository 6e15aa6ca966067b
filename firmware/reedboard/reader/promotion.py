"""Choosing the piece a pawn promotes to: the host picks it before, or after a promotion and
before the opponent moves, the promoting side touches one of its own rooks, bishops or
knights (or the queen) and so exchanges the new piece for that kind: the board's own way
to under-promote."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect, GameOver, MoveMade, TakenBack
from reedboard.reader.table import MoveShape
from reedboard.reader.waits import STRAY_WAIT_MS
from reedboard.rules.moves import Move
from reedboard.rules.pieces import PIECE_SYMBOLS, PROMOTION_TYPES, QUEEN, PieceType
from reedboard.rules.squares import Bitboard, Square

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


# A host that repeats its choice many times within one episode keeps the first (in force
# when the episode began) and this many of the latest: only the one in force when a pawn
# landed and the last one are ever read.
MAX_CHOICES = 16

Choice = tuple[int, PieceType]  # when the host's choice came, and the piece


def note_choice(choices: list[Choice], piece_type: PieceType, now_ms: int) -> None:
    """Keep a choice of the host's, bounded (see MAX_CHOICES)."""
    choices.append((now_ms, piece_type))
    if len(choices) > MAX_CHOICES:
        del choices[1]


def choice_for(choices: list[Choice], landed_ms: int) -> tuple[PieceType, list[Choice]]:
    """The piece of a promotion whose pawn landed at `landed_ms`, and the choices left for
    the next one. The host chooses before the move: a choice that came once the pawn was on
    the last rank is the next promotion's (the opponent, about to promote in turn, choosing
    while the board still waits to commit this one)."""
    piece = QUEEN
    later: list[Choice] = []
    for choice in choices:
        if choice[0] <= landed_ms:
            piece = choice[1]
        else:
            later.append(choice)
    return piece, later[-1:]


def watch_promotion_choice(reader: Reader, sq: Square, piece: str) -> None:
    """After a promotion and before the opponent moves, lifting and replacing one of
    the promoting side's own rooks, bishops or knights (or the queen) chooses that
    piece instead: the board's own way to under-promote."""
    if reader.exchange_square is None:
        return
    promoter_white = not reader.position.turn
    if piece.isupper() != promoter_white:
        reader.exchange_square = None  # the opponent has started: the choice is final
        return
    kind = PIECE_SYMBOLS.index(piece.lower())
    if kind in PROMOTION_TYPES:
        reader.choice_lift = (sq, kind)


def set_first(reader: Reader) -> MoveShape | None:
    """A capture that promotes, its new piece set on the victim's square before the
    pawn was lifted (the victim lifted and the square filled again, the pawn lifted
    within STRAY_WAIT_MS and taken off the board): the board reads the position without
    the pawn, as a pawn held in the hand. The opponent's first lift says it was that
    move: it is the move, complete when the pawn was lifted."""
    refilled_ms, refilled = reader.episode.refilled
    events = reader.episode.events
    if not refilled or len(events) != 2 or events[0].occupied or events[1].occupied:
        return None
    pawn, last = events
    if pawn.t_ms - refilled_ms > STRAY_WAIT_MS:
        return None
    table = reader.table
    piece = table.placement[last.square]
    if not piece.isalpha() or piece.isupper() == reader.position.turn:
        return None  # not the opponent's lift
    before = reader.sensors ^ (1 << last.square)
    return next(
        (
            shape
            for shape in table.shapes
            if shape.is_promotion
            and shape.is_capture
            and shape.from_square == pawn.square
            and refilled >> shape.to_square & 1
            and shape.occupancy == before
        ),
        None,
    )


def promotion_choices(reader: Reader) -> Bitboard:
    """While a promotion may still be changed: the promoting side's rooks, bishops and
    knights (and queens, to go back), whose touch chooses their kind."""
    if reader.exchange_square is None:
        return 0
    position = reader.position
    side = not position.turn
    choices = 0
    for kind in PROMOTION_TYPES:
        choices |= position.pieces_of(kind, side)
    return choices & ~(1 << reader.exchange_square)


def amend_promotion(reader: Reader, piece_type: PieceType, now: int, effects: list[Effect]) -> None:
    last = reader.game.peek()
    if last is None or last.promotion is None or last.promotion == piece_type:
        return
    before = reader.game.positions[-2]
    old_uci = before.uci(last)
    reader.game.pop()
    effects.append(TakenBack(now, old_uci, reader.position.fen()))
    move = Move(last.from_square, last.to_square, piece_type)
    san = reader.game.san(move)
    reader.game.push(move)
    effects.append(MoveMade(now, before.uci(move), san, reader.position.fen(), len(reader.game)))
    reader.new_episode()
    outcome = reader.game.outcome()
    if outcome is not None:
        effects.append(GameOver(now, outcome.result, outcome.reason))
