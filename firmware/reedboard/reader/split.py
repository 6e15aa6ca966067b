"""A move complete earlier in the episode, and what the hands did after it: whether that
was the whole move (the opponent has started, or answered before the move could grow),
whether its piece still stands where it landed, and splitting the episode there: the move
committed, the rest read as the next episode."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect
from reedboard.reader import likely
from reedboard.reader.hands import hands_for
from reedboard.reader.table import MoveShape, MoveTable
from reedboard.reader.waiting import Sweep, enter

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def split(reader: Reader, now: int, effects: list[Effect], started: bool = False) -> None:
    """The move completed earlier was the whole move: commit it and read what followed
    as the next episode, from the sensors as they were when it was complete. Once
    its piece has left its target it is not (see _still_standing), unless the
    opponent has `started` after a complete capture (see knock.opponent_starts)."""
    if isinstance(reader.waiting, Sweep):
        reader.waiting = enter(reader.waiting, None)
    tail = reader.episode.events[reader.episode.pending_index :]
    shape = complete_at(reader, reader.episode.pending_index)
    if shape is None or not (started or still_standing(reader, shape)):
        return
    final = reader.sensors
    for change in tail:
        reader.sensors ^= 1 << change.square
    reader.commit(shape, now, effects)
    for change in tail:
        reader.sensors ^= 1 << change.square
        reader.read(change, now, effects, report=False)
    assert reader.sensors == final


def still_standing(reader: Reader, shape: MoveShape) -> bool:
    """Whether the squares the complete move put its pieces on are occupied now. Once
    its piece has left its target (a bishop dragged on and off the board as the pieces
    are swept away), a move complete earlier was not the move: it is never committed.
    (The opponent taking that piece sets the capturer down there: the move stands.)"""
    if shape.is_castling:
        _king_from, king_to, _rook_from, rook_to = reader.position.castling_squares(shape.move)
        arrived = (1 << king_to) | (1 << rook_to)
    else:
        arrived = 1 << shape.to_square
    return reader.sensors & arrived == arrived


def split_completes(reader: Reader) -> bool:
    """Whether what followed the complete move is itself a complete reply: the
    opponent answered before this player's move could still grow (a piece that
    stopped on a line where it could go on and take is taken at once)."""
    shape = complete_at(reader, reader.episode.pending_index)
    if shape is None:
        return False
    tail = reader.episode.events[reader.episode.pending_index :]
    sensors = reader.sensors
    for change in tail:
        sensors ^= 1 << change.square
    after = reader.position.play_code(shape.code)
    table = MoveTable(after, legal=True)
    hands = hands_for(after, sensors)
    for change in tail:
        if change.occupied:
            hands.place(change.square)
        else:
            hands.lift(change.square)
    return any(state in table.by_state for state in hands.states)


def complete_at(reader: Reader, index: int) -> MoveShape | None:
    """The complete move after the first `index` events of this episode."""
    hands = reader.episode.start_hands.copy()
    for change in reader.episode.events[:index]:
        if change.occupied:
            hands.place(change.square)
        else:
            hands.lift(change.square)
    table = reader.table
    found: dict[int, MoveShape] = {}
    for state in hands.states:
        for shape in table.by_state.get(state, ()):
            found[shape.code] = shape
    if not found:
        return None
    saved = reader.episode.events
    reader.episode.events = reader.episode.events[:index]
    best = likely.likeliest(reader, list(found.values()))
    reader.episode.events = saved
    return best


def reply_in_progress(reader: Reader) -> bool:
    """A move complete earlier whose piece has left its target, and what the hands did
    since may be the opponent taking that piece (the victim lifted first, the capturer
    not yet set down): a reply in progress, which the capturer set down on the target
    completes. Hands sweeping the pieces off make no such reply."""
    if not reader.episode.pending_index or reader.episode.complete is not None:
        return False
    key = (reader.episode.pending_index, len(reader.episode.events))
    if reader.episode.reply_known is not None and reader.episode.reply_known[0] == key:
        return reader.episode.reply_known[1]
    shape = complete_at(reader, reader.episode.pending_index)
    in_progress = False
    if shape is not None and not still_standing(reader, shape):
        table = MoveTable(reader.position.play_code(shape.code), legal=True)
        changed = reader.sensors ^ table.occupancy
        in_progress = bool(changed) and table.in_progress(changed, reader.sensors)
    reader.episode.reply_known = (key, in_progress)
    return in_progress
