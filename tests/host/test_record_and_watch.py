"""`reedboard-host record` as a real program, and `watch` on the board pair: `watch` shows
the board as soon as it is connected; `record` ends at once on SIGTERM or SIGINT wherever
it waits (a noisy line keeps it in long retries), and the game it had is in the PGN
file."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import chess.pgn
import pytest
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard.stopping import Stopped

from tests.host.fake_peer import FakePeer
from tests.host.running_board import RunningBoard, host_command
from tests.support.board_pair import BoardPair
from tests.support.host_on_pair import HostOnPair


def start(processes: list[subprocess.Popen[str]], *args: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        host_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    processes.append(process)
    return process


def test_watch_shows_the_board_before_anything_happens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In the test's process on the board pair (`watch` as a program on a real pty is in
    # test_commands.py): stopped as Ctrl-C stops it, once the board is drawn.
    pair = BoardPair()
    host_on = HostOnPair(pair, monkeypatch, capsys)
    seen: list[str] = []
    said: list[str] = []

    def look() -> None:
        out, err = capsys.readouterr()
        seen.append(out)
        said.append(err)
        if "1  R  N  B  Q  K  B  N  R" in "".join(seen):
            raise Stopped
        # A bound in the board's time, for a watch that never draws (nothing real waits).
        assert pair.clock.now_ms() < 60_000, "the board was never drawn: " + "".join(seen)

    pair.watch(look)
    ran = host_on("watch")
    seen.append(ran.stdout)
    assert ran.returncode == 0, "".join([*said, ran.stderr])
    assert pair.effects == []  # nothing was played on the board
    text = "".join(seen)
    assert "1  R  N  B  Q  K  B  N  R" in text, text
    assert "8  r  n  b  q  k  b  n  r " in text


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_record_ends_at_once_while_a_noisy_board_keeps_it_waiting(
    signum: signal.Signals, tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    out = tmp_path / "games.pgn"
    kept = '[Event "earlier"]\n\n1. e4 *\n'
    out.write_text(kept)
    board = FakePeer("noisy")
    try:
        record = start(processes, "record", "--port", board.path, "--out", str(out))
        # Well inside its handshake, which would go on for 20 s: it has asked again and
        # again, heard the answers that are not its hello, and goes on asking.
        assert board.hellos_read(3), "record never asked the board three times"
        record.send_signal(signum)
        sent = time.monotonic()
        # Before, it ended only when the handshake gave up; now at once. The bound is
        # generous for a loaded machine, and far below the handshake's 20 s.
        status = record.wait(10)
        took = time.monotonic() - sent
    finally:
        board.close()
    print(f"record ended {took:.3f} s after the signal")
    assert status == 0, record.communicate()[1]
    assert record.stderr is not None
    said = record.stderr.readline()  # what it does, where, and how to stop it: one line
    assert (
        said
        == f"reedboard-host: recording the game of the board on {board.path} to {out}; Ctrl-C stops\n"
    )
    assert out.read_text() == kept


def test_record_on_sigterm_keeps_the_game(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    out = tmp_path / "games.pgn"
    start_position = Position.standard()
    moves = ["e2e4", "e7e5", "g1f3", "b8c6"]
    with RunningBoard(speed=10, corrupt=0.002) as board:
        record = start(processes, "record", "--port", board.port, "--out", str(out))
        position = start_position
        played = []
        for uci in moves:
            played.append(position.parse_uci(uci))
            position = position.play(played[-1])
        board.push(human_script(start_position, played, seed=5).lines)
        deadline = time.monotonic() + 90
        while "Nc6" not in (out.read_text() if out.exists() else ""):
            assert record.poll() is None, record.communicate()[1]
            assert time.monotonic() < deadline, "the moves never reached the PGN file"
            time.sleep(0.1)
        record.send_signal(signal.SIGTERM)
        assert record.wait(30) == 0, record.communicate()[1]
    with out.open() as handle:
        game = chess.pgn.read_game(handle)
    assert game is not None and not game.errors
    assert [m.uci() for m in game.mainline_moves()] == moves


def test_record_says_a_board_unplugged_during_its_handshake_lost_and_waits_for_it(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    """The cable pulled while `record` is still shaking hands (a noisy line keeps it
    there): one line says the board was lost, and `record` looks for it again rather
    than ending on the line's input/output error; SIGTERM then ends it cleanly."""
    out = tmp_path / "games.pgn"
    with FakePeer("noisy") as board:
        record = start(processes, "record", "--port", board.path, "--out", str(out))
        assert board.heard.wait(60), "record never spoke to the board"
        board.unplug()
        assert record.stderr is not None
        lines = [record.stderr.readline() for _ in range(2)]  # what it does; then the loss
        assert lines[1].startswith("reedboard-host: lost the board: the serial link failed"), (
            "".join(lines) + record.communicate()[1]
        )
        assert lines[1].endswith("; trying again every 0.2 s\n")
        assert record.poll() is None, record.communicate()[1]  # still looking for it
        record.send_signal(signal.SIGTERM)
        assert record.wait(30) == 0, record.communicate()[1]


def test_record_waits_for_a_board_still_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Started beside a board whose program is still starting (its port there, nothing
    answering), `record` says it waits, once, and records the game once the board is up,
    rather than ending on "no reedboard answers"."""
    pair = BoardPair(starting_s=10.0)
    host_on = HostOnPair(pair, monkeypatch, capsys)
    out = tmp_path / "games.pgn"
    moved: list[int] = []

    def look() -> None:
        if not moved:  # the board is up: the person plays
            moved.append(pair.push([(0, "lift", "e2"), (300, "place", "e4")]))
        if out.exists() and "1. e4" in out.read_text():
            raise Stopped
        # A bound in the board's time, for a record that never comes (nothing real waits).
        assert pair.clock.now_ms() < 120_000, "the move was never recorded"

    pair.watch(look)
    ran = host_on("record", "--out", str(out))
    assert ran.returncode == 0, ran.stderr
    waiting = "waiting for the board: no reedboard answers on memory"
    assert ran.stderr.count(waiting) == 1, ran.stderr
    assert "connected to the board on memory" in ran.stderr
    assert "1. e4" in out.read_text()
