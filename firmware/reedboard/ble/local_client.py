"""A client of the board inside the board's own process (a phone's app over Bluetooth):
it hears every message the board sends, as the host does, and sends the same typed
commands a host sends, answered to it alone. Pure.

`ClientTee` puts such clients beside the link's endpoint, as the broker's tee does: what
the board says goes to the link and to every client; what a client asks is carried out
by the board like a host's command, and its reply goes back to that client, never over
the link.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from reedboard.link.board_messages import Outgoing, Reply
from reedboard.link.messages import Command
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard


class Endpoint(Protocol):
    session: str

    def send(self, message: Outgoing) -> int: ...

    def reply(self, command: Command, message: Reply) -> int: ...

    def alive(self) -> None: ...

    def data_to_send(self) -> bytes: ...

    def receive_data(self, data: bytes) -> list[Command]: ...


class LocalClient(Protocol):
    def hear(self, message: Outgoing) -> None:
        """A message the board sent on its own (an effect, its hello, a journal error)."""

    def replied(self, command: Command, reply: Reply) -> None:
        """The board's answer to one of this client's commands."""

    def take_commands(self) -> list[Command]:
        """The commands the client has for the board; never waits."""

    def observe(self, game: Game, sensors: Bitboard, now_ms: int) -> None:
        """Once a turn, after the commands: the game and the debounced sensors."""

    def flush(self) -> None:
        """Hand what the client has to say to its transport; never waits."""


class ClientTee:
    def __init__(self, link: Endpoint, clients: Sequence[LocalClient]) -> None:
        self.link = link
        self.clients = tuple(clients)
        self.session = link.session
        self._asked: list[tuple[Command, LocalClient]] = []  # not answered yet

    def send(self, message: Outgoing) -> int:
        for client in self.clients:
            client.hear(message)
        return self.link.send(message)

    def reply(self, command: Command, message: Reply) -> int:
        for index, (asked, client) in enumerate(self._asked):
            if asked is command:
                del self._asked[index]
                client.replied(command, message)
                return 0
        return self.link.reply(command, message)

    def alive(self) -> None:
        self.link.alive()

    def data_to_send(self) -> bytes:
        for client in self.clients:
            client.flush()
        return self.link.data_to_send()

    def receive_data(self, data: bytes) -> list[Command]:
        """The link's commands, then each client's (the app calls this every turn)."""
        commands = self.link.receive_data(data) if data else []
        for client in self.clients:
            asked = client.take_commands()
            self._asked += [(command, client) for command in asked]
            commands += asked
        return commands

    def observe(self, game: Game, sensors: Bitboard, now_ms: int) -> None:
        for client in self.clients:
            client.observe(game, sensors, now_ms)
