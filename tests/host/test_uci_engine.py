"""`reedboard-host uci`: the board as a UCI engine, with python-chess as the chess GUI. The
GUI plays random moves as White; each lights up on a running board, the person (the human
model) carries it out and answers with a move of their own as Black, which the GUI gets as
the engine's `bestmove`."""

from __future__ import annotations

import random
import subprocess
import threading
import time

import chess
import chess.engine
from reedboard.rules.position import Position
from reedboard.sim.human import human_script

from host.running_board import RunningBoard, host_command, next_move

PLIES = 10


def _gui(port: str, rng: random.Random, board: chess.Board, errors: list[BaseException]) -> None:
    try:
        with chess.engine.SimpleEngine.popen_uci(
            host_command("uci", "--port", port), timeout=20
        ) as engine:
            assert engine.id["name"] == "reedboard"
            while len(board.move_stack) < PLIES and not board.is_game_over():
                # No underpromotion: the person on the board promotes to a queen.
                legal = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
                board.push(rng.choice(legal))
                if board.is_game_over():
                    break
                result = engine.play(board, chess.engine.Limit(time=15))
                assert result.move is not None
                board.push(result.move)
    except BaseException as error:  # handed to the test's thread, which asserts on it
        errors.append(error)


def test_a_gui_plays_the_person_at_the_board() -> None:
    rng = random.Random(8)
    gui_board = chess.Board()
    errors: list[BaseException] = []
    with RunningBoard(speed=20) as board:
        gui = threading.Thread(target=_gui, args=(board.port, rng, gui_board, errors))
        gui.start()
        acted_on: str | None = None
        deadline = time.monotonic() + 60
        while gui.is_alive() and time.monotonic() < deadline:
            with board.changed:
                board.changed.wait(0.2)  # until the board shows something new
            view = board.quiet_view()
            if view is None or view.result is not None:
                continue
            if view.fen == acted_on or (view.turn_white and view.hint is None):
                continue  # the GUI's move is not lit yet
            position = Position.from_fen(view.fen)
            move = next_move(position, view.hint if view.turn_white else None, rng)
            board.live.push(human_script(position, [move], seed=rng.randrange(1 << 30)).lines)
            acted_on = view.fen
        gui.join(30)
        played = board.moves()
    assert not errors, errors
    assert not gui.is_alive()
    assert len(gui_board.move_stack) >= PLIES or gui_board.is_game_over()
    assert [m.uci() for m in gui_board.move_stack] == played


def test_odd_input_is_ignored_and_quit_ends_it() -> None:
    # No board on the port: the UCI side still answers at once and survives any line.
    lines = [
        "uci",
        "",
        "bogus command",
        "position fen not a fen",
        "position startpos moves e2e5",
        "go",
        "setoption name UCI_Chess960 value true",
        "setoption",
        "position",
        "isready",
        "quit",
    ]
    result = subprocess.run(
        host_command("uci", "--port", "/no/such/board"),
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=20,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == "id name reedboard"
    assert "uciok" in out
    assert "bestmove 0000" in out  # `go` from a position it could not read
    assert out[-1] == "readyok"
    assert "Traceback" not in result.stderr
