"""A capture doubted as a knock (see knock.knocked_victim), or a move waiting for its piece
to rest, and a piece then set down on the mover's own square, so that the board shows the position again: the capturer put
back home, or the opponent's reply arriving there first.

Read alone, the board showing the position again is the capturer put back: no move.
But once the capturer has left its square, an opponent's piece next to it may step in
with its magnet closing that switch before its own opens (see waits.ARRIVE_MS): the
placement is then the reply arriving first, and the capture was complete. Only the lift
just behind it tells: a lift within ARRIVE_MS of an opponent's piece that could step
there after the capture keeps the capture (`hold`, then `decide`); anything else, or
nothing, puts the capturer back (`take_back_home`). A pawn's promotion square is the
exception: the new piece is set down there before the pawn is lifted, and that lift may
come a second or two later (see STRAY_WAIT_MS), so the capture is kept that long. As
for the knock's other readings, the board follows the put-back reading alongside (see
fork.fork) until a placement shows which one the hands meant."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect
from reedboard.reader import fork, knock, split, takeback
from reedboard.reader.waiting import PutBack, enter
from reedboard.reader.waits import ARRIVE_MS, STRAY_WAIT_MS
from reedboard.sensing.debounce import SquareChange

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader
    from reedboard.reader.table import MoveShape


def hold(reader: Reader) -> bool:
    """The board shows the position again by a placement on the origin of a capture
    doubted as a knock, and an opponent's piece next to it could step there once the
    capture is made: keep the capture complete for ARRIVE_MS, for the lift that would
    make the placement that piece arriving first (for a pawn's promotion there, for
    STRAY_WAIT_MS: the new piece is set down before the pawn is lifted). True when it
    is kept so."""
    doubted = reader.episode.doubted or _resting(reader)
    if doubted is None or not reader.episode.events:
        return False
    placed = reader.episode.events[-1]
    if not placed.occupied or placed.square != doubted.from_square:
        return False
    if not _can_arrive(reader, doubted):
        return False
    reader.episode.complete = doubted
    if knock.promoted_first(reader, doubted, placed.square):
        reader.waiting = enter(reader.waiting, PutBack(placed.t_ms + STRAY_WAIT_MS))
        # Not committed while the pawn's lift may still come: the due decides first.
        reader.episode.wait_ms = max(reader.episode.wait_ms, STRAY_WAIT_MS)
    else:
        reader.waiting = enter(reader.waiting, PutBack(placed.t_ms + ARRIVE_MS))
    return True


def decide(
    reader: Reader,
    put_back: PutBack,
    change: SquareChange,
    now: int,
    effects: list[Effect],
    report: bool,
) -> None:
    """The change after the placement that `hold` kept the capture for: the lift of
    the piece arriving first keeps it (the reply follows, and the put-back reading is
    followed alongside); anything else puts the capturer back before `change` is read."""
    reader.waiting = enter(reader.waiting, None)
    due = put_back.due
    doubted = reader.episode.doubted or reader.episode.complete
    if doubted is None:
        return
    after = reader.position.play_code(doubted.code)
    if knock.arrived_from(change, due, doubted.from_square, after):
        if report:
            fork.fork(reader, change, now, lambda alt, out: take_back_home(alt, now, out))
        return
    # Read as the board stood before `change`, which then starts the next episode.
    reader.sensors ^= 1 << change.square
    take_back_home(reader, now, effects)
    reader.sensors ^= 1 << change.square


def take_back_home(reader: Reader, now: int, effects: list[Effect]) -> None:
    """No piece arrived first: the capturer was put back, the board shows the position
    again and the doubted capture is no move."""
    if isinstance(reader.waiting, PutBack):
        reader.waiting = enter(reader.waiting, None)
    takeback.shown_again(reader, now, effects)


def _resting(reader: Reader) -> MoveShape | None:
    """A move complete earlier that waited only for its piece to rest (see
    inference.complete): the opponent's reply may arrive first on the square it left
    (the rook sliding onto b4 just as the king lands on c4) as well."""
    if not reader.episode.resting or not reader.episode.pending_index:
        return None
    return split.complete_at(reader, reader.episode.pending_index)


def _can_arrive(reader: Reader, doubted: MoveShape) -> bool:
    """Whether an opponent's piece next to the capture's origin could step there once
    the capture is made (only a step puts a magnet over both switches at once)."""
    origin = doubted.from_square
    after = reader.position.play_code(doubted.code)
    return any(
        move.to_square == origin and _next_to(move.from_square, origin)
        for move in after.legal_moves()
    )


def _next_to(a: int, b: int) -> bool:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) == 1
