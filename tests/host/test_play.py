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
from functools import partial
from pathlib import Path

import pytest
from reedboard.rules.pgn import read_pgn
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.cli import build_parser
from reedboard_host.play import play

from tests.children import child, stop
from tests.host.running_board import RunningBoard, host_command, next_move

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
                # A move the person began just as the game reached its length is finished
                # before Ctrl-C, so the board's game is the one to compare with.
                board.wait_until(lambda: board.quiet_view() is not None, "the last move done")
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


# A game in which the engine (black) promotes to a knight, taking the queen: 5...cxd1=N.
PERSON_MOVES = ["b2b4", "h2h3", "h3h4", "h4h5", "h5h6"]
ENGINE_MOVES = ["a7a5", "a5b4", "b4b3", "b3c2", "c2d1n"]


def scripted_engine(path: Path, moves: list[str]) -> Path:
    """A UCI engine that answers each `go` with the next of `moves` for its side."""
    path.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"replies = {moves!r}\n"
        "played = []\n"
        "for line in sys.stdin:\n"
        "    words = line.split()\n"
        "    if not words: continue\n"
        "    if words[0] == 'uci': print('id name scripted\\nuciok', flush=True)\n"
        "    elif words[0] == 'isready': print('readyok', flush=True)\n"
        "    elif words[0] == 'position':\n"
        "        played = words[words.index('moves') + 1:] if 'moves' in words else []\n"
        "    elif words[0] == 'go': print('bestmove', replies[len(played) // 2], flush=True)\n"
        "    elif words[0] == 'quit': break\n"
    )
    path.chmod(0o755)
    return path


def test_the_engines_underpromotion_is_the_piece_the_board_takes(tmp_path: Path) -> None:
    """The person carries out the lit pawn move; the board, told which piece the engine
    chose, promotes to it (sensors cannot tell a knight from a queen)."""
    engine = scripted_engine(tmp_path / "engine", ENGINE_MOVES)
    rng = random.Random(1)
    with RunningBoard(speed=20) as board:
        command = host_command("play", "--engine", str(engine), "--color", "white",
                               "--port", board.port)  # fmt: skip
        with child(command, sig=signal.SIGINT, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True) as play:  # fmt: skip
            board.wait_until(lambda: any(e["event"] == "new_game" for e in board.effects),
                             "the new game")  # fmt: skip
            position = Position.standard()
            for ply, person in enumerate(PERSON_MOVES):
                board.wait_until(partial(_quiet_at, board, 2 * ply), f"a quiet board at {ply}")
                move = position.parse_uci(person)
                board.live.push(human_script(position, [move], seed=rng.randrange(1 << 30)).lines)
                position = position.play(move)
                board.wait_until(
                    partial(_hint_lit_at, board, 2 * ply + 1),
                    f"the engine's move lit after {person}",
                )
                assert board.view is not None
                reply = next_move(position, board.view.hint, rng)  # lifts and places alone
                board.live.push(human_script(position, [reply], seed=rng.randrange(1 << 30)).lines)
                board.wait_until(partial(_played_at_least, board, 2 * ply + 2), "the reply made")
                position = _after(board)  # the board's game: the piece it promoted to
            assert board.moves()[-1] == "c2d1n", board.moves()
            assert stop(play, signal.SIGINT) == 0
            out, err = play.communicate(timeout=30)
    assert "take it back" not in err, err
    assert "cxd1=N" in out


def _quiet_at(board: RunningBoard, plies: int) -> bool:
    return len(board.moves()) == plies and board.quiet_view() is not None


def _hint_lit_at(board: RunningBoard, plies: int) -> bool:
    return _quiet_at(board, plies) and board.view is not None and board.view.hint is not None


def _played_at_least(board: RunningBoard, plies: int) -> bool:
    return len(board.moves()) >= plies


def _after(board: RunningBoard) -> Position:
    board_game = board.app.board_game
    assert board_game is not None
    return board_game.game.position


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
