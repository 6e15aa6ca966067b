"""A board loop that falls far behind its clock (a loaded CPU under a sped-up clock)
still applies every script line at its own board time: the moves are the script's."""

from __future__ import annotations

import random

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.events import MoveMade
from reedboard.link.board_messages import EffectMessage
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard.sim.human import human_script

from tests.app.games import game_script
from tests.app.games import random_game as random_ucis


class LaggingClock:
    """Each reading of the time is `lag_ms` later than the one before: a loop that
    only gets the CPU now and then, long after the changes it should have seen."""

    def __init__(self, lag_ms: int) -> None:
        self.lag_ms = lag_ms
        self.t_ms = 0

    def now_ms(self) -> int:
        self.t_ms += self.lag_ms
        return self.t_ms

    def real_seconds_until(self, t_ms: int) -> float:
        return 0.0

    def sleep_until(self, t_ms: int) -> None:
        self.t_ms = max(self.t_ms, t_ms)


def _moves(text: str, lag_ms: int) -> list[str]:
    script = parse_script(text)
    board = scripted_board(script, electrical=False)
    moves: list[str] = []

    def effect(message: EffectMessage) -> None:
        if isinstance(message.effect, MoveMade):
            moves.append(message.effect.uci)

    app = App(
        Sensing(board, source=board),
        LaggingClock(lag_ms),
        link=HostLink(on_effect=effect),
        game=GameSetup(start=Game(script.start)),
    )
    app.run(until_done=True)
    return moves


def test_clean_hands_under_a_loop_seconds_behind() -> None:
    ucis = random_ucis(3, 40)
    assert _moves(game_script(ucis), lag_ms=3000) == ucis


def test_human_hands_under_a_loop_seconds_behind() -> None:
    game = random_game(Position.standard(), random.Random(8), max_plies=40)
    script = human_script(Position.standard(), game.moves, seed=8)
    assert _moves(script.text(), lag_ms=2500) == list(script.ucis)
