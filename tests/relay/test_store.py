"""The relay's store: a relay restarted on it has every board's game, once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read

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
        boards.heard("b1", read(frame), 0)
    boards.heard("b1", read(frames()[2]), 0)  # the broker delivers it again
    current = boards.boards["b1"].mirror.current
    assert current is not None and len(current.game) == 1
    boards.store.close()

    again = Boards(RelayStore(path))
    board = again.boards["b1"]
    assert (board.receiver.session, board.receiver.last_seq) == ("s1", 3)
    assert board.mirror.current is not None and len(board.mirror.current.game) == 1
    again.heard("b1", read(frames()[2]), 0)  # and again after the restart
    assert len(board.mirror.current.game) == 1
    assert board.wants(0) is None


# A board's first three messages as a relay has always kept them in its store's `messages`
# table (the JSON of each frame, as the relay read it), and one an older relay kept as
# the frame came, with a field this relay does not know.
STORED = [
    '{"type":"hello","seq":1,"protocol":1,"firmware":"x","board":"b1","session":"s1",'
    '"variant":"standard","mode":"casual","game":0}',
    '{"type":"state","seq":2,"id":1,"variant":"standard","chess960":false,'
    f'"start_fen":"{START}","fen":"{START}","moves":[],"san":[],"hint":null,'
    '"last_move":null,"result":null,"reason":null,"game":0,"resync":false}',
    '{"type":"effect","seq":3,"event":"move","t_ms":5,"uci":"e2e4","san":"e4",'
    '"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","ply":1,"game":0}',
]
OLDER = (
    '{"type":"effect","seq":4,"event":"move","t_ms":9,"game":0,"uci":"e7e5","san":"e5",'
    '"ply":2,"fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",'
    '"newer":{"field":1}}'
)


def test_a_store_written_before_the_relay_held_typed_messages_loads(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    RelayStore(str(path)).close()  # today's tables
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO boards (board, session, last, online) VALUES ('b1', 's1', 5, 1)")
        db.executemany(
            "INSERT INTO messages (board, wire, heard) VALUES ('b1', ?, 1.0)",
            [(text,) for text in [*STORED, OLDER, '{"type":"eff']],  # and one damaged
        )
    boards = Boards(RelayStore(str(path)))
    try:
        board = boards.boards["b1"]
        assert board.mirror.current is not None
        assert [m.uci() for m in board.mirror.current.game.moves] == ["e2e4", "e7e5"]
        assert (board.receiver.session, board.receiver.last_seq, board.online) == ("s1", 5, True)
    finally:
        boards.store.close()


def test_the_store_keeps_each_message_as_the_relay_always_has(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    boards = Boards(RelayStore(str(path)))
    try:
        for frame in frames():
            boards.heard("b1", read(frame), 0)
    finally:
        boards.store.close()
    with sqlite3.connect(path) as db:
        kept = [text for (text,) in db.execute("SELECT wire FROM messages ORDER BY number")]
    assert kept == STORED


def _stored(path: Path) -> int:
    """The messages another connection finds in the file: those committed."""
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT count(*) FROM messages").fetchone()
    return int(count)


def test_held_messages_are_stored_only_once_committed(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    boards = Boards(RelayStore(str(path)))
    try:
        boards.store.hold()
        for frame in frames():
            boards.heard("b1", read(frame), 0)
        assert _stored(path) == 0  # a relay killed now: none acknowledged, none kept
        boards.store.commit()
        assert _stored(path) == 3
        boards.heard("b1", read({**frames()[2], "seq": 4, "ply": 2, "uci": "e7e5"}), 0)
        assert _stored(path) == 4  # not held: committed at once, as before
    finally:
        boards.store.close()
    again = Boards(RelayStore(str(path)))
    try:
        assert again.boards["b1"].receiver.last_seq == 4
    finally:
        again.store.close()


def test_a_held_write_that_fails_leaves_the_others_whole(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    store = RelayStore(str(path))
    try:
        hello, state, _move = (read(frame) for frame in frames())
        store.hold()
        assert store.delivered("b1", "s1", 1, [hello]) is not None
        try:
            with store._transaction():
                store.delivered("b1", "s1", 2, [state])
                raise RuntimeError("the disk is full")
        except RuntimeError:
            pass
        store.commit()
        assert _stored(path) == 1
        assert list(store.boards()) == [("b1", "s1", 1, False)]
    finally:
        store.close()
