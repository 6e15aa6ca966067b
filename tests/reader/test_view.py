"""The arbiter's view: what the lights are told about the board."""

from __future__ import annotations

from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square as sq
from reedboard.sensing.debounce import SquareChange


def bits(*names: str) -> int:
    return sum(1 << sq(n) for n in names)


def feed(arbiter: MoveReader, t: int, name: str, occupied: bool) -> None:
    arbiter.feed(SquareChange(sq(name), occupied, t))


def test_a_lifted_piece_shows_its_targets_by_kind() -> None:
    game = Game.from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    arbiter = MoveReader(game)
    feed(arbiter, 1000, "e5", False)
    view = arbiter.view()
    assert view.lifted == bits("e5")
    (targets,) = view.targets
    assert targets.origin == sq("e5")
    assert targets.quiet == bits("e6")
    assert targets.en_passant == bits("d6")
    feed(arbiter, 1100, "e5", True)
    feed(arbiter, 1200, "e1", False)
    (king,) = arbiter.view().targets
    assert king.castling == bits("g1", "c1")
    assert king.quiet == bits("d1", "f1", "d2", "e2", "f2")


def test_an_opponent_piece_lifted_shows_what_can_take_it() -> None:
    game = Game.from_fen("4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
    arbiter = MoveReader(game)
    feed(arbiter, 1000, "d5", False)
    assert arbiter.view().capturers == bits("e4", "c3")


def test_mismatch_pending_and_last_move_are_shown() -> None:
    arbiter = MoveReader(Game())
    feed(arbiter, 1000, "e2", False)
    feed(arbiter, 1300, "e3", True)
    view = arbiter.view()
    assert view.pending == (sq("e2"), sq("e3"))
    assert view.pending_next & bits("e4")
    arbiter.tick(2000)
    assert arbiter.view().last_move == (sq("e2"), sq("e3"))
    feed(arbiter, 3000, "b1", False)
    feed(arbiter, 3300, "b3", True)
    arbiter.tick(4000)
    view = arbiter.view()
    assert (view.missing, view.extra, view.pairs) == (
        bits("b1"),
        bits("b3"),
        ((sq("b3"), sq("b1")),),
    )


def test_strict_mode_shows_the_piece_that_must_move_and_check() -> None:
    arbiter = MoveReader(Game.from_fen("4k3/8/8/8/8/8/R3r3/4K3 w - - 0 1"), mode="strict")
    assert arbiter.view().check == sq("e1")
    feed(arbiter, 1000, "a2", False)
    feed(arbiter, 1200, "a2", True)
    assert arbiter.view().must_move == sq("a2")
