"""The broadcast delay's boards, over a real SQLite store: a move counts once it was
heard the delay ago, by the store's own clock; a store of an older relay (no times)
counts as heard long ago; a delay made longer never takes a move back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from reedboard_relay.boards import Boards
from reedboard_relay.broadcast_delay import DelayedBoards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_store import frames


def plies(delayed: DelayedBoards) -> int:
    current = delayed.boards["b1"].mirror.current
    return len(current.game) if current is not None else 0


def test_a_move_counts_once_heard_the_delay_ago(tmp_path: Path) -> None:
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    now = [1000.0]
    store.clock = lambda: now[0]
    live = Boards(store)
    for frame in frames()[:2]:
        live.heard("b1", read(frame), 0)
    now[0] = 1010.0
    live.heard("b1", read(frames()[2]), 0)  # 1.e4, heard at 1010
    delayed = DelayedBoards(store, 60.0, cutoff=1000.0 - 60.0)
    assert "b1" not in delayed.boards
    delayed.catch_up(live, 1069.9)
    assert plies(delayed) == 0 and delayed.next_due == 1070.0
    delayed.catch_up(live, 1070.0)
    assert plies(delayed) == 1 and delayed.next_due is None
    assert delayed.unannounced == {"b1"}
    delayed.delay_s = 600.0  # made longer: what was shown stays
    delayed.catch_up(live, 1071.0)
    assert plies(delayed) == 1
    store.close()


def test_an_older_store_without_times_counts_as_heard_long_ago(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    with sqlite3.connect(path) as old:
        old.executescript(
            "CREATE TABLE messages (number INTEGER PRIMARY KEY AUTOINCREMENT,"
            " board TEXT NOT NULL, wire TEXT NOT NULL);"
        )
        old.executemany(
            "INSERT INTO messages (board, wire) VALUES ('b1', ?)",
            [(json.dumps(frame),) for frame in frames()],
        )
    store = RelayStore(str(path))
    delayed = DelayedBoards(store, 3600.0, cutoff=0.0)
    assert plies(delayed) == 1
    store.close()
