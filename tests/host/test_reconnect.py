"""The host coming back to the same run of the board (a cable pulled and put back): it
asks only for what it missed, and does not fetch the whole game again; a port that is
absent at first is looked for again and again, with one line in the log. On the board and
the host in memory, on a virtual clock."""

from __future__ import annotations

import itertools
import logging
from typing import Any

import pytest
from reedboard.errors import LinkError
from reedboard.events import MoveMade
from reedboard.link.board_messages import (
    BoardHello,
    BoardMessage,
    EffectMessage,
    MovesPage,
    StateMessage,
)
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host import follow
from reedboard_host.connection import BoardConnection, NoAnswerError
from reedboard_host.fetch import fetch_game
from reedboard_host.follow import RECONNECT_S, Follower

from tests.support.board_pair import BoardPair, HostEnd
from tests.support.logged import logged


def _mirrored(follower: Follower) -> list[str]:
    current = follower.mirror.current
    if current is None:
        return []
    game = current.game
    return [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]


def _follow_until(follower: Follower, pair: BoardPair, done: Any, what: str) -> None:
    end = pair.clock.now_ms() + 600_000  # a bound in board time, never a wait
    follower.run(lambda: done() or pair.clock.now_ms() > end, wait_s=0.05)
    assert done(), what


def _play(pair: BoardPair, position: Position, uci: str, seed: int) -> Position:
    move = position.parse_uci(uci)
    pair.push(human_script(position, [move], seed=seed).lines)
    return position.play(move)


def _follower(pair: BoardPair, **hooks: Any) -> Follower:
    return Follower("memory", open_port=pair.open_port, clock=pair.host_clock, **hooks)


