"""A takeback the host asks for: the pieces still stand as after the move, and the lights
must show where they go back."""

from __future__ import annotations

import random

from reedboard.board_game import BoardGame, Settings
from reedboard.link.acks import MoveNamed
from reedboard.link.board_messages import Ack, ErrorReply
from reedboard.link.messages import Resign, TakeBack
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

START = Position.standard().occupied
E2, E4, G1, F3 = (1 << parse_square(name) for name in ("e2", "e4", "g1", "f3"))


def settled(board: BoardGame, occupancy: int, t_ms: int) -> list[str]:
    """Scan `occupancy` until the debouncer and the arbiter have decided; the effects."""
    kinds: list[str] = []
    for t in range(t_ms, t_ms + 3000, 10):
        kinds += [e.kind for e in board.scan(occupancy, t)]
    return kinds


def test_the_lights_show_where_the_pieces_go_back_after_a_takeback() -> None:
    board = BoardGame(Game(), START, rng=random.Random(1))
    after_e4 = START & ~E2 | E4
    assert "move" in settled(board, START & ~E2, 1000) + settled(board, after_e4, 4000)
    assert len(board.game) == 1

    answer = board.command(TakeBack(), 8000)
    assert isinstance(answer.reply, Ack)
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
    board = BoardGame(Game(), START, Settings(mode="strict"), rng=random.Random(1))
    assert "move" in settled(board, START & ~E2, 1000) + settled(board, START & ~E2 | E4, 4000)
    settled(board, START & ~E2, 8000)
    assert settled(board, START, 12000) == ["illegal"]
    answer = board.command(TakeBack(), 16000)
    assert [e.kind for e in answer.effects] == ["takeback"]
    view = board.arbiter.view()
    assert (view.missing, view.extra, len(board.game)) == (0, 0, 0)


def _fools_mate(board: BoardGame) -> int:
    """Play 1.f3 e5 2.g4 Qh4# on the board; the occupancy after it."""
    occupancy, t = START, 1000
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        origin, target = (1 << parse_square(uci[i : i + 2]) for i in (0, 2))
        settled(board, occupancy & ~origin, t)
        occupancy = occupancy & ~origin | target
        settled(board, occupancy, t + 3000)
        t += 6000
    return occupancy


def test_a_mate_can_be_taken_back_a_resignation_cannot() -> None:
    board = BoardGame(Game(), START, rng=random.Random(1))
    _fools_mate(board)
    assert board.game.is_game_over() and board.game.declared is None
    answer = board.command(TakeBack(), 40_000)
    assert [e.kind for e in answer.effects] == ["takeback", "illegal"]
    assert len(board.game) == 3 and not board.game.is_game_over()

    board = BoardGame(Game(), START, rng=random.Random(1))
    settled(board, START & ~E2, 1000)
    settled(board, START & ~E2 | E4, 4000)
    board.command(Resign("black"), 8000)
    assert board.game.declared is not None
    answer = board.command(TakeBack(), 9000)
    assert isinstance(answer.reply, ErrorReply) and answer.reply.code == "refused"
    assert "resignation" in str(answer.reply.message)
    assert len(board.game) == 1 and board.game.is_game_over()


D7, D5 = (1 << parse_square(name) for name in ("d7", "d5"))


def test_an_arbiter_takes_back_to_a_ply_and_the_lights_guide_the_players_there() -> None:
    # FIDE 7.5.1: the position before the irregular move (here ply 2) is reinstated, the
    # moves after it taken back each as a takeback, at once.
    board = BoardGame(Game(), START, rng=random.Random(1))
    after_e4 = START & ~E2 | E4
    settled(board, START & ~E2, 1000)
    settled(board, after_e4, 4000)
    after_d5 = after_e4 & ~D7 | D5
    settled(board, after_e4 & ~D7, 8000)
    settled(board, after_d5, 12000)
    after_nf3 = after_d5 & ~G1 | F3
    settled(board, after_d5 & ~G1, 16000)
    settled(board, after_nf3, 20000)
    assert len(board.game) == 3

    answer = board.command(TakeBack(to_ply=1), 24000)
    assert isinstance(answer.reply, Ack)
    assert answer.reply.done == MoveNamed("d7d5")  # the earliest move taken back
    assert [e.kind for e in answer.effects] == ["takeback", "takeback", "illegal"]
    view = board.arbiter.view()
    assert len(board.game) == 1
    assert (view.missing, view.extra) == (D7 | G1, D5 | F3)  # where the pieces go back
    assert settled(board, after_e4, 28000) == ["restored"]

    again = board.command(TakeBack(to_ply=1), 32000)  # sent twice: nothing more happens
    assert isinstance(again.reply, Ack) and again.effects == () and len(board.game) == 1
    beyond = board.command(TakeBack(to_ply=5), 32000)
    assert isinstance(beyond.reply, ErrorReply) and "1 plies, not 5" in str(beyond.reply.message)
