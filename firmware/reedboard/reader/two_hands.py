"""Blitz hands overlapping, as the reader uses overlap.untangle: when to read a still
episode as two moves once more, and committing the player's move read out of it before
following the opponent's changes as the next episode. A move complete earlier in the
episode (a slide that could still grow), then the opponent's hand and the player's
overlapping, is that move and the two after it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect
from reedboard.reader import split
from reedboard.reader.hands import Hands, hands_for
from reedboard.reader.overlap import Untangled, untangle
from reedboard.reader.table import EMPTY, MoveTable
from reedboard.reader.touch_move import TouchRecord
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard
from reedboard.sensing.debounce import SquareChange

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def overlap_due(reader: Reader) -> int | None:
    """When the board, still for `settle_ms`, is to be read as two overlapping moves
    once more, now allowing a move that could have grown (a slide stopped short): an
    own and an opponent's piece have been lifted (after the move complete earlier, if
    any), no move is complete, and this stillness has not been tried yet."""
    episode = reader.episode
    if episode.complete is not None or len(episode.events) <= episode.pending_index:
        return None
    if episode.overlap_tried == reader.last_change_ms:
        return None
    turn = reader.position.turn
    placement = reader.table.placement
    lifted = [e.square for e in episode.events[episode.pending_index :] if not e.occupied]
    if episode.pending_index:
        # The opponent has started, and the player's hand has lifted again (the piece
        # just moved, on a square empty before the move, or another).
        theirs = {sq for sq in lifted if placement[sq] != EMPTY and placement[sq].isupper() != turn}
        return reader.last_change_ms + reader.settle_ms if theirs and set(lifted) - theirs else None
    colours = {placement[sq].isupper() == turn for sq in lifted if placement[sq] != EMPTY}
    if len(colours) < 2:
        return None
    return reader.last_change_ms + reader.settle_ms


def read_two_moves(
    reader: Reader,
    now: int,
    effects: list[Effect],
    final_only: bool,
    before_last: bool = False,
) -> bool:
    """Blitz hands overlapping (see overlap.py): commit the player's move read out of
    the episode, then follow the opponent's changes as the next episode. With
    `before_last`, the changes before the last one must make both moves complete."""
    if reader.episode.knocked_only or not reader.episode.events or reader.game.is_game_over():
        return False
    if reader.episode.pending_index:
        return not before_last and _after_complete(reader, now, effects)
    start_sensors = reader.sensors
    for event in reader.episode.events:
        start_sensors ^= 1 << event.square
    events = reader.episode.events[:-1] if before_last else reader.episode.events
    found = _untangled(
        reader, reader.table, reader.episode.start_hands, start_sensors, events, final_only
    )
    if found is None or (before_last and not found.reply_complete):
        return False
    theirs = [*found.theirs, reader.episode.events[-1]] if before_last else list(found.theirs)
    _commit_both(reader, found, theirs, now, effects)
    return True


def _after_complete(reader: Reader, now: int, effects: list[Effect]) -> bool:
    """A move complete earlier in the episode, and what followed it read as the
    opponent's reply overlapping the player's next move, both complete (a rook set on
    h5, where it could go on and take h4; the h4 pawn lifted to take on g5 while the
    rook is lifted again and set on h6): the three moves, committed in turn. Only that
    reading, or none, explains the board: the move complete earlier alone does not."""
    index = reader.episode.pending_index
    shape = split.complete_at(reader, index)
    if shape is None:
        return False
    tail = reader.episode.events[index:]
    at_split = reader.sensors
    for event in tail:
        at_split ^= 1 << event.square
    after = reader.position.play_code(shape.code)
    table = MoveTable(after, legal=True)
    found = _untangled(reader, table, hands_for(after, at_split), at_split, tail, False, after)
    if found is None or not found.reply_complete:
        return False
    final = reader.sensors
    reader.sensors = at_split
    reader.commit(shape, now, effects)
    # The next episode starts at the split, and the two moves found follow; the reply
    # was complete at its own last change (the clock stops there), not at the last.
    reader.sensors = final
    reader.episode.first_complete[found.shape.code] = found.mine[-1].t_ms
    _commit_both(reader, found, list(found.theirs), now, effects)
    return True


def _untangled(
    reader: Reader,
    table: MoveTable,
    start: Hands,
    start_sensors: Bitboard,
    events: list[SquareChange],
    final_only: bool,
    position: Position | None = None,
) -> Untangled | None:
    """overlap.untangle, and in strict mode only a player's move touch-move allows
    (`position`: the one `table` is of, by default the reader's)."""
    found = untangle(table, start, start_sensors, events, final_only=final_only)
    where = reader.position if position is None else position
    if found is None or knocked_while_taking(where, found):
        return None
    if reader.mode != "strict":
        return found
    # Touch-move binds the player's own hand only: the opponent's lifts are theirs.
    record = TouchRecord()
    for event in found.mine:
        piece = table.placement[event.square]
        if not event.occupied and piece != EMPTY:
            record.touch(event.square, piece, where, event.t_ms)
    return None if record.breach(where, found.shape.move) is not None else found


def knocked_while_taking(position: Position, found: Untangled) -> bool:
    """Whether `found`, a capture overlapping the opponent's lift, is as well one capture
    in progress with a neighbour knocked: the opponent's piece lifted before the
    player's, still in the air, one that piece could take (its victim, taken off
    first), and the capture's own victim's square emptied and filled again while the
    player's piece was in the hand (the neighbour knocked and put back). Until the
    player's piece is set down the two readings leave the same changes, and reading
    the overlap would make a capture nobody played: the board waits for that piece."""
    shape = found.shape
    if not shape.is_capture:
        return False
    origin, victim = shape.from_square, shape.to_square
    lifted_at = next((e.t_ms for e in found.mine if e.square == origin and not e.occupied), None)
    if lifted_at is None:
        return False
    refilled = [e for e in found.mine if e.square == victim]
    if not (refilled and refilled[0].t_ms >= lifted_at and refilled[-1].occupied):
        return False
    held = {e.square: e for e in found.theirs}  # each square's last change
    takes = {move.to_square for move in position.legal_moves_from(origin)}
    return any(
        not e.occupied and e.t_ms <= lifted_at and sq in takes and sq != victim
        for sq, e in held.items()
    )


def _commit_both(
    reader: Reader, found: Untangled, theirs: list[SquareChange], now: int, effects: list[Effect]
) -> None:
    """The player's move committed, then the opponent's changes read after it."""
    final = reader.sensors
    reader.sensors = found.shape.occupancy
    # Complete at the player's own last change, the opponent's hand already in the
    # air: the player's time stops there (FIDE 4.7), not when the board could tell.
    reader.episode.first_complete[found.shape.code] = found.mine[-1].t_ms
    reader.commit(found.shape, now, effects)
    # Each of the opponent's changes read as of its own time: a reply it completes was
    # complete then (its player's time stops there), not at a later change (the
    # player's next lift, which told the two hands apart).
    latest = reader.last_change_ms
    for change in theirs:
        reader.sensors ^= 1 << change.square
        reader.last_change_ms = change.t_ms
        reader.read(change, now, effects, report=False)
    reader.last_change_ms = max(latest, reader.last_change_ms)
    assert reader.sensors == final
