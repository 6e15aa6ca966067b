"""How games start and end on the board itself: the start position set up by hand (a new
game), the guided Chess960 set-up, and a result told by the host or with the kings in the
centre (confirmed on the LEDs, cancellable), which ends the game as a resignation, a draw
claim or an agreement."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from reedboard.reader.effects import Effect, GameOver, Offered
from reedboard.reader.waits import START_OCCUPANCY
from reedboard.rules.game import Game

if TYPE_CHECKING:
    from reedboard.reader.arbiter import Arbiter


def follow_setup(arbiter: Arbiter, now: int, effects: list[Effect], by_hand: bool = False) -> None:
    assert arbiter.setup is not None
    if arbiter.setup.step(arbiter.sensors).done:
        start = arbiter.setup.target
        effects.extend(arbiter.start_game(Game(start), now))
    elif by_hand and arbiter.sensors == START_OCCUPANCY:
        # The standard start set up complete, not in the guide's order: whatever the
        # guide asked, the players want a standard game (the kings put back after the
        # gesture, or a set-up done the usual way).
        effects.extend(arbiter.start_game(Game(), now))


def end(arbiter: Arbiter, declare: Callable[[], object] | None, now_ms: int) -> list[Effect]:
    if declare is not None:
        declare()
    outcome = arbiter.game.outcome()
    assert outcome is not None
    arbiter.gestures.reset()
    arbiter._table = None
    arbiter._new_episode()
    return [GameOver(now_ms, outcome.result, outcome.reason)]


def follow_gestures(arbiter: Arbiter, t_ms: int, now: int, effects: list[Effect]) -> None:
    before = arbiter.gestures.offer
    news = arbiter.gestures.update(arbiter._hands.start, arbiter._hands.states, t_ms)
    if news == "made" and arbiter.gestures.offer is not None:
        effects.append(Offered(now, arbiter.gestures.offer, "made"))
    elif news == "cancelled" and before is not None:
        effects.append(Offered(now, before, "cancelled"))


def end_by_kings(arbiter: Arbiter, result: str, now: int) -> list[Effect]:
    """The kings in the centre confirmed a result: the loser resigns; a draw is a claim
    when one is valid, else agreed. The kings may stay there: that is no mismatch."""
    if result == "1-0":
        effects = arbiter.resign(False, now)
    elif result == "0-1":
        effects = arbiter.resign(True, now)
    elif arbiter.game.claimable_now() is not None:
        effects = end(arbiter, arbiter.game.claim_draw, now)
    else:
        effects = arbiter.agree_draw(now)
    arbiter._result_sensors = arbiter.sensors
    return effects


def try_new_game(arbiter: Arbiter, now: int, effects: list[Effect]) -> bool:
    if arbiter.sensors != START_OCCUPANCY:
        return False
    game = arbiter.game
    if len(game) < 2 and not game.is_game_over() and game.start.occupied == START_OCCUPANCY:
        return False
    arbiter.mismatch = None
    effects.extend(arbiter.start_game(Game(), now))
    return True
