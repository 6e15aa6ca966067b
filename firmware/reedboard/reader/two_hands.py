"""Blitz hands overlapping, as the reader uses overlap.untangle: when to read a still
episode as two moves once more, and committing the player's move read out of it before
following the opponent's changes as the next episode."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect
from reedboard.reader.overlap import untangle
from reedboard.reader.table import EMPTY
from reedboard.reader.touch_move import TouchRecord

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def overlap_due(reader: Reader) -> int | None:
    """When the board, still for `settle_ms`, is to be read as two overlapping moves
    once more, now allowing a move that could have grown (a slide stopped short): an
    own and an opponent's piece have been lifted, no move is complete, and this
    stillness has not been tried yet."""
    if (
        reader.episode.pending_index
        or reader.episode.complete is not None
        or not reader.episode.events
    ):
        return None
    if reader.episode.overlap_tried == reader.last_change_ms:
        return None
    turn = reader.position.turn
    colours = {
        reader.table.placement[e.square].isupper() == turn
        for e in reader.episode.events
        if not e.occupied and reader.table.placement[e.square] != EMPTY
    }
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
    start_sensors = reader.sensors
    for event in reader.episode.events:
        start_sensors ^= 1 << event.square
    events = reader.episode.events[:-1] if before_last else reader.episode.events
    found = untangle(
        reader.table, reader.episode.start_hands, start_sensors, events, final_only=final_only
    )
    if found is None or (before_last and not found.reply_complete):
        return False
    if reader.mode == "strict":
        # Touch-move binds the player's own hand only: the opponent's lifts are theirs.
        record = TouchRecord()
        for event in found.mine:
            piece = reader.table.placement[event.square]
            if not event.occupied and piece != EMPTY:
                record.touch(event.square, piece, reader.position, event.t_ms)
        if record.breach(reader.position, found.shape.move) is not None:
            return False
    theirs = [*found.theirs, reader.episode.events[-1]] if before_last else list(found.theirs)
    final = reader.sensors
    reader.sensors = found.shape.occupancy
    reader.commit(found.shape, now, effects)
    for change in theirs:
        reader.sensors ^= 1 << change.square
        reader.read(change, now, effects, report=False)
    assert reader.sensors == final
    return True
