"""A board's link in a test's hands: the board's own endpoints and its own broker client
(`BrokerTee`, `BoardBroker`), answering the relay's requests as the firmware does (a
`state` with the game, a `hello`), with the game and the time in the test's hands: the
test says when the board speaks, and counts what the relay asked of it."""

from __future__ import annotations

import time
from dataclasses import replace

from reedboard.events import MoveMade, Touched
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import BoardHello, EffectMessage, StateMessage
from reedboard.link.frame import decode_line
from reedboard.link.messages import AskState, Hello, Resync
from reedboard.link.mqtt_client import BoardBroker, BrokerSettings
from reedboard.link.mqtt_endpoint import BrokerTee
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square


class CountedBroker:
    """The board's broker client, telling what the relay asked of the board."""

    def __init__(self, broker: BoardBroker) -> None:
        self.broker = broker
        self.asked: list[str] = []  # the type of each request the relay sent, in order

    def publish_frames(self, frames: list[bytes]) -> None:
        self.broker.publish_frames(frames)

    def take_requests(self) -> list[bytes]:
        taken = self.broker.take_requests()
        self.asked += [request_type(frame) for frame in taken]
        return taken


class LinkBoard:
    def __init__(self, url: str, board_id: str, session: str) -> None:
        self.session = session
        self.broker = BoardBroker(BrokerSettings(url, board_id))
        self.counted = CountedBroker(self.broker)
        self.tee = BrokerTee(BoardEndpoint(session), self.counted)
        self.game = Game(Position.standard())

    @property
    def seq(self) -> int:
        """The latest number the board sent the relay."""
        return self.tee.relay.seq

    def start(self) -> None:
        self.tee.send(BoardHello(self.session, protocol=1, board=self.broker.board, game=1))
        self.turn()

    def wait_handed_over(self, timeout_s: float) -> bool:
        """Wait until the broker holds every frame sent so far (its connection may still
        be coming up when the first moves are made); whether it came to that."""
        deadline = time.monotonic() + timeout_s
        while not self.broker.handed_over() and time.monotonic() < deadline:
            time.sleep(0.02)  # polling the broker's client, not timing anything
        return self.broker.handed_over()

    def move(self, uci: str) -> None:
        """A move played: in the board's game (its `state`), and told on the stream."""
        san = self.game.san(self.game.position.parse_uci(uci))
        self.game.push_uci(uci)
        made = MoveMade(0, uci, san, self.game.position.fen(), len(self.game))
        self.tee.relay.send(EffectMessage(made, game=1))  # the broker's side only
        self.turn()

    def touch(self, square: str = "e2") -> None:
        """One numbered frame on the stream."""
        touched = Touched(0, parse_square(square), "P")
        self.tee.relay.send(EffectMessage(touched, game=1))
        self.turn()

    def alive(self) -> None:
        self.tee.alive()
        self.turn()

    def turn(self) -> None:
        """The board's loop once: the relay's requests answered, the frames handed over."""
        for command in self.tee.receive_data(b""):
            match command:
                case Hello() | Resync(answer="hello"):
                    hello = BoardHello(
                        self.session,
                        protocol=1,
                        board=self.broker.board,
                        game=1,
                        resync=isinstance(command, Resync),
                        id=command.id,
                        answers=True,
                    )
                    self.tee.reply(command, hello)
                case AskState() | Resync():
                    resync = isinstance(command, Resync)
                    state = replace(self._state(), resync=resync, id=command.id)
                    self.tee.reply(command, state)
        self.tee.data_to_send()

    @property
    def asked(self) -> list[str]:
        """The type of each request the relay sent, in order (taken by `turn`)."""
        return self.counted.asked

    def _state(self) -> StateMessage:
        start = self.game.start.fen()
        moves = tuple(move.uci() for move in self.game.moves)
        san = tuple(self.game.san_moves())
        fen = self.game.position.fen()
        return StateMessage(False, start, moves, "standard", fen, san, game=1)

    def close(self) -> None:
        self.broker.close(timeout_s=2.0)


def request_type(frame: bytes) -> str:
    decoded = decode_line(frame)
    return str(decoded.get("type")) if decoded is not None else "?"
