"""Boards drop off and come back while the broker and the relay fail too. Six fake boards
(whole firmware boards, each with its own journal: the two whose power is cut as
processes, the others on threads of the test's process) play human-model games through a
real Mosquitto to the relay; during the games, one board's network is cut and restored
(it plays on meanwhile), one board loses its power (SIGKILL) and is started again on the
same journal and board id, resuming its game, the broker is killed and restarted, and
the relay is killed and restarted. Then, for every board, the moves and the result in
`/games.pgn` and in `/boards/ID.pgn` are those of the board's own journal: nothing lost,
nothing doubled, one game per board.

The faults are placed by the games themselves (after a board's Nth move), not by sleeps:
each board is handed its game's moves a few at a time (`held_script`), so however slow the
machine a fault comes before the moves the test means to be played through it, and the
boards can play at many times a person's pace."""

from __future__ import annotations

import contextlib
import json
import random
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.journal.store import Journal
from reedboard.link import mqtt_topics
from reedboard.rules.chess960 import chess960_fen
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.games import greedy_game, random_game

from tests.children import stop
from tests.relay.board_thread import BoardThread, FedLines
from tests.relay.broker import Broker, running_broker
from tests.relay.caught_up import caught_up
from tests.relay.fake_board import RELAY_RETRY, quiet_board
from tests.relay.held_script import HeldScript, move_by_move
from tests.relay.proxy import NetworkProxy, network_proxy
from tests.relay.test_relay_end_to_end import boards_moves

BIN = Path(sys.executable).parent
SPEED = 40  # a 36-ply human-model game's hands in about 2 s: held, no fault is missed
PLIES = 36
WAIT_S = 60.0  # for any one thing the games should bring about
BLACKOUT_AT = PLIES - 4  # the blackout board's power is cut after this many moves


def planned_game(start: Position, seed: int, *, mate: bool = False) -> Game:
    """A game of `PLIES` moves from `start`, or with `mate` one that ends in checkmate
    within it (the board then publishes the result)."""
    for attempt in range(seed, seed + 10_000):
        rng = random.Random(attempt)
        if mate:
            game = greedy_game(start, rng, max_plies=PLIES)
            if len(game) >= 24 and game.position.is_checkmate():
                return game
        else:
            game = random_game(start, rng, max_plies=PLIES)
            if len(game) == PLIES:
                return game
    raise AssertionError("no game found")


