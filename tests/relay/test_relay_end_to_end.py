"""Two fake boards (on threads of the test's process), a real Mosquitto and the relay (as
processes): the broker killed and restarted mid-game, the relay killed and restarted: every board's game in /games.pgn
equals the game the board itself played, nothing lost, nothing doubled.

The faults are placed by the boards' games (after their Nth moves), not by sleeps: each
board is handed its script a few moves at a time (`held_script`), so however slow the
machine a move is made while the broker is away and another while the relay is."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from reedboard.link import mqtt_topics

from tests.children import child, stop
from tests.link.ptybridge import PtyBridge
from tests.relay.board_thread import FedLines, board_of, board_thread
from tests.relay.broker import Broker, running_broker
from tests.relay.caught_up import caught_up
from tests.relay.fake_board import RELAY_RETRY, quiet_board
from tests.relay.held_script import split_at
from tests.relay.relay_thread import relay_thread

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SCRIPTS = {
    "b1": ROOT / "docs" / "examples" / "italian-opening.events",
    "b2": ROOT / "docs" / "examples" / "chess960-castling.events",
}
# The boards' games at ten times a person's pace where faults are placed between moves
# (each board is held before its next moves until the fault has come); elsewhere four
# times (b1's game in 3 s).
SPEED = 10
PACE = 4
# Where the boards' scripts are cut (timed lines, from 0), so that each fault comes
# between two moves of each board: after 1.e4 e5 (b2: 1.g3 g6), after 2.Nf3 (2.Bh3),
# after 2...Nc6 (2...Bh6); the moves each board has made when it has played each part
# but the last (its whole game).
CUTS = {"b1": (4, 6, 8), "b2": (4, 6, 8)}
PARTS_END_ON = (2, 3, 4)
RELAY_SUBSCRIBED = f"{mqtt_topics.PREFIX}/+/stream"  # in the broker's log: only the relay


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def relay_command(broker: Broker, db: Path) -> list[str]:
    return [str(BIN / "reedboard-relay"), "--mqtt", broker.url, "--db", str(db), *RELAY_RETRY]


def relay(broker: Broker, db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        relay_command(broker, db), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def board(
    broker: Broker, board_id: str, speed: float = PACE, *, stay_on: bool = False
) -> list[str]:
    """The board playing its script; ending once it is played and decided, or with
    `stay_on` staying on after it, as a real board does, until the test stops it."""
    return [
        str(BIN / "reedboard"), "run", "--fake", "--script", str(SCRIPTS[board_id]),
        "--speed", str(speed), *([] if stay_on else ["--until-done"]), "--mqtt", broker.url,
        "--board-id", board_id, *quiet_board(broker.folder),
    ]  # fmt: skip


def live_board(broker: Broker, board_id: str) -> list[str]:
    """`reedboard run`'s arguments for a board playing the script it is handed (`--script
    -`, `FedLines`) at `SPEED`, and staying on after it, as a real board does."""
    return [
        "--fake", "--script", "-", "--speed", str(SPEED), "--mqtt", broker.url, "--board-id",
        board_id, *quiet_board(broker.folder),
    ]  # fmt: skip


def planned_moves(board_id: str) -> int:
    """How many moves the board's script plays (its `# Expected moves:` line)."""
    for line in SCRIPTS[board_id].read_text().splitlines():
        if line.startswith("# Expected moves:"):
            return len(line.split(":", 1)[1].split())
    raise AssertionError(f"{SCRIPTS[board_id]} names no expected moves")


def played_all(board_id: str) -> Callable[[str], bool]:
    """Whether a board's output holds every move of its script."""
    return made(planned_moves(board_id))


def made(count: int) -> Callable[[str], bool]:
    """Whether a board's output holds `count` moves."""
    return lambda output: len(boards_moves(output)) >= count


class Printed:
    """A board's stdout (its effects, one JSON a line), read as it comes: the moves so far,
    and a wait for the Nth, which places a fault in the board's game."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def moves(self) -> list[str]:
        with self.changed:
            return boards_moves("".join(self.lines))

    def wait_moves(self, count: int, wait_s: float = 60) -> None:
        """Until the board has printed `count` moves (a bound for a stuck board)."""
        with self.changed:
            made = self.changed.wait_for(lambda: len(self.moves()) >= count, wait_s)
        assert made, f"the board printed {self.moves()}, not {count} moves"

    def finished(self, wait_s: float = 60) -> list[str]:
        """The board's moves once it has ended by itself (exit status 0)."""
        assert self.process.wait(wait_s) == 0
        self._reader.join(wait_s)
        return self.moves()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as answer:
        text: str = answer.read().decode()
        return text


def sans_of(pgn: str) -> list[str]:
    body = "\n".join(line for line in pgn.splitlines() if not line.startswith("["))
    body = re.sub(r"\{[^}]*\}", " ", body)
    return [t for t in body.split() if not re.fullmatch(r"\d+\.+|\*|1-0|0-1|1/2-1/2", t)]


