"""The relay asks a board for what it misses once per turn of reading its broker, after
every frame of the turn is taken: a `hello` followed in the same turn by the board's
`state` is no reason to ask for the state, and a gap filled a few frames later is no
reason to ask for a resend. It asked after each frame, and a thousand-board round
cost some 2,000 resends and 500 state requests nobody needed.

The service is the relay's own over a real SQLite store; its paho client is never
connected (what it would send stays in its queue, counted here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from reedboard.link.frame import encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.test_game_pairings import hello, moves, state


@pytest.fixture
def service(tmp_path: Path) -> Iterator[RelayService]:
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    made = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), Boards(store))
    try:
        yield made
    finally:
        store.close()


def on_stream(board: str, frame: dict[str, Any]) -> mqtt.MQTTMessage:
    message = mqtt.MQTTMessage(topic=f"reedboard/boards/{board}/stream".encode())
    message.payload = encode_frame(frame).rstrip(b"\n")
    message.qos = 1
    return message


def asked(service: RelayService) -> int:
    """The commands the relay has sent or queued for its boards."""
    return service.commands.in_flight + service.commands.waiting


def one_turn(service: RelayService, frames: list[dict[str, Any]]) -> None:
    """The frames read in one turn of the broker's socket, as mqtt_loop.py reads them."""
    service._hold()
    for frame in frames:
        service._message(service.client, None, on_stream("b1", frame))
    service._commit()


def test_a_hello_and_its_state_in_one_turn_ask_nothing(service: RelayService) -> None:
    one_turn(service, [hello(1, "s1"), state(2), *moves(3, ["e2e4", "e7e5"])])
    assert asked(service) == 0
    game = service.boards.boards["b1"].mirror.current
    assert game is not None and len(game.game) == 2


def test_a_gap_filled_within_the_turn_asks_nothing(service: RelayService) -> None:
    one_turn(service, [hello(1, "s1"), state(2)])
    first, second, third = moves(3, ["e2e4", "e7e5", "g1f3"])
    one_turn(service, [second, third, first])  # the first of them read last
    assert asked(service) == 0
    game = service.boards.boards["b1"].mirror.current
    assert game is not None and len(game.game) == 3


def test_a_gap_left_at_the_turns_end_is_asked_for_once(service: RelayService) -> None:
    one_turn(service, [hello(1, "s1"), state(2)])
    _first, second, third = moves(3, ["e2e4", "e7e5", "g1f3"])
    one_turn(service, [second, third])
    assert asked(service) == 1
