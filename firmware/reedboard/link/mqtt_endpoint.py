"""The board's link endpoint twice over: the serial link's, and a second one whose frames
go to an MQTT broker. Pure: the broker is behind a small `Broker` interface.

Everything the board says on its own (`hello`, effects, `alive`, a journal error) goes to
both, numbered by each endpoint, so the broker carries the same sequence-numbered stream
as the serial line. The relay's requests (`resend`, `state`, `moves`, `hello`) come in
from the broker and are answered there only, by the broker's own endpoint, which keeps
its own history for `resend` exactly as the serial link's does."""

from __future__ import annotations

from typing import Protocol

from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import Ack, BoardHello, Outgoing, Reply
from reedboard.link.messages import AskState, ChangeSettings, Command


class Endpoint(Protocol):
    session: str

    def send(self, message: Outgoing) -> int: ...

    def reply(self, command: Command, message: Reply) -> int: ...

    def alive(self) -> None: ...

    def data_to_send(self) -> bytes: ...

    def receive_data(self, data: bytes) -> list[Command]: ...


class Broker(Protocol):
    def publish_frames(self, frames: list[bytes]) -> None:
        """Queue frames to publish; never waits."""

    def take_requests(self) -> list[bytes]:
        """The request frames that came in since the last call; never waits."""


class BrokerTee:
    def __init__(self, link: Endpoint, broker: Broker) -> None:
        self.link = link
        self.broker = broker
        self.session = link.session
        self.relay = BoardEndpoint(link.session)
        self._asked: list[Command] = []  # commands from the broker, not yet answered
        self._announce = False  # the state goes out unasked at the next turn

    def send(self, message: Outgoing) -> int:
        self.relay.send(message)
        if isinstance(message, BoardHello):
            # The board (re)starts: its whole state follows its hello on the broker at
            # once, unasked, so that a relay has the game's start without a round trip
            # (a board that finishes and goes before the relay asks is still whole).
            self._announce = True
        return self.link.send(message)

    def reply(self, command: Command, message: Reply) -> int:
        for index, asked in enumerate(self._asked):
            if asked is command:
                del self._asked[index]
                return self.relay.reply(command, message)
        if isinstance(command, ChangeSettings) and isinstance(message, Ack):
            # Settings changed from the serial line are told on the broker too: their
            # ack says the board's tournament mode, which the relay watches in a round.
            self.relay.reply(command, message)
        return self.link.reply(command, message)

    def alive(self) -> None:
        self.relay.alive()
        self.link.alive()

    def data_to_send(self) -> bytes:
        self.broker.publish_frames(frames_of(self.relay.data_to_send()))
        return self.link.data_to_send()

    def receive_data(self, data: bytes) -> list[Command]:
        """The serial host's commands, then the relay's (the app calls this every turn)."""
        commands = self.link.receive_data(data) if data else []
        asked: list[Command] = []
        if self._announce:
            self._announce = False
            asked.append(AskState())  # answered on the broker, as the relay's own ask is
        for request in self.broker.take_requests():
            asked += self.relay.receive_data(request + b"\n")
        self._asked += asked
        return commands + asked


def frames_of(data: bytes) -> list[bytes]:
    """The distinct frames of an endpoint's batch, each without its newline: the copies a
    serial line needs are no use on a broker that delivers every message."""
    seen: set[bytes] = set()
    frames: list[bytes] = []
    for line in data.split(b"\n"):
        if line and line not in seen:
            seen.add(line)
            frames.append(line)
    return frames
