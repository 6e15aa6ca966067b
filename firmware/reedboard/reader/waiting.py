"""What the reader waits for before it can decide a reading: one at a time, each a small
frozen value with its own data and, where time decides, its own deadline.

A capture doubted as a knock (see knock.knocked_victim) leaves the next change or the
next few milliseconds to tell which reading the hands meant; so does a move complete
earlier once the opponent lifts a piece. Each of these is one state below, and
`TRANSITIONS` is the whole of how the reader goes from one to another: read it top to
bottom. A change of state anywhere else is a mistake, and `enter` refuses it.

- `KnockedCapture`: a capture doubted as a knock was just committed; the next change
  decides. A placement that only a move of the capturer explains amends it
  (knock.amend_knocked_capture); anything else lets it stand.
- `AmendDue`: that placement is explained by both readings (the opponent's piece seen
  arriving before it is seen leaving): a lift of a neighbour that can step there by
  `due` keeps the capture and the amended reading is followed alongside (fork.fork);
  no such lift amends it.
- `OtherReading`: a capture doubted as a knock waits to be committed and the capturer's
  piece was set down elsewhere: a lift by `due` makes that placement the opponent's
  piece arriving first (the capture stands, the other reading followed alongside); no
  such lift takes the other reading `move`.
- `PutBack`: the same, with the piece set down on the capturer's own square (the board
  shows the position again): a lift by `due` keeps the capture, anything else puts the
  capturer back (put_back.decide, put_back.take_back_home).
- `Relifted`: a move complete on the board that cannot grow, its piece lifted again
  from where it landed before the move was committed: the hand that has not let go (a piece slid on, a dropped piece
  bouncing) or the opponent's taking it. A placement decides as any change; none by
  `due` (settle_ms and ARRIVE_MS after the landing) makes it the opponent's hand, and
  the move complete earlier is committed (split.split).
- `Sweep`: a move complete earlier, then a lift of the opponent's piece: by `due` the
  moved piece may still leave its target (hands sweeping the pieces off); then the move
  complete earlier is split off (split.split).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from reedboard.reader.table import MoveShape
from reedboard.reader.touch_move import TouchRecord
from reedboard.rules.squares import Square


@dataclass(frozen=True)
class KnockedCapture:
    """The capture just committed from `origin` may have only knocked its victim;
    `touches`, the mover's before it, bind again if it is taken back (the piece in the
    hand was touched all along)."""

    origin: Square
    touches: TouchRecord | None = None
    due: None = None  # the next change decides, whenever it comes


@dataclass(frozen=True)
class AmendDue:
    """The first placement after that capture is explained by both readings."""

    origin: Square
    due: int
    touches: TouchRecord | None = None


@dataclass(frozen=True)
class OtherReading:
    """The doubted capture's piece set down elsewhere: `move` unless a lift comes."""

    move: MoveShape
    due: int


@dataclass(frozen=True)
class PutBack:
    """A piece set down on the doubted capture's origin: put back unless a lift comes."""

    due: int


@dataclass(frozen=True)
class Relifted:
    """The piece of a move complete on the board lifted again at once: split at `due`."""

    due: int


@dataclass(frozen=True)
class Sweep:
    """A lift of the opponent's after a move complete earlier: split off at `due`."""

    due: int


Waiting = KnockedCapture | AmendDue | OtherReading | PutBack | Relifted | Sweep
State = (
    type[KnockedCapture]
    | type[AmendDue]
    | type[OtherReading]
    | type[PutBack]
    | type[Relifted]
    | type[Sweep]
)

# (from, to, on what, where it is decided); None is waiting for nothing. Every state is
# left for nothing before the reader decides, so no state follows another directly.
TRANSITIONS: Final[tuple[tuple[State | None, State | None, str, str], ...]] = (
    (None, KnockedCapture, "a capture doubted as a knock committed", "Reader.commit"),
    (KnockedCapture, None, "the next change", "inference.apply"),
    (None, AmendDue, "a placement both readings explain", "knock.amend_knocked_capture"),
    (AmendDue, None, "the next change, or its due", "inference.apply, deadlines"),
    (None, OtherReading, "the capturer set down elsewhere", "inference.keeps_doubted"),
    (OtherReading, None, "the next change, or its due", "inference.apply, deadlines"),
    (OtherReading, None, "another move complete", "inference.complete"),
    (None, PutBack, "a piece set down on the capture's origin", "put_back.hold"),
    (PutBack, None, "the next change, or its due", "put_back.decide, deadlines"),
    (None, Relifted, "a complete move's piece lifted again at once", "inference"),
    (Relifted, None, "the next change", "inference.apply"),
    (Relifted, None, "its due: the move complete earlier split off", "deadlines, split.split"),
    (None, Sweep, "the opponent lifts after a move complete", "inference.after_complete"),
    (Sweep, None, "the move complete earlier split off", "split.split"),
)
_ALLOWED: Final = frozenset((source, target) for source, target, _on, _where in TRANSITIONS)


def enter(current: Waiting | None, new: Waiting | None) -> Waiting | None:
    """`new`, once `TRANSITIONS` allows going there from `current`; staying is allowed.
    A new episode forgets what it waited for (see `Reader.new_episode`), and is no
    transition."""
    source = None if current is None else type(current)
    target = None if new is None else type(new)
    if source is not target and (source, target) not in _ALLOWED:
        raise AssertionError(f"the reader cannot wait for {new!r} while waiting for {current!r}")
    return new


def due(waiting: Waiting | None) -> int | None:
    """When time alone decides what the reader waits for (None: only a change does)."""
    return None if waiting is None else waiting.due
