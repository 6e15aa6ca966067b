"""A takeback the host asks for: the pieces still stand as after the move, and the lights
must show where they go back."""

from __future__ import annotations

import random

from reedboard.link.messages import parse_command
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.session import BoardSession, Settings

START = Position.standard().occupied
E2, E4, G1, F3 = (1 << parse_square(name) for name in ("e2", "e4", "g1", "f3"))


def settled(board: BoardSession, occupancy: int, t_ms: int) -> list[str]:
    """Scan `occupancy` until the debouncer and the arbiter have decided; the effects."""
    kinds: list[str] = []
    for t in range(t_ms, t_ms + 3000, 10):
        kinds += [e.kind for e in board.scan(occupancy, t)]
    return kinds


def test_the_lights_show_where_the_pieces_go_back_after_a_takeback() -> None:
    board = BoardSession(Game(), START, rng=random.Random(1))
    after_e4 = START & ~E2 | E4
    assert "move" in settled(board, START & ~E2, 1000) + settled(board, after_e4, 4000)
    assert len(board.game) == 1

    answer = board.command(parse_command({"type": "takeback"}), 8000)
    assert answer.kind == "ack"
    assert [e.kind for e in answer.effects] == ["takeback", "illegal"]
    view = board.arbiter.view()
    assert (view.missing, view.extra) == (E2, E4)  # lit at once, not after a wait
    assert settled(board, after_e4, 8010) == []  # nor taken for the same move again

    assert settled(board, START & ~E2 & ~E4, 12000) == []
    assert settled(board, START, 16000) == ["restored"]
    view = board.arbiter.view()
    assert (view.missing, view.extra, len(board.game)) == (0, 0, 0)
    assert "move" in settled(board, START & ~G1, 20000) + settled(board, START & ~G1 | F3, 24000)
    assert board.game.moves[0].uci() == "g1f3"


def test_a_board_already_put_back_needs_no_lights() -> None:
    # Strict mode: putting the pawn back by hand is no takeback, only a board that must be
    # restored, until the host takes the move back.
    board = BoardSession(Game(), START, Settings(mode="strict"), rng=random.Random(1))
    assert "move" in settled(board, START & ~E2, 1000) + settled(board, START & ~E2 | E4, 4000)
    settled(board, START & ~E2, 8000)
    assert settled(board, START, 12000) == ["illegal"]
    answer = board.command(parse_command({"type": "takeback"}), 16000)
    assert [e.kind for e in answer.effects] == ["takeback"]
    view = board.arbiter.view()
    assert (view.missing, view.extra, len(board.game)) == (0, 0, 0)
