"""Following the other reading alongside: while a lift just behind a placement may be the
opponent's piece arriving first or the start of the next move after a knock, the board
follows a copy of itself that reads it the other way, holds back what it makes meanwhile
(unless the host has the capture already: then it goes out, and is taken back if the copy
is taken), and takes the copy when a placement only the copy explains (or one that the board reads as
a piece arriving first, when that piece's lift does not follow within ARRIVE_MS)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from reedboard.events import Effect, GameOver, MoveMade, TakenBack
from reedboard.reader import knock
from reedboard.reader.protocol import Following
from reedboard.reader.waits import ARRIVE_MS, OTHER_READING_MS
from reedboard.rules.attacks import KING_ATTACKS
from reedboard.rules.position import Position
from reedboard.rules.squares import Square, squares_of
from reedboard.sensing.debounce import SquareChange

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def hold(reader: Reader, effects: list[Effect], now: int) -> list[Effect]:
    """While another reading is followed alongside (see fork.fork), nothing reaches the
    host: if that reading is taken, the host never saw the moves it replaces. Once
    it is dropped, what was held goes out, as of now. A reading followed after a capture
    the host has already (`released`) holds nothing back: see fork."""
    if reader.following is not None and not reader.following.released:
        reader.held += effects
        return []
    if not reader.held:
        return effects
    held, reader.held = reader.held, []
    return [replace(effect, t_ms=now) for effect in held] + effects


def fork(
    reader: Reader,
    change: SquareChange,
    now: int,
    other: Callable[[Reader, list[Effect]], object],
    *,
    released: bool = False,
) -> None:
    """A lift just behind a placement kept a doubted capture, as the opponent's piece
    seen arriving before it is seen leaving; read the other way (`other`), the
    capture's victim was only knocked and that lift is the next move's start. Both
    readings explain the sensors until a placement, so the board follows the other
    one alongside: a placement that only it explains makes it the game (see
    follow_alternative).

    A capture still held as a possible knock has never reached the host, so what the
    board makes meanwhile is held back too (see hold). One already made (`released`:
    made after settle_ms, its victim's square empty long enough to be a knocked piece
    righted by hand) has: the reply after it goes out as its own rules allow, not up
    to OTHER_READING_MS later, and should the other reading be taken, the board takes
    back first what the host heard since the fork, as it takes back the capture."""
    if reader.following is not None:
        return
    alternative = copy_for_other_reading(reader)
    out: list[Effect] = []
    alternative.sensors ^= 1 << change.square  # as before `change` (see inference.apply)
    other(alternative, out)
    alternative.sensors ^= 1 << change.square
    alternative.follow(change, now, out, report=True)
    until = now + max(reader.knock_wait_ms, OTHER_READING_MS)
    reader.following = Following(alternative, len(reader.game), out, until, released=released)


def copy_for_other_reading(reader: Reader) -> Reader:
    """A copy of the board to read the other way: all of its state its own, but for what
    never changes once made, which both share: the positions (values, never mutated;
    the game by its own `Game.copy`, which shares them) and the move table of the
    position. A deep copy of a long game's positions takes longer than a scan (tens of
    ms at 120 plies); this stays under a millisecond however long the game. A copy and
    not a list of what to save: a new piece of state is copied without being named."""
    game = reader.game
    shared: dict[int, object] = {id(position): position for position in game.positions}
    shared[id(game)] = game.copy()
    shared[id(reader.table)] = reader.table
    return copy.deepcopy(reader, shared)


def follow_alternative(
    reader: Reader, change: SquareChange | None, now: int, effects: list[Effect]
) -> None:
    """Feed the other reading what the board sees (`change`, or time passing), and
    take it when a placement leaves the board in no state the game explains while the
    other reading explains it exactly: what the board made of the changes since the
    fork, held back (see hold), is dropped and the other reading's moves made. When the
    board has that placement as the next move's piece seen arriving first, the lift of
    a neighbour that can step there, within ARRIVE_MS, keeps the board's reading. It is
    dropped itself as soon as it goes wrong, once the game has gone two moves past
    the fork, or OTHER_READING_MS (or knock_wait_ms, if longer) after it."""
    following = reader.following
    if following is None:
        return
    alternative, forked, out = following.reader, following.forked, following.out
    if change is None:
        out += alternative.tick(now)
    else:
        out += alternative.feed(change, now)
    if _over(reader, following, now):
        reader.following = None
        return
    if following.arrival is not None:
        if change is None and now < following.arrival[0]:
            return  # still waiting for the lift
        decided = _arrival_decided(following.arrival, change)
        following.arrival = None
        if decided is not None:
            if decided:
                _take(reader, alternative, forked, out, now, effects)
            return
    if change is None or not change.occupied or explains_board(reader):
        return
    if not explains_board(alternative):
        return
    if arriving(reader, change.square):
        # This board reads the placement as the next move's piece seen arriving before
        # it is seen leaving: the lift that follows within ARRIVE_MS decides.
        following.arrival = (change.t_ms + ARRIVE_MS, change.square, reader.position)
        return
    _take(reader, alternative, forked, out, now, effects)


def _over(reader: Reader, following: Following, now: int) -> bool:
    """Whether the other reading has gone wrong or is followed no longer."""
    alternative, forked = following.reader, following.forked
    return (
        alternative.mismatch is not None
        or alternative.violation is not None
        or alternative.setup is not None
        or len(reader.game) > forked + 2
        or len(alternative.game) > forked + 2
        or now >= following.until
    )


def _arrival_decided(
    arrival: tuple[int, Square, Position], change: SquareChange | None
) -> bool | None:
    """Once a placement has waited for the lift that makes it a piece arriving first
    (`change` the next one, or None when the wait is over): True to take the other
    reading (no such lift), False to keep the board's (the lift), None when another
    placement came first, to be judged as any."""
    due, placed, position = arrival
    if change is not None and knock.arrived_from(change, due, placed, position):
        return False
    if change is None or not change.occupied:
        return True
    return None


def _take(
    reader: Reader,
    alternative: Reader,
    forked: int,
    out: list[Effect],
    now: int,
    effects: list[Effect],
) -> None:
    """Make the other reading the game."""
    # Unless released, the host has seen neither this reading's moves since the fork
    # nor anything else it made of the changes since (the game over of a move now
    # replaced included): all of it was held.
    # The other reading may take back a move the host has seen (a capture committed
    # before the fork, see knock.amend_knocked_capture): those takebacks go first.
    if reader.following is not None and reader.following.released:
        seen = _take_back_released(reader, alternative, now, effects)
    else:
        effects.clear()
        seen = forked  # the plies of the game at the fork the host has
        level = forked  # the other reading's
        for effect in out:
            if isinstance(effect, MoveMade):
                level = effect.ply
            elif isinstance(effect, TakenBack):
                if level <= seen:
                    effects.append(replace(effect, t_ms=now))
                    seen = level - 1
                level -= 1
    made: dict[int, Effect] = {}
    for effect in out:
        if isinstance(effect, MoveMade) and effect.ply > seen:
            made[effect.ply] = replace(effect, t_ms=now)
    effects += [made[ply] for ply in sorted(made) if ply <= len(alternative.game)]
    outcome = alternative.game.outcome()
    if outcome is not None:
        effects.append(GameOver(now, outcome.result, outcome.reason))
    reader.__dict__.update(alternative.__dict__)
    reader.following = None
    reader.held = []


def _take_back_released(
    reader: Reader, alternative: Reader, now: int, effects: list[Effect]
) -> int:
    """The host has the board's game as it stands (this step's `effects`, still to go
    out, included): take it back, last move first, down to the moves the other reading
    shares with it. Returns how many those are."""
    game, other = reader.game, alternative.game.moves
    shared = 0
    for mine, theirs in zip(game.moves, other, strict=False):
        if mine != theirs:
            break
        shared += 1
    for ply in range(len(game), shared, -1):
        before = game.positions[ply - 1]
        effects.append(TakenBack(now, before.uci(game.moves[ply - 1]), before.fen()))
    return shared


def arriving(reader: Reader, placed: Square) -> bool:
    """Whether the sensors show the position and one piece more, on `placed`, where a
    piece of the side to move next to it can step: that piece seen arriving first."""
    if reader.sensors != reader.table.occupancy | 1 << placed:
        return False
    position = reader.position
    return any(
        move.to_square == placed
        for sq in squares_of(KING_ATTACKS[placed] & position.occupied)
        for move in position.legal_moves_from(sq)
    )


def explains_board(reader: Reader) -> bool:
    """The sensors show the position, or a move the board is about to commit."""
    return reader.episode.complete is not None or reader.sensors == reader.table.occupancy
