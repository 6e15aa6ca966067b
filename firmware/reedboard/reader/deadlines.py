"""Time passing: what falls due when the board has been still long enough (a move that
waited to grow, a mismatch, a stray piece, overlapping moves read once more), when a
reading waited on a lift that did not come, when a result told with the kings is
confirmed, and when each of these will be."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from reedboard.events import Effect, Offered
from reedboard.reader import endings, knock, put_back, split, stuck, two_hands, verdicts, waiting
from reedboard.reader.setup import draw_chess960
from reedboard.reader.waiting import AmendDue, OtherReading, PutBack, Relifted, Sweep, enter
from reedboard.reader.waits import STRAY_WAIT_MS, STUCK_MS

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def tick(reader: Reader, now: int) -> list[Effect]:
    """Decide what has waited long enough by `now`."""
    if reader.chess960_watch.update(reader.sensors, now):
        return reader.start_setup(draw_chess960(reader.rng), now)
    if reader.setup is not None:
        return []
    effects: list[Effect] = []
    if _result_confirmed(reader, now, effects):
        return effects
    _readings_due(reader, now, effects)
    _stillness(reader, now, effects)
    return effects


def _result_confirmed(reader: Reader, now: int, effects: list[Effect]) -> bool:
    """The kings have told a result long enough: the game ends so."""
    if reader.game.is_game_over():
        return False
    result = reader.gestures.tick(now)
    if result is None:
        return False
    effects.append(Offered(now, result, "confirmed"))
    effects.extend(endings.end_by_kings(reader, result, now))
    return True


def _readings_due(reader: Reader, now: int, effects: list[Effect]) -> None:
    """A move complete earlier split off after a lift of the opponent's (see SWEEP_MS),
    and the readings that waited for a lift that did not come (see ARRIVE_MS)."""
    # In this order, each on the state the one before leaves (a split may commit).
    if isinstance(reader.waiting, Sweep) and now >= reader.waiting.due:
        split.split(reader, now, effects)
    if isinstance(reader.waiting, Relifted) and now >= reader.waiting.due:
        reader.waiting = enter(reader.waiting, None)
        split.split(reader, now, effects, started=True)
    pending = reader.waiting
    if isinstance(pending, OtherReading) and now >= pending.due:
        reader.waiting = enter(pending, None)
        knock.take_other_reading(reader, pending.move, now, effects)
    if isinstance(reader.waiting, PutBack) and now >= reader.waiting.due:
        put_back.take_back_home(reader, now, effects)
    pending = reader.waiting
    if isinstance(pending, AmendDue) and now >= pending.due:
        reader.waiting = enter(pending, None)
        if len(reader.episode.events) == 1:
            first = reader.episode.events[0]
            knock.amend_knocked_capture(
                reader, pending.origin, first, now, effects, touches=pending.touches
            )


def _stillness(reader: Reader, now: int, effects: list[Effect]) -> None:
    """What the board still for a while decides: the complete move committed once it
    has waited, else a breach, overlapping moves, or a mismatch reported."""
    quiet = now - reader.last_change_ms
    if reader.episode.complete is not None:
        if quiet >= reader.episode.wait_ms:
            reader.commit(reader.episode.complete, now, effects)
        return
    if quiet < reader.settle_ms:
        return
    if reader.episode.breaching is not None:
        verdicts.report_violation(reader, reader.episode.breaching, now, effects)
        return
    if two_hands.overlap_due(reader) is not None:
        reader.episode.overlap_tried = reader.last_change_ms
        if two_hands.read_two_moves(reader, now, effects, final_only=False):
            return
    stray = quiet >= STRAY_WAIT_MS and verdicts.stray(reader)
    righting = knock.righting_until(reader)
    unexplained = verdicts.unexplained(reader) and (righting is None or now >= righting)
    if unexplained or verdicts.outdated_mismatch(reader) or stray:
        verdicts.report_mismatch(reader, now, effects)


def next_deadline(reader: Reader) -> int | None:
    """The time at which `tick` may decide something, if any."""
    if reader.setup is not None:
        # While a setup is guided `tick` decides only the gesture: a board that differs
        # from the game is no deadline then (one kept due would spin the board's loop).
        return _earliest((reader.chess960_watch.deadline(), *_fork_dues(reader)))
    return _earliest((_stillness_due(reader), *_other_dues(reader), *_fork_dues(reader)))


def _stillness_due(reader: Reader) -> int | None:
    if reader.episode.complete is not None:
        return reader.last_change_ms + reader.episode.wait_ms
    if verdicts.unreported(reader):
        # (A knocked neighbour being put back is shown only if it stays off: see knock.py.)
        return max(reader.last_change_ms + reader.settle_ms, knock.righting_until(reader) or 0)
    if verdicts.stray(reader) and not verdicts.mismatch_shown(reader):
        return reader.last_change_ms + STRAY_WAIT_MS
    return None


def _other_dues(reader: Reader) -> tuple[int | None, ...]:
    """The readings waiting on a lift, overlapping moves, the kings' result, a stuck
    switch and the Chess960 gesture."""
    gesture = None if reader.game.is_game_over() else reader.gestures.next_deadline()
    stuck_at = stuck.stuck_since(reader)
    return (
        waiting.due(reader.waiting),
        two_hands.overlap_due(reader),
        gesture,
        None if stuck_at is None else stuck_at + STUCK_MS,
        reader.chess960_watch.deadline(),
    )


def _fork_dues(reader: Reader) -> tuple[int | None, ...]:
    """While the other reading is followed: its own deadlines, and its end."""
    following = reader.following
    if following is None:
        return ()
    arrival = following.arrival[0] if following.arrival else None
    return (following.reader.next_deadline(), following.until, arrival)


def _earliest(times: Iterable[int | None]) -> int | None:
    known = [t for t in times if t is not None]
    return min(known) if known else None
