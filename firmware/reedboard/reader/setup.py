"""Chess960 setup, guided piece type by piece type, and the board-only gesture that asks
for it. Pure: the lights show it with `reedboard.lights.setup.setup_scene`.

A reed switch sees that a square is occupied, never by what. So the guide lights the
squares of one piece type at a time (rooks, knights, bishops, queen, king, pawns): what
stands on them once they fill is that type, and the next type lights only then. A piece
put on a square whose turn has not come yet is shown as one to take away; a piece taken
from a square already done is shown as one to put back, without going back a step.

On a board that still holds pieces off the pawns' squares (the start the gesture is made
from), the guide first asks for them to be cleared (`clear_first`): a reed switch cannot
tell a rook from the knight that stood there before.

The gesture: from the standard start position standing complete on the board, both kings
lifted and held off the board together for `GESTURE_HOLD_MS`. Setting the pieces up never
makes it (the kings are lifted from a start already complete, and held together), and a
player never holds both kings in a game. Putting the kings back cancels it, even after the
position was drawn: the standard start standing complete always starts a standard game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reedboard.rules.chess960 import random_chess960_number
from reedboard.rules.pieces import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    PieceType,
)
from reedboard.rules.position import Position
from reedboard.rules.squares import BB_RANKS, Bitboard

SETUP_ORDER: tuple[PieceType, ...] = (ROOK, KNIGHT, BISHOP, QUEEN, KING, PAWN)
PAWN_SQUARES: Bitboard = BB_RANKS[1] | BB_RANKS[6]
START_OCCUPANCY: Bitboard = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]
KINGS: Bitboard = 1 << 4 | 1 << 60  # e1 and e8
GESTURE_OCCUPANCY: Bitboard = START_OCCUPANCY & ~KINGS
GESTURE_HOLD_MS = 3000


@dataclass(frozen=True, slots=True)
class SetupProgress:
    """Where a guided setup stands.

    - `piece_type`: the type being placed now (None once done);
    - `needed`: this type's squares still empty;
    - `wrong`: occupied squares that must be cleared (a piece placed before its turn, or
      on a square that stays empty);
    - `missing`: squares of a finished step that were emptied again.
    """

    piece_type: PieceType | None
    needed: Bitboard
    wrong: Bitboard
    missing: Bitboard

    @property
    def done(self) -> bool:
        return self.piece_type is None and not self.wrong and not self.missing


class SetupGuide:
    """Guides the pieces onto `target` (any position; made for Chess960 starts).

    A pure state machine: `step(occupancy)` with each new occupancy gives the progress;
    the guide remembers only how many piece types are in place.
    """

    def __init__(self, target: Position, *, clear_first: bool = False) -> None:
        self.target = target
        self.steps: tuple[Bitboard, ...] = tuple(
            target.pieces_of(kind, WHITE) | target.pieces_of(kind, BLACK) for kind in SETUP_ORDER
        )
        self.occupancy: Bitboard = target.occupied
        self.reached = 0  # steps completed so far
        # Whether the squares outside the pawns' have been empty once since the start.
        self.cleared = not clear_first

    @classmethod
    def chess960(cls, number: int, *, clear_first: bool = False) -> SetupGuide:
        return cls(Position.chess960_start(number), clear_first=clear_first)

    def step(self, occupancy: Bitboard) -> SetupProgress:
        """The progress with the board at `occupancy`."""
        if not self.cleared:
            if occupancy & ~PAWN_SQUARES:
                return SetupProgress(SETUP_ORDER[0], 0, occupancy & ~PAWN_SQUARES, 0)
            self.cleared = True
        while True:
            progress = self._progress(occupancy)
            if progress.piece_type is None or progress.needed or progress.wrong:
                return progress
            if progress.missing:
                return progress
            self.reached += 1

    def _progress(self, occupancy: Bitboard) -> SetupProgress:
        placed = 0
        for bb in self.steps[: self.reached]:
            placed |= bb
        missing = placed & ~occupancy
        if self.reached == len(self.steps):
            return SetupProgress(None, 0, occupancy & ~self.occupancy, missing)
        current = self.steps[self.reached]
        # Pawns may stand from the start: pawn squares hold only pawns in any start
        # position, and a board cleared by the gesture keeps them.
        allowed = placed | current | (self.occupancy & PAWN_SQUARES)
        return SetupProgress(
            SETUP_ORDER[self.reached], current & ~occupancy, occupancy & ~allowed, missing
        )


def is_chess960_gesture(occupancy: Bitboard) -> bool:
    """The start position with both kings off the board, nothing else changed."""
    return occupancy == GESTURE_OCCUPANCY


class GestureWatch:
    """Tells when the Chess960 gesture has been held still for `hold_ms`: both kings
    lifted from a complete start position (one after the other or together).

    Feed every occupancy change (and ticks); `update` returns True once, when the hold
    completes. The board must leave the gesture's occupancy before it can fire again.
    """

    def __init__(self, hold_ms: int = GESTURE_HOLD_MS) -> None:
        self.hold_ms = hold_ms
        self._since: int | None = None
        self._fired = False
        self._from_start = False  # the start stood complete, then only kings went off

    def update(self, occupancy: Bitboard, t_ms: int) -> bool:
        if occupancy == START_OCCUPANCY:
            self._from_start = True
        elif occupancy & ~START_OCCUPANCY or START_OCCUPANCY & ~occupancy & ~KINGS:
            self._from_start = False  # something else than a king left, or came
        if not self._from_start or not is_chess960_gesture(occupancy):
            self._since = None
            self._fired = False
            return False
        if self._since is None:
            self._since = t_ms
        if not self._fired and t_ms - self._since >= self.hold_ms:
            self._fired = True
            return True
        return False

    def deadline(self) -> int | None:
        """When `update` may next fire, for a loop that sleeps until something is due."""
        if self._since is None or self._fired:
            return None
        return self._since + self.hold_ms


def draw_chess960(rng: random.Random) -> int:
    """A start position for a game begun by the gesture; `rng` is the caller's."""
    return random_chess960_number(rng)
