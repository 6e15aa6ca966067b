"""`reedboard-host play` against real Stockfish: a person (the human model) plays on a
running board; the engine's moves light up and the person carries them out."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from children import child
from reedboard.rules.pgn import read_pgn
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.cli import build_parser
from reedboard_host.play import play

from host.running_board import RunningBoard, host_command, next_move

pytestmark = pytest.mark.timeout(180)  # a 16-ply game against the engine, with its own 90 s limit

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
PLIES = 16  # enough to see both sides move many times; a whole game adds nothing


def test_stockfish_is_installed() -> None:
    # The engine games below need the real engine; CI installs it (apt-get install stockfish).
    assert STOCKFISH is not None, "stockfish is not installed (apt-get install stockfish)"


@pytest.mark.skipif(STOCKFISH is None, reason="needs stockfish (apt-get install stockfish)")
def test_a_person_plays_stockfish_on_the_board(tmp_path: Path) -> None:
    rng = random.Random(4)
    with RunningBoard(speed=20) as board:
        command = host_command(
            "play", "--engine", "stockfish", "--level", "0", "--color", "white",
            "--movetime-ms", "30", "--port", board.port, "--out", str(tmp_path / "g.pgn"),
        )  # fmt: skip
        with child(command, sig=signal.SIGINT, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True) as play:  # fmt: skip
            acted_on: str | None = None
            deadline = time.monotonic() + 90
            try:
                while len(board.moves()) < PLIES and time.monotonic() < deadline:
                    assert play.poll() is None, play.communicate()[1]
                    with board.changed:
                        board.changed.wait(0.2)  # until the board shows something new
                    view = board.quiet_view()
                    started = any(e["event"] == "new_game" for e in board.effects)
                    if view is None or not started:
                        continue
                    if view.result is not None:
                        break
                    if view.fen == acted_on or (not view.turn_white and view.hint is None):
                        continue  # the engine has not answered yet
                    position = Position.from_fen(view.fen)
                    move = next_move(position, None if view.turn_white else view.hint, rng)
                    script = human_script(position, [move], seed=rng.randrange(1 << 30))
                    board.live.push(script.lines)
                    acted_on = view.fen
            finally:
                play.send_signal(signal.SIGINT)
                out, err = play.communicate(timeout=30)
        played = board.moves()
    assert play.returncode == 0, err
    assert len(played) >= PLIES
    game = read_pgn(out).game
    assert [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)] == played
    assert "engine plays" in err


@pytest.mark.skipif(STOCKFISH is None, reason="needs stockfish (apt-get install stockfish)")
def test_ctrl_c_just_after_a_move_prints_the_game_with_that_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Ctrl-C comes after the board has committed the person's move but before the host
    has read it off the line: the PGN printed is still the board's whole game. The host
    runs in a thread here, so that Ctrl-C (its `stop`) can come at exactly that moment."""
    assert STOCKFISH is not None
    args = build_parser().parse_args(
        ["play", "--engine", STOCKFISH, "--level", "0", "--color", "white", "--port", ""]
    )
    pressed = threading.Event()  # the person presses Ctrl-C ...
    host_in_stop = threading.Event()  # ... and the host is asking whether to stop
    said: list[str] = []
    ended: list[int | BaseException] = []
    with RunningBoard(speed=20) as board:
        args.port = board.port

        def stop() -> bool:
            if not pressed.is_set():
                return False
            host_in_stop.set()
            # The host reads nothing meanwhile: the move is made and committed behind it.
            board.wait_until(lambda: board.moves() == ["e2e4"], "the board's e2e4")
            return True

        def host() -> None:
            try:
                ended.append(play(args, stop=stop, log=said.append))
            except BaseException as error:  # handed to the test's thread
                ended.append(error)

        thread = threading.Thread(target=host, daemon=True)
        thread.start()
        try:
            board.wait_until(lambda: any("you play white" in line for line in said), "the start")
            board.wait_until(lambda: board.quiet_view() is not None, "a quiet board")
            pressed.set()
            assert host_in_stop.wait(30), said
            start = Position.standard()
            board.live.push(human_script(start, [start.parse_uci("e2e4")], seed=5).lines)
        finally:
            pressed.set()
            thread.join(60)
        assert not thread.is_alive(), said
    assert ended == [0], said
    game = read_pgn(capsys.readouterr().out).game
    assert [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)] == ["e2e4"]


def test_an_engine_that_dies_is_one_clear_line(tmp_path: Path) -> None:
    engine = tmp_path / "dying-engine"
    engine.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'uci': print('id name dying\\nuciok', flush=True)\n"
        "    elif word == 'isready': print('readyok', flush=True)\n"
        "    elif word == 'go': sys.exit(3)\n"
    )
    engine.chmod(0o755)
    with RunningBoard() as board:
        result = subprocess.run(
            host_command("play", "--engine", str(engine), "--color", "black", "--port", board.port),
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("reedboard-host play: the engine ")
    assert lines[-1].endswith("dying-engine stopped (exit status 3)")
    assert "Traceback" not in result.stderr
