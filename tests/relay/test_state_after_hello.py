"""A board publishes its state unasked right after its own `hello`: the relay waits for
it a while instead of asking, even when a turn of reading its broker ends between the
two. It asked at the end of such a turn, and a thousand-board round cost some 360 state
requests for states already on their way. A state that does not come is still asked
for, and a `hello` answering the relay's own question (no state follows it) is answered
with the question at once.

The service is the relay's own over a real SQLite store, on a clock the test sets; its
paho client is never connected (what it would send stays in its queue, counted here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from reedboard.link.frame import encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import STATE_UNASKED_MS, Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.test_game_pairings import hello, moves, state


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(tmp_path: Path, clock: Clock) -> Iterator[RelayService]:
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    settings = BrokerSettings("mqtt://127.0.0.1:1", "relay")
    made = RelayService(settings, Boards(store), clock_ms=clock)
    try:
        yield made
    finally:
        store.close()


def on_topic(kind: str, payload: bytes) -> mqtt.MQTTMessage:
    message = mqtt.MQTTMessage(topic=f"reedboard/boards/b1/{kind}".encode())
    message.payload = payload
    message.qos = 1
    return message


def one_turn(service: RelayService, frames: list[dict[str, Any]]) -> None:
    """The frames read in one turn of the broker's socket, as mqtt_loop.py reads them."""
    service._hold()
    for frame in frames:
        service._message(service.client, None, on_topic("stream", encode_frame(frame).strip()))
    service._commit()


def asked(service: RelayService) -> int:
    """The commands the relay has sent or queued for its boards."""
    return service.commands.in_flight + service.commands.waiting


@pytest.fixture
def online(service: RelayService) -> RelayService:
    service._message(service.client, None, on_topic("status", b"online"))
    return service


def test_a_hello_and_its_state_in_two_turns_ask_nothing(online: RelayService) -> None:
    one_turn(online, [hello(1, "s1")])
    one_turn(online, [state(2), *moves(3, ["e2e4"])])
    online._ask_again()
    assert asked(online) == 0
    game = online.boards.boards["b1"].mirror.current
    assert game is not None and len(game.game) == 1


def test_a_state_that_does_not_come_is_asked_for(online: RelayService, clock: Clock) -> None:
    one_turn(online, [hello(1, "s1")])
    clock.ms += STATE_UNASKED_MS - 1
    online._ask_again()
    assert asked(online) == 0  # it may still be coming
    clock.ms += 1
    online._ask_again()
    assert asked(online) == 1


def test_a_hello_answering_the_relay_is_asked_its_state_at_once(online: RelayService) -> None:
    one_turn(online, [hello(1, "s1") | {"id": 7, "resync": True}])
    assert asked(online) == 1
