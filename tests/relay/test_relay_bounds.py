"""What a sender can make the relay keep is bounded: frames held behind a gap (no more
than a board's history), a message's size, the boards one relay keeps. The excess is
refused, with one log line per board and kind at most every ten seconds. A spectator's
event stream holds a bounded number of messages and bytes, and one that reads nothing is
let go."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from reedboard.link.board import DEFAULT_HISTORY as HISTORY
from reedboard.link.board_messages import read_board_message
from reedboard.link.frame import MAX_FRAME, encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard.link.receiver import StreamReceiver
from reedboard_relay.boards import Boards, broker_pacing
from reedboard_relay.event_stream import (
    BEHIND_AT_MOST,
    BEHIND_BYTES,
    Fragment,
    Listener,
    ListenerStuck,
    Tidings,
    said,
)
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import ROUND_1, Relay, hello, moves, rewrite
from tests.support.logged import logged


def test_frames_held_behind_a_gap_are_no_more_than_a_boards_history() -> None:
    receiver = StreamReceiver(broker_pacing())
    for wire in (hello(1, "s1"), *(moves(seq, ["e2e4"])[0] for seq in range(3, 3 * HISTORY, 7))):
        message, _problem = read_board_message(wire)  # a gap at 2, then frames near and far
        assert message is not None
        receiver.take(message, 0)
    assert receiver.held and receiver.highest_seen <= 1 + HISTORY
    assert receiver.held <= HISTORY


def test_a_relay_keeps_no_more_boards_than_its_limit(store: RelayStore) -> None:
    boards = Boards(store, max_boards=2)
    for board in ("b1", "b2", "b3"):
        boards.heard(board, read(hello(1, "s1")), 0)
        boards.status(board, online=True)
    assert sorted(boards.boards) == ["b1", "b2"]
    assert [row[0] for row in store.boards()] == ["b1", "b2"]
    assert boards.refusal("b3", read(hello(1, "s1"))) == (
        "a board beyond the 2 this relay keeps (--max-boards)"
    )
    assert boards.refusal("b1", read(moves(2, ["e2e4"])[0])) is None  # those kept go on


def message(topic: str, payload: bytes) -> mqtt.MQTTMessage:
    made = mqtt.MQTTMessage(topic=topic.encode())
    made.payload = payload
    return made


def test_an_oversized_message_and_a_board_too_many_are_refused_in_one_line_each(
    store: RelayStore, caplog: pytest.LogCaptureFixture
) -> None:
    boards = Boards(store, max_boards=1)
    service = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), boards)
    big = b"x" * (MAX_FRAME + 1)
    with caplog.at_level(logging.WARNING):
        for _ in range(50):
            service._message(service.client, None, message("reedboard/boards/b1/stream", big))
        for board in ("b1", "b2", "b2", "b2"):
            frame = encode_frame(hello(1, "s1")).rstrip(b"\n")
            service._message(
                service.client, None, message(f"reedboard/boards/{board}/stream", frame)
            )
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        f"board b1: refused a message of {MAX_FRAME + 1} bytes",
        "board b2: refused a board beyond the 1 this relay keeps (--max-boards)",
    ]
    assert list(boards.boards) == ["b1"]


def test_a_spectator_who_does_not_read_is_owed_its_boards_not_every_change(
    tmp_path: Path,
) -> None:
    """A listener that never reads holds a few messages, then the set of boards it is
    owed (each board once), however many changes come: not one message per change."""
    pairings = tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    relay = Relay(tmp_path / "relay.sqlite", pairings)
    try:
        stuck = Listener()
        relay.web.listeners.add(stuck)
        boards = [f"b{n}" for n in range(7)]
        changed = {board: 0 for board in boards}

        def fragments(ids: Iterable[str] | None) -> list[Fragment]:
            summaries = [{"id": b, "v": changed[b], "moves": ""} for b in ids or boards]
            return [Fragment(str(s["id"]), s, json.dumps(s).encode()) for s in summaries]

        relay.web.events.fragments = fragments
        for n in range(10_000):
            board = boards[n % 7]
            changed[board] += 1
            relay.web._notify(board)
            relay.web.events.turn()
        assert len(stuck.queue) <= BEHIND_AT_MOST
        assert set(stuck.owed) == set(boards)
    finally:
        relay.close()


def test_a_spectator_behind_holds_no_more_bytes_than_its_bound(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Few messages, but large ones (a thousand boards changed at once): the bytes bound
    lets them go before the count does, said in one log line however many follow."""
    said._said.clear()  # another test's line would hold this one back
    caplog.set_level(logging.WARNING, "reedboard_relay")
    stuck = Listener()
    large = BEHIND_BYTES // 3 + 1
    for n in range(BEHIND_AT_MOST * 10):
        stuck.offer(Tidings(frozenset({f"b{n}"}), b"x" * large))
        assert stuck.queued_bytes <= BEHIND_BYTES
    assert len(stuck.queue) == 0 and len(stuck.owed) == BEHIND_AT_MOST * 10
    lines = [line for line in logged(caplog, "reedboard_relay") if "fell behind" in line]
    assert len(lines) == 1 and "3 messages" in lines[0]


def test_a_spectator_who_reads_nothing_is_let_go(caplog: pytest.LogCaptureFixture) -> None:
    said._said.clear()
    caplog.set_level(logging.WARNING, "reedboard_relay")
    listener = Listener(stuck_s=0.05)
    never = asyncio.Event()

    async def write(_data: bytes) -> None:
        await never.wait()  # a client whose socket takes nothing more

    async def follow() -> None:
        listener.offer(Tidings(frozenset({"b1"}), b"data: []\n\n"))
        await listener.follow(write, lambda _boards: b"")

    with pytest.raises(ListenerStuck):
        asyncio.run(asyncio.wait_for(follow(), 30))
    assert any("read nothing for 0.05 s" in line for line in logged(caplog, "reedboard_relay"))
