"""Tapping on an empty square asks the voice; play never does."""

from __future__ import annotations

from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.voice.taps import Asked, Taps

START = Position.standard().occupied
E4 = parse_square("e4")


def tap(taps: Taps, at: int, square: int = E4) -> int:
    taps.changed(START | 1 << square, START, at)
    assert taps.due(at + 100) is None
    taps.changed(START, START, at + 150)
    return at + 150


def test_two_taps_ask_for_the_last_move() -> None:
    taps = Taps()
    tap(taps, 1000)
    end = tap(taps, 1400)
    assert taps.due(end + 500) is None  # the player may tap again
    assert taps.due(end + 1000) == Asked("last", E4, end + 1000)
    assert taps.due(end + 2000) is None  # asked once


def test_three_taps_ask_for_the_position() -> None:
    taps = Taps()
    for at in (1000, 1400, 1800):
        end = tap(taps, at)
    assert taps.due(end + 1000) == Asked("position", E4, end + 1000)


def test_four_taps_or_more_ask_for_the_clocks() -> None:
    for times in ((1000, 1400, 1800, 2200), (1000, 1400, 1800, 2200, 2600)):
        taps = Taps()
        for at in times:
            end = tap(taps, at)
        assert taps.due(end + 1000) == Asked("clock", E4, end + 1000)


def test_one_tap_asks_nothing() -> None:
    taps = Taps()
    end = tap(taps, 1000)
    assert taps.due(end + 1000) is None


def test_a_piece_left_standing_is_no_tap() -> None:
    taps = Taps()
    taps.changed(START | 1 << E4, START, 1000)
    taps.changed(START, START, 2500)
    end = tap(taps, 2700)
    assert taps.due(end + 1000) is None


def test_taps_on_two_squares_ask_nothing() -> None:
    taps = Taps()
    tap(taps, 1000)
    end = tap(taps, 1400, parse_square("d4"))
    assert taps.due(end + 1000) is None


def test_a_move_is_no_tap() -> None:
    """Lifting e2 and placing it on e4, twice (a move and its takeback), asks nothing."""
    taps = Taps()
    e2 = parse_square("e2")
    after = START & ~(1 << e2) | 1 << E4
    taps.changed(START & ~(1 << e2), START, 1000)
    taps.changed(after, START, 1200)
    taps.changed(after, after, 1300)  # the move is committed
    taps.changed(after & ~(1 << E4), after, 1500)
    taps.changed(START, after, 1700)
    assert taps.due(3000) is None
