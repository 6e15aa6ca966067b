"""The knock reading: what tells a piece knocked by the hand carrying another one from a
move, and how a doubted capture is settled or amended once the hands show it was a knock.

A neighbour knocked and falling back while the capturer is in the hand has the sensors of
a capture swapped in one motion: the capture is doubted (`knocked_victim`) and waits (see
waits.DEFAULT_KNOCK_WAIT_MS); the piece in the hand set down elsewhere takes the other
reading (`take_other_reading`), or amends a capture already made (`amend_knocked_capture`);
the opponent lifting a piece settles it (`opponent_starts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect
from reedboard.reader import likely, takeback
from reedboard.reader.hands import UNKNOWN
from reedboard.reader.table import EMPTY, MoveShape, MoveTable
from reedboard.reader.touch_move import TouchRecord
from reedboard.reader.waiting import AmendDue, enter
from reedboard.reader.waits import ARRIVE_MS, KNOCK_MS, RIGHTING_MS, STEP_KNOCK_MS
from reedboard.rules.attacks import BETWEEN, KING_ATTACKS
from reedboard.rules.moves import FLAG_EN_PASSANT
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import SquareChange

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader

# The neighbours a hand carrying a piece may knock off at once (both pieces beside its
# path). More squares off is not taken for knocks: shown as any mismatch.
MAX_KNOCKED = 2


def opponent_starts(reader: Reader) -> bool:
    """A capture doubted as a knock (see knocked_victim) is waiting and the opponent
    lifts a piece: the capturer's hand is done, so the capture was real. The
    victim's square lifted first may be either reading (the opponent taking the
    capturer, or the capturer's hand taking the knocked piece up), and both make the
    same capture: the opponent's lift after it decides just as well."""
    doubted = reader.episode.doubted
    if doubted is None or not reader.episode.complete_knock or not reader.episode.pending_index:
        return False
    since = reader.episode.events[reader.episode.pending_index :]
    last = since[-1] if since else None
    if last is None or last.occupied or last.square == doubted.to_square:
        return False
    if any(e.occupied or e.square != doubted.to_square for e in since[:-1]):
        return False
    piece = reader.table.placement[last.square]
    return piece not in (EMPTY, UNKNOWN) and piece.isupper() != reader.position.turn


def knocked_step(reader: Reader, shape: MoveShape) -> bool:
    """A one-square move made faster than STEP_KNOCK_MS from lift to place while the
    hand held another piece: a neighbour knocked aside by the hand carrying a piece,
    not a move (the other piece put back makes the board that move). The board asks
    for it back. A quick step with nothing else in the hand is a move."""
    if shape.is_capture or shape.is_castling:
        return False
    f, t = shape.from_square, shape.to_square
    if max(abs((f & 7) - (t & 7)), abs((f >> 3) - (t >> 3))) != 1:
        return False
    lifted_at = placed_at = None
    held: set[Square] = set()  # squares emptied and not yet filled again
    held_then = False
    for event in reader.episode.events:
        if event.square == f and not event.occupied:
            lifted_at = event.t_ms
            held_then = bool(held - {f})
        elif event.square == t and event.occupied:
            placed_at = event.t_ms
        if event.occupied:
            held.discard(event.square)
        else:
            held.add(event.square)
    if lifted_at is None or placed_at is None or placed_at < lifted_at:
        return False
    return held_then and placed_at - lifted_at < STEP_KNOCK_MS


def knocked_victim(reader: Reader, shape: MoveShape) -> bool:
    """A capture whose victim's square was emptied and filled again while the capturer
    was already in the hand: the sensors of a capture, and of a neighbour knocked by
    the hand carrying a piece elsewhere and falling back or put back by hand, however
    long that took. Only what comes next can tell: such a capture waits (see
    knock_wait), and once committed, a placement that only the other reading explains
    amends it (amend_knocked_capture)."""
    return vacancy_ms(reader, shape) is not None


def knock_wait(reader: Reader, shape: MoveShape) -> str:
    """How long a capture `knocked_victim` doubts waits to be made, by what the board
    calls it (see likely.wait_for): a victim's square empty under KNOCK_MS is a knock
    falling back, which the hand's own piece may follow late (`knock_wait_ms`); a longer
    one is a knocked piece put back by hand, or a capture's victim taken up, and waits
    `settle_ms` like a move that may grow, amended after if the hand then sets its
    piece elsewhere (a wait as long for every capture taken that way would miss the
    latency goal for all of them)."""
    vacant = vacancy_ms(reader, shape)
    return "knock" if vacant is not None and vacant < KNOCK_MS else "put back by hand"


