"""A relay whose store cannot commit (its disk full) acknowledges nothing it did not
store: the broker keeps the messages, sends them again once the relay connects again,
and when the store can grow again every move is stored, none asked of the board (this
board answers nothing). The failure is said once in the log, however often it recurs.

The full disk is real to SQLite: the relay process may write no file beyond the size
its store's write-ahead log has (RLIMIT_FSIZE, set on it from outside with `prlimit`),
so the commit's write fails as on a full disk. Before, the failed commit rolled the
turn back, the next (empty) commit passed, and paho acknowledged messages the store had
lost: the broker never sent them again."""

from __future__ import annotations

import resource
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link.frame import encode_frame

from tests.children import child, stop
from tests.relay.broker import Broker, running_broker
from tests.relay.test_game_pairings import hello, moves, state
from tests.relay.test_relay_end_to_end import relay_command

WAIT_S = 60.0
OPENING = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
BEFORE_FULL = 2  # moves stored before the disk fills


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def stored_moves(db: Path) -> list[str]:
    """The moves of board b1 in the store, read on a connection of the test's own."""
    reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        rows = reader.execute("SELECT wire FROM messages WHERE board = 'b1' ORDER BY number")
        return [wire for (wire,) in rows if '"event": "move"' in wire or '"event":"move"' in wire]
    finally:
        reader.close()


def connections(broker: Broker) -> int:
    """How often the relay has connected to the broker."""
    return broker.logged_since_start().count(" as reedboard-relay-")


def wait_for(what: Callable[[], bool], why: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.1)  # polling the store, not timing anything


def test_a_full_disk_holds_the_acknowledgements_until_the_store_commits(
    broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "relay.sqlite"
    frames = [hello(1, "s1"), state(2), *moves(3, OPENING)]
    board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-b1", protocol=mqtt.MQTTv311)
    board.connect("127.0.0.1", broker.port)
    board.loop_start()

    def publish(wire: dict[str, object]) -> None:
        payload = encode_frame(wire).rstrip(b"\n")
        board.publish("reedboard/boards/b1/stream", payload, qos=1).wait_for_publish(WAIT_S)

    command = relay_command(broker, db)
    try:
        with child(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as relay:
            assert relay.stdout is not None and relay.stdout.readline().startswith("http://")
            broker.wait_logged("reedboard/boards/")  # the relay subscribed
            for wire in frames[: 2 + BEFORE_FULL]:
                publish(wire)
            wait_for(lambda: len(stored_moves(db)) == BEFORE_FULL, "the first moves stored")
            wal = Path(f"{db}-wal").stat().st_size
            unlimited = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.prlimit(relay.pid, resource.RLIMIT_FSIZE, (wal, unlimited[1]))
            for wire in frames[2 + BEFORE_FULL :]:
                publish(wire)
            # The disk stays full over two of the relay's connections after the first.
            wait_for(lambda: connections(broker) >= 3, "the relay connected again twice")
            assert len(stored_moves(db)) == BEFORE_FULL
            resource.prlimit(relay.pid, resource.RLIMIT_FSIZE, unlimited)
            wait_for(lambda: len(stored_moves(db)) == len(OPENING), "every move stored")
            status = stop(relay, grace_s=30)
            _out, log = relay.communicate()
    finally:
        board.loop_stop()
        board.disconnect()
    assert status == 0
    assert len(stored_moves(db)) == len(OPENING)  # each once
    assert log.count("the store cannot commit") == 1, log
    assert "the store commits again" in log
