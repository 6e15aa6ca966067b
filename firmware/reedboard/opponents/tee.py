"""The opponent plugged into the board's loop: an endpoint that wraps the link's, as the
broker's tee does. Every message the board sends goes to the link and is heard by the
opponent; the opponent's commands join the link's each turn, carried out exactly as the
host's, and their replies go back to the opponent, not over the link."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from reedboard.link.board_messages import Outgoing, Reply
from reedboard.link.messages import Command
from reedboard.opponents.chosen import Opponents

if TYPE_CHECKING:
    from reedboard.link.mqtt_endpoint import Endpoint  # the link's endpoint, as the loop uses it


class OpponentTee:
    def __init__(self, link: Endpoint, opponents: Opponents, now_ms: Callable[[], int]) -> None:
        self.link = link
        self.opponents = opponents
        self.now_ms = now_ms  # the board's time, for the opponent's decisions
        self.session = link.session
        self._asked: list[Command] = []  # the opponent's commands, not yet answered

    def send(self, message: Outgoing) -> int:
        self.opponents.hear(message)
        return self.link.send(message)

    def reply(self, command: Command, message: Reply) -> int:
        for index, asked in enumerate(self._asked):
            if asked is command:
                del self._asked[index]
                self.opponents.hear(message)
                return 0
        return self.link.reply(command, message)

    def alive(self) -> None:
        self.link.alive()

    def data_to_send(self) -> bytes:
        return self.link.data_to_send()

    def receive_data(self, data: bytes) -> list[Command]:
        """The host's commands, then the opponent's (the loop calls this every turn)."""
        commands = self.link.receive_data(data)  # also without bytes: a broker's requests
        mine = self.opponents.due(self.now_ms())
        self._asked += mine
        return commands + mine
