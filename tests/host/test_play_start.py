"""How `reedboard-host play` starts: the engine must be a UCI engine before the board is
touched, a game under way is replaced only when asked, and the PGN names the players."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time

import chess.pgn
import pytest
from reedboard.rules.position import Position
from reedboard.sim.human import human_script

from tests.host.running_board import RunningBoard, host_command

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def play_e4(board: RunningBoard) -> None:
    """The person plays 1. e4 on the board, and the board has it."""
    start = Position.standard()
    board.live.push(human_script(start, [start.parse_uci("e2e4")], seed=1).lines)
    deadline = time.monotonic() + 60
    while board.moves() != ["e2e4"]:
        assert time.monotonic() < deadline, "the board never took e2e4"
        with board.changed:
            board.changed.wait(0.2)


def test_a_program_that_is_no_uci_engine_is_one_line_and_the_game_stays() -> None:
    with RunningBoard() as board:
        play_e4(board)
        result = subprocess.run(
            host_command("play", "--engine", "/bin/cat", "--port", board.port),
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        moves = board.moves()
    assert result.returncode == 1
    assert result.stderr == (
        "reedboard-host play: /bin/cat is not a UCI engine: no uciok within 5 s\n"
    )
    assert moves == ["e2e4"]  # the board's game is untouched


@pytest.mark.skipif(STOCKFISH is None, reason="needs stockfish (apt-get install stockfish)")
def test_a_game_under_way_is_replaced_only_when_asked(
    processes: list[subprocess.Popen[str]],
) -> None:
    with RunningBoard() as board:
        play_e4(board)
        refused = subprocess.run(
            host_command("play", "--level", "0", "--port", board.port),
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert board.moves() == ["e2e4"]
        play = subprocess.Popen(
            host_command("play", "--new", "--level", "3", "--color", "black", "--name", "Ada",
                         "--movetime-ms", "50", "--port", board.port),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        processes.append(play)
        deadline = time.monotonic() + 60
        while not (board.view is not None and board.view.hint is not None):
            assert play.poll() is None, play.communicate()[1]
            assert time.monotonic() < deadline, "the engine's move never lit up"
            with board.changed:
                board.changed.wait(0.2)
        play.send_signal(signal.SIGINT)
        out, err = play.communicate(timeout=30)
    assert refused.returncode == 1
    assert refused.stderr == (
        "reedboard-host play: a game is under way on the board (1 plies): finish it, or give "
        "--new to replace it\n"
    )
    assert play.returncode == 0, err
    assert "the game under way on the board (1 plies) is replaced" in err
    game = chess.pgn.read_game(__import__("io").StringIO(out))
    assert game is not None and not game.errors
    assert game.headers["White"].startswith("Stockfish")
    assert game.headers["White"].endswith("(level 3)")
    assert game.headers["Black"] == "Ada"
