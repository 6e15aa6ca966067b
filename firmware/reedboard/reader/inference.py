"""Inference of the episode: each sensor change read into the hypotheses about which piece
stands where, and what the hands have done since the last committed position decided:
a complete move committed or left to wait by what may still follow it, a
doubted capture held, a breach of touch-move, the position shown again, a takeback, a new
game, overlapping moves, or a move complete earlier split off."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect, Touched
from reedboard.reader import (
    endings,
    fork,
    knock,
    likely,
    promotion,
    push,
    put_back,
    split,
    takeback,
    two_hands,
    verdicts,
)
from reedboard.reader.hands import UNKNOWN
from reedboard.reader.table import EMPTY, MoveShape
from reedboard.reader.waiting import (
    AmendDue,
    KnockedCapture,
    OtherReading,
    PutBack,
    Relifted,
    Sweep,
    enter,
)
from reedboard.reader.waits import (
    ARRIVE_MS,
    MOVERS_HAND_MS,
    MOVERS_HAND_REACH,
    RELAND_MS,
    STRAY_WAIT_MS,
    SWEEP_MS,
)
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import SquareChange

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def apply(
    reader: Reader, change: SquareChange, now: int, effects: list[Effect], report: bool
) -> None:
    """`change` read into the episode, once it has decided what the reader waited for
    (see waiting.py)."""
    match reader.waiting:
        case KnockedCapture() as knocked:
            reader.waiting = enter(knocked, None)
            if _amends(reader, knocked, change, now, effects):
                return
        case OtherReading() as other:
            reader.waiting = enter(other, None)
            _other_reading(reader, other, change, now, effects, report)
        case AmendDue() as amend:
            reader.waiting = enter(amend, None)
            _amend_due(reader, amend, change, now, effects, report)
        case PutBack() as put:
            put_back.decide(reader, put, change, now, effects, report)
        case Relifted() as relifted:
            reader.waiting = enter(relifted, None)
    follow(reader, change, now, effects, report)


def _amends(
    reader: Reader,
    knocked: KnockedCapture,
    change: SquareChange,
    now: int,
    effects: list[Effect],
) -> bool:
    """The first change after a capture doubted as a knock: a placement that only a move
    of the capturer explains amends the capture (True: `change` is read already)."""
    if not change.occupied or reader.episode.events:
        return False
    return knock.amend_knocked_capture(
        reader, knocked.origin, change, now, effects, touches=knocked.touches
    )


def _other_reading(
    reader: Reader,
    waiting: OtherReading,
    change: SquareChange,
    now: int,
    effects: list[Effect],
    report: bool,
) -> None:
    """The change after the capturer's piece was set down elsewhere: no lift of a piece
    arriving first takes the other reading; such a lift follows it alongside."""
    other, sq = waiting.move, change.square
    placed = reader.episode.events[-1].square
    doubted = reader.episode.doubted
    after = reader.position.play_code(doubted.code) if doubted is not None else None
    if not knock.arrived_from(change, waiting.due, placed, after):
        # Read as the board stood before `change`: a move it commits starts the
        # next episode, which `change` then belongs to (a lift is a touch).
        reader.sensors ^= 1 << sq
        knock.take_other_reading(reader, other, now, effects)
        reader.sensors ^= 1 << sq
    elif report:
        fork.fork(
            reader,
            change,
            now,
            lambda alt, out: knock.take_other_reading(alt, other, now, out),
        )


def _amend_due(
    reader: Reader,
    waiting: AmendDue,
    change: SquareChange,
    now: int,
    effects: list[Effect],
    report: bool,
) -> None:
    """The change after a placement both readings of a knocked capture explain: no lift
    of a piece arriving first amends the capture; such a lift follows the amended
    reading alongside."""
    origin, later, touches = waiting.origin, 1 << change.square, waiting.touches
    first = reader.episode.events[0]
    if not knock.arrived_from(change, waiting.due, first.square, reader.position):
        # No lift came to make that placement the opponent's arriving first.
        knock.amend_knocked_capture(reader, origin, first, now, effects, later, touches)
    elif report:
        # The other reading sees the board as before `change` (see fork.fork): nothing
        # came after the placement there yet.
        fork.fork(
            reader,
            change,
            now,
            lambda alt, out: knock.amend_knocked_capture(
                alt, origin, first, now, out, touches=touches
            ),
            released=True,  # the capture was made: the host has it
        )


def follow(
    reader: Reader, change: SquareChange, now: int, effects: list[Effect], report: bool
) -> None:
    """`change` read into the episode, once the readings it decides are settled."""
    sq = change.square
    reader.episode.events.append(change)
    if change.occupied:
        reader.episode.hands.place(sq)
        knock.forget_knocked_touch(reader, change)
        knock.forget_righted_own_touch(reader, change)
        reader.touches.set_back(sq)
        choice = reader.choice_lift
        reader.choice_lift = None
        if choice is not None and choice[0] == sq and reader.exchange_square is not None:
            promotion.amend_promotion(reader, choice[1], now, effects)
    else:
        piece = reader.episode.hands.piece_at(sq)
        reader.episode.hands.lift(sq)
        if piece not in (EMPTY, UNKNOWN) and sq != reader.exchange_square:
            if report:
                effects.append(Touched(now, sq, piece))
            if not movers_hand(reader, sq, piece, change.t_ms):
                reader.touches.touch(sq, piece, reader.position, change.t_ms)
            promotion.watch_promotion_choice(reader, sq, piece)
    evaluate(reader, now, effects)
    if report and not reader.game.is_game_over():
        endings.follow_gestures(reader, change.t_ms, now, effects)


def evaluate(reader: Reader, now: int, effects: list[Effect]) -> None:
    """What the hands have done since the last committed position, after a change."""
    if knock.opponent_starts(reader):
        split.split(reader, now, effects, started=True)
        return
    promoted = promotion.set_first(reader) or push.pushed_capture(reader)
    if promoted is not None:
        # Read as the board stood before the opponent's lift, which then starts the
        # next episode.
        last = reader.episode.events[-1]
        reader.episode.first_complete[promoted.code] = reader.episode.events[0].t_ms
        reader.sensors ^= 1 << last.square
        reader.commit(promoted, now, effects)
        reader.sensors ^= 1 << last.square
        reader.read(last, now, effects, report=False)
        return
    matches = allowed_moves(reader)
    if matches:
        complete(reader, likely.likeliest(reader, matches), now, effects)
        return
    reader.episode.complete = None
    if reader.episode.breaching is not None:
        changed = reader.sensors ^ reader.table.occupancy
        if reader.table.growth(reader.episode.breaching, changed, rook_first=False) is None:
            verdicts.report_violation(reader, reader.episode.breaching, now, effects)
        return
    no_move(reader, now, effects)


def allowed_moves(reader: Reader) -> list[MoveShape]:
    """The moves the hands may have made: none when the only ones are a knocked step; in
    strict mode, those touch-move allows (the likeliest breach kept aside)."""
    matches = likely.matching_moves(reader, reader.table)
    knocks = [m for m in matches if knock.knocked_step(reader, m)]
    reader.episode.knocked_only = bool(knocks) and len(knocks) == len(matches)
    if reader.episode.knocked_only:
        matches = []
    reader.episode.breaching = None
    for shape in matches:
        reader.episode.first_complete.setdefault(shape.code, reader.last_change_ms)
    if matches and reader.mode == "strict":
        allowed = [m for m in matches if verdicts.breach_of(reader, m) is None]
        if not allowed:
            reader.episode.breaching = likely.likeliest(reader, matches)
        matches = allowed
    return matches


def complete(reader: Reader, best: MoveShape, now: int, effects: list[Effect]) -> None:
    """`best` is complete: commit it, or let it wait by what may still follow it."""
    if keeps_doubted(reader, best):
        return
    if set_down_elsewhere(reader, best):
        split.split(reader, now, effects)
        return
    table = reader.table
    if isinstance(reader.waiting, OtherReading):
        reader.waiting = enter(reader.waiting, None)
    reader.episode.complete = best
    reader.episode.pending_index = len(reader.episode.events)
    changed = reader.sensors ^ table.occupancy
    growth = table.growth(best, changed, rook_first=reader.mode == "casual")
    reader.episode.complete_knock = (
        growth is None
        and knock.knocked_victim(reader, best)
        and not knock.sure_capture(reader, best)
    )
    reader.episode.doubted = best if reader.episode.complete_knock else None
    if reader.episode.complete_knock:
        growth = knock.knock_wait(reader, best)  # a capture the next placement may undo
    reader.episode.wait_ms = likely.wait_for(reader, growth)
    reader.episode.resting = growth is None
    if growth is None:
        if reader.episode.events[-1].occupied:
            # The piece just set down may still be in the hand (see waits.RELAND_MS):
            # the move is where it comes to rest (FIDE 4.7).
            reader.episode.wait_ms = RELAND_MS
            return
        reader.commit(best, now, effects)


def keeps_doubted(reader: Reader, best: MoveShape) -> bool:
    """Whether a capture doubted as a knock stays the complete move though the hands now
    show `best`, another move of the same piece."""
    doubted = reader.episode.doubted
    if doubted is None or best.from_square != doubted.from_square:
        return False
    if not best.is_capture and reader.episode.events[-1].occupied:
        # The capturer set down elsewhere, or the opponent's piece arriving
        # before it is seen leaving: the lift that would follow decides. On a pawn's
        # promotion square it may be the new piece set down before the pawn is
        # lifted, a second or two later: the capture waits that long for the pawn's
        # lift, and any other change, or none, takes the other reading.
        reader.episode.complete = doubted
        placed = reader.episode.events[-1]
        wait = ARRIVE_MS
        if knock.promoted_first(reader, doubted, placed.square):
            wait = STRAY_WAIT_MS
            reader.episode.wait_ms = max(reader.episode.wait_ms, STRAY_WAIT_MS)
        reader.waiting = enter(reader.waiting, OtherReading(best, placed.t_ms + wait))
        return True
    if best.is_capture and best.code != doubted.code:
        # A second neighbour lifted and put back at once: the opponent touching
        # a piece, likelier than a knock followed by a capture swapped as fast.
        reader.episode.complete = doubted
        return True
    return False


def set_down_elsewhere(reader: Reader, best: MoveShape) -> bool:
    """Whether a move that cannot grow rests where its piece was set down and the one
    change since is a piece set down elsewhere, which only `best`, another move of the
    same piece, explains (the square it rests on read as its victim put back). One
    hand cannot put a victim back and set the capturer down elsewhere within RELAND_MS;
    the opponent's next piece, seen arriving before it is seen leaving, can: the move
    stands, and that placement begins the next episode."""
    episode = reader.episode
    resting = episode.complete
    if resting is None or not episode.resting or best.code == resting.code:
        return False
    events = episode.events
    if episode.pending_index != len(events) - 1 or not events[-1].occupied:
        return False
    return best.from_square == resting.from_square and events[-1].square != resting.to_square


def no_move(reader: Reader, now: int, effects: list[Effect]) -> None:
    """No move is complete: the position shown again, a takeback, a new game, moves
    that overlapped, or a move complete earlier that what followed splits off."""
    changed = reader.sensors ^ reader.table.occupancy
    if not changed:
        if not put_back.hold(reader):  # (the opponent's reply may be arriving first)
            takeback.shown_again(reader, now, effects)
        return
    if takeback.try_takeback(reader, now, effects):
        return
    if endings.try_new_game(reader, now, effects):
        return
    if not reader.episode.pending_index:
        if reader.episode.events[-1].occupied or not reader.table.is_prefix(changed):
            overlapping(reader, now, effects)
        return
    if not reader.episode.events:
        return
    after_complete(reader, changed, now, effects)


def overlapping(reader: Reader, now: int, effects: list[Effect]) -> None:
    """A placement that makes no move may still end one of two overlapping moves, though
    the board looks like a move in progress (a capture on a line)."""
    if (
        not two_hands.read_two_moves(reader, now, effects, final_only=True)
        and not reader.episode.events[-1].occupied
    ):
        # A lift that starts the next move: the two before it were complete.
        two_hands.read_two_moves(reader, now, effects, final_only=False, before_last=True)


def after_complete(reader: Reader, changed: Bitboard, now: int, effects: list[Effect]) -> None:
    """The hands went on after a move was complete: the opponent setting a piece down,
    or completing a reply, splits it off at once; a lift of theirs after SWEEP_MS."""
    if not reader.table.is_prefix(changed):
        if reader.episode.events[-1].occupied:
            split.split(reader, now, effects)
        elif not isinstance(reader.waiting, Sweep):
            # The opponent's hand has lifted a piece: it may be the sweep that clears
            # the board, the moved piece's own lift just behind (see SWEEP_MS).
            reader.waiting = enter(reader.waiting, Sweep(reader.episode.events[-1].t_ms + SWEEP_MS))
    elif lifted_elsewhere_while_resting(reader):
        # Only the hand that set the piece down lifts it again within RELAND_MS: a lift
        # elsewhere that another move of that piece would begin (the piece on the
        # square it took, read as put back, that piece's next victim lifted) comes after
        # the move, as it did when the move was made at the touchdown.
        split.split(reader, now, effects)
    elif split.split_completes(reader):
        split.split(reader, now, effects)
    elif reader.waiting is None and relifted(reader):
        # As long as a move that may grow waits, from the landing, and the time the
        # placement that would end a slide takes to be seen.
        due = reader.episode.events[-2].t_ms + reader.settle_ms + ARRIVE_MS
        reader.waiting = enter(None, Relifted(due))


def lifted_elsewhere_while_resting(reader: Reader) -> bool:
    """Whether the last change, the first since a move that cannot grow was complete,
    lifts a square other than the one its piece was just set down on."""
    index = reader.episode.pending_index
    events = reader.episode.events
    if not reader.episode.resting or reader.waiting is not None:
        return False
    if index != len(events) - 1 or events[index].occupied or not events[index - 1].occupied:
        return False
    return events[index].square != events[index - 1].square


def relifted(reader: Reader) -> bool:
    """Whether the last change lifts the piece of the move complete just before it,
    one that cannot grow, from where it landed (see waiting.Relifted)."""
    index = reader.episode.pending_index
    events = reader.episode.events
    if not (reader.episode.resting or reader.episode.complete_knock):
        return False  # (a move that may grow: its piece lifted again goes on)
    if index != len(events) - 1 or not events[index - 1].occupied:
        return False
    # (Lifted before the move was committed: within RELAND_MS, or settle_ms for a
    # capture doubted as a knock.)
    return events[index].square == events[index - 1].square


def movers_hand(reader: Reader, sq: Square, piece: str, t_ms: int) -> bool:
    """Whether lifting `piece` on `sq` is the withdrawing hand of the player who just
    moved (see MOVERS_HAND_MS): not a touch of the player having the move."""
    if reader.moved is None or piece.isupper() == reader.position.turn:
        return False
    done_ms, landed = reader.moved
    return t_ms - done_ms <= MOVERS_HAND_MS and any(
        max(abs((sq & 7) - (to & 7)), abs((sq >> 3) - (to >> 3))) <= MOVERS_HAND_REACH
        for to in landed
    )
