"""Blitz hands that overlap: the opponent lifts a piece while the player's piece is still
in the air, so no moment of the episode shows the player's move alone.

The changes of such an episode are two moves interleaved. Each hand's changes are told
apart by colour and legality: the first lift of a square holding one of the player's
pieces is the player's, every other change may be either hand's; the player's changes
in order must make a legal move, and the opponent's, after it, a legal reply or the
start of one. An episode rarely has more than a handful of changes, so every way of
sharing them out is tried (a bounded number: sweeps and set-ups are left alone).
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.reader.hands import Hands
from reedboard.reader.table import EMPTY, MoveShape, MoveTable, placement_of
from reedboard.rules.squares import Bitboard
from reedboard.sensing.debounce import SquareChange

MAX_CHANGES = 16  # an episode longer than this is no pair of overlapping moves
MAX_EVENTS = 40  # ... counting a slide's neutral waypoints too (see untangle)
MAX_FREE = 8  # groups of changes that could be either hand's: 2**8 ways at most
WAYPOINT_MS = 200  # a square set down and lifted again this soon is a slide's waypoint


@dataclass(frozen=True)
class Untangled:
    """The player's move, and the opponent's changes to read after it."""

    shape: MoveShape
    mine: tuple[SquareChange, ...]
    theirs: tuple[SquareChange, ...]
    reply_complete: bool


def untangle(
    table: MoveTable,
    start: Hands,
    start_sensors: Bitboard,
    events: list[SquareChange],
    *,
    final_only: bool,
) -> Untangled | None:
    """The one way to read `events` as the player's legal move interleaved with the
    opponent's reply (complete or under way), or None if there is none or more than one
    move of the player's fits. With `final_only`, the player's move must be one that
    cannot grow (a slide that stops on a waypoint could still be going on)."""
    if len(events) > MAX_EVENTS:
        return None
    group = _groups(events)
    neutral = _neutral(events, group)
    if len(events) - len(neutral) > MAX_CHANGES:
        return None
    pinned = _pinned(table, events, group)
    free = sorted(set(group) - pinned - neutral)
    if not free or len(free) > MAX_FREE or _too_many(table, events, group, pinned):
        return None
    return _only_reading(table, start, start_sensors, events, group, free, final_only)


def _only_reading(
    table: MoveTable,
    start: Hands,
    start_sensors: Bitboard,
    events: list[SquareChange],
    group: list[int],
    free: list[int],
    final_only: bool,
) -> Untangled | None:
    """Every way of giving the `free` groups to the opponent's hand tried: the one move
    of the player's that fits, with the reply read furthest."""
    found: Untangled | None = None
    for mask in range(1, 1 << len(free)):
        chosen = {free[bit] for bit in range(len(free)) if mask >> bit & 1}
        theirs_at = {index for index in range(len(events)) if group[index] in chosen}
        mine = [e for index, e in enumerate(events) if index not in theirs_at]
        theirs = [e for index, e in enumerate(events) if index in theirs_at]
        if not _overlaps(table, mine, theirs):
            continue
        reading = _reading(table, start, start_sensors, mine, theirs, final_only)
        if reading is None:
            continue
        if found is not None and found.shape.code != reading.shape.code:
            return None  # two different moves fit: the hands cannot be told apart
        if found is None or (reading.reply_complete and not found.reply_complete):
            found = reading
    return found


def _groups(events: list[SquareChange]) -> list[int]:
    """For each change, the first change of its group: changes that go to the same hand.
    A waypoint (a square set down and lifted again at once) is one slide's."""
    group = list(range(len(events)))
    for index, event in enumerate(events):
        if not event.occupied:
            continue
        for later in range(index + 1, len(events)):
            other = events[later]
            if other.square == event.square:
                if not other.occupied and other.t_ms - event.t_ms <= WAYPOINT_MS:
                    group[later] = index
                break
    return group


