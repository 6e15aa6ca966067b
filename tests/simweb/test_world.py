"""The simulator's physical pieces."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reedboard.errors import InvalidInputError
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.sensing.held import likeliest
from reedboard.simweb.world import World


def test_a_capture_puts_the_taken_piece_beside_the_board() -> None:
    world = World("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    world.lift("e4")
    world.lift("d5")
    assert world.to_tray().piece == "p"
    world.place("d5")
    assert world.squares[parse_square("d5")] == "P"
    assert world.tray == ["p"]
    assert world.hand == []


def test_a_pawn_is_exchanged_for_a_spare_queen() -> None:
    world = World("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    world.lift("a7")
    world.place("a8")
    world.lift("a8")
    world.to_tray()
    world.from_tray("Q")
    world.place("a8")
    assert world.squares[parse_square("a8")] == "Q"
    assert world.tray == ["P"]


@pytest.mark.parametrize(
    "gesture",
    [
        lambda w: w.lift("e4"),  # an empty square
        lambda w: w.lift("z9"),
        lambda w: w.lift(None),
        lambda w: w.place("e3"),  # nothing in hand
        lambda w: w.to_tray(),
        lambda w: w.from_tray("K"),  # no spare kings
        lambda w: w.from_tray("x"),
        lambda w: w.select(3),
    ],
)
def test_impossible_gestures_are_refused(gesture: Callable[[World], object]) -> None:
    world = World(STARTING_FEN)
    with pytest.raises(InvalidInputError):
        gesture(world)
    assert world.occupancy == Position.standard().occupied


def test_a_piece_cannot_be_set_on_another() -> None:
    world = World(STARTING_FEN)
    world.lift("g1")
    with pytest.raises(InvalidInputError):
        world.place("e2")
    world.place("f3")


def test_a_played_script_puts_down_the_right_piece_of_a_castling() -> None:
    position = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    world = World(position.fen())
    world.lift("e1")
    world.lift("h1")
    # The rook was taken last, but g1 is the king's square of this castling.
    assert world.hand[likeliest(world.hand, parse_square("g1"), position)].piece == "K"
    assert world.hand[likeliest(world.hand, parse_square("f1"), position)].piece == "R"
