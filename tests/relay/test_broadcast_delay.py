"""The broadcast delay with real parts: a real Mosquitto, the relay and a scripted board
on threads of the test's process, a stand-in for Lichess. Every public output, polled every 100 ms, never
shows a move the relay heard less than the delay ago (the store's own times say when it
heard each), while the arbiter's console shows each move at once; the delay is set,
changed and kept through the console and a restart."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import sqlite3
import threading
import time
import urllib.error
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from reedboard.link.board_messages import read_board_message
from reedboard_host.mirror import GameMirror

from tests.relay.board_thread import board_of
from tests.relay.broadcast_standin import BroadcastStandIn
from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import WAIT_S, post, relay_urls, scripted_board, until
from tests.relay.test_relay_end_to_end import get, sans_of

DELAY_MIN = 0.05  # three seconds: short, and long beside one poll of a loaded machine
DELAY_S = DELAY_MIN * 60
PLIES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"]


def script(plies: list[str], every_ms: int) -> str:
    """A strict-mode script playing `plies` cleanly, one every `every_ms` of board time
    (at least a second: a piece is set down 400 ms after it is lifted)."""
    return "@start standard\n@mode strict\n" + "".join(
        f"{1000 + every_ms * i} lift {move[:2]}\n{1400 + every_ms * i} place {move[2:]}\n"
        for i, move in enumerate(plies)
    )


# Eight plies a quarter of a second apart (at --speed 10): moves keep coming while the
# broadcast is held, so a leak of any output would show.
SCRIPT = script(PLIES, 2500)
QUICK_MS = 1000  # where only the moves count, a tenth of a second apart


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def heard_at(db: Path, board: str) -> dict[int, float]:
    """When the relay heard each ply of the board's game (1-based), from its store."""
    mirror = GameMirror(keep_games=True)
    heard: dict[int, float] = {}
    with sqlite3.connect(db) as store:
        rows = store.execute(
            "SELECT wire, heard FROM messages WHERE board = ? ORDER BY number", (board,)
        ).fetchall()
    for wire, at in rows:
        message, _problem = read_board_message(json.loads(wire))
        if message is not None:
            mirror.apply(message)
        plies = len(mirror.current.game) if mirror.current is not None else 0
        for ply in range(1, plies + 1):
            heard.setdefault(ply, at)
    return heard


@dataclass
class Seen:
    """What one output showed (how many plies of b1), and when its answer was in."""

    output: str
    plies: int
    at: float  # time.time() once the answer was read: the relay answered before


@dataclass
class Watch:
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, output: str, plies: int) -> None:
        with self.lock:
            self.seen.append(Seen(output, plies, time.time()))


@contextmanager
def event_stream(page: str, watch: Watch) -> Iterator[None]:
    """The public event stream, read in a thread: each message's b1 plies noted."""
    address = urlsplit(page)
    connection = http.client.HTTPConnection(address.netloc, timeout=WAIT_S)
    connection.request("GET", "/events")
    answer = connection.getresponse()

    def read() -> None:
        try:
            for line in answer:
                if line.startswith(b"data: "):
                    for summary in json.loads(line[6:]):
                        if summary["id"] == "b1" and "ply" in summary:  # sent when changed
                            watch.add("events", summary["ply"])
        except (OSError, ValueError):
            pass  # closed at the end of the test

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield
    finally:
        # Shut first: closing the response would wait for the reader's blocked read.
        with contextlib.suppress(OSError):
            connection.sock.shutdown(socket.SHUT_RDWR)
        reader.join(5)
        connection.close()


def console_plies(console: str, board: str = "b1") -> int:
    base, _, token = console.partition("/arbiter?token=")
    connection = http.client.HTTPConnection(urlsplit(base).netloc, timeout=10)
    try:
        connection.request("GET", "/arbiter/api/boards", headers={"X-Arbiter-Token": token})
        rows = json.loads(connection.getresponse().read())["boards"]
    finally:
        connection.close()
    return next((len(row["moves"]) for row in rows if row["id"] == board), 0)


def public_outputs(page: str, board: str = "b1") -> dict[str, Callable[[], int]]:
    """Each public output's count of the board's plies (games.pgn: with b1 alone)."""

    def api() -> int:
        found = [b["ply"] for b in json.loads(get(page + "api/boards")) if b["id"] == board]
        return found[0] if found else 0

    return {
        "api/boards": api,
        "games.pgn": lambda: len(sans_of(get(page + "games.pgn"))),
        "board.pgn": lambda: len(sans_of(known(page + f"boards/{board}.pgn"))),
    }


