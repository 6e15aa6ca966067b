"""A relay that stalled reads what its broker holds before it believes any board's `alive`.

While the relay is held up (a page rendering every board's games, a busy machine), the
boards go on: the broker queues their frames (QoS 1) for the relay and sends at most 20
of them unacknowledged, but their `alive`s (QoS 0) go out at once, ahead of that
backlog. A relay that takes seconds to read it through reads each board's `alive`s a
second apart with none of that board's frames between (a hundred boards share each
20-frame window), and took them for lost tails: it asked every board again, and each
answer lengthened the backlog (thousands of resends and hundreds of state requests a
run of the relay bench). It now sends itself a mark (QoS 1, queued behind the backlog)
and believes a tail lost only once the mark sent after the `alive` is read back.

The broker is played here as Mosquitto orders a busy reader's messages; the relay is
the real service over a real SQLite store, its clock the test's (a slow relay's read
turns 600 ms apart), its paho client never connected: what it would publish is taken
at the client (its marks go back into the broker's queue, behind the backlog) and what
it asks the boards at `command`."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from reedboard.link.frame import encode_frame
from reedboard.link.messages import AskState, Resend, WireCommand
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.broker import running_broker
from tests.relay.link_board import LinkBoard
from tests.relay.test_game_pairings import hello, moves, state
from tests.relay.test_relay_catches_up import live_until, started_relay

BOARDS = 100
IN_FLIGHT = 20  # Mosquitto's max_inflight_messages: the QoS 1 frames read a turn
TURN_MS = 600  # a slow relay's read turns: its `alive`s of a board read over 500 ms apart
ALIVE_MS = 1000  # each board's `alive` period
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6"]
PLAYED_IN_STALL = 6  # plies each board plays while the relay is held up
PLY_EVERY_TURNS = 4  # then a ply each this many of the relay's turns


class Broker:
    """The broker as a busy reader sees it: QoS 0 at once, QoS 1 queued in order."""

    def __init__(self) -> None:
        self.queued: deque[mqtt.MQTTMessage] = deque()  # QoS 1, for the relay
        self.at_once: list[mqtt.MQTTMessage] = []  # QoS 0, sent as they come

    def publish(self, topic: str, payload: bytes, qos: int) -> None:
        message = mqtt.MQTTMessage(topic=topic.encode())
        message.payload = payload
        message.qos = qos
        (self.queued.append if qos else self.at_once.append)(message)

    def turn(self) -> list[mqtt.MQTTMessage]:
        """What the relay reads in one turn: the `alive`s, then the next window."""
        read, self.at_once = self.at_once, []
        for _ in range(min(IN_FLIGHT, len(self.queued))):
            read.append(self.queued.popleft())
        return read


class Board:
    def __init__(self, name: str) -> None:
        self.name = name
        self.seq = 0
        self.plies = 0

    def frame(self, broker: Broker, frame: dict[str, Any]) -> None:
        self.seq = frame["seq"]
        topic = f"reedboard/boards/{self.name}/stream"
        broker.publish(topic, encode_frame(frame).rstrip(b"\n"), 1)

    def play(self, broker: Broker) -> None:
        if self.plies < len(GAME):
            self.frame(broker, moves(self.seq + 1, [GAME[self.plies]])[0] | {"ply": self.plies + 1})
            self.plies += 1

    def alive(self, broker: Broker) -> None:
        frame = {"type": "alive", "seq": self.seq, "session": "s1"}
        broker.publish(f"reedboard/boards/{self.name}/stream", encode_frame(frame).rstrip(b"\n"), 0)


class ReadingRelay:
    """The relay's service reading `broker` turn by turn on the test's clock: what it asks
    the boards is counted at `command`; what it publishes on its mark topic goes into
    the broker's queue (as the relay's paho client would send it)."""

    def __init__(self, store: RelayStore, broker: Broker) -> None:
        self.now_ms = 0
        self.broker = broker
        self.asked: list[tuple[str, WireCommand]] = []
        self.service = service = RelayService(
            BrokerSettings("mqtt://127.0.0.1:1", "relay"),
            Boards(store),
            clock_ms=lambda: self.now_ms,
        )
        send, publish = service.command, service.client.publish

        def asking(board: str, command: WireCommand) -> None:
            self.asked.append((board, command))
            send(board, command)

        def published(topic: str, payload: bytes, qos: int = 0, **kw: Any) -> Any:
            if topic == service.mark_topic:
                broker.publish(topic, payload, qos)  # behind whatever the broker holds
            return publish(topic, payload, qos, **kw)

        service.command = asking  # type: ignore[method-assign]
        service.client.publish = published  # type: ignore[method-assign, assignment]

    def turn(self, after_ms: int = TURN_MS) -> bool:
        """A turn of reading, `after_ms` after the last; whether it read the relay's mark."""
        self.now_ms += after_ms
        read, service = self.broker.turn(), self.service
        service._hold()
        for message in read:
            service._message(service.client, None, message)
        service._commit()
        return any(message.topic == service.mark_topic for message in read)

    def count(self, kind: type) -> int:
        return sum(isinstance(wanted, kind) for _board, wanted in self.asked)