@dataclass
class Board:
    """One fake board: its process (or its thread, for a board whose power is never cut),
    its journal, the moves it has printed, and how far into its game the test lets it."""

    id: str
    folder: Path
    planned: Game
    url: str
    cut_off: bool = False  # its power is cut: a process, to be killed
    thread: BoardThread | None = None
    lines: FedLines | None = None  # a thread's script, as it is handed over
    process: subprocess.Popen[str] | None = None
    reader: threading.Thread | None = None
    printed: list[str] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)
    script: HeldScript = field(default_factory=lambda: HeldScript("", ()))
    first: int = 0  # the moves played before the script's first part
    handed: int = 0  # the moves handed over so far
    released: int = 0  # the moves the test lets the board play

    @property
    def journal(self) -> Path:
        return self.folder / f"{self.id}.sqlite"

    def start(self, start: Position, game: Game, seed: int, first: int = 0) -> None:
        """The board playing `game` from `start` live (`--script -`), `first` moves into
        the planned game, handed the moves the test has released so far."""
        self.script, self.first, self.handed = move_by_move(start, game, seed), first, first
        if not self.cut_off:
            self.lines = FedLines()
            self.thread = BoardThread(
                ["--fake", "--script", "-", "--speed", str(SPEED), "--journal",
                 str(self.journal), "--mqtt", self.url, "--board-id", self.id,
                 *quiet_board(self.folder)], self.lines
            ).start()  # fmt: skip
        else:
            with open(self.folder / f"{self.id}.log", "a") as log:  # what went wrong, if anything
                self.process = subprocess.Popen(
                    [str(BIN / "reedboard"), "run", "--fake", "--script", "-", "--speed",
                     str(SPEED), "--journal", str(self.journal), "--mqtt", self.url,
                     "--board-id", self.id, *quiet_board(self.folder)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                )  # fmt: skip
            assert self.process.stdout is not None
            self.reader = threading.Thread(
                target=self._read, args=(self.process.stdout,), daemon=True
            )
            self.reader.start()
        self._write(self.script.headers)
        self._hand_over()

    def release(self, count: int) -> None:
        """Let the board play its game up to its `count`th move (it waits there for more:
        its script is left open)."""
        self.released = max(self.released, min(count, len(self.planned)))
        self._hand_over()

    def _hand_over(self) -> None:
        while self.handed < self.released:
            self._write(self.script.parts[self.handed - self.first])
            self.handed += 1

    def _write(self, text: str) -> None:
        if self.lines is not None:
            self.lines.feed(text)
            return
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            effect = json.loads(line)
            if effect.get("event") == "move":
                with self.changed:
                    self.printed.append(effect["san"])
                    self.changed.notify_all()

    def moves(self) -> list[str]:
        """The moves the board has printed."""
        if self.thread is not None:
            return boards_moves(self.thread.output())
        with self.changed:
            return list(self.printed)

    def wait_moves(self, count: int) -> None:
        changed = self.changed if self.thread is None else self.thread.changed
        with changed:
            reached = changed.wait_for(lambda: len(self.moves()) >= count, WAIT_S)
        assert reached, f"{self.id} made {len(self.moves())} moves, not {count}"

    def power_cut(self) -> None:
        """SIGKILL, then started again on the same journal: the players put the pieces
        back as the journal's game stands and play the rest of their game."""
        self.power_off()
        self.power_on()

    def power_off(self) -> None:
        assert self.process is not None and self.reader is not None
        assert stop(self.process, signal.SIGKILL) == -signal.SIGKILL
        self._close_stdin()
        # Every line the board printed before it died is read before it starts again.
        self.reader.join(WAIT_S)
        assert not self.reader.is_alive()

    def power_on(self) -> None:
        saved = journal_game(self.journal)
        played, planned = saved.san_moves(), self.planned.san_moves()
        assert played == planned[: len(played)] and len(played) < len(planned), played
        with self.changed:
            # The board journals a move before it prints it: power cut between the two,
            # the journal holds one move more than was printed, never one fewer. What the
            # board made is the journal's game, which it resumes.
            assert self.printed == played[: len(self.printed)], (self.printed, played)
            assert len(played) - len(self.printed) <= 1, (self.printed, played)
            self.printed[:] = played
        rest = Game(saved.position)
        for move in self.planned.moves[len(played) :]:
            rest.push(move)
        self.start(saved.position, rest, seed=len(played), first=len(played))

    def stop(self) -> None:
        if self.thread is not None:
            self.thread.stop()
        if self.process is not None:
            stop(self.process)
            self._close_stdin()

    def _close_stdin(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            with contextlib.suppress(OSError):  # a board that died with it unread
                self.process.stdin.close()

    def finish(self) -> None:
        """The board on after its game, as a real one is, until the relay has it all."""
        if self.thread is not None:
            assert self.thread.stop() == 0
            return
        assert self.process is not None
        assert stop(self.process) == 0


def journal_game(path: Path) -> Game:
    with Journal(path) as journal:
        saved = journal.latest_game()
        assert saved is not None
        return saved.to_game()


def journal_result(path: Path) -> str:
    with Journal(path) as journal:
        saved = journal.latest_game()
        assert saved is not None
        return saved.result or "*"


def games_in(path: Path) -> int:
    with Journal(path) as journal:
        (count,) = journal.connection.execute("SELECT count(*) FROM games").fetchone()
        return int(count)


@dataclass
class Relay:
    broker: Broker
    db: Path
    process: subprocess.Popen[str] | None = None
    url: str = ""

    def start(self) -> None:
        with open(self.db.with_suffix(".log"), "a") as log:  # what went wrong, if anything
            self.process = subprocess.Popen(
                [str(BIN / "reedboard-relay"), "--mqtt", self.broker.url, "--db", str(self.db),
                 *RELAY_RETRY],
                stdout=subprocess.PIPE, stderr=log, text=True,
            )  # fmt: skip
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", self.url), self.url

    def kill(self) -> None:
        assert self.process is not None
        assert stop(self.process, signal.SIGKILL) == -signal.SIGKILL
        self.close()

    def close(self) -> None:
        if self.process is not None:
            stop(self.process)
            if self.process.stdout is not None:
                self.process.stdout.close()

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=5) as answer:
            text: str = answer.read().decode()
            return text


def pgn_games(pgn: str) -> dict[str, tuple[list[str], str]]:
    """Each board's game in a PGN text: its moves (SAN) and its result; a board twice fails."""
    games: dict[str, tuple[list[str], str]] = {}
    for text in pgn.split("[Event ")[1:]:
        site = re.search(r'\[Site "reedboard ([^"]+)"\]', text)
        result = re.search(r'\[Result "([^"]+)"\]', text)
        assert site is not None and result is not None
        assert site.group(1) not in games, f"{site.group(1)}'s game twice"
        body = "\n".join(line for line in text.splitlines()[1:] if not line.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        sans = [t for t in body.split() if not re.fullmatch(r"\d+\.+|\*|1-0|0-1|1/2-1/2", t)]
        games[site.group(1)] = (sans, result.group(1))
    return games


class HelloWatch:
    """A client of the broker that tells when a board's `hello` goes by on its stream."""

    def __init__(self, broker: Broker, board_id: str) -> None:
        self.seen = threading.Event()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hello-watch")
        self.client.on_connect = lambda client, *_: client.subscribe(
            mqtt_topics.stream(board_id), qos=1
        )
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.subscribed.wait(WAIT_S)

    def _message(self, _client: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        if bytes(message.payload).startswith(b'{"type":"hello"'):
            self.seen.set()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def test_every_game_survives_boards_broker_and_relay_dropping_off(
    broker: Broker, tmp_path: Path
) -> None:
    standard = Position.standard()
    fischer = Position.from_fen(chess960_fen(413), chess960=True)
    with ExitStack() as finally_:
        proxy: NetworkProxy = finally_.enter_context(network_proxy(broker.port))
        relay = Relay(broker, tmp_path / "relay.sqlite")
        finally_.callback(relay.close)
        relay.start()
        plans = {
            "cut": (standard, planned_game(standard, 1), proxy.url),
            "power": (standard, planned_game(standard, 2), broker.url),
            # From seed 70: the search's first greedy game to mate within the plies (from
            # seed 3 it tried 67 others first, a second of CPU).
            "mate": (standard, planned_game(standard, 70, mate=True), broker.url),
            "steady": (standard, planned_game(standard, 4), broker.url),
            "c960": (fischer, planned_game(fischer, 5), broker.url),
            "blackout": (standard, planned_game(standard, 6), broker.url),
        }
        boards: dict[str, Board] = {}
        for number, (board_id, (start, game, url)) in enumerate(plans.items()):
            cut_off = board_id in ("power", "blackout")
            board = boards[board_id] = Board(board_id, tmp_path, game, url, cut_off)
            finally_.callback(board.stop)
            board.start(start, game, seed=100 + number)

        def release(count: int) -> None:
            """Every board let play up to its `count`th move; the blackout board no further
            than its power cut."""
            for board in boards.values():
                board.release(min(count, BLACKOUT_AT) if board.id == "blackout" else count)

        release(7)
        boards["cut"].wait_moves(5)
        proxy.cut()  # its network gone: the board plays on, alone
        release(9)
        boards["power"].wait_moves(7)
        boards["power"].power_cut()  # mid-game: its next moves were handed over
        boards["steady"].wait_moves(9)  # and held there: it moves only once ...
        broker.kill()  # ... the broker is gone; the boards keep what they publish meanwhile
        release(15)
        boards["steady"].wait_moves(11)
        broker.start()
        boards["cut"].wait_moves(15)  # held there: every move since its 7th made alone
        proxy.restore()
        release(18)
        boards["steady"].wait_moves(18)  # held there: it moves only once ...
        relay.kill()  # ... the relay is gone; the broker keeps what the boards publish
        release(PLIES)
        boards["steady"].wait_moves(21)
        relay.start()
        # Everything at once, near a game's end: the relay and the broker die, a board
        # loses its power and comes back while the relay is away, so the broker (which
        # lost the relay's session) drops the board's new hello: the relay must find out
        # from the board's numbers alone, before its game ends.
        boards["blackout"].wait_moves(BLACKOUT_AT)
        # The board is held there (it has no more moves), so however slow the machine it
        # still has a game to resume: its power first, then the relay and the broker.
        boards["blackout"].power_off()
        relay.kill()
        broker.kill()
        broker.start()
        watch = HelloWatch(broker, "blackout")
        finally_.callback(watch.close)
        boards["blackout"].power_on()
        assert watch.seen.wait(WAIT_S)
        relay.start()
        boards["blackout"].release(PLIES)  # the rest of its game, with the relay back

        for board in boards.values():
            board.wait_moves(len(board.planned))
        expected = {
            board_id: (journal_game(board.journal).san_moves(), journal_result(board.journal))
            for board_id, board in boards.items()
        }
        games = caught_up(lambda: pgn_games(relay.get("games.pgn")), expected, WAIT_S)
        assert games == expected
        for board_id in boards:
            one = pgn_games(relay.get(f"boards/{board_id}.pgn"))
            assert one == {board_id: expected[board_id]}
        listed = {entry["id"]: entry for entry in json.loads(relay.get("api/boards"))}
        assert {b: listed[b]["ply"] for b in boards} == {b: len(expected[b][0]) for b in boards}

        for board in boards.values():
            board.finish()
        assert proxy.cuts >= 1
        assert expected["mate"][1] in ("1-0", "0-1")
        for board_id, board in boards.items():
            # The board's journal holds what it printed, which is what it was meant to play,
            # in one game (the boards that lost their power resumed it).
            assert journal_game(board.journal).san_moves() == expected[board_id][0]
            assert expected[board_id][0] == board.moves() == board.planned.san_moves(), board_id
            assert games_in(board.journal) == 1, board_id
