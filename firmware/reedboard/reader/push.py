"""A push-capture: the capturer shoves the victim off its square, so the victim's square
never reads empty, and the board shows only the capturer's square emptied: the sensors of
the capturer still in the hand. The opponent's first lift, a while after, says the hand
was done: the capture that alone explains the sensors is the move. With two captures
that would, nothing is guessed (the board waits)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.reader import likely
from reedboard.reader.table import MoveShape
from reedboard.reader.waits import PUSH_MS

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def pushed_capture(reader: Reader) -> MoveShape | None:
    """The capture made by a push, once the opponent lifts a piece that the one in the
    hand could not take (that is a capture's victim taken off first), at least PUSH_MS
    after the capturer was lifted (None: no such capture, or two)."""
    events = reader.episode.events
    if len(events) != 2 or events[0].occupied or events[1].occupied:
        return None
    own, last = events
    table = reader.table
    turn = reader.position.turn
    mover, piece = table.placement[own.square], table.placement[last.square]
    if not (mover.isalpha() and piece.isalpha()):
        return None
    if mover.isupper() != turn or piece.isupper() == turn or last.t_ms - own.t_ms < PUSH_MS:
        return None
    if any(
        shape.from_square == own.square and shape.footprint >> last.square & 1
        for shape in table.shapes
    ):
        return None  # a piece the one in the hand could take: its victim, taken off first
    before = reader.sensors ^ (1 << last.square)
    shapes = [
        shape
        for shape in table.shapes
        if shape.is_capture
        and shape.from_square == own.square
        and shape.to_square != last.square
        and shape.occupancy == before
    ]
    if len({shape.to_square for shape in shapes}) != 1:
        return None
    return likely.likeliest(reader, shapes)
