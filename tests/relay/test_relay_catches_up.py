"""The relay follows a board's stream through a real Mosquitto when what it knows of the
board is stale, and when it is itself held up: the board is the firmware's own link
(`BrokerTee`, `BoardBroker`) driven by the test.

- A relay whose store holds the board's previous session (a stale store, or a broker
  restarted without the relay's session) while the board's new one is already past the
  store's numbers: it asks as a host on a serial line does (`resync: hello`), learns the
  new session from the board's answer, and shows the board's game. It once asked with
  the old session, got a `state` nobody asked for, and held it behind the gap forever.
- A relay held up for seconds (a page rendering every board's games under its lock)
  reads the board's `alive`s (QoS 0) ahead of the frames its broker still holds for it
  (QoS 1): it must not take them for a lost tail and ask the board again after each
  stall (a storm of `resend`s, each answer making the relay busier still).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from reedboard.link.board_messages import BoardHello, StateMessage
from reedboard.link.mqtt_client import BrokerSettings
from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.broker import Broker, running_broker
from tests.relay.link_board import LinkBoard

T = TypeVar("T")
WAIT_S = 30.0
TURN_S = 0.05  # the board's loop turns this often; its `alive` goes out every second
STALLS = 3
FRAMES_PER_STALL = 60  # more than Mosquitto's 20 in flight to the relay
ALIVE_EVERY = 20  # frames: three `alive`s a stall, which a held-up relay reads together


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def started_relay(broker: Broker, store: RelayStore) -> RelayService:
    service = RelayService(BrokerSettings(broker.url, "relay"), Boards(store))
    subscribed = threading.Event()
    service.client.on_subscribe = lambda *_: subscribed.set()
    service.start()
    assert subscribed.wait(WAIT_S), "the relay never subscribed"
    return service


def live(board: LinkBoard, seconds: float, alive_at: list[float]) -> None:
    """The board's loop for `seconds`: requests answered, an `alive` every second."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if time.monotonic() >= alive_at[0]:
            board.alive()
            alive_at[0] += 1.0
        board.turn()
        time.sleep(TURN_S)  # the board's loop, not a measurement


def live_until(
    board: LinkBoard, service: RelayService, read: Callable[[Boards], T], wanted: T
) -> T:
    alive_at = [time.monotonic()]
    deadline = time.monotonic() + WAIT_S
    seen = service.snapshot(read)
    while seen != wanted and time.monotonic() < deadline:
        live(board, 0.2, alive_at)
        seen = service.snapshot(read)
    return seen


def test_a_relay_on_a_stale_store_finds_the_boards_new_session(
    broker: Broker, store: RelayStore
) -> None:
    old = random_game(Position.standard(), random.Random(8), max_plies=8)
    ucis = [move.uci() for move in old.moves]
    start = old.start.fen()
    state = StateMessage(False, start, tuple(ucis), "standard", game=1, id=1, seq=2)
    store.delivered("b1", "old", 8, [BoardHello("old", protocol=1, seq=1), state])
    played = random_game(Position.standard(), random.Random(60), max_plies=40)
    board = LinkBoard(broker.url, "b1", "new")
    service: RelayService | None = None
    try:
        board.start()
        for move in played.moves[:30]:  # the relay away: the broker keeps nothing for it
            board.move(played.uci(move))
        assert board.seq > 8 + 20  # past the store's numbers
        # Delivered to the broker before the relay subscribes, so that the relay hears
        # none of the session's frames from its start (its `hello` among them): its
        # first words from the board are numbers past the store's.
        assert board.wait_handed_over(WAIT_S), "the board's frames never reached the broker"
        service = started_relay(broker, store)
        for move in played.moves[30:]:  # the board plays on
            board.move(played.uci(move))
            live(board, 0.2, [time.monotonic()])
        wanted = [played.uci(move) for move in played.moves]

        def shown(boards: Boards) -> list[str]:
            current = boards.boards["b1"].mirror.current if "b1" in boards.boards else None
            return [] if current is None else [m.uci() for m in current.game.moves]

        assert live_until(board, service, shown, wanted) == wanted
        assert "resend" in board.asked
    finally:
        if service is not None:
            service.stop()
        board.close()


def test_a_relay_held_up_asks_the_board_nothing_again(broker: Broker, store: RelayStore) -> None:
    service = started_relay(broker, store)
    board = LinkBoard(broker.url, "b1", "s1")
    try:
        board.start()
        followed = live_until(board, service, lambda b: "b1" in b.boards, True)
        assert followed, "the relay never heard the board"
        asked_before = len(board.asked)

        def last_seq(boards: Boards) -> int:
            return boards.boards["b1"].receiver.last_seq

        for _ in range(STALLS):
            with service.lock:  # the relay held up: its loop waits for the lock
                for number in range(1, FRAMES_PER_STALL + 1):
                    board.touch()
                    if number % ALIVE_EVERY == 0:
                        board.alive()  # seconds apart on the board, all read at once
                # Every frame with the broker: what the relay has not taken is held there,
                # and the `alive`s (QoS 0) are on their way to the relay ahead of them.
                assert board.wait_handed_over(WAIT_S), "the broker never took the frames"
            assert live_until(board, service, last_seq, board.seq) == board.seq  # caught up
        # Once per stall before (the alives read back to back); none now, but a relay
        # starved of the processor for a second may still take one pair for a loss.
        live(board, 0.2, [time.monotonic() + 1.0])  # a question still on its way is taken
        resends = board.asked[asked_before:].count("resend")
        assert resends <= 1, board.asked
    finally:
        service.stop()
        board.close()
