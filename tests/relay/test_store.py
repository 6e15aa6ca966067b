"""The relay's store: a relay restarted on it has every board's game, once."""

from __future__ import annotations

from pathlib import Path

from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def frames() -> list[dict[str, object]]:
    hello = {"type": "hello", "seq": 1, "protocol": 1, "firmware": "x", "board": "b1",
             "session": "s1", "variant": "standard", "mode": "casual", "game": 0}  # fmt: skip
    state = {"type": "state", "seq": 2, "id": 1, "game": 0, "variant": "standard",
             "chess960": False, "start_fen": START, "fen": START, "moves": [], "san": [],
             "result": None, "reason": None}  # fmt: skip
    move = {"type": "effect", "seq": 3, "event": "move", "t_ms": 5, "game": 0,
            "uci": "e2e4", "san": "e4", "ply": 1,
            "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}  # fmt: skip
    return [hello, state, move]


def test_a_restarted_relay_has_each_move_once(tmp_path: Path) -> None:
    path = str(tmp_path / "relay.sqlite")
    boards = Boards(RelayStore(path))
    for frame in frames():
        boards.heard("b1", frame, 0)
    boards.heard("b1", frames()[2], 0)  # the broker delivers it again
    current = boards.boards["b1"].mirror.current
    assert current is not None and len(current.game) == 1
    boards.store.close()

    again = Boards(RelayStore(path))
    board = again.boards["b1"]
    assert (board.receiver.session, board.receiver.last_seq) == ("s1", 3)
    assert board.mirror.current is not None and len(board.mirror.current.game) == 1
    again.heard("b1", frames()[2], 0)  # and again after the restart
    assert len(board.mirror.current.game) == 1
    assert board.wants(0) is None
