"""The boards whose games changed in one turn of reading the broker are told once each,
at the turn's end, once its messages are committed: a board's several frames in a turn
(a relay catching up reads dozens) made as many notices, each settling the board's
pairing and waking the page's listeners, and a listener could be shown what the store
had not yet kept.

The service is the relay's own over a real SQLite store; its paho client is never
connected."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.test_game_pairings import hello, moves, state
from tests.relay.test_turn_asking import on_stream


def kept(path: Path, board: str) -> int:
    """The board's messages another reader of the store sees (committed ones)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (count,) = db.execute("SELECT count(*) FROM messages WHERE board = ?", (board,)).fetchone()
        return int(count)


def test_each_board_changed_in_a_turn_is_told_once_after_the_commit(
    store: RelayStore, tmp_path: Path
) -> None:
    told: list[tuple[str, int]] = []  # each board told, and its messages committed then
    service = RelayService(
        BrokerSettings("mqtt://127.0.0.1:1", "relay"),
        Boards(store),
        changed=lambda board: told.append((board, kept(tmp_path / "relay.sqlite", board))),
    )
    frames = [
        ("b1", hello(1, "s1")),
        ("b2", hello(1, "s2")),
        ("b1", state(2)),
        ("b2", state(2)),
        *(("b1", frame) for frame in moves(3, ["e2e4", "e7e5", "g1f3"])),
        ("b2", moves(3, ["d2d4"])[0]),
    ]
    service._hold()
    for board, frame in frames:
        service._message(service.client, None, on_stream(board, frame))
        assert told == [], "told before the turn's end"
    service._commit()
    assert told == [("b1", 5), ("b2", 3)]
    game = service.boards.boards["b1"].mirror.current
    assert game is not None and len(game.game) == 3


def test_a_message_read_outside_a_turn_is_told_at_once(store: RelayStore) -> None:
    told: list[str] = []
    service = RelayService(
        BrokerSettings("mqtt://127.0.0.1:1", "relay"), Boards(store), changed=told.append
    )
    service._message(service.client, None, on_stream("b1", hello(1, "s1")))
    service._message(service.client, None, on_stream("b1", state(2)))
    assert told == ["b1"]  # its game is known
    service._message(service.client, None, on_stream("b1", moves(3, ["e2e4"])[0]))
    assert told == ["b1", "b1"]
