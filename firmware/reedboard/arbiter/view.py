"""What the board is now, for the lights: a frozen snapshot the arbiter gives on request.

Everything here is derived from the arbiter's state; the scenes turn it into colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.arbiter.setup import SetupProgress
from reedboard.rules.squares import Bitboard, Square


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
