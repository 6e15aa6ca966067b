"""Time passing: what falls due when the board has been still long enough (a move that
waited to grow, a mismatch, a stray piece, overlapping moves read once more), when a
reading waited on a lift that did not come, when a result told with the kings is
confirmed, and when each of these will be."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from reedboard.reader import endings, knock, put_back, split, stuck, two_hands, verdicts
from reedboard.reader.effects import Effect, Offered
from reedboard.reader.setup import draw_chess960
from reedboard.reader.waits import STRAY_WAIT_MS, STUCK_MS

if TYPE_CHECKING:
    from reedboard.reader.arbiter import Arbiter


def tick(arbiter: Arbiter, now: int) -> list[Effect]:
    """Decide what has waited long enough by `now`."""
    if arbiter._chess960_watch.update(arbiter.sensors, now):
        return arbiter.start_setup(draw_chess960(arbiter.rng), now)
    if arbiter.setup is not None:
        return []
    effects: list[Effect] = []
    if _result_confirmed(arbiter, now, effects):
        return effects
    _readings_due(arbiter, now, effects)
    _stillness(arbiter, now, effects)
    return effects


def _result_confirmed(arbiter: Arbiter, now: int, effects: list[Effect]) -> bool:
    """The kings have told a result long enough: the game ends so."""
    if arbiter.game.is_game_over():
        return False
    result = arbiter.gestures.tick(now)
    if result is None:
        return False
    effects.append(Offered(now, result, "confirmed"))
    effects.extend(endings.end_by_kings(arbiter, result, now))
    return True


def _readings_due(arbiter: Arbiter, now: int, effects: list[Effect]) -> None:
    """A move complete earlier split off after a lift of the opponent's (see SWEEP_MS),
    and the readings that waited for a lift that did not come (see ARRIVE_MS)."""
    if arbiter._split_due is not None and now >= arbiter._split_due:
        split.split(arbiter, now, effects)
    if arbiter._other_reading is not None and now >= arbiter._other_reading[1]:
        other, _due = arbiter._other_reading
        arbiter._other_reading = None
        knock.take_other_reading(arbiter, other, now, effects)
    if arbiter._put_back_due is not None and now >= arbiter._put_back_due:
        put_back.take_back_home(arbiter, now, effects)
    if arbiter._amend_due is not None and now >= arbiter._amend_due[0]:
        _due, origin = arbiter._amend_due
        arbiter._amend_due = None
        if len(arbiter._events) == 1:
            knock.amend_knocked_capture(arbiter, origin, arbiter._events[0], now, effects)


def _stillness(arbiter: Arbiter, now: int, effects: list[Effect]) -> None:
    """What the board still for a while decides: the complete move committed once it
    has waited, else a breach, overlapping moves, or a mismatch reported."""
    quiet = now - arbiter.last_change_ms
    if arbiter._complete is not None:
        if quiet >= arbiter._wait_ms:
            arbiter._commit(arbiter._complete, now, effects)
        return
    if quiet < arbiter.settle_ms:
        return
    if arbiter._breaching is not None:
        verdicts.report_violation(arbiter, arbiter._breaching, now, effects)
        return
    if two_hands.overlap_due(arbiter) is not None:
        arbiter._overlap_tried = arbiter.last_change_ms
        if two_hands.read_two_moves(arbiter, now, effects, final_only=False):
            return
    stray = quiet >= STRAY_WAIT_MS and verdicts.stray(arbiter)
    if verdicts.unexplained(arbiter) or verdicts.outdated_mismatch(arbiter) or stray:
        verdicts.report_mismatch(arbiter, now, effects)


def next_deadline(arbiter: Arbiter) -> int | None:
    """The time at which `tick` may decide something, if any."""
    return _earliest((_stillness_due(arbiter), *_other_dues(arbiter), *_fork_dues(arbiter)))


def _stillness_due(arbiter: Arbiter) -> int | None:
    if arbiter._complete is not None:
        return arbiter.last_change_ms + arbiter._wait_ms
    if verdicts.unreported(arbiter):
        return arbiter.last_change_ms + arbiter.settle_ms
    if verdicts.stray(arbiter) and not verdicts.mismatch_shown(arbiter):
        return arbiter.last_change_ms + STRAY_WAIT_MS
    return None


def _other_dues(arbiter: Arbiter) -> tuple[int | None, ...]:
    """The readings waiting on a lift, overlapping moves, the kings' result, a stuck
    switch and the Chess960 gesture."""
    other = arbiter._other_reading[1] if arbiter._other_reading else None
    amend = arbiter._amend_due[0] if arbiter._amend_due else None
    gesture = None if arbiter.game.is_game_over() else arbiter.gestures.next_deadline()
    stuck_at = stuck.stuck_since(arbiter)
    return (
        arbiter._split_due,
        amend,
        arbiter._put_back_due,
        two_hands.overlap_due(arbiter),
        other,
        gesture,
        None if stuck_at is None else stuck_at + STUCK_MS,
        arbiter._chess960_watch.deadline(),
    )


def _fork_dues(arbiter: Arbiter) -> tuple[int | None, ...]:
    """While the other reading is followed: its own deadlines, and its end."""
    if arbiter._alternative is None:
        return ()
    arrival = arbiter._fork_arrival[0] if arbiter._fork_arrival else None
    return (arbiter._alternative[0].next_deadline(), arbiter._fork_until, arrival)


def _earliest(times: Iterable[int | None]) -> int | None:
    known = [t for t in times if t is not None]
    return min(known) if known else None
