"""The relay's MQTT side with a real Mosquitto: one message that fails in the relay's
hands (here, the callback that tells the page) is logged, and the relay goes on hearing
the boards; an exception out of paho's callback used to end paho's thread, leaving a
relay that served its page and heard nothing more."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link import mqtt_topics
from reedboard.link.frame import encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay import boards
from reedboard_relay.boards import Boards
from reedboard_relay.mqtt_loop import called
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.broker import Broker, running_broker
from tests.relay.test_store import frames
from tests.relay.test_turn_asking import one_turn

WAIT_S = 30


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def test_a_message_that_fails_does_not_deafen_the_relay(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    failed = threading.Event()

    def changed(_board: str) -> None:
        if not failed.is_set():
            failed.set()
            raise RuntimeError("the page could not be told")

    store = RelayStore(str(tmp_path / "relay.sqlite"))
    service = RelayService(BrokerSettings(broker.url, "relay"), Boards(store), changed=changed)
    subscribed = threading.Event()
    service.client.on_subscribe = lambda *_: subscribed.set()
    board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-b1")
    caplog.set_level(logging.ERROR, logger="reedboard_relay.service")
    service.start()
    try:
        assert subscribed.wait(WAIT_S)
        board.connect("127.0.0.1", broker.port)
        board.loop_start()
        for frame in frames():  # hello, state, 1.e4: the first change fails to tell
            board.publish(mqtt_topics.stream("b1"), encode_frame(frame).rstrip(b"\n"), qos=1)
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            current = service.snapshot(lambda boards: boards.board("b1").mirror.current)
            if current is not None and len(current.game) == 1:
                break
            time.sleep(0.05)  # waiting for the broker to deliver, not timing anything
        else:
            pytest.fail("the relay stopped hearing the board after one message failed")
    finally:
        board.disconnect()
        board.loop_stop()
        service.stop()
        store.close()
    assert failed.is_set()
    assert "was not taken" in caplog.text and "the page could not be told" in caplog.text


def test_a_question_is_asked_once_however_many_frames_show_the_gap(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames behind one gap each leave the relay missing the same thing: it asks once,
    not once a frame (the pacing of its questions once stood after a return)."""
    monkeypatch.setattr(boards, "RETRY_MS", 3_600_000)  # asked again after an hour: never here
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    service = RelayService(BrokerSettings(broker.url, "relay"), Boards(store))
    asked: list[bytes] = []
    marker = threading.Event()
    board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-b1")

    def request(_c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        asked.append(bytes(message.payload))
        if message.payload == b"end":
            marker.set()

    board.on_message = request
    subscribed = threading.Event()
    board.on_subscribe = lambda *_: subscribed.set()
    # The relay subscribed too before the turn, as a relay that hears frames is: with the
    # turn before its first connection, the test once saw no question at all.
    relay_subscribed = threading.Event()
    service.client.on_subscribe = lambda *_: relay_subscribed.set()
    board.connect("127.0.0.1", broker.port)
    board.subscribe(mqtt_topics.request("b1"), qos=1)
    board.loop_start()
    service.start()
    try:
        assert subscribed.wait(WAIT_S) and relay_subscribed.wait(WAIT_S)
        hello, state, _move = frames()
        behind_a_gap: list[dict[str, Any]] = [
            {"type": "effect", "seq": n, "event": "touch"} for n in (5, 6, 7)
        ]

        # As paho reads them: one turn of the broker's socket, on the relay's loop.
        turn = [hello, state, *behind_a_gap]
        assert service.loop is not None
        asyncio.run_coroutine_threadsafe(
            called(lambda: one_turn(service, turn)), service.loop
        ).result(WAIT_S)
        service.client.publish(mqtt_topics.request("b1"), b"end", qos=1)  # after them all
        assert marker.wait(WAIT_S)
    finally:
        board.disconnect()
        board.loop_stop()
        service.stop()
        store.close()
    resends = [a for a in asked if b'"resend"' in a]
    assert len(resends) == 1, asked
