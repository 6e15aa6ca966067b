"""A board carries out only the relay's requests as they come: a retained command (anyone
can leave one on an open broker, and the broker hands it over at every connection) is
never carried out, however often the board connects again."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link import mqtt_topics
from reedboard.link.mqtt_client import BoardBroker, BrokerSettings

from tests.relay.broker import Broker, running_broker
from tests.relay.fake_board import RETRY_MS
from tests.relay.proxy import network_proxy

NEW_GAME = b'{"type":"new_game","id":7,"variant":"chess960"}*00000000'


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


class Commander:
    """Anyone on the broker: leaves commands for board b1, watches its status."""

    def __init__(self, broker: Broker) -> None:
        self.online = threading.Semaphore(0)  # released at each `online` the board says
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="commander")
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.subscribe(mqtt_topics.status("b1"), qos=1)
        self.client.loop_start()

    def _message(self, _c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        if message.payload == b"online" and not message.retain:
            self.online.release()

    def command(self, payload: bytes, *, retain: bool = False) -> None:
        info = self.client.publish(mqtt_topics.request("b1"), payload, qos=1, retain=retain)
        info.wait_for_publish(10)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def taken_until(board: BoardBroker, marker: bytes) -> list[bytes]:
    """The requests the board took, up to the `marker` sent after the others."""
    taken: list[bytes] = []
    deadline = time.monotonic() + 30
    while marker not in taken and time.monotonic() < deadline:
        taken += board.take_requests()
        time.sleep(0.02)  # the board's loop takes its requests every turn, as here
    return taken


def test_a_retained_command_is_never_carried_out(broker: Broker) -> None:
    commander = Commander(broker)
    commander.command(NEW_GAME, retain=True)
    with network_proxy(broker.port) as proxy:
        # Back after each cut within a tenth of a second, not the default's second.
        board = BoardBroker(BrokerSettings(proxy.url, "b1", retry_ms=RETRY_MS))
        markers: list[bytes] = []
        try:
            for connection in range(3):
                # Its `online` follows its subscription: what is sent now reaches it.
                assert commander.online.acquire(timeout=30)
                marker = b'{"type":"state","id":%d}*00000000' % connection
                commander.command(marker)
                taken = taken_until(board, marker)
                # QoS 1 is at least once: an earlier marker whose acknowledgement the cut
                # lost comes again (the board answers a repeated id as before); the
                # retained command never comes.
                assert marker in taken and NEW_GAME not in taken
                assert set(taken) <= {*markers, marker}
                markers.append(marker)
                proxy.cut()  # the board connects again, and subscribes again
                proxy.restore()
        finally:
            board.close(timeout_s=5)
            commander.stop()
