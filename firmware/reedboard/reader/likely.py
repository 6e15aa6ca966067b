"""Of several moves the hands may have made, the likeliest, and how long a complete move
waits for what may still follow it: the choices every reading of an episode makes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.reader.table import MoveShape, MoveTable
from reedboard.rules.pieces import QUEEN
from reedboard.rules.squares import Square

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def wait_for(reader: Reader, growth: str | None) -> int:
    """How long a complete move waits for the board to stay still, by what may still
    follow it."""
    if growth == "castling":
        return reader.castle_wait_ms
    return reader.knock_wait_ms if growth == "knock" else reader.settle_ms


def matching_moves(reader: Reader, table: MoveTable) -> list[MoveShape]:
    found: dict[int, MoveShape] = {}
    for state in reader.episode.hands.states:
        for shape in table.by_state.get(state, ()):
            found[shape.code] = shape
    return list(found.values())


def likeliest(reader: Reader, matches: list[MoveShape]) -> MoveShape:
    """Of several moves the hands may have made, the likeliest: castling over anything
    (king and rook in the hands together; `castles` says the one exception), then the
    move whose destination was placed last (the capture is the last thing a hand does),
    then the promotion asked for."""
    last_place: dict[Square, int] = {}
    first_lift: dict[Square, int] = {}
    for index, event in enumerate(reader.episode.events):
        if event.occupied:
            last_place[event.square] = index
        else:
            first_lift.setdefault(event.square, event.t_ms)
    choice = reader.promotion_choice or QUEEN
    others = any(not shape.is_castling for shape in matches)

    def castles(shape: MoveShape) -> bool:
        """Castling, unless it puts the rook on the king's square (Chess960), the rook
        was lifted first and another move fits the same changes: that is the rook's own
        move with the king knocked (lifted and put back) as well, and the grammar reads
        an order that can be another move as castling only in FIDE's order, the king
        first (or both at once). A rook that castles elsewhere, lifted first, is the
        casual order: castling."""
        if not shape.is_castling or not others:
            return shape.is_castling
        king, _, rook, rook_to = reader.position.castling_squares(shape.move)
        if rook_to != king:
            return True
        never = reader.episode.events[-1].t_ms + 1 if reader.episode.events else 0
        # Both lifted in one scan (the same time) castle, as they do everywhere.
        return first_lift.get(king, never) <= first_lift.get(rook, never)

    def rank(shape: MoveShape) -> tuple[int, int, int]:
        if shape.is_castling:
            destination = reader.position.castling_squares(shape.move)[1]
        else:
            destination = shape.to_square
        return (
            int(castles(shape)),
            last_place.get(destination, -1),
            int(shape.move.promotion == choice),
        )

    return max(matches, key=rank)
