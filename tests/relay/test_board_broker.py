"""The board's MQTT connection going away: it hands the broker every frame first, so a
board stopped right after its last move leaves nothing that only it held."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link import mqtt_topics
from reedboard.link.mqtt_client import Acks, BoardBroker, BrokerSettings

from tests.relay.broker import Broker, running_broker
from tests.relay.proxy import network_proxy

RETRY_MS = 100  # the board tries a lost broker again this often (4 s at most by default)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def test_an_acknowledgement_may_come_before_the_id_is_known() -> None:
    acks = Acks()
    acks.sent(1, qos=1)
    acks.acknowledged(2)  # paho's thread was quicker than the publishing one
    acks.sent(2, qos=1)
    assert acks.waiting() == 1
    acks.acknowledged(1)
    assert acks.waiting() == 0


def test_qos_0_messages_are_never_waited_for() -> None:
    acks = Acks()
    acks.sent(7, qos=0)
    assert acks.waiting() == 0
    acks.acknowledged(7)  # written to the socket: not an acknowledgement to wait for
    acks.sent(7, qos=1)  # the id used again, later
    assert acks.waiting() == 1


class Listener:
    """A client of the broker that collects what one board's stream carries."""

    def __init__(self, broker: Broker, board: str) -> None:
        self.frames: list[bytes] = []
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="listener")
        self.client.on_connect = lambda c, *_: c.subscribe(mqtt_topics.stream(board), qos=1)
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = lambda _c, _u, m: self.frames.append(bytes(m.payload))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def wait_for(self, count: int, timeout_s: float = 30) -> None:
        """Until `count` frames have come (or `timeout_s` passed: the caller's assertion
        on the frames then says what is missing)."""
        deadline = time.monotonic() + timeout_s
        while len(self.frames) < count and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting for the broker to deliver, not timing anything

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_board_closing_hands_the_broker_every_frame_first(broker: Broker) -> None:
    listener = Listener(broker, "b1")
    try:
        assert listener.subscribed.wait(10)
        board = BoardBroker(BrokerSettings(broker.url, "b1"))
        # Far more than paho sends ahead of the broker's acknowledgements (its window)
        # and holds beyond it: closing right away used to drop what paho still held.
        sent = [b'{"type":"effect","seq":%d}' % n for n in range(1, 2001)]
        board.publish_frames(sent)
        board.close(timeout_s=60)  # a busy machine is slow, never incomplete
        listener.wait_for(len(sent))
        assert listener.frames == sent
    finally:
        listener.stop()


def test_frames_wait_for_the_brokers_answer_and_keep_their_order(broker: Broker) -> None:
    """paho sends a message published after its socket is open at once, but those it
    kept from before only when the broker's answer to the connection comes: handed to
    paho as they came, frames from before a (re)connection reached the broker after
    later ones."""
    listener = Listener(broker, "b1")
    with network_proxy(broker.port) as proxy:
        try:
            assert listener.subscribed.wait(10)
            proxy.cut()  # the board's first attempt is refused: it tries again soon
            proxy.hold_answers()
            board = BoardBroker(BrokerSettings(proxy.url, "b1", retry_ms=RETRY_MS))
            sent = [b'{"type":"effect","seq":%d}' % n for n in range(1, 201)]
            board.publish_frames(sent[:100])
            proxy.restore()
            assert proxy.accepted.acquire(timeout=30)  # connected, the broker's answer held
            board.publish_frames(sent[100:])
            proxy.release_answers()
            board.close(timeout_s=60)
            listener.wait_for(len(sent))
            assert listener.frames == sent
        finally:
            listener.stop()


def test_every_acknowledgement_finds_its_message_across_reconnections(broker: Broker) -> None:
    """The board's `online` status, said again at every connection, and its `offline`
    at the end are acknowledged like frames: an acknowledgement whose id no one claimed
    stayed behind, one a connection, and once paho's ids wrap (65,535 messages) it would
    pass a later frame with that id off as already at the broker."""
    listener = Listener(broker, "b1")
    with network_proxy(broker.port) as proxy:
        try:
            assert listener.subscribed.wait(10)
            board = BoardBroker(BrokerSettings(proxy.url, "b1", retry_ms=RETRY_MS))
            sent = [b'{"type":"effect","seq":%d}' % n for n in range(1, 31)]
            for connection in range(3):
                assert proxy.accepted.acquire(timeout=30)
                board.publish_frames(sent[connection * 10 : connection * 10 + 10])
                listener.wait_for(10 * (connection + 1))
                if connection < 2:
                    proxy.cut()  # the board reconnects, and says `online` once more
                    proxy.restore()
            board.close(timeout_s=60)
            # A frame whose acknowledgement the cut lost is sent again: at least once.
            assert list(dict.fromkeys(listener.frames)) == sent
            assert board.unclaimed_acknowledgements() == 0
        finally:
            listener.stop()