def games_of(pgn: str) -> dict[str, list[str]]:
    games: dict[str, list[str]] = {}
    for text in pgn.split("[Event ")[1:]:
        site = re.search(r'\[Site "reedboard ([^"]+)"\]', text)
        assert site is not None
        assert site.group(1) not in games, "a board's game twice"
        games[site.group(1)] = sans_of("[Event " + text)
    return games


def relay_games(url: str, expected: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each board's moves in the relay's /games.pgn once they are `expected` (the relay
    has caught up with the boards), or as they stand when it is given up."""
    return caught_up(lambda: games_of(get(url + "games.pgn")), expected)


def boards_moves(output: str) -> list[str]:
    return [
        effect["san"]
        for effect in map(json.loads, output.splitlines())
        if effect.get("event") == "move"
    ]


def test_games_survive_a_broker_and_a_relay_killed_mid_game(broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "relay.sqlite"
    first = relay(broker, db)
    scripts = {name: split_at(SCRIPTS[name].read_text(), *cuts) for name, cuts in CUTS.items()}
    lines = {name: FedLines() for name in scripts}
    try:
        assert first.stdout is not None
        url = first.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
        # The boards stay on after their games, as real ones do: a board that ended could
        # not answer the relay asking for what the broker lost while the relay was away
        # (the boards may be back at the broker before the relay has subscribed again).
        with (
            board_thread(live_board(broker, "b1"), lines["b1"]) as b1,
            board_thread(live_board(broker, "b2"), lines["b2"]) as b2,
        ):
            boards = {"b1": b1, "b2": b2}

            def play(part: int) -> None:
                """Each board handed the next part of its script, and it played."""
                for name, script in scripts.items():
                    lines[name].feed((script.headers if part == 0 else "") + script.parts[part])
                for name, board in boards.items():
                    moves = (*PARTS_END_ON, planned_moves(name))[part]
                    moved = board.wait_output(made(moves), 60)
                    assert moved, f"{name} printed {boards_moves(board.output())}, not {moves}"

            play(0)  # the broker dies mid-game ...
            broker.kill()
            play(1)  # ... a move while it is away
            broker.start()
            # The relay's session died with the broker: once it has subscribed again, the
            # broker keeps what the boards send while the relay is away, as it would
            # have before.
            broker.wait_logged(RELAY_SUBSCRIBED)
            assert stop(first, signal.SIGKILL) != 0  # then the relay dies, and the boards
            play(2)  # play on without it
            first = relay(broker, db)
            assert first.stdout is not None
            url = first.stdout.readline().strip()
            play(3)
            outputs = {name: boards_moves(board.output()) for name, board in boards.items()}
            games = relay_games(url, outputs)
            assert games == outputs  # the boards then stopped, and must end cleanly
        assert all(len(moves) >= 5 for moves in outputs.values()), outputs
        one = get(url + "boards/b2.pgn")
        assert '[Variant "Chess960"]' in one and sans_of(one) == outputs["b2"]
        with pytest.raises(urllib.error.HTTPError) as missing:
            get(url + "boards/nobody.pgn")
        assert missing.value.code == 404
        listed = json.loads(get(url + "api/boards"))
        assert [entry["id"] for entry in listed] == ["b1", "b2"]
        assert set(listed[0]) >= {"id", "online", "fen", "ply", "last_move", "result"}
        assert listed[0]["ply"] == len(outputs["b1"])
        assert stop(first, signal.SIGTERM) == 0
    finally:
        stop(first)
        for stream in (first.stdout, first.stderr):
            if stream is not None:
                stream.close()


def test_a_board_on_a_serial_line_is_published_by_the_host(broker: Broker, tmp_path: Path) -> None:
    bridge = PtyBridge()
    try:
        # The publisher is the program under test; the relay and the board run on threads
        # of the test's process (their own commands are tested elsewhere).
        with (
            relay_thread(relay_command(broker, tmp_path / "relay.sqlite")[1:]) as watcher,
            child([str(BIN / "reedboard-host"), "publish", "--port", bridge.host_path,
                   "--mqtt", broker.url, "--board-id", "usb1"]) as publisher,
            # The board plays on its line until the relay has its game, as a real one
            # would: a host that starts late, or asks again for what it missed, is
            # answered (a board that ended with its script could not).
            board_of([*board(broker, "b1", SPEED)[:7], "--print", "--serial", bridge.board_path,
                      *quiet_board(tmp_path)]) as b1,
        ):  # fmt: skip
            url = watcher.line()
            assert b1.wait_output(made(7), 60), b1.output()
            moves = boards_moves(b1.output())
            assert len(moves) == 7
            assert relay_games(url, {"usb1": moves}) == {"usb1": moves}
            assert stop(publisher) == 0
    finally:
        bridge.close()
