"""The phone's app as one more client of the board: CPP, or Millennium ChessLink, over a
Bluetooth transport, one central in control at a time. Pure: the transport is behind a
small interface (the GATT peripheral on the board, an in-memory one in tests).

The first central to connect controls the board; another that connects meanwhile is
dropped (its writes are never read), so two phones never play one game. When the
controlling central goes, the game stays as it is on the board; the next central (or the
same one, back) begins its round and the board resyncs to it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from reedboard.ble import chesslink_ble
from reedboard.ble.chesslink_ble import ChessLinkOverBle
from reedboard.ble.cpp import CENTRAL_RX_UUID, CENTRAL_TX_UUID, SERVICE_UUID
from reedboard.ble.cpp_options import BoardOptions
from reedboard.ble.cpp_session import CppSession
from reedboard.ble.peripheral import Connection, Incoming, Received, SerialService
from reedboard.link.board_messages import (
    Ack,
    CentralMessage,
    ErrorReply,
    MovesPage,
    Outgoing,
    StateMessage,
)
from reedboard.link.clients import Client
from reedboard.link.messages import Command
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard

logger = logging.getLogger(__name__)

CPP_SERVICE = SerialService("cpp", SERVICE_UUID, CENTRAL_TX_UUID, CENTRAL_RX_UUID)
CHESSLINK_SERVICE = SerialService(
    "chesslink",
    chesslink_ble.SERVICE_UUID,
    chesslink_ble.WRITE_UUID,
    chesslink_ble.NOTIFY_UUID,
)
SERVICES = (CPP_SERVICE, CHESSLINK_SERVICE)
# While a phone is in control, who it is is told again this often: a host that connects
# later (`reedboard-host watch` started after the phone) learns it within this time.
ANNOUNCE_AGAIN_MS = 15_000


class Transport(Protocol):
    def send(self, service: str, data: bytes) -> None:
        """Notify `data` on a service; never waits."""

    def take(self) -> list[Incoming]:
        """What came in since the last call; never waits."""

    def disconnect(self, device: str) -> None:
        """Drop a central; never waits."""

    def close(self) -> None:
        """Stop: after the board's loop."""


class PhoneClient:
    """CPP on `transport`'s "cpp" service and ChessLink on its "chesslink" one, as one of
    the board's in-process clients (`link.clients`: told what the host is told once the
    journal has it, asking as a host does). The controlling central speaks the protocol
    it first wrote. `turn` is called once a turn by the board's loop (its `watch`).

    Who controls the board (and the clocks its app tells) goes to `announce` as a
    `central` message when it changes: the board's loop sends it to the host and to its
    other clients (the page)."""

    def __init__(
        self, transport: Transport, options: BoardOptions, client: Client, session: str = "0"
    ) -> None:
        self.transport = transport
        self.client = client
        self.session = CppSession(options)
        self.chesslink = ChessLinkOverBle(session)
        self.protocol = ""  # "cpp" or "chesslink" once the controlling central wrote
        self.controller: str | None = None  # the D-Bus path of the central in control
        self.address = ""  # its Bluetooth address, for whoever shows who is connected
        self.name = ""  # the name it gives itself, when BlueZ knows it
        self.announce: Callable[[CentralMessage], object] | None = None
        self._announced = CentralMessage(connected=False)
        self._announced_ms = 0
        self.refused = 0  # commands the board's queue for this client had no room for
        self._asked: dict[int, Command] = {}  # by the id given them, until answered
        self._next_id = 1

    def turn(self, game: Game, sensors: Bitboard, now_ms: int) -> None:
        """The board's news, the central's writes, the board as it stands; then what the
        central and the board are to be told and asked."""
        for message in self.client.take():
            self._told(message)
        commands: list[Command] = []
        for incoming in self.transport.take():
            if isinstance(incoming, Connection):
                self._connection(incoming)
            else:
                commands += self._received(incoming)
        self.session.observe(game, sensors)
        self.chesslink.observe(game, sensors, now_ms)
        for command in commands + self.session.take_commands():
            self._ask(command)
        self._flush()
        self._announce(now_ms)

    def central(self) -> CentralMessage:
        """Who controls the board now, as the `central` message says it."""
        if self.controller is None:
            return CentralMessage(connected=False)
        white, black = self.session.clocks or (None, None)
        return CentralMessage(True, self.protocol or None, self.name or None,
                              self.address or None, white, black, self.session.score)  # fmt: skip

    def _announce(self, now_ms: int) -> None:
        central = self.central()
        again = central.connected and now_ms - self._announced_ms >= ANNOUNCE_AGAIN_MS
        if (central != self._announced or again) and self.announce is not None:
            self._announced, self._announced_ms = central, now_ms
            self.announce(central)

    def close(self) -> None:
        self.client.close()
        self.transport.close()

    def _told(self, message: Outgoing) -> None:
        command_id = getattr(message, "id", None)
        asked = self._asked.pop(command_id, None) if isinstance(command_id, int) else None
        if asked is not None and isinstance(message, Ack | ErrorReply | StateMessage | MovesPage):
            self.session.replied(asked, message)
            return
        self.session.hear(message)
        self.chesslink.hear(message)

    def _ask(self, command: Command) -> None:
        numbered = replace(command, id=self._next_id)
        if not self.client.ask(numbered):
            self.refused += 1
            logger.warning("Bluetooth: the board's queue is full; %s not asked", command)
            return
        self._asked[self._next_id] = numbered
        self._next_id += 1

    def _connection(self, connection: Connection) -> None:
        device = connection.device
        if connection.connected and self.controller is None:
            self.controller, self.address = device, connection.address
            self.name = connection.name
            self.session.reset()
            self.protocol = ""
            logger.info("Bluetooth: %s connected and controls the board", connection.address)
        elif connection.connected and device != self.controller:
            logger.info("Bluetooth: %s dropped: %s controls the board", connection.address,
                        self.address)  # fmt: skip
            self.transport.disconnect(device)
        elif not connection.connected and device == self.controller:
            logger.info("Bluetooth: %s went away; the game stays on the board", self.address)
            self.controller, self.address, self.name = None, "", ""
            self.session.reset()
            self.protocol = ""

    def _received(self, received: Received) -> list[Command]:
        if self.controller is None and received.device:
            # A write before BlueZ told of the connection: its central takes control.
            self._connection(Connection(received.device, "", True))
        if received.device and received.device != self.controller:
            return []
        self.protocol = self.protocol or received.service
        if received.service == CHESSLINK_SERVICE.key:
            return self.chesslink.received(received.data)
        self.session.central(received.data)
        return []

    def _flush(self) -> None:
        texts = self.session.take_texts()
        reports = self.chesslink.to_send()  # taken whoever listens: the codec never piles up
        if self.controller is None:
            return
        for text in texts:
            self.transport.send(CPP_SERVICE.key, text.encode())
        if self.protocol == CHESSLINK_SERVICE.key:
            for chunk in reports:
                self.transport.send(CHESSLINK_SERVICE.key, chunk)
