"""Knocking on an empty square asks the voice; play never does."""

from __future__ import annotations

from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.voice.knocks import Asked, Knocks

START = Position.standard().occupied
E4 = parse_square("e4")


def knock(knocks: Knocks, at: int, square: int = E4) -> int:
    knocks.changed(START | 1 << square, START, at)
    assert knocks.due(at + 100) is None
    knocks.changed(START, START, at + 150)
    return at + 150


def test_two_knocks_ask_for_the_last_move() -> None:
    knocks = Knocks()
    knock(knocks, 1000)
    end = knock(knocks, 1400)
    assert knocks.due(end + 500) is None  # the player may knock again
    assert knocks.due(end + 1000) == Asked("last", E4, end + 1000)
    assert knocks.due(end + 2000) is None  # asked once


def test_three_knocks_ask_for_the_position() -> None:
    knocks = Knocks()
    for at in (1000, 1400, 1800):
        end = knock(knocks, at)
    assert knocks.due(end + 1000) == Asked("position", E4, end + 1000)


def test_one_knock_asks_nothing() -> None:
    knocks = Knocks()
    end = knock(knocks, 1000)
    assert knocks.due(end + 1000) is None


def test_a_piece_left_standing_is_no_knock() -> None:
    knocks = Knocks()
    knocks.changed(START | 1 << E4, START, 1000)
    knocks.changed(START, START, 2500)
    end = knock(knocks, 2700)
    assert knocks.due(end + 1000) is None


def test_knocks_on_two_squares_ask_nothing() -> None:
    knocks = Knocks()
    knock(knocks, 1000)
    end = knock(knocks, 1400, parse_square("d4"))
    assert knocks.due(end + 1000) is None


def test_a_move_is_no_knock() -> None:
    """Lifting e2 and placing it on e4, twice (a move and its takeback), asks nothing."""
    knocks = Knocks()
    e2 = parse_square("e2")
    after = START & ~(1 << e2) | 1 << E4
    knocks.changed(START & ~(1 << e2), START, 1000)
    knocks.changed(after, START, 1200)
    knocks.changed(after, after, 1300)  # the move is committed
    knocks.changed(after & ~(1 << E4), after, 1500)
    knocks.changed(START, after, 1700)
    assert knocks.due(3000) is None
