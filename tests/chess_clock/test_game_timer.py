"""The timing of a game, case by case, exact to the millisecond."""

from __future__ import annotations

from reedboard.chess_clock.clocks import Clocks
from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.rules.pieces import BLACK, WHITE


def test_increment_added_when_the_move_is_complete() -> None:
    timer = GameTimer(parse_time_control("5+3"), 0)
    timer.move_made(WHITE, 4_000)  # complete at 4 s
    assert timer.left(4_000) == (299_000, 300_000)
    assert timer.left(10_000) == (299_000, 294_000)
    timer.move_made(BLACK, 10_000)
    assert timer.left(10_000) == (299_000, 297_000)


def test_time_stops_at_completion_not_the_decision() -> None:
    timer = GameTimer(parse_time_control("1+0"), 0)
    timer.move_made(WHITE, 2_000)  # decided later, at 2.3 s: that wait is not charged
    assert timer.left(2_300) == (58_000, 59_700)


def test_the_flag_falls_at_the_exact_ms() -> None:
    timer = GameTimer(parse_time_control("0.5+0"), 1_000)
    assert timer.flag_ms() == 31_000
    timer.move_made(WHITE, 11_000)
    assert timer.flag_ms() == 41_000
    timer.halt(20_000)
    assert timer.flag_ms() is None
    assert timer.left(50_000) == (20_000, 21_000)


def test_periods_add_time_with_the_last_move_of_each() -> None:
    timer = GameTimer(parse_time_control("1/2:1+1"), 0)
    for ply in range(4):
        timer.move_made(WHITE if ply % 2 == 0 else BLACK, (ply + 1) * 1_000)
    # Each spent 2 s on two moves: 60 - 2 + 2 (increments) + 60 (the second period)
    assert timer.left(4_000) == (120_000, 120_000)


def test_buttons_the_press_stops_the_time() -> None:
    timer = GameTimer(parse_time_control("5+0"), 0, buttons=True)
    assert not timer.press(WHITE, 1_000)  # no move yet: ignored
    timer.move_made(WHITE, 2_000)
    assert not timer.press(BLACK, 2_500)  # not Black's time
    assert timer.left(3_000) == (297_000, 300_000)
    assert timer.press(WHITE, 3_000)
    assert timer.left(3_000) == (297_000, 300_000)
    assert timer.left(4_000) == (297_000, 299_000)
    assert not timer.press(WHITE, 4_500)  # a second press does nothing


def test_buttons_a_move_complete_but_not_decided_counts() -> None:
    timer = GameTimer(parse_time_control("5+2"), 0, buttons=True)
    assert not timer.press(WHITE, 1_000, completed_ms=1_200)  # pressed before completion
    assert timer.press(WHITE, 1_300, completed_ms=1_200)
    timer.move_made(WHITE, 1_200)  # decided after the press: nothing more
    assert timer.left(1_300) == (300_700, 300_000)
    timer.taken_back(5_000)
    assert timer.left(5_000) == (298_800, 300_000)


def test_takeback_gives_the_time_back_as_it_stood() -> None:
    timer = GameTimer(parse_time_control("5+3"), 0)
    timer.move_made(WHITE, 4_000)
    timer.move_made(BLACK, 9_000)
    timer.taken_back(15_000)  # Black's move: Black's time as at 9 s, increment removed
    assert timer.left(15_000) == (299_000, 295_000)
    assert timer.left(16_000) == (299_000, 294_000)
    timer.taken_back(20_000)  # White's: both times as they stood at 4 s
    assert timer.left(20_000) == (296_000, 300_000)
    assert timer.left(21_000) == (295_000, 300_000)
    timer.taken_back(22_000)  # nothing left to take back: unchanged
    assert timer.left(22_000) == (294_000, 300_000)


def test_resumed_from_kept_clocks() -> None:
    control = parse_time_control("5+0")
    kept = Clocks(control, 250_000, 280_000, BLACK, 40_000, 10, 9)
    timer = GameTimer.resumed(kept, 3_000)
    assert timer.left(3_000) == (250_000, 280_000)
    assert timer.flag_ms() == 283_000
