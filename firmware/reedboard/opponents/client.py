"""The opponents as one of the board's in-process clients (`link.clients`), as the page
and a phone are: what the board tells its clients (effects, a `hello`, the answers to the
opponents' own commands) is heard by the opponents, and what they have to ask, given the
board's time, is asked; the loop carries it out on its next turn exactly as the host's
commands, journaled first, and answers it to this client alone.

The loop turns it once a turn (`HostLink.watch`), so the opponents decide on the board's
thread and clock, and never block: an engine thinks on a thread of its own
(`thinker`) and is asked for its answers on a later turn."""

from __future__ import annotations

import logging

from reedboard.link.clients import Client, Clients
from reedboard.opponents.chosen import Opponents

logger = logging.getLogger(__name__)


class OpponentClient:
    def __init__(self, opponents: Opponents, client: Client) -> None:
        self.opponents = opponents
        self.client = client

    @classmethod
    def attach(cls, opponents: Opponents, clients: Clients) -> OpponentClient:
        """The opponents attached to the board's `clients`."""
        return cls(opponents, clients.attach("opponent"))

    def turn(self, now_ms: int) -> None:
        """What the board told since the last turn heard, then what is due now asked."""
        for message in self.client.take():
            self.opponents.hear(message)
        for command in self.opponents.due(now_ms):
            if not self.client.ask(command):
                # Never on a board that turns it each turn: a few commands a move at most.
                logger.warning("the opponent's %s was not asked: too many waiting", command)

    def close(self) -> None:
        self.client.close()
