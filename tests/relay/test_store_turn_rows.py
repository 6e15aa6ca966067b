"""A held turn's rows (store.py) are written at its commit, each table's at once: the
messages numbered by the store in the order heard, never with a number given before
(AUTOINCREMENT's promise, across a restart and a turn rolled back), the boards' places
as the turn left them, the evidence in the order heard (real SQLite)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard_relay import evidence_store
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import hello, moves, state

OPENING = ["e2e4", "e7e5", "g1f3", "b8c6"]


def numbers(path: Path) -> list[tuple[int, str]]:
    """The committed messages, as another connection finds them: number and board."""
    with sqlite3.connect(path) as db:
        return list(db.execute("SELECT number, board FROM messages ORDER BY number"))


def test_a_turn_is_written_at_its_commit_in_the_order_heard(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    boards = Boards(RelayStore(str(path)))
    try:
        boards.store.hold()
        for n, frame in enumerate((hello(1, "s1"), state(2), *moves(3, OPENING[:2]))):
            boards.heard("b1", read(frame), 0)
            boards.heard("b2", read({**frame, "session": "s2"} if n == 0 else frame), 0)
        boards.status("b2", True)
        assert numbers(path) == []  # nothing before the commit
        assert boards.store.commit()
        assert numbers(path) == [(n, "b1" if n % 2 else "b2") for n in range(1, 9)]
        assert boards.boards["b1"].stored == 7 and boards.boards["b2"].stored == 8
        assert [(b, last, online) for b, _s, last, online in boards.store.boards()] == [
            ("b1", 4, False), ("b2", 4, True)
        ]  # fmt: skip
        games = evidence_store.games_of(boards.store.db, "b2")
        kinds = [e.kind for g in games for e in evidence_store.recorded(boards.store.db, "b2", g)]
        assert kinds == ["move", "move", "online"], kinds  # in the order heard
    finally:
        boards.store.close()


def test_no_number_is_given_twice(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    store = RelayStore(str(path))
    hello_, state_, *played = (read(f) for f in (hello(1, "s1"), state(2), *moves(3, OPENING)))
    assert store.delivered("b1", "s1", 2, [hello_, state_]) == 2
    store.db.execute("DELETE FROM messages WHERE number = 2")  # a message removed by hand
    store.close()
    store = RelayStore(str(path))  # a restart
    try:
        store.hold()
        assert store.delivered("b1", "s1", 3, played[:1]) == 3  # not 2 again
        store.discard()  # a turn rolled back: its number may be given again
        store.hold()
        assert store.delivered("b1", "s1", 4, played[:2]) == 4
        assert store.commit()
        assert store.delivered("b1", "s1", 5, played[2:3]) == 5  # one of its own
        assert [n for n, _b in numbers(path)] == [1, 3, 4, 5]
    finally:
        store.close()
