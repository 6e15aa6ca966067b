"""A piece lifted or put back changes what the in-process clients show (the page's lifted
square) with no effect and no command: the board stirs them itself, so a client that
shows the board asks its state at once; a switch that keeps changing stirs them at most
once every STIR_MS, and its latest change is never left unstirred."""

from __future__ import annotations

import itertools

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.link.clients import STIR_MS, Client, Clients
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.wire_link import WireLink

TURN_MS = 5  # `reedboard run`'s scan rate: a turn every 5 ms


class Board:
    """The loop with a client attached (as the page's feed is), turned by the test."""

    def __init__(self, script: str) -> None:
        parsed = parse_script(script)
        self.fake = scripted_board(parsed)
        self.clients = Clients()
        self.app = App(
            Sensing(self.fake, source=self.fake),
            VirtualClock(),
            link=HostLink(WireLink(), clients=self.clients),
            game=GameSetup(start=Game(parsed.start)),
        )
        self.client: Client = self.clients.attach("page")
        self.now = 0
        self.app.step(self.now)
        self.client.news()  # what the board said as it started

    def stirs(self, until_ms: int) -> list[int]:
        """The board times of the turns after which the client was stirred."""
        times = []
        while self.now < until_ms:
            self.now += TURN_MS
            self.app.step(self.now)
            if self.client.news()[1]:
                times.append(self.now)
        return times


def test_a_lift_and_a_put_back_each_stir_the_clients_at_once() -> None:
    board = Board("@start standard\n1000 lift g1\n2000 place g1\n")
    stirs = board.stirs(3000)
    # Debounced 12 ms after each change: the turn that decides it stirs, no later one.
    assert len(stirs) == 2
    assert 1000 < stirs[0] <= 1000 + 20
    assert 2000 < stirs[1] <= 2000 + 20


def test_a_chattering_switch_stirs_the_clients_at_most_once_every_stir_ms() -> None:
    # A switch on an empty square (e4) that reads each state for 20 ms, long enough for the
    # debouncer to take every change: 50 changes a second for 2 s, none of them an effect.
    lines = [f"{1000 + 20 * i} {'place' if i % 2 == 0 else 'lift'} e4" for i in range(101)]
    board = Board("@start standard\n" + "\n".join(lines) + "\n")
    stirs = board.stirs(4000)
    assert board.app.board_game is not None
    assert board.app.board_game.debouncer.occupancy & (1 << 28)  # e4 ends occupied
    gaps = [later - earlier for earlier, later in itertools.pairwise(stirs)]
    assert min(gaps) >= STIR_MS
    assert len(stirs) <= 2000 // STIR_MS + 2
    # The latest change is stirred too: within STIR_MS of the switch's last one.
    assert 3000 < stirs[-1] <= 3000 + STIR_MS + 20
