"""Time the arbiter adds to a player's clock: exact to the millisecond, whether that
player's time runs or not, and kept through a takeback."""

from __future__ import annotations

from reedboard.chess_clock.clocks import Clocks
from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.rules.pieces import BLACK, WHITE

TWO_MINUTES = 120_000


def test_added_to_the_running_players_time() -> None:
    clocks = Clocks.start(parse_time_control("5+0"), 0)
    later = clocks.added(WHITE, TWO_MINUTES)
    assert later.left_ms(WHITE, 10_000) == 300_000 + TWO_MINUTES - 10_000
    assert later.left_ms(BLACK, 10_000) == 300_000
    assert later.flag_ms() == 300_000 + TWO_MINUTES


def test_added_to_the_waiting_players_time() -> None:
    clocks = Clocks.start(parse_time_control("5+0"), 0).added(BLACK, 1)
    assert clocks.left_ms(BLACK, 100_000) == 300_001
    assert clocks.left_ms(WHITE, 100_000) == 200_000
    assert clocks.flag_ms() == 300_000  # White's flag: Black's time does not move it


def test_the_value_is_new_and_the_old_one_stays() -> None:
    clocks = Clocks.start(parse_time_control("1+0"), 0)
    clocks.added(WHITE, 5_000)
    assert clocks.left_ms(WHITE, 0) == 60_000


def test_a_timer_adds_mid_game_and_the_flag_moves() -> None:
    timer = GameTimer(parse_time_control("1+0"), 0)
    timer.move_made(WHITE, 10_000)
    timer.add(WHITE, TWO_MINUTES)  # to the player whose time does not run (FIDE 7.5.5)
    assert timer.left(30_000) == (50_000 + TWO_MINUTES, 40_000)
    timer.add(BLACK, 30_000)  # to the one whose time runs
    assert timer.flag_ms() == 10_000 + 60_000 + 30_000


def test_a_takeback_after_the_addition_keeps_it() -> None:
    timer = GameTimer(parse_time_control("1+0"), 0)
    timer.move_made(WHITE, 10_000)
    timer.add(BLACK, TWO_MINUTES)
    timer.taken_back(20_000)
    # White's move taken back: White's time as it stood when it was complete (50 s,
    # running again from 20 s); Black's with the two minutes still on it.
    assert timer.left(20_000) == (50_000, 60_000 + TWO_MINUTES)


def test_buttons_a_press_ahead_keeps_the_addition() -> None:
    timer = GameTimer(parse_time_control("1+0"), 0, buttons=True)
    assert timer.press(WHITE, 5_000, completed_ms=4_000)  # pressed before the decision
    timer.add(WHITE, 1_000)
    timer.move_made(WHITE, 4_000)
    timer.taken_back(6_000)
    assert timer.left(6_000) == (56_000 + 1_000, 60_000)
