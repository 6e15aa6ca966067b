"""A push-capture: the capturer shoves the victim off its square, so the victim's square
never reads empty, and the board shows only the capturer's square emptied: the sensors of
the capturer still in the hand. The opponent's first lift, a while after, says the hand
was done: the capture that alone explains the sensors is the move. With two captures
that would, nothing is guessed: the lights show both (amber, steady) and the board waits
for a hand to tell which (the capturer lifted and set down again is read as that
capture)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.reader import likely
from reedboard.reader.table import MoveShape
from reedboard.reader.waits import PUSH_MS
from reedboard.rules.squares import Bitboard

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def pushed_capture(reader: Reader) -> MoveShape | None:
    """The capture made by a push, once the opponent lifts a piece that the one in the
    hand could not take (that is a capture's victim taken off first), at least PUSH_MS
    after the capturer was lifted (None: no such capture, or two)."""
    events = reader.episode.events
    if len(events) != 2:
        return None
    shapes = _captures(reader, reader.sensors ^ (1 << events[1].square))
    if len({shape.to_square for shape in shapes}) != 1:
        return None
    return likely.likeliest(reader, shapes)


def candidates(reader: Reader) -> Bitboard:
    """While two or more captures would explain a push that the opponent's lift said was
    done, and the board still stands so: the capturer's square and their targets, for
    the lights (0 otherwise)."""
    origin = reader.episode.events[0].square if reader.episode.events else 0
    # As any capture of that piece leaves the board.
    shapes = _captures(reader, reader.table.occupancy & ~(1 << origin))
    targets = 0
    for shape in shapes:
        targets |= 1 << shape.to_square
    if targets & (targets - 1) == 0:
        return 0  # none, or one (made at once)
    if reader.sensors >> origin & 1 or targets & ~reader.sensors:
        return 0  # the hands have gone on: the board reads them
    return 1 << origin | targets


def _captures(reader: Reader, before: Bitboard) -> list[MoveShape]:
    """The captures a push may have made, as the episode's first two changes tell:
    the mover's piece lifted, then, PUSH_MS or more after, the opponent's piece that
    the one in the hand could not take; each leaving the board as `before`."""
    events = reader.episode.events
    if len(events) < 2 or events[0].occupied or events[1].occupied:
        return []
    own, last = events[0], events[1]
    table = reader.table
    turn = reader.position.turn
    mover, piece = table.placement[own.square], table.placement[last.square]
    if not (mover.isalpha() and piece.isalpha()):
        return []
    if mover.isupper() != turn or piece.isupper() == turn or last.t_ms - own.t_ms < PUSH_MS:
        return []
    if any(
        shape.from_square == own.square and shape.footprint >> last.square & 1
        for shape in table.shapes
    ):
        return []  # a piece the one in the hand could take: its victim, taken off first
    return [
        shape
        for shape in table.shapes
        if shape.is_capture
        and shape.from_square == own.square
        and shape.to_square != last.square
        and shape.occupancy == before
    ]