def test_a_relay_reading_its_backlog_asks_no_board_again(store: RelayStore) -> None:
    broker = Broker()
    relay = ReadingRelay(store, broker)
    boards = [Board(f"b{n}") for n in range(1, BOARDS + 1)]
    for board in boards:  # the round begins: the relay follows every board
        board.frame(broker, hello(1, "s1"))
        board.frame(broker, state(2))
    while broker.queued:
        relay.turn()
    assert relay.asked == []

    # Held up for seconds: every board plays on, its `alive`s go out ahead of its frames.
    for _ in range(PLAYED_IN_STALL):
        for board in boards:
            board.play(broker)
            board.alive(broker)
    relay.now_ms += PLAYED_IN_STALL * ALIVE_MS
    # The relay reads its backlog, slowly; the boards go on meanwhile.
    turns = 0
    next_alive = relay.now_ms + ALIVE_MS
    while broker.queued or turns < len(GAME) * PLY_EVERY_TURNS:
        turns += 1
        if turns % PLY_EVERY_TURNS == 0:
            for board in boards:
                board.play(broker)
        if relay.now_ms + TURN_MS >= next_alive:
            for board in boards:
                board.alive(broker)
            next_alive += ALIVE_MS
        relay.turn()
        assert turns < 1000, "the relay never read its backlog"

    resends, states = relay.count(Resend), relay.count(AskState)
    assert (resends, states) == (0, 0), f"{resends} resends, {states} state requests"
    for board in boards:
        known = relay.service.boards.boards[board.name]
        assert known.receiver.last_seq == board.seq
        current = known.mirror.current
        assert current is not None and [m.uci() for m in current.game.moves] == GAME


def test_a_tail_lost_is_still_found_once_the_backlog_is_read(store: RelayStore) -> None:
    """The mark believes a loss as well: a board's last frame dropped, its `alive` read
    ahead of the backlog; once the mark behind that backlog is read, it is asked for."""
    broker = Broker()
    relay = ReadingRelay(store, broker)
    boards = [Board(f"b{n}") for n in range(1, 41)]
    for board in boards:
        board.frame(broker, hello(1, "s1"))
        board.frame(broker, state(2))
    while broker.queued:
        relay.turn()
    for board in boards:
        board.play(broker)
    lost = boards[-1]
    lost.play(broker)
    broker.queued.pop()  # the broker lost its last ply (its queue was full, say)
    for board in boards:
        board.alive(broker)
    for _ in range(100):
        if relay.turn():  # the relay's mark comes back behind the backlog
            break
        assert relay.asked == [], "asked before the backlog was read"
    assert relay.asked == [("b40", Resend(lost.seq - 1, "s1", lost.seq + 1, resync="hello"))]


def test_a_board_known_by_its_status_and_alive_is_not_asked_before_its_hello(
    store: RelayStore,
) -> None:
    """A board says `online` (its retained status) on connecting, seconds before its
    `hello`; its `alive` may overtake that `hello`. A relay behind its broker asked every
    such board at its next tick (a `resend` nobody could answer yet, asked again and
    again: thousands a bench run); now a board it has no frame of is asked only once a
    mark sent after its `alive` comes back without its `hello`."""
    broker = Broker()
    relay = ReadingRelay(store, broker)
    others = [Board(f"o{n}") for n in range(1, 31)]
    late = Board("b1")
    broker.publish("reedboard/boards/b1/status", b"online", 1)
    for board in others:  # the broker's backlog, ahead of the late board's `hello`
        board.frame(broker, hello(1, "s1"))
    late.frame(broker, hello(1, "s1"))
    late.frame(broker, state(2))
    late.alive(broker)  # QoS 0: read first
    for _ in range(10):
        relay.turn(after_ms=2000)
        relay.service._ask_again()  # the relay's tick, which asks any board due
    assert [board for board, _ in relay.asked if board == "b1"] == []
    assert relay.service.boards.boards["b1"].receiver.session == "s1"


def test_a_board_whose_hello_is_lost_is_asked_once_the_mark_is_back(store: RelayStore) -> None:
    broker = Broker()
    relay = ReadingRelay(store, broker)
    broker.publish("reedboard/boards/b1/status", b"online", 1)
    lost = Board("b1")
    lost.frame(broker, hello(1, "s1"))
    broker.queued.pop()  # its `hello` lost (the relay subscribed after it, say)
    lost.alive(broker)
    for _ in range(5):
        if relay.turn():  # the mark read back, and still no `hello`
            break
        relay.service._ask_again()
        assert relay.asked == []
    assert relay.asked == [("b1", Resend(0, "", 2, resync="hello"))]


def test_the_mark_goes_round_a_real_mosquitto_and_a_lost_tail_is_asked(tmp_path: Path) -> None:
    """Through a real Mosquitto: the relay reads its own mark back, and a tail an `alive`
    names (one put on the stream by hand: the board never sent those frames) is asked
    for once it has."""
    store = RelayStore(str(tmp_path / "relay.sqlite"))
    try:
        with running_broker(tmp_path) as broker:
            service = started_relay(broker, store)
            board = LinkBoard(broker.url, "b1", "s1")
            try:
                board.start()
                assert live_until(board, service, lambda b: "b1" in b.boards, True)
                alive = {"type": "alive", "seq": board.seq + 3, "session": "s1"}
                board.broker.publish_frames(
                    [encode_frame(alive).rstrip(b"\n")]
                )  # frames it never sent

                def asked_again(_boards: Boards) -> bool:
                    return "resend" in board.asked

                assert live_until(board, service, asked_again, True), board.asked
                assert service._marks_read >= 1
            finally:
                service.stop()
                board.close()
    finally:
        store.close()
