"""The board's second endpoint: the same stream on the broker, the relay's requests
answered there only."""

from __future__ import annotations

from reedboard.events import Touched
from reedboard.link.acks import SettingsNow
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import Ack, BoardHello, EffectMessage, StateMessage
from reedboard.link.frame import decode_line, encode_frame
from reedboard.link.messages import AskState
from reedboard.link.mqtt_endpoint import BrokerTee, frames_of


class FakeBroker:
    def __init__(self) -> None:
        self.published: list[bytes] = []
        self.requests: list[bytes] = []

    def publish_frames(self, frames: list[bytes]) -> None:
        self.published += frames

    def take_requests(self) -> list[bytes]:
        taken, self.requests = self.requests, []
        return taken


def published(broker: FakeBroker) -> list[dict[str, object]]:
    wires = [decode_line(frame) for frame in broker.published]
    assert all(wire is not None for wire in wires)
    return [wire for wire in wires if wire is not None]


def test_the_broker_gets_each_numbered_message_once() -> None:
    broker = FakeBroker()
    tee = BrokerTee(BoardEndpoint("s1"), broker)
    tee.send(EffectMessage(Touched(0, 12, "P"), 0))
    tee.send(EffectMessage(Touched(0, 13, "P"), 0))
    serial = tee.data_to_send()
    assert serial.count(b'"seq":1,') == 2  # the serial line's copies
    assert [w["seq"] for w in published(broker)] == [1, 2]


def test_a_resend_request_is_answered_on_the_broker_only() -> None:
    broker = FakeBroker()
    tee = BrokerTee(BoardEndpoint("s1"), broker)
    for square in (12, 13, 14):
        tee.send(EffectMessage(Touched(0, square, "P"), 0))
    tee.data_to_send()
    broker.published.clear()
    broker.requests.append(
        encode_frame({"type": "resend", "after": 1, "session": "s1"}).rstrip(b"\n")
    )
    assert tee.receive_data(b"") == []
    assert tee.data_to_send() == b""  # nothing for the serial host
    assert [w["seq"] for w in published(broker)] == [2, 3]


def test_a_state_request_comes_out_as_a_command_answered_on_the_broker() -> None:
    broker = FakeBroker()
    tee = BrokerTee(BoardEndpoint("s1"), broker)
    broker.requests.append(encode_frame({"type": "state", "id": 4}).rstrip(b"\n"))
    (command,) = tee.receive_data(b"")
    tee.reply(command, StateMessage(False, "8/8/8/8/8/8/8/8 w - - 0 1", (), id=command.id))
    tee.reply(command, Ack(id=command.id))  # not the broker's any more: goes to the serial line
    assert b'"type":"ack"' in tee.data_to_send()
    (state,) = published(broker)
    assert state["type"] == "state" and state["id"] == 4


def test_frames_of_a_batch_are_distinct_and_whole() -> None:
    assert frames_of(b"\nA\nA\nB\n\n") == [b"A", b"B"]


def test_the_state_follows_the_boards_hello_unasked() -> None:
    """A relay that hears a board start has the game's start without asking: a board that
    plays its game and goes before the relay's question would arrive is still whole."""
    broker = FakeBroker()
    tee = BrokerTee(BoardEndpoint("s1"), broker)
    tee.send(BoardHello("s1", protocol=1, board="b", variant="standard", game=0))
    (command,) = tee.receive_data(b"")
    assert isinstance(command, AskState)
    tee.reply(command, StateMessage(False, "8/8/8/8/8/8/8/8 w - - 0 1", (), id=command.id))
    tee.data_to_send()
    assert [(w["type"], w["seq"]) for w in published(broker)] == [("hello", 1), ("state", 2)]
    assert tee.receive_data(b"") == []  # once


def test_settings_changed_from_the_serial_line_are_told_on_the_broker_too() -> None:
    """The ack of `settings` says the board's tournament mode: the relay sees a board
    taken out of it from its serial line as from the broker."""
    broker = FakeBroker()
    tee = BrokerTee(BoardEndpoint("s1"), broker)
    line = encode_frame({"type": "settings", "id": 3, "tournament": False})
    (command,) = tee.receive_data(line)
    tee.reply(command, Ack(SettingsNow("casual", 60, 250, 250, False), command.id))
    assert b'"type":"ack"' in tee.data_to_send()  # answered on the serial line
    (ack,) = published(broker)
    assert ack["type"] == "ack" and ack["tournament"] is False and ack["id"] == 3
    (other,) = tee.receive_data(encode_frame({"type": "state", "id": 4}))
    tee.reply(other, StateMessage(False, "8/8/8/8/8/8/8/8 w - - 0 1", (), id=other.id))
    tee.data_to_send()
    assert len(published(broker)) == 1  # the serial host's other answers stay there