def _neutral(events: list[SquareChange], group: list[int]) -> set[int]:
    """A waypoint on a square no other change touches is neutral: set down and lifted
    again, it changes neither hand's sensors nor pieces, so whichever hand it is given
    to, the same moves fit (given to the player's, the opponent's first change and the
    player's last are no less overlapping). It is read as the player's, not tried both
    ways: a long slide overlapping the reply stays within the bound on the ways tried."""
    touches: dict[int, int] = {}
    for event in events:
        touches[event.square] = touches.get(event.square, 0) + 1
    neutral = {
        index
        for index in range(len(events))
        if group[index] != index and touches[events[index].square] == 2
    }
    return neutral | {group[index] for index in neutral}


def _pinned(table: MoveTable, events: list[SquareChange], group: list[int]) -> set[int]:
    """The groups that are the player's for sure: the first lift of a square holding one
    of the player's pieces."""
    white = table.position.turn
    pinned: set[int] = set()
    seen: set[int] = set()
    for index, event in enumerate(events):
        piece = table.placement[event.square]
        first_lift = not event.occupied and event.square not in seen
        if first_lift and piece != EMPTY and piece.isupper() == white:
            pinned.add(group[index])
        seen.add(event.square)
    return pinned


def _too_many(
    table: MoveTable, events: list[SquareChange], group: list[int], pinned: set[int]
) -> bool:
    """Two moves lift at most two own pieces (castling) and three of the opponent's (a
    victim, the reply's piece and its victim), and set down at most four apart from a
    slide's waypoints: more is pieces being set up or cleared, not two moves."""
    opponents = sum(
        1
        for index, event in enumerate(events)
        if not event.occupied
        and group[index] == index
        and index not in pinned
        and table.placement[event.square] != EMPTY
    )
    waypoints = {group[index] for index in range(len(events)) if group[index] != index}
    places = sum(
        1 for index, event in enumerate(events) if event.occupied and index not in waypoints
    )
    return len(pinned) > 2 or opponents > 3 or places > 4


def _overlaps(table: MoveTable, mine: list[SquareChange], theirs: list[SquareChange]) -> bool:
    """The opponent's hand starts with a lift of one of their own pieces, before the
    player's last change (otherwise the ordinary reading, move then reply, applies)."""
    if not mine or not theirs:
        return False
    first = theirs[0]
    piece = table.placement[first.square]
    if first.occupied or piece == EMPTY or piece.isupper() == table.position.turn:
        return False
    return first.t_ms <= mine[-1].t_ms and theirs[0] is not mine[-1]


def _reading(
    table: MoveTable,
    start: Hands,
    start_sensors: Bitboard,
    mine: list[SquareChange],
    theirs: list[SquareChange],
    final_only: bool,
) -> Untangled | None:
    sensors = _follow(start_sensors, mine)
    if sensors is None:
        return None
    hands = start.copy()
    for event in mine:
        if event.occupied:
            hands.place(event.square)
        else:
            hands.lift(event.square)
    shapes = {
        shape.code: shape for state in hands.states for shape in table.by_state.get(state, ())
    }
    if len(shapes) != 1:
        return None
    shape = next(iter(shapes.values()))
    if final_only and table.growth(shape, sensors ^ table.occupancy, rook_first=False):
        return None
    after = table.position.play_code(shape.code)
    reply_table = MoveTable(after, legal=True)
    reply_sensors = _follow(shape.occupancy, theirs)
    if reply_sensors is None:
        return None
    placement = placement_of(after)
    reply = Hands(placement, "", start=placement)
    for event in theirs:
        if event.occupied:
            reply.place(event.square)
        else:
            reply.lift(event.square)
    complete = any(state in reply_table.by_state for state in reply.states)
    changed = reply_sensors ^ reply_table.occupancy
    if not complete and not (changed and reply_table.is_prefix(changed)):
        return None
    return Untangled(shape, tuple(mine), tuple(theirs), complete)


def _follow(sensors: Bitboard, events: list[SquareChange]) -> Bitboard | None:
    """The sensors after `events`, or None if one of them is impossible from there (a
    lift of an empty square, a place on an occupied one)."""
    for event in events:
        bit = 1 << event.square
        if bool(sensors & bit) == event.occupied:
            return None
        sensors ^= bit
    return sensors
