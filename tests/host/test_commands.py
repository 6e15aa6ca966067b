"""`reedboard-host` commands as real programs against a running board on a real pty, and
against ports that are not a working board (a missing port as a program; a silent,
garbled or other-version one by the commands' `main` in the test's process): one clear
line, a non-zero exit, nothing lost."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.cli import main

from tests.children import child, stop
from tests.host.fake_peer import FakePeer
from tests.host.running_board import RunningBoard
from tests.support.board_pair import BoardPair
from tests.support.host_on_pair import HostOnPair, Ran

pytestmark = pytest.mark.timeout(120)  # each command answers in seconds; a stuck one fails here


def host(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reedboard_host.cli", *args],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def reply(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert result.returncode == 0, result.stderr
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


def test_new_game_mode_and_state() -> None:
    # Each command once as a real program on a real pty; their other cases are on the
    # board pair below.
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    with RunningBoard() as board:
        assert reply(host("new", "--fen", fen, "--port", board.port))["fen"] == fen
        assert reply(host("mode", "strict", "--port", board.port)) == {"mode": "strict"}
        state = reply(host("state", "--port", board.port))
        events = [e["event"] for e in board.effects]
    assert (state["start_fen"], state["mode"]) == (fen, "strict")
    assert events.count("new_game") == 1


def test_new_game_variants_on_the_pair(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pair = BoardPair()
    host_on = HostOnPair(pair, monkeypatch, capsys)
    chess960 = on_pair(host_on("new", "--chess960", "7"))
    assert chess960["fen"] == Position.chess960_start(7).fen()
    assert on_pair(host_on("new"))["fen"] == Position.standard().fen()
    assert on_pair(host_on("state"))["start_fen"] == Position.standard().fen()
    assert pair.effect_kinds() == ["setup", "new_game"]  # Chess960 waits for its set-up


# The commands below run in the test's process on the board pair (`host_on_pair`): each
# is a request like `new` and `state` above, which keep the real program on a real pty.


def on_pair(ran: Ran) -> dict[str, object]:
    assert ran.returncode == 0, ran.stderr
    answer: dict[str, object] = json.loads(ran.stdout)
    return answer


def test_mark_lights_squares_and_clears_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    host_on = HostOnPair(BoardPair(), monkeypatch, capsys)
    answer = on_pair(host_on("mark", "c6", "d4", "--blink", "f6"))
    assert answer == {"squares": ["c6", "d4"], "blink": ["f6"]}
    state = on_pair(host_on("state"))
    assert (state["marked"], state["marked_blink"]) == (["d4", "c6"], ["f6"])
    assert on_pair(host_on("mark")) == {"squares": [], "blink": []}
    assert on_pair(host_on("state"))["marked"] == []
    refused = host_on("mark", "e9")
    assert refused.returncode == 2
    assert refused.stderr == (
        "reedboard-host mark: argument SQ: 'e9' is not a square (a1 .. h8) (see --help)\n"
    )


def test_settings_change_the_board_and_show_what_it_holds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    host_on = HostOnPair(BoardPair(), monkeypatch, capsys)
    changed = on_pair(host_on("settings", "--knock-wait-ms", "900", "--settle-ms", "200"))
    shown = on_pair(host_on("settings"))
    assert (changed["knock_wait_ms"], changed["settle_ms"]) == (900, 200)
    assert (shown["knock_wait_ms"], shown["settle_ms"]) == (900, 200)


def test_a_refused_command_is_one_line_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    host_on = HostOnPair(BoardPair(), monkeypatch, capsys)
    result = host_on("takeback")  # no move to take back
    state = on_pair(host_on("state"))
    assert result.returncode == 1
    assert result.stderr.startswith("reedboard-host takeback: the board refused takeback")
    assert len(result.stderr.strip().splitlines()) == 1
    assert state["start_fen"] == Position.standard().fen()


def test_watch_shows_the_board_and_the_effects() -> None:
    with RunningBoard(speed=10) as board:
        watch_command = [sys.executable, "-m", "reedboard_host.cli", "watch", "--port", board.port]
        with child(watch_command, sig=signal.SIGINT, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True) as watch:  # fmt: skip
            seen: list[str] = []
            moved = threading.Event()

            def read() -> None:
                assert watch.stdout is not None
                for line in watch.stdout:
                    seen.append(line)
                    if line.startswith("move ") and "e4" in line:
                        moved.set()

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            # The move is made once the watcher is there to see it: it has shaken hands and
            # fetched the game, so every effect the board sends from now on is drawn.
            board.wait_until(
                lambda: "hello" in board.answered and "moves" in board.answered,
                "the watcher's handshake and its fetch of the game",
            )
            start = Position.standard()
            script = human_script(start, [start.parse_uci("e2e4")], seed=2)
            board.push(script.lines)
            assert moved.wait(30), "".join(seen)
            assert stop(watch, signal.SIGINT) == 0, watch.stderr and watch.stderr.read()
            reader.join(10)
    text = "".join(seen)
    assert "   a  b  c  d  e  f  g  h" in text
    assert "4  .  .  .  . (P) .  .  . " in text  # the pawn on e4, marked as the last move
    assert "8  r  n  b  q  k  b  n  r " in text


def test_no_such_port(capsys: pytest.CaptureFixture[str]) -> None:
    # `state`'s `main` in this process: the program's start is tested above.
    assert main(["state", "--port", "/dev/no-such-port"]) == 1
    assert capsys.readouterr().err == "reedboard-host state: no serial port /dev/no-such-port\n"


def test_a_silent_port_ends_a_command_that_asks_once(capsys: pytest.CaptureFixture[str]) -> None:
    # `record` waits there for a board still starting (test_record_and_watch.py).
    with FakePeer("silent") as peer:
        status = main(["state", "--port", peer.path])
    assert status == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("reedboard-host state: no reedboard answers on")


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("garbage", "does not speak the reedboard protocol"),
        ("version2", "speaks protocol version 2; this reedboard-host speaks version 1"),
    ],
)
def test_a_port_that_is_not_a_working_board(
    kind: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `record`'s `main` in this process, on a real pty: the program's start and its one
    # line are tested above (`test_new_game_mode_and_state`).
    out = tmp_path / "games.pgn"
    kept = '[Event "earlier"]\n\n1. e4 *\n'
    out.write_text(kept)
    with FakePeer(kind) as peer:
        status = main(["record", "--port", peer.path, "--out", str(out)])
    assert status == 1
    # What it set out to do, said at start, then the one line of why it stopped.
    start, *lines = capsys.readouterr().err.strip().splitlines()
    assert start.startswith("reedboard-host: recording the game of the board on ")
    assert len(lines) == 1 and lines[0].startswith("reedboard-host record: ")
    assert says in lines[0]
    assert out.read_text() == kept  # the games already in the file are untouched
