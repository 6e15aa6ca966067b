"""How games start and end on the board itself: the start position set up by hand (a new
game), the guided Chess960 set-up, and a result told by the host or with the kings in the
centre (confirmed on the LEDs, cancellable), which ends the game as a resignation, a draw
claim or an agreement."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from reedboard.events import Effect, GameOver, Offered
from reedboard.reader.waits import START_OCCUPANCY
from reedboard.rules.game import Game

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def follow_setup(reader: Reader, now: int, effects: list[Effect], by_hand: bool = False) -> None:
    assert reader.setup is not None
    if reader.setup.step(reader.sensors).done:
        start = reader.setup.target
        effects.extend(reader.start_game(Game(start), now))
    elif by_hand and reader.sensors == START_OCCUPANCY:
        # The standard start set up complete, not in the guide's order: whatever the
        # guide asked, the players want a standard game (the kings put back after the
        # gesture, or a set-up done the usual way).
        effects.extend(reader.start_game(Game(), now))


def end(reader: Reader, declare: Callable[[], object] | None, now_ms: int) -> list[Effect]:
    if declare is not None:
        declare()
    outcome = reader.game.outcome()
    assert outcome is not None
    reader.gestures.reset()
    reader.new_episode()
    return [GameOver(now_ms, outcome.result, outcome.reason)]


def follow_gestures(reader: Reader, t_ms: int, now: int, effects: list[Effect]) -> None:
    before = reader.gestures.offer
    news = reader.gestures.update(reader.episode.hands.start, reader.episode.hands.states, t_ms)
    if news == "made" and reader.gestures.offer is not None:
        effects.append(Offered(now, reader.gestures.offer, "made"))
    elif news == "cancelled" and before is not None:
        effects.append(Offered(now, before, "cancelled"))


def end_by_kings(reader: Reader, result: str, now: int) -> list[Effect]:
    """The kings in the centre confirmed a result: the loser resigns; a draw is a claim
    when one is valid, else agreed. The kings may stay there: that is no mismatch."""
    if result == "1-0":
        effects = reader.resign(False, now)
    elif result == "0-1":
        effects = reader.resign(True, now)
    elif reader.game.claimable_now() is not None:
        effects = end(reader, reader.game.claim_draw, now)
    else:
        effects = reader.agree_draw(now)
    reader.result_sensors = reader.sensors
    return effects


def try_new_game(reader: Reader, now: int, effects: list[Effect]) -> bool:
    if reader.sensors != START_OCCUPANCY:
        return False
    game = reader.game
    if len(game) < 2 and not game.is_game_over() and game.start.occupied == START_OCCUPANCY:
        return False
    reader.mismatch = None
    effects.extend(reader.start_game(Game(), now))
    return True
