"""The board's game as a client of its events knows it."""

from __future__ import annotations

from reedboard.events import GameOver, MoveMade, NewGame, TakenBack
from reedboard.link.board_messages import BoardHello, EffectMessage, StateMessage
from reedboard.opponents.followed import FollowedGame
from reedboard.rules.fen import STARTING_FEN


def effect(event: object) -> EffectMessage:
    return EffectMessage(event, 1)  # type: ignore[arg-type]


def test_the_game_from_its_events() -> None:
    followed = FollowedGame()
    assert followed.needs_state
    followed.hear(effect(NewGame(0, STARTING_FEN, False, "standard", "5+3")))
    followed.hear(effect(MoveMade(1, "e2e4", "e4", "", 1, (299_000, 300_000))))
    followed.hear(effect(MoveMade(2, "e7e5", "e5", "", 2, (299_000, 298_000))))
    assert followed.game is not None and len(followed.game) == 2
    assert followed.clock == (299_000, 298_000) and followed.time_control == "5+3"
    followed.hear(effect(TakenBack(3, "e7e5", "")))
    assert len(followed.game) == 1
    followed.hear(effect(GameOver(4, "1-0", "resignation")))
    assert followed.over


def test_a_missed_move_makes_the_game_unknown_until_the_state() -> None:
    followed = FollowedGame()
    followed.hear(effect(NewGame(0, STARTING_FEN)))
    followed.hear(effect(MoveMade(1, "e7e5", "e5", "", 2)))  # ply 1 was not heard
    assert followed.needs_state
    state = StateMessage(False, STARTING_FEN, ("e2e4", "e7e5"))
    followed.hear(state)
    assert followed.game is not None and len(followed.game) == 2 and not followed.over
    followed.hear(BoardHello("s"))  # the board started again: ask afresh
    assert followed.needs_state
