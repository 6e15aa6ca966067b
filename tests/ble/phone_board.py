"""A running board (the real App, its game and arbiter, a fake matrix the test moves
pieces on) with the phone's client beside its link, on a transport of the test's choice:
in memory here, the real GATT peripheral in the Bluetooth tests."""

from __future__ import annotations

import threading

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.ble.cpp_options import BoardOptions
from reedboard.ble.peripheral import Incoming, Received
from reedboard.ble.phone import PhoneClient, Transport
from reedboard.board_game import BoardGame
from reedboard.hal.clock import VirtualClock
from reedboard.link.clients import Clients
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.wire_link import WireLink

PHONE = "/org/bluez/hci0/dev_00_AA_00_00_00_02"
# A turn of the board every 10 ms of its virtual clock (a scan at 100 Hz): the players'
# switches here are 100 ms and more apart and the arbiter waits over a second, so a turn
# every 5 ms (200 Hz, `reedboard run`'s rate) read the same game at twice these tests' CPU.
STEP_MS = 10
SETTLE_MS = 1500  # beyond the arbiter's wait before it takes a placement as final


class MemoryTransport:
    """The phone's side in memory: what the test writes as the central, what the board
    notified, whom it dropped."""

    def __init__(self) -> None:
        self.incoming: list[Incoming] = []
        self.sent: list[str] = []
        self.chesslink = bytearray()  # the ChessLink notifications, joined
        self.dropped: list[str] = []

    def send(self, service: str, data: bytes) -> None:
        if service == "chesslink":
            assert len(data) <= 20
            self.chesslink += data
        else:
            self.sent.append(data.decode())

    def take(self) -> list[Incoming]:
        taken, self.incoming = self.incoming, []
        return taken

    def disconnect(self, device: str) -> None:
        self.dropped.append(device)

    def close(self) -> None:
        pass

    def write(self, text: str | bytes, device: str = PHONE, service: str = "cpp") -> None:
        data = text.encode() if isinstance(text, str) else text
        self.incoming.append(Received(service, data, device))


class PhoneBoard:
    def __init__(self, transport: Transport, options: BoardOptions | None = None) -> None:
        self.fake = scripted_board(parse_script("@start standard\n"))
        self.clients = clients = Clients()
        self.phone = PhoneClient(transport, options or BoardOptions(), clients.attach("phone"))
        self.link = WireLink()
        self.lock = threading.Lock()  # held through each turn: the test moves pieces between
        self.now = 0

        def watch(board_game: BoardGame, now: int) -> None:
            self.phone.turn(board_game.game, board_game.debouncer.occupancy, now)

        self.app = App(
            Sensing(self.fake, source=self.fake),
            VirtualClock(),
            link=HostLink(self.link, clients=clients, watch=watch),
            game=GameSetup(start=Game()),
        )
        self.phone.announce = self.app.endpoint.send  # as `reedboard run` has it

    def run(self, ms: int) -> None:
        for _ in range(0, ms, STEP_MS):
            with self.lock:
                self.now += STEP_MS
                self.app.step(self.now)

    def lift(self, square: str) -> None:
        with self.lock:
            self.fake.lift(square)

    def place(self, square: str) -> None:
        with self.lock:
            self.fake.place(square)

    def move(self, origin: str, target: str, *, capture: bool = False) -> None:
        """A player's move: a capture lifts the victim first."""
        if capture:
            self.lift(target)
            self.run(100)
        self.lift(origin)
        self.run(150)
        self.place(target)
        self.run(SETTLE_MS)

    @property
    def game(self) -> Game:
        assert self.app.board_game is not None
        return self.app.board_game.game
