"""The clocks' questions leave them as they were: asking when a flag falls, however
often, never changes when a move's time stops."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from reedboard.chess_clock.time_control import TimeControl, parse_time_control
from reedboard.events import Effect, MoveMade
from reedboard.game_clocks import GameClocks
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange


@dataclass(frozen=True)
class _Settings:
    time_control: TimeControl | None
    clock_buttons: bool = False


# e2-e4 complete at 200, taken back into the hand and set back on e2, then made again:
# complete at 1100, the time White's clock stops at (FIDE: until the piece is released).
_HANDS = [
    ("e2", False, 100),
    ("e4", True, 200),
    ("e4", False, 300),
    ("e2", True, 400),
    ("e2", False, 1000),
    ("e4", True, 1100),
]


def _first_move(asked_between: int) -> MoveMade:
    """The first move as the clocks stamp it, `flag_due` asked `asked_between` times after
    each sensor change, before the arbiter's step reaches the clocks."""
    settings = _Settings(parse_time_control("3+0"))
    game = Game()
    arbiter = MoveReader(game)
    clocks = GameClocks(settings, game)
    clocks.watch(arbiter)
    effects: list[Effect] = []
    for name, occupied, t_ms in _HANDS:
        effects += arbiter.feed(SquareChange(parse_square(name), occupied, t_ms), t_ms)
        for _ in range(asked_between):
            clocks.flag_due(arbiter, settling=False)
    effects += arbiter.tick(5_000)
    moves = [e for e in clocks.stamped(effects, arbiter, settings) if isinstance(e, MoveMade)]
    assert [m.uci for m in moves] == ["e2e4"]
    return moves[0]


@pytest.mark.parametrize("asked_between", [1, 3])
def test_asking_for_the_flag_changes_no_move_time(asked_between: int) -> None:
    assert _first_move(asked_between).clock == _first_move(0).clock


def test_the_move_time_stops_where_it_was_last_made() -> None:
    assert _first_move(0).clock == (180_000 - 1_100, 180_000)
