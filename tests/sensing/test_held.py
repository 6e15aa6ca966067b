"""Which piece a hand puts down: the simulator's world and the emulations' tracker ask
the same question and get the same answer."""

from __future__ import annotations

from reedboard.link.tracking import PieceTracker
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.sensing.held import Held, likeliest

CASTLE = Position.from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")


def _bb(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


def test_with_king_and_rook_in_hand_each_goes_to_its_castling_square() -> None:
    hand = [Held("R", parse_square("h1")), Held("K", parse_square("e1"))]
    assert hand[likeliest(hand, parse_square("f1"), CASTLE)].piece == "R"
    assert hand[likeliest(hand, parse_square("g1"), CASTLE)].piece == "K"


def test_a_legal_landing_comes_before_the_side_to_move_before_the_last_taken() -> None:
    position = Position.from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    hand = [Held("P", parse_square("e4")), Held("p", parse_square("d5"))]
    assert likeliest(hand, parse_square("d5"), position) == 0  # exd5
    assert likeliest(hand, parse_square("a6"), position) == 0  # nobody's: White's turn
    from_tray = [Held("p", None), Held("q", None)]
    assert likeliest(from_tray, parse_square("a6"), position) == 1  # the last taken


def test_the_tracker_shows_a_castling_rook_even_when_the_king_was_lifted_last() -> None:
    sensors = CASTLE.occupied
    tracker = PieceTracker(CASTLE, sensors)
    sensors &= ~_bb("h1")
    tracker.sensed(CASTLE, sensors)
    sensors &= ~_bb("e1")
    tracker.sensed(CASTLE, sensors)
    sensors |= _bb("f1")
    assert tracker.sensed(CASTLE, sensors) == [(parse_square("f1"), "R")]
    sensors |= _bb("g1")
    assert tracker.sensed(CASTLE, sensors) == [(parse_square("g1"), "K")]
