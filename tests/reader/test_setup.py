"""Chess960 from the board alone: the gesture, the guided setup, the new game."""

from __future__ import annotations

import random

from reedboard.events import Effect
from reedboard.reader.move_reader import MoveReader
from reedboard.reader.setup import SETUP_ORDER
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import BB_RANKS, squares_of
from reedboard.sensing.debounce import SquareChange


def kinds(effects: list[Effect]) -> list[str]:
    return [e.kind for e in effects if e.kind != "touch"]


E1, E8 = 4, 60


def test_both_kings_held_from_the_start_draw_a_position_and_guide_the_setup() -> None:
    arbiter = MoveReader(Game(), rng=random.Random(5))
    effects: list[Effect] = []
    effects += arbiter.feed(SquareChange(E1, False, 1000))
    effects += arbiter.feed(SquareChange(E8, False, 1200))
    effects += arbiter.tick(4100)
    assert "setup" not in kinds(effects)  # not yet: the gesture must be held
    effects += arbiter.tick(4200)
    started = [e for e in effects if e.kind == "setup"]
    assert len(started) == 1
    number = started[0].number  # type: ignore[union-attr]
    target = Position.chess960_start(number)
    # First the back ranks are cleared: every piece still there is one to take away.
    view = arbiter.view()
    back = (BB_RANKS[0] | BB_RANKS[7]) & ~(1 << E1 | 1 << E8)
    assert view.setup is not None and view.setup.wrong == back and not view.setup.needed
    t = 5000
    for sq in squares_of(back):
        effects += arbiter.feed(SquareChange(sq, False, t))
        t += 100
    view = arbiter.view()
    assert view.setup is not None and view.setup.needed  # the rooks' squares light now

    # A piece put on a square whose turn has not come is shown as one to clear.
    wrong = next(iter(squares_of(target.pieces_of(6, True))))  # the white king's square
    arbiter.feed(SquareChange(wrong, True, t + 100))
    assert arbiter.view().setup.wrong == 1 << wrong  # type: ignore[union-attr]
    arbiter.feed(SquareChange(wrong, False, t + 200))

    t += 1000
    for kind in SETUP_ORDER[:-1]:  # the pawns stand already
        needed = arbiter.view().setup
        assert needed is not None and needed.piece_type == kind
        for color in (True, False):
            for sq in squares_of(target.pieces_of(kind, color)):
                effects += arbiter.feed(SquareChange(sq, True, t))
                t += 100
    assert kinds(effects)[-1] == "new_game"
    assert effects[-1].fen == target.fen()  # type: ignore[union-attr]
    assert arbiter.setup is None and arbiter.game.start.chess960


def test_the_host_can_start_the_setup_and_a_board_already_set_finishes_it() -> None:
    target = Position.chess960_start(518)
    arbiter = MoveReader(Game())
    effects = arbiter.start_setup(518, 100)
    assert kinds(effects) == ["setup", "new_game"]
    assert arbiter.game.start.fen() == target.fen()
