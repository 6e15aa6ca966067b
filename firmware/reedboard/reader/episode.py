"""The episode: everything the hands have done since the last committed position, and
what the reader has made of it so far. A new one starts with every committed move, every
takeback, and whenever the board shows the position again."""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.reader.hands import Hands
from reedboard.reader.table import MoveShape
from reedboard.rules.squares import Bitboard
from reedboard.sensing.debounce import SquareChange


@dataclass
class Episode:
    """The changes since the position stood, the hypotheses about which piece stands
    where, and the move they show complete, if any."""

    hands: Hands  # which piece may stand where, after every change (see hands.py)
    start_hands: Hands  # the same when the episode began
    wait_ms: int  # how long the complete move waits to grow
    events: list[SquareChange] = field(default_factory=list)
    complete: MoveShape | None = None
    breaching: MoveShape | None = None  # strict: a move touch-move forbids
    pending_index: int = 0  # events that made up the complete move
    first_complete: dict[int, int] = field(default_factory=dict)  # code -> when complete
    # The board is a legal move only as a piece knocked aside (see knock.knocked_step).
    knocked_only: bool = False
    overlap_tried: int = -1  # last_change_ms when overlapping moves were last tried
    # The complete move cannot grow: it waits only for its piece to rest (RELAND_MS).
    resting: bool = False
    # The complete move is a capture whose victim may only have been knocked.
    complete_knock: bool = False
    doubted: MoveShape | None = None  # that capture, while the episode lasts
    # split.reply_in_progress's answer, for (pending index, events) it was found at.
    reply_known: tuple[tuple[int, int], bool] | None = None
    # Squares the last move arrived on whose piece was lifted in the episode that just
    # ended with the board showing the position again: the victim of a capture put back
    # on its square before the capturer goes home (a takeback, see takeback.try_takeback).
    arrival_lifted: Bitboard = 0
    # Squares of the opponent's pieces lifted and filled again in the episode that just
    # ended with the board showing the position again, and when: a new piece set on a
    # victim's square before the pawn that takes it and promotes is cleared (see
    # promotion.set_first).
    refilled: tuple[int, Bitboard] = (0, 0)

    @classmethod
    def start(cls, hands: Hands, wait_ms: int) -> Episode:
        return cls(hands=hands, start_hands=hands.copy(), wait_ms=wait_ms)
