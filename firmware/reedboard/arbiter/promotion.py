"""Choosing the piece a pawn promotes to: the host picks it before, or after a promotion and
before the opponent moves, the promoting side touches one of its own rooks, bishops or
knights (or the queen) and so exchanges the new piece for that kind: the board's own way
to under-promote."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.arbiter.effects import Effect, GameOver, MoveMade, TakenBack
from reedboard.rules.moves import Move
from reedboard.rules.pieces import PIECE_SYMBOLS, QUEEN, PieceType
from reedboard.rules.squares import Bitboard, Square

if TYPE_CHECKING:
    from reedboard.arbiter.arbiter import Arbiter


def watch_promotion_choice(arbiter: Arbiter, sq: Square, piece: str) -> None:
    """After a promotion and before the opponent moves, lifting and replacing one of
    the promoting side's own rooks, bishops or knights (or the queen) chooses that
    piece instead: the board's own way to under-promote."""
    if arbiter._exchange_square is None:
        return
    promoter_white = not arbiter.position.turn
    if piece.isupper() != promoter_white:
        arbiter._exchange_square = None  # the opponent has started: the choice is final
        return
    kind = PIECE_SYMBOLS.index(piece.lower())
    if kind in (QUEEN, 4, 3, 2):
        arbiter._choice_lift = (sq, kind)


def promotion_choices(arbiter: Arbiter) -> Bitboard:
    """While a promotion may still be changed: the promoting side's rooks, bishops and
    knights (and queens, to go back), whose touch chooses their kind."""
    if arbiter._exchange_square is None:
        return 0
    position = arbiter.position
    side = not position.turn
    choices = 0
    for kind in (QUEEN, 4, 3, 2):
        choices |= position.pieces_of(kind, side)
    return choices & ~(1 << arbiter._exchange_square)


def amend_promotion(
    arbiter: Arbiter, piece_type: PieceType, now: int, effects: list[Effect]
) -> None:
    last = arbiter.game.peek()
    if last is None or last.promotion is None or last.promotion == piece_type:
        return
    before = arbiter.game.positions[-2]
    old_uci = before.uci(last)
    arbiter.game.pop()
    effects.append(TakenBack(now, old_uci, arbiter.position.fen()))
    move = Move(last.from_square, last.to_square, piece_type)
    san = arbiter.game.san(move)
    arbiter.game.push(move)
    effects.append(MoveMade(now, before.uci(move), san, arbiter.position.fen(), len(arbiter.game)))
    arbiter._table = None
    arbiter._new_episode()
    outcome = arbiter.game.outcome()
    if outcome is not None:
        effects.append(GameOver(now, outcome.result, outcome.reason))