def test_a_reconnection_asks_only_for_what_was_missed(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    pair = BoardPair()
    delivered: list[BoardMessage] = []
    follower = _follower(pair, on_message=delivered.append)
    follower.connect()
    position = _play(pair, Position.standard(), "e2e4", seed=1)
    _follow_until(follower, pair, lambda: _mirrored(follower) == ["e2e4"], "e2e4 mirrored")
    # The cable is pulled: the host loses its port while the board plays on.
    pair.unplug()
    position = _play(pair, position, "e7e5", seed=2)
    pair.run_until(lambda: pair.moves() == ["e2e4", "e7e5"], "e7e5 on the board")
    assert not follower.keep_up(0.05)  # the host finds the link gone
    seen = len(delivered)
    unplugged_at = pair.clock.now_ms()
    follower.run(lambda: pair.clock.now_ms() > unplugged_at + 3500, wait_s=0.05)
    pair.plug()
    plugged_at = pair.clock.now_ms()
    _follow_until(follower, pair, lambda: _mirrored(follower) == ["e2e4", "e7e5"], "e7e5")
    after = delivered[seen:]
    moves = [
        m.effect.uci
        for m in after
        if isinstance(m, EffectMessage) and isinstance(m.effect, MoveMade)
    ]
    assert moves == ["e7e5"]
    refetched = [m for m in after if isinstance(m, MovesPage | StateMessage | BoardHello)]
    assert not refetched  # the link asked only for what it missed
    # Looked for every RECONNECT_S: back that soon after the cable, told once each way.
    assert pair.clock.now_ms() - plugged_at < RECONNECT_S * 1000 + 200
    # One line when the wait begins, one when the board is back.
    lines = logged(caplog, "reedboard_host")
    assert [line.split(":")[0] for line in lines] == [
        "lost the board",
        "connected again to the board on memory",
    ]
    assert lines[0].endswith(f"; trying again every {RECONNECT_S:g} s")


def test_a_board_plugged_in_later_is_found(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    pair = BoardPair()
    pair.unplug()
    opened: list[int] = []  # the board time of each attempt to open the port

    def open_port(url: str) -> HostEnd:
        opened.append(pair.clock.now_ms())
        return pair.open_port(url)

    follower = Follower("memory", open_port=open_port, clock=pair.host_clock)
    for _ in range(60):  # three seconds of turns without a board
        assert not follower.keep_up(0.05)
    # Each attempt RECONNECT_S after the last, give or take the turn it falls in (50 ms).
    gaps = [later - earlier for earlier, later in itertools.pairwise(opened)]
    assert len(opened) >= 3000 // (RECONNECT_S * 1000 + 50)
    assert all(RECONNECT_S * 1000 <= gap <= RECONNECT_S * 1000 + 50 for gap in gaps), gaps
    pair.plug()
    _follow_until(follower, pair, lambda: follower.connected, "the board found")
    assert follower.mirror.current is not None and not follower.mirror.needs_state
    assert logged(caplog, "reedboard_host") == [
        f"no serial port memory; trying again every {RECONNECT_S:g} s",
        "connected to the board on memory",
    ]


@pytest.mark.parametrize("reads", [0, 1])
def test_a_board_unplugged_during_the_first_connection_is_said_lost_and_waited_for(
    reads: int, caplog: pytest.LogCaptureFixture
) -> None:
    """The cable pulled once the port is open, before the board's hello came back (after
    no read, or a few: within the handshake or the game's fetch) is a board lost, as it
    is later: said in one line and looked for until it is back, not an error that ends
    the command."""
    caplog.set_level(logging.INFO)
    pair = BoardPair()
    unplugged_at: list[int] = []

    class PulledEnd(HostEnd):
        """The first port the host opens: its cable is pulled after `reads` reads."""

        reads_left = reads

        def read(self, wait_s: float = 0.0) -> bytes:
            if not unplugged_at and len(opened) == 1 and self.reads_left == 0:
                pair.unplug()
                unplugged_at.append(pair.clock.now_ms())
            self.reads_left -= 1
            return super().read(wait_s)

    opened: list[PulledEnd] = []

    def open_port(url: str) -> HostEnd:
        if not pair.plugged:
            raise LinkError(f"no serial port {url}")
        end = PulledEnd(pair)
        opened.append(end)
        return end

    def plug_back() -> None:
        if unplugged_at and not pair.plugged and pair.clock.now_ms() > unplugged_at[0] + 1000:
            pair.plug()

    pair.watch(plug_back)
    follower = Follower("memory", open_port=open_port, clock=pair.host_clock)
    hello = follower.connect()
    assert unplugged_at, "the cable was never pulled"
    assert hello is not None and follower.connected and len(opened) >= 2
    assert follower.mirror.current is not None and not follower.mirror.needs_state
    lines = logged(caplog, "reedboard_host")
    assert lines == [
        f"lost the board: the serial link failed: the cable is out; "
        f"trying again every {RECONNECT_S:g} s",
        "connected again to the board on memory",
    ]
    _play(pair, Position.standard(), "e2e4", seed=3)
    _follow_until(follower, pair, lambda: _mirrored(follower) == ["e2e4"], "e2e4 mirrored")


def test_the_first_connection_waits_for_a_lost_board_only_until_stopped() -> None:
    pair = BoardPair()
    stops: list[int] = []

    def open_port(url: str) -> HostEnd:
        if stops:
            raise LinkError(f"no serial port {url}")
        end = pair.open_port(url)
        pair.unplug()  # pulled at once: the handshake's first write fails
        return end

    def stop() -> bool:
        stops.append(pair.clock.now_ms())
        return len(stops) > 10

    follower = Follower("memory", open_port=open_port, clock=pair.host_clock)
    assert follower.connect(stop) is None
    assert not follower.connected and len(stops) == 11


def test_a_board_silent_after_its_hello_leaves_no_connection_on_a_closed_port(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A `NoAnswerError` once the hello has come (the game's fetch unanswered) is not a
    board still starting: the follower never says it is connected on a port it closed,
    and fetches the game on its next turn."""
    pair = BoardPair()
    opened: list[HostEnd] = []

    def open_port(url: str) -> HostEnd:
        end = pair.open_port(url)
        opened.append(end)
        return end

    fetches: list[int] = []

    def fetch_unanswered_once(connection: BoardConnection) -> StateMessage:
        fetches.append(pair.clock.now_ms())
        if len(fetches) == 1:
            raise NoAnswerError("no reedboard answers on memory (is `reedboard run` on?)")
        return fetch_game(connection)

    monkeypatch.setattr(follow, "fetch_game", fetch_unanswered_once)
    follower = Follower("memory", open_port=open_port, clock=pair.host_clock)
    assert follower.connect(wait_for_board=True) is not None
    assert follower.connected and not opened[-1].closed
    assert follower.keep_up(0.05)
    assert len(fetches) == 2 and follower.mirror.current is not None
