"""A board's `alive` names its session: a relay that lost the `hello` of a board's new
session (and so still follows the old one) notices at the board's next `alive`, asks,
and does not take the new session's numbers as the old one's continuation meanwhile."""

from __future__ import annotations

from pathlib import Path

from reedboard.link.board_messages import Alive
from reedboard.link.messages import Resend
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_store import frames

# The new session's first move: another game (1. d4), numbered past the old session's 3.
NEW_MOVE = {"type": "effect", "seq": 4, "event": "move", "t_ms": 9, "game": 0,
            "uci": "d2d4", "san": "d4", "ply": 1,
            "fen": "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"}  # fmt: skip


def moves_of(boards: Boards) -> list[str]:
    current = boards.boards["b1"].mirror.current
    return [] if current is None else [move.uci() for move in current.game.moves]


def test_an_alive_of_another_session_is_asked_about_not_continued(tmp_path: Path) -> None:
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    try:
        boards = Boards(store)
        for frame in frames():  # session s1: 1. e4
            boards.heard("b1", read(frame), 0)
        assert moves_of(boards) == ["e2e4"]
        # The board restarted as s2; its `hello` was lost. Its `alive` says so.
        _changed, wanted = boards.heard("b1", read(Alive(4, "s2").to_wire()), 1000)
        assert isinstance(wanted, Resend) and wanted.resync == "hello"
        boards.heard("b1", read(NEW_MOVE), 1100)  # the new session's move: not s1's second
        assert moves_of(boards) == ["e2e4"]
        assert boards.boards["b1"].receiver.session == "s1"
    finally:
        store.close()


def test_an_alive_of_the_session_followed_changes_nothing(tmp_path: Path) -> None:
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    try:
        boards = Boards(store)
        hello, state, move = frames()
        for frame in (hello, state):
            boards.heard("b1", read(frame), 0)
        _changed, wanted = boards.heard("b1", read(Alive(2, "s1").to_wire()), 1000)
        assert wanted is None
        boards.heard("b1", read(move), 1100)
        assert moves_of(boards) == ["e2e4"]
    finally:
        store.close()