def known(url: str) -> str:
    """The answer, or nothing while the relay has not heard of the board (404)."""
    try:
        return get(url)
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        return ""


def leaks(seen: list[Seen], heard: dict[int, float]) -> list[str]:
    """Every public output that showed a ply younger than the delay when it answered."""
    return [
        f"{s.output} showed ply {s.plies} {s.at - heard[s.plies]:.3f} s after it was heard"
        for s in seen
        if s.output != "console" and s.plies and s.at - heard[s.plies] < DELAY_S
    ]


def test_no_public_output_shows_a_move_younger_than_the_delay(
    broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "relay.sqlite"
    token = tmp_path / "lichess.token"
    token.write_text("lip_test\n")
    lichess = ["--lichess-round", "r1", "--token-file", str(token), "--lichess-url"]
    watch = Watch()
    with (
        BroadcastStandIn() as standin,
        relay_urls(broker, db, "--delay", str(DELAY_MIN), *lichess, standin.url) as (
            page, console, _relay),
        event_stream(page, watch),
        board_of(scripted_board(broker, tmp_path, "b1", SCRIPT)) as b1,
    ):  # fmt: skip
        outputs = public_outputs(page)
        deadline = time.monotonic() + WAIT_S
        while not all(o() == len(PLIES) for o in outputs.values()):
            assert time.monotonic() < deadline, "the public outputs never showed the game"
            watch.add("console", console_plies(console))
            for name, output in outputs.items():
                watch.add(name, output())
            time.sleep(0.1)  # the poll's pace, not a time measured
        assert b1.wait(WAIT_S) == 0
        standin.wait_for(lambda s: bool(s.pushes) and len(sans_of(s.pushes[-1][3])) == 8)
        offset = time.time() - time.monotonic()  # the stand-in notes monotonic times
        for at, _round, _token, pgn in standin.pushes:
            watch.seen.append(Seen("lichess", len(sans_of(pgn)), at + offset))
    heard = heard_at(db, "b1")
    assert sorted(heard) == list(range(1, len(PLIES) + 1))
    assert leaks(watch.seen, heard) == []
    for watched in ("events", "lichess", *outputs):  # each output was watched
        assert any(s.output == watched and s.plies for s in watch.seen), watched
    # The console is live: it showed moves that the public could not show yet.
    early = [s for s in watch.seen if s.output == "console" and s.plies
             and s.at - heard[s.plies] < DELAY_S]  # fmt: skip
    assert early, "the console never showed a move before the delay had passed"


def test_the_console_sets_the_delay_and_a_restart_keeps_it(broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "relay.sqlite"
    opening = script(PLIES[:2], QUICK_MS)  # 1.e4 e5
    with relay_urls(broker, db) as (page, console, _relay):
        with board_of(scripted_board(broker, tmp_path, "b1", opening)):
            until(lambda: public_outputs(page)["api/boards"]() == 2, "b1's two plies in public")
        assert post(console, "delay", {"minutes": "soon"}) == 400
        assert post(console, "delay", {"minutes": -1}) == 400
        assert post(console, "delay", {"minutes": 60}) == 200
        # What the public saw stays: a delay set mid-round takes no move back.
        assert public_outputs(page)["games.pgn"]() == 2
        with board_of(scripted_board(broker, tmp_path, "b2", script(PLIES, QUICK_MS))):
            until(lambda: console_plies(console, "b2") == 8, "b2's game on the console")
        assert public_outputs(page, "b2")["api/boards"]() == 0
    with relay_urls(broker, db) as (page, console, _relay):
        base, _, key = console.partition("/arbiter?token=")
        asked = http.client.HTTPConnection(urlsplit(base).netloc, timeout=10)
        asked.request("GET", "/arbiter/api/delay", headers={"X-Arbiter-Token": key})
        assert json.loads(asked.getresponse().read()) == {"minutes": 60}
        asked.close()
        # Kept: b2's moves, heard less than an hour ago, are not shown after a restart;
        # b1's, which the public saw before the delay was set, still are.
        assert public_outputs(page, "b2")["board.pgn"]() == 0
        assert public_outputs(page)["board.pgn"]() == 2
        assert console_plies(console, "b2") == 8
        assert post(console, "delay", {"minutes": 0}) == 200
        assert public_outputs(page, "b2")["api/boards"]() == 8