def vacancy_ms(reader: Reader, shape: MoveShape) -> int | None:
    """How long the victim's square of `shape` was last empty, emptied after the
    capturer was lifted (None: not so, or not a capture that can be a knock)."""
    if not shape.is_capture or shape.code & FLAG_EN_PASSANT:
        return None
    origin, victim = shape.from_square, shape.to_square
    origin_lifted = False
    lifted_at: int | None = None
    vacant_ms: int | None = None
    for event in reader.episode.events:
        if event.square == origin and not event.occupied:
            origin_lifted = True
        elif event.square == victim and not event.occupied:
            lifted_at = event.t_ms if origin_lifted else None
        elif event.square == victim and lifted_at is not None:
            vacant_ms = event.t_ms - lifted_at
    return vacant_ms


def sure_capture(reader: Reader, shape: MoveShape) -> bool:
    """Whether a capture `knocked_victim` doubts shows what no knock measured does
    (bench/knock_features.py, seeds 1-1000: neither in any of 4,831 knocks; 861 and 647
    of 4,954 held captures): it is its piece's only legal move, so the knock's other
    reading can only end with the piece set back (a touch); or the capturer's slide was
    seen on the square before the victim's, the piece on the board next to it rather
    than carried in the air. Such a capture is made like any capture once its piece
    rests; the piece set back home after all takes it back (waiting.KnockedCapture)."""
    origin, victim = shape.from_square, shape.to_square
    if all(move.to_square == victim for move in reader.position.legal_moves_from(origin)):
        return True
    # The squares of its line next to the victim's (none for a knight or a pawn).
    before = BETWEEN[origin][victim] & KING_ATTACKS[victim]
    lifted = False
    for event in reader.episode.events:
        if event.square == origin and not event.occupied:
            lifted = True
        elif event.square == victim and not event.occupied:
            lifted = False  # (what came before the victim's lift counts)
        elif lifted and event.occupied and before >> event.square & 1:
            return True
    return False


def promoted_first(
    reader: Reader, capture: MoveShape | None, placed: Square, sensors: Bitboard | None = None
) -> bool:
    """Whether the board (`sensors`, by default the sensors now) is, after `capture`
    (by default the move just committed), the opponent's promotion on `placed` with
    the new piece set down before the pawn is cleared: the pawn's lift may follow a
    second or two later (see STRAY_WAIT_MS), so the capture's reading explains that
    placement as well as a move of the capturer there does."""
    if capture is None:
        table = reader.table
    else:
        table = MoveTable(reader.position.play_code(capture.code), legal=True)
    changed = (reader.sensors if sensors is None else sensors) ^ table.occupancy
    return any(
        shape.is_promotion and shape.to_square == placed and not changed & ~shape.footprint
        for shape in table.shapes
    )


def take_other_reading(reader: Reader, other: MoveShape, now: int, effects: list[Effect]) -> None:
    """No lift came: the piece in the hand was set down elsewhere, the doubted
    capture's victim only knocked. That move is the complete one now, and the
    victim stands on its square in every hypothesis: a later change (the opponent
    lifting the piece just set down, to take it) must not revive the capture."""
    doubted = reader.episode.doubted
    if doubted is not None:
        victim = doubted.to_square
        reader.episode.hands.keep_where(victim, reader.table.placement[victim])
    reader.episode.complete = other
    reader.episode.complete_knock = False
    reader.episode.doubted = None
    reader.episode.pending_index = len(reader.episode.events)
    changed = reader.sensors ^ reader.table.occupancy
    growth = reader.table.growth(other, changed, rook_first=reader.mode == "casual")
    reader.episode.wait_ms = likely.wait_for(reader, growth)
    if growth is None:
        reader.commit(other, now, effects)


def forget_knocked_touch(reader: Reader, change: SquareChange) -> None:
    """An opponent's piece lifted and back within KNOCK_MS while an own piece was in
    the hand was knocked by that hand, not touched (FIDE 4.3 binds deliberate
    touches): it obliges nothing. Taken for a capture, the capture still stands."""
    lifted = [e for e in reader.episode.events[:-1] if e.square == change.square and not e.occupied]
    if not lifted or change.t_ms - lifted[-1].t_ms >= KNOCK_MS:
        return
    touches = reader.touches.touches
    knocked = next((t for t in touches if t.square == change.square and not t.own), None)
    if knocked is None or not any(t.own and t.t_ms < lifted[-1].t_ms for t in touches):
        return
    touches.remove(knocked)


