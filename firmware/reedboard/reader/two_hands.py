"""Blitz hands overlapping, as the arbiter uses overlap.untangle: when to read a still
episode as two moves once more, and committing the player's move read out of it before
following the opponent's changes as the next episode."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.reader import inference
from reedboard.reader.effects import Effect
from reedboard.reader.overlap import untangle
from reedboard.reader.table import EMPTY
from reedboard.reader.touch_move import TouchRecord

if TYPE_CHECKING:
    from reedboard.reader.arbiter import Arbiter


def overlap_due(arbiter: Arbiter) -> int | None:
    """When the board, still for `settle_ms`, is to be read as two overlapping moves
    once more, now allowing a move that could have grown (a slide stopped short): an
    own and an opponent's piece have been lifted, no move is complete, and this
    stillness has not been tried yet."""
    if arbiter._pending_index or arbiter._complete is not None or not arbiter._events:
        return None
    if arbiter._overlap_tried == arbiter.last_change_ms:
        return None
    turn = arbiter.position.turn
    colours = {
        arbiter.table.placement[e.square].isupper() == turn
        for e in arbiter._events
        if not e.occupied and arbiter.table.placement[e.square] != EMPTY
    }
    if len(colours) < 2:
        return None
    return arbiter.last_change_ms + arbiter.settle_ms


def read_two_moves(
    arbiter: Arbiter, now: int, effects: list[Effect], final_only: bool, before_last: bool = False
) -> bool:
    """Blitz hands overlapping (see overlap.py): commit the player's move read out of
    the episode, then follow the opponent's changes as the next episode. With
    `before_last`, the changes before the last one must make both moves complete."""
    if arbiter._knocked_only or not arbiter._events or arbiter.game.is_game_over():
        return False
    start_sensors = arbiter.sensors
    for event in arbiter._events:
        start_sensors ^= 1 << event.square
    events = arbiter._events[:-1] if before_last else arbiter._events
    found = untangle(
        arbiter.table, arbiter._start_hands, start_sensors, events, final_only=final_only
    )
    if found is None or (before_last and not found.reply_complete):
        return False
    if arbiter.mode == "strict":
        # Touch-move binds the player's own hand only: the opponent's lifts are theirs.
        record = TouchRecord()
        for event in found.mine:
            piece = arbiter.table.placement[event.square]
            if not event.occupied and piece != EMPTY:
                record.touch(event.square, piece, arbiter.position, event.t_ms)
        if record.breach(arbiter.position, found.shape.move) is not None:
            return False
    theirs = [*found.theirs, arbiter._events[-1]] if before_last else list(found.theirs)
    final = arbiter.sensors
    arbiter.sensors = found.shape.occupancy
    arbiter._commit(found.shape, now, effects)
    for change in theirs:
        arbiter.sensors ^= 1 << change.square
        inference.apply(arbiter, change, now, effects, report=False)
    assert arbiter.sensors == final
    return True
