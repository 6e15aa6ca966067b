"""The page's event stream sends what changed: every board in its first message, then
only the boards whose summary changed, and of their moves only the new ones. It used to
send every board on every change to every listener (107 KB a message with 500 boards,
for one board's move), then each changed board's whole move list."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard_relay.event_stream import EventStream, Fragment, Listener, shared_length

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import relay_urls, until
from tests.relay.test_relay_end_to_end import SPEED, board

WAIT_S = 120


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def listed(url: str) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(url + "api/boards", timeout=10) as answer:
        return {entry["id"]: entry for entry in json.loads(answer.read())}


def test_after_the_first_message_only_the_changed_boards_are_sent(
    broker: Broker, tmp_path: Path
) -> None:
    with relay_urls(broker, tmp_path / "relay.sqlite") as (url, _console, _relay):
        # b2's game only has to be there before the stream is read: at ten times a
        # person's pace, and the board stopped once the relay has it; b1's, read as it
        # is played, at four.
        with board_of(board(broker, "b2", SPEED)):
            until(lambda: listed(url).get("b2", {}).get("ply") == 5, "b2's game at the relay")
        deadline = time.monotonic() + WAIT_S
        while listed(url).get("b2", {}).get("online", True):  # b2 played, and is gone
            assert time.monotonic() < deadline, "b2 never went offline at the relay"
            time.sleep(0.1)  # polling the relay, not timing it
        messages: list[list[dict[str, Any]]] = []
        with (
            urllib.request.urlopen(url + "events", timeout=WAIT_S) as stream,
            board_of(board(broker, "b1")),
        ):
            while not messages or not any(
                s["id"] == "b1" and s.get("ply") == 7 for s in messages[-1]
            ):
                line = stream.readline()
                assert line, "the stream ended"
                if line.startswith(b"data: "):
                    messages.append(json.loads(line[len(b"data: ") :]))
    first, *later = messages
    assert [s["id"] for s in first] == ["b2"]  # b1 had not come yet
    assert later and all([s["id"] for s in message] == ["b1"] for message in later)
    # b1 first whole, then only what changed of its moves: never its whole list again.
    told = [s for message in later for s in message]
    assert "moves" in told[0] and all("moves" not in s for s in told[1:])
    assert all("white" not in s for s in told[1:])  # a field that did not change
    assert told[-1]["moves_new"].endswith(" O-O") and len(told[-1]["moves_new"]) < 12


class Boards:
    """Boards whose summaries a test changes: each summary's JSON a new bytes object at
    each change, as the relay's kept entries are."""

    def __init__(self, count: int) -> None:
        self.moves = {f"b{n}": "" for n in range(count)}
        self.kept: dict[str, Fragment] = {}

    def set(self, board: str, moves: str) -> None:
        self.moves[board] = moves
        self.kept.pop(board, None)

    def __call__(self, ids: Iterable[str] | None) -> list[Fragment]:
        found = []
        for name in sorted(self.moves if ids is None else ids):
            if name not in self.kept:
                summary = {"id": name, "ply": len(self.moves[name].split()),
                           "moves": self.moves[name]}  # fmt: skip
                self.kept[name] = Fragment(name, summary, json.dumps(summary).encode())
            found.append(self.kept[name])
        return found


class Page:
    """What the page's script does with the messages (spectator_page.py's `draw`)."""

    def __init__(self) -> None:
        self.shown: dict[str, str] = {}
        self.plies: dict[str, int] = {}  # a field sent only when it changed
        self.whole_moves_sent = 0

    def write(self, data: bytes) -> None:
        assert data.startswith(b"data: ") and data.endswith(b"\n\n")
        for entry in json.loads(data[len(b"data: ") :]):
            if "moves" in entry:
                self.whole_moves_sent += 1
                self.shown[entry["id"]] = entry["moves"]
                self.plies[entry["id"]] = entry["ply"]
            else:
                before = self.shown.get(entry["id"], "")
                self.shown[entry["id"]] = before[: entry["moves_at"]] + entry["moves_new"]
                self.plies[entry["id"]] = entry.get("ply", self.plies.get(entry["id"]))


def test_listeners_told_what_changed_hold_every_game_as_it_is() -> None:
    """Moves, takebacks and new games on 20 boards, told as what changed: a listener that
    reads everything, one that reads now and then (let go, then told what changed since
    what it read), and one that comes midway all end with every board as it is, each sent
    each board's whole moves once."""
    rng = random.Random(34)
    boards = Boards(20)
    stream = EventStream(boards)
    steady, slow, late = Page(), Page(), Page()
    gate = asyncio.Event()
    behind = [0]  # the most boards the slow listener was owed at once

    async def slow_write(data: bytes) -> None:
        await gate.wait()
        slow.write(data)

    async def run() -> None:
        listeners = [Listener(), Listener(), Listener()]
        steady.write(stream.join(listeners[0]))
        slow.write(stream.join(listeners[1]))
        tasks = [
            asyncio.create_task(listeners[0].follow(steady.write, stream.told)),
            asyncio.create_task(listeners[1].follow(slow_write, stream.told)),
        ]
        for step in range(2000):
            name = f"b{rng.randrange(20)}"
            moves, roll = boards.moves[name], rng.random()
            if roll < 0.8:
                boards.set(name, f"{moves} m{step}".strip())
            elif roll < 0.95:
                boards.set(name, moves.rpartition(" ")[0])  # a takeback
            else:
                boards.set(name, "")  # a new game
            if step == 1000:  # this change unseen by the stream: the join tells it
                late.write(stream.join(listeners[2]))
                tasks.append(asyncio.create_task(listeners[2].follow(late.write, stream.told)))
            stream.changed(name)
            if rng.random() < 0.3:
                stream.turn()
            if rng.random() < 0.02:
                gate.set()
            behind[0] = max(behind[0], len(listeners[1].owed))
            await asyncio.sleep(0)
            gate.clear()
        stream.turn()
        gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        for task in tasks:
            task.cancel()

    asyncio.run(run())
    plies = {board: len(moves.split()) for board, moves in boards.moves.items()}
    for page in (steady, slow, late):
        assert page.shown == boards.moves and page.plies == plies
    assert steady.whole_moves_sent == late.whole_moves_sent == 20
    # The slow one fell behind, was let go, and was told what changed since it read.
    assert slow.whole_moves_sent == 20 and behind[0] > 0


def test_the_shared_start_of_two_move_texts_is_found_exactly() -> None:
    """Grown, taken back, a new game, or any two texts: the length they start with."""
    rng = random.Random(7)
    for _ in range(2000):
        before = "".join(rng.choice("ab ") for _ in range(rng.randrange(30)))
        now = before[: rng.randrange(len(before) + 1)] + "".join(
            rng.choice("ab ") for _ in range(rng.randrange(10))
        )
        shared = 0
        while shared < min(len(before), len(now)) and before[shared] == now[shared]:
            shared += 1
        assert shared_length(before, now) == shared
