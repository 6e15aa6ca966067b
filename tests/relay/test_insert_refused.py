"""A message whose row the store refuses (an insert that fails, not the disk) is not
acknowledged: the turn is rolled back, the connection let go, and the broker sends the
message again once the relay is back; stored once the store takes it, said once in the
log. Before, the failure was logged for that message, the rest of the turn committed
and every acknowledgement sent: the broker forgot the message, the store never had it,
and the relay's own game went on past it. (A turn's rows are now written together at
its end, so the refusal now comes there; a write that fails mid-turn is still taken as
the turn's failure, service.py.)

Real Mosquitto, real SQLite: the store refuses the rows by a trigger of its own file
while the test says so (a row in `refuse`), as a full disk or a damaged page would."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link import mqtt_topics
from reedboard.link.frame import encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.broker import Broker, running_broker
from tests.relay.fake_board import RETRY_MS
from tests.relay.test_game_pairings import hello, moves, state

WAIT_S = 60.0
OPENING = ["e2e4", "e7e5", "g1f3", "b8c6"]
CLIENT = "reedboard-relay-refused"
REFUSING = """
CREATE TABLE refuse (why TEXT);
CREATE TRIGGER refused BEFORE INSERT ON messages WHEN EXISTS (SELECT 1 FROM refuse)
BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
"""


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def wait_for(what: Callable[[], bool], why: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.05)  # waiting for the broker and the relay, not timing anything


def stored_moves(path: Path) -> int:
    reader = sqlite3.connect(path, timeout=10)
    try:
        rows = reader.execute("SELECT wire FROM messages WHERE board = 'b1'").fetchall()
    finally:
        reader.close()
    return sum('"move"' in wire for (wire,) in rows)


def refusing(path: Path, on: bool) -> None:
    writer = sqlite3.connect(path, timeout=10)
    try:
        with writer:
            writer.execute("INSERT INTO refuse VALUES ('full')" if on else "DELETE FROM refuse")
    finally:
        writer.close()


def refusing_relay(
    broker: Broker, path: Path, trigger: str
) -> tuple[RelayStore, RelayService, threading.Event, mqtt.Client]:
    """A relay on a store whose `trigger` refuses rows while the test says so, the event
    set once it has subscribed, and the board that will talk to it (not yet connected)."""
    store = RelayStore(str(path))
    store.db.executescript(trigger)
    # Back within a tenth of a second each time it lets its connection go (RETRY_MS, as
    # the relay tests' relays), not after the default's seconds.
    settings = BrokerSettings(broker.url, "relay", retry_ms=RETRY_MS)
    service = RelayService(settings, Boards(store), client_id=CLIENT)
    subscribed = threading.Event()
    service.client.on_subscribe = lambda *_: subscribed.set()
    board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-b1")
    return store, service, subscribed, board


def test_a_refused_insert_is_not_acknowledged(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "relay.sqlite"
    store, service, subscribed, board = refusing_relay(broker, path, REFUSING)
    caplog.set_level(logging.WARNING, logger="reedboard_relay.service")
    frames = [hello(1, "s1"), state(2), *moves(3, OPENING)]

    def publish(frame: dict[str, object]) -> None:
        payload = encode_frame(frame).rstrip(b"\n")
        board.publish(mqtt_topics.stream("b1"), payload, qos=1).wait_for_publish(WAIT_S)

    service.start()
    try:
        assert subscribed.wait(WAIT_S)
        board.connect("127.0.0.1", broker.port)
        board.loop_start()
        for frame in frames[:4]:
            publish(frame)
        wait_for(lambda: stored_moves(path) == 2, "the first two moves stored")
        refusing(path, True)
        publish(frames[4])
        # Refused over two of the relay's connections after the first.
        connections = f" as {CLIENT}"
        wait_for(
            lambda: broker.logged_since_start().count(connections) >= 3,
            "the relay let the connection go twice",
        )
        refusing(path, False)
        publish(frames[5])
        wait_for(lambda: stored_moves(path) == 4, "every move stored")
        played = service.snapshot(lambda boards: boards.board("b1").mirror.current)
        assert played is not None and [m.uci() for m in played.game.moves] == OPENING
    finally:
        board.disconnect()
        board.loop_stop()
        service.stop()
        store.close()
    assert caplog.text.count("the store cannot ") == 1, caplog.text
    assert "refused by the test" in caplog.text


REFUSING_ONLINE = """
CREATE TABLE refuse (why TEXT);
CREATE TRIGGER refused BEFORE UPDATE OF online ON boards WHEN EXISTS (SELECT 1 FROM refuse)
BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
"""


def stored_online(path: Path) -> bool:
    reader = sqlite3.connect(path, timeout=10)
    try:
        row = reader.execute("SELECT online FROM boards WHERE board = 'b1'").fetchone()
    finally:
        reader.close()
    return row is not None and bool(row[0])


def test_a_write_refused_mid_turn_is_not_acknowledged(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A board's status is written as it is heard, not at the turn's end: refused there,
    the turn fails too (before: logged, acknowledged, and the store kept the board
    offline while the relay showed it online)."""
    path = tmp_path / "relay.sqlite"
    store, service, subscribed, board = refusing_relay(broker, path, REFUSING_ONLINE)
    caplog.set_level(logging.WARNING, logger="reedboard_relay.service")
    service.start()
    try:
        assert subscribed.wait(WAIT_S)
        refusing(path, True)
        board.connect("127.0.0.1", broker.port)
        board.loop_start()
        board.publish(mqtt_topics.status("b1"), b"online", qos=1).wait_for_publish(WAIT_S)
        connections = f" as {CLIENT}"
        wait_for(
            lambda: broker.logged_since_start().count(connections) >= 3,
            "the relay let the connection go twice",
        )
        assert not stored_online(path)
        refusing(path, False)
        wait_for(lambda: stored_online(path), "the board's status stored")
    finally:
        board.disconnect()
        board.loop_stop()
        service.stop()
        store.close()
    assert caplog.text.count("the store cannot keep a message") == 1, caplog.text
