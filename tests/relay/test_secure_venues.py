"""The secure set-up with venues (`secure-setup ... --venues hall2,hall3`), on a real
Mosquitto run on its files: a venue's bridge user writes only its own venue's boards'
streams and status and its own bridge state, reads only its own venue's requests, and
writes no request; the bridge lines written for the venue's broker carry its boards to
the central broker through a real Mosquitto bridge (TLS, the venue's password)."""

from __future__ import annotations

import contextlib
import getpass
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.relay.broker import Broker, broker_on_a_free_port
from tests.relay.secure_broker import WAIT_S, client, secure_broker

VENUES = ("hall2", "hall3")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with secure_broker(tmp_path / "club", VENUES) as running:
        yield running


def venue_password(broker: Broker, venue: str) -> str:
    lines = (broker.folder / f"bridge-{venue}.conf").read_text().splitlines()
    return next(line.split(" ", 1)[1] for line in lines if line.startswith("remote_password "))


def test_a_venues_bridge_lines_are_its_owners_only(broker: Broker) -> None:
    for venue in VENUES:
        mode = stat.S_IMODE((broker.folder / f"bridge-{venue}.conf").stat().st_mode)
        assert mode == 0o600  # they hold the venue's password


def test_a_venue_writes_only_its_own_boards_and_bridge(broker: Broker) -> None:
    secret = venue_password(broker, "hall2")
    with (
        client(broker, "relay", "relay") as relay,
        client(broker, "venue-hall2", "venue-hall2", password=secret) as hall2,
    ):
        assert relay.connected() and hall2.connected()
        relay.subscribe(
            "reedboard/+/boards/+/stream", "reedboard/+/boards/+/status", "reedboard/+/bridge",
            "reedboard/boards/+/stream", "reedboard/boards/+/status",
        )  # fmt: skip
        hall2.publish("reedboard/hall3/boards/1/stream", b"forged")  # another venue's board
        hall2.publish("reedboard/hall3/bridge", b"forged")  # another venue's bridge
        hall2.publish("reedboard/boards/b1/stream", b"forged")  # a central board's
        hall2.publish("reedboard/boards/b1/status", b"forged")
        hall2.publish("reedboard/hall2/boards/1/stream", b"own")  # after: first or never
        hall2.publish("reedboard/hall2/boards/1/status", b"own status")
        hall2.publish("reedboard/hall2/bridge", b"1")
        heard = relay.wait_for(b"1")
        assert ("reedboard/hall2/boards/1/stream", b"own") in heard
        assert ("reedboard/hall2/boards/1/status", b"own status") in heard
        assert all(payload != b"forged" for _topic, payload in heard), heard


def test_a_venue_reads_only_its_own_requests_and_writes_none(broker: Broker) -> None:
    secret = venue_password(broker, "hall2")
    with (
        client(broker, "relay", "relay") as relay,
        client(broker, "venue-hall2", "venue-hall2", password=secret) as hall2,
        client(broker, "board-b1", "b1") as b1,
    ):
        assert relay.connected() and hall2.connected() and b1.connected()
        hall2.subscribe("reedboard/+/boards/+/request", "reedboard/boards/+/request")
        b1.subscribe("reedboard/boards/b1/request")
        hall2.publish("reedboard/boards/b1/request", b"forged for b1")  # no command
        hall2.publish("reedboard/hall2/boards/1/request", b"forged by hall2")
        relay.publish("reedboard/hall3/boards/1/request", b"for hall3")
        relay.publish("reedboard/boards/b1/request", b"for b1")
        relay.publish("reedboard/hall2/boards/1/request", b"for hall2")
        assert hall2.wait_for(b"for hall2") == [("reedboard/hall2/boards/1/request", b"for hall2")]
        assert b1.wait_for(b"for b1") == [("reedboard/boards/b1/request", b"for b1")]


def venue_broker(folder: Path, bridge: str) -> contextlib.AbstractContextManager[Broker]:
    """The venue's own broker (open, on its own network), with the bridge's lines."""
    folder.mkdir()

    def make(port: int) -> Broker:
        config = folder / "mosquitto.conf"
        config.write_text(
            f"user {getpass.getuser()}\nlistener {port} 127.0.0.1\nallow_anonymous true\n"
            f"persistence true\npersistence_location {folder}/\n{bridge}"
        )
        return Broker(folder, port, config=config)

    return broker_on_a_free_port(make)


def test_the_bridge_lines_carry_a_venues_boards_to_the_central_broker(
    broker: Broker, tmp_path: Path
) -> None:
    bridge = (broker.folder / "bridge-hall2.conf").read_text()
    requests: list[tuple[str, bytes]] = []
    came = threading.Event()

    def request(_c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        requests.append((message.topic, bytes(message.payload)))
        came.set()

    with (
        venue_broker(tmp_path / "hall2", bridge) as hall,
        client(broker, "relay", "relay") as relay,
    ):
        assert relay.connected()
        relay.subscribe("reedboard/+/boards/+/stream", "reedboard/+/bridge")
        relay.wait_for(b"1")  # the bridge is up (its state, retained)
        board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="1")
        board.on_message = request
        board.connect("127.0.0.1", hall.port)
        board.loop_start()
        try:
            subscribed = threading.Event()
            board.on_subscribe = lambda *_args: subscribed.set()
            board.subscribe("reedboard/boards/1/request", qos=1)
            assert subscribed.wait(WAIT_S)
            board.publish("reedboard/boards/1/stream", b"a frame", qos=1).wait_for_publish(WAIT_S)
            heard = relay.wait_for(b"a frame")
            assert ("reedboard/hall2/boards/1/stream", b"a frame") in heard
            relay.publish("reedboard/hall2/boards/1/request", b"a command")
            assert came.wait(WAIT_S), "the relay's command never crossed the bridge"
            assert requests == [("reedboard/boards/1/request", b"a command")]
        finally:
            board.loop_stop()
            board.disconnect()