def forget_righted_own_touch(reader: Reader, change: SquareChange) -> None:
    """An own piece lifted while another own piece, touched before it, was in the hand,
    and set back on its own square while that piece still is: a neighbour knocked by
    the hand carrying the piece and righted by hand (0.3-1 s), not touched (FIDE 4.3
    binds deliberate touches). The piece in the hand binds as it did; only the righted
    one is forgotten: a king in the hand knocking its rook owes no castling (4.4a)."""
    touches = reader.touches.touches
    righted = next((t for t in touches if t.square == change.square and t.own), None)
    if righted is None:
        return
    if any(t.own and t.t_ms < righted.t_ms and not reader.sensors >> t.square & 1 for t in touches):
        touches.remove(righted)


def righting_until(reader: Reader) -> int | None:
    """Neighbours knocked off their squares by the hand carrying a piece, the board
    otherwise a move under way (the piece in the hand, a capture's victim off): until
    RIGHTING_MS after the first one's lift the hand may be putting them back, so the
    board shows no mismatch before then (None: no such neighbour). Up to MAX_KNOCKED
    neighbours, the last lifted peeled off first."""
    changed = reader.sensors ^ reader.table.occupancy
    emptied = changed & ~reader.sensors
    events = reader.episode.events
    knocked: Bitboard = 0
    for event in reversed(events):
        if event.occupied or not (emptied & ~knocked) >> event.square & 1:
            continue
        knocked |= 1 << event.square
        rest = changed & ~knocked
        if not rest:
            return None
        lifted_before = any(
            not e.occupied and e.t_ms < event.t_ms and rest >> e.square & 1 for e in events
        )
        if lifted_before and reader.table.in_progress(rest, reader.sensors | knocked):
            return event.t_ms + RIGHTING_MS  # (the first knocked one's lift)
        if knocked.bit_count() == MAX_KNOCKED:
            return None
    return None


def amend_knocked_capture(
    reader: Reader,
    origin: Square,
    change: SquareChange,
    now: int,
    effects: list[Effect],
    later: Bitboard = 0,
    touches: TouchRecord | None = None,
) -> bool:
    """The first placement after a capture `knocked_victim` doubted: when the board
    it makes is, read from the position before the capture, a move of the capturer
    in progress (the pawn set down on e5, not on d5), the victim was only knocked:
    take the capture back and follow the hands from there.

    The capture's reading may explain the placement too, as the opponent's piece seen
    arriving before it is seen leaving: then the lift that follows within ARRIVE_MS
    decides (waiting.AmendDue, `later` the changes seen since the placement). The
    mover's `touches` before the capture bind again: the piece in the hand was touched
    (in strict mode the queen set back home must still move)."""
    if not len(reader.game) or reader.game.declared is not None:
        return False
    previous = reader.game.positions[-2]
    before = reader.sensors ^ later ^ (1 << change.square)  # as the capture left them
    if before != (previous.occupied & ~(1 << origin)):
        return False
    table = MoveTable(previous, legal=True)
    placed = before | 1 << change.square
    changed = placed ^ previous.occupied
    # Nothing changed: the capturer set back home, the victim only knocked (the
    # capture was committed after settle_ms of stillness, see likely.wait_for).
    if changed and not any(
        shape.from_square == origin and not changed & ~shape.footprint for shape in table.shapes
    ):
        return False
    if promoted_first(reader, None, change.square, placed):
        return False  # the opponent's new queen set down before the pawn is cleared
    if (
        not later
        and not reader.episode.events
        and reader.table.is_prefix(placed ^ reader.table.occupancy)
    ):
        due = change.t_ms + ARRIVE_MS
        reader.waiting = enter(reader.waiting, AmendDue(origin, due, touches))
        return False
    takeback.take_back_last(reader, now, effects)
    if touches is not None:
        reader.touches = TouchRecord(list(touches.touches))
    reader.exchange_square = None
    reader.sensors = before
    reader.new_episode()
    reader.sensors ^= 1 << change.square
    # Read as of the placement: a move it completes was complete then (its player's
    # time stops there, FIDE 4.7), not at a lift seen after it (`later`).
    latest, reader.last_change_ms = reader.last_change_ms, change.t_ms
    reader.read(change, now, effects, report=True)
    reader.last_change_ms = max(latest, reader.last_change_ms)
    reader.sensors ^= later
    return True


def arrived_from(change: SquareChange, due: int, placed: Square, position: Position | None) -> bool:
    """Whether `change`, coming by `due`, opens the neighbouring square of a piece that
    can step in `position` to where a piece was just set down: that piece arrived
    first (only a step puts a magnet over both switches at once)."""
    if change.occupied or change.t_ms >= due or position is None:
        return False
    sq = change.square
    if max(abs((sq & 7) - (placed & 7)), abs((sq >> 3) - (placed >> 3))) != 1:
        return False
    return any(move.to_square == placed for move in position.legal_moves_from(sq))
