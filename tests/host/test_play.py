"""`reedboard-host play`: a person (the human model) plays on the board; the engine's
moves light up and the person carries them out. The program against real Stockfish and a
board on a real pty once; its cases in memory, on the board and host pair."""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.opponents.uci_engine import EngineError
from reedboard.rules.pgn import read_pgn
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.cli import build_parser
from reedboard_host.follow import Follower
from reedboard_host.play import play

from tests.children import child
from tests.host.running_board import RunningBoard, debug_env, host_command, tail
from tests.support.board_pair import BoardPair
from tests.support.logged import logged
from tests.support.person import Person

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
LIMIT_MS = 600_000  # a bound in the pair's board time for a stuck game, never a wait
PLIES = 10  # enough to see both sides move five times; a whole game adds nothing


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
                   stderr=subprocess.PIPE, text=True, env=debug_env()) as play:  # fmt: skip
            # White: their own moves at random, and the engine's moves carried out as lit.
            person = Person(board, rng, white=True)

            def playing() -> bool:
                assert play.poll() is None, play.communicate()[1]
                over = board.view is not None and board.view.result is not None
                return len(board.moves()) < PLIES and not over

            try:
                board.play_along(person.step, playing, still_s=60)
                # A move the person began just as the game reached its length is finished
                # before Ctrl-C, so the board's game is the one to compare with.
                board.wait_until(lambda: board.quiet_view() is not None, "the last move done")
            finally:
                play.send_signal(signal.SIGINT)
                out, err = play.communicate(timeout=30)
        played = board.moves()
        over = board.view is not None and board.view.result is not None
    assert play.returncode == 0, err
    # A game stuck short of its length (Stockfish may mate the random person before it,
    # and that game is over): what the lights showed, what the host said and read (its
    # log at debug), and what went over the board's link last.
    assert len(played) >= PLIES or over, (
        f"{board.view}\n{board.effects[-3:]}\n{tail(err)}\n{board.last_frames()}"
    )
    game = read_pgn(out).game
    assert [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)] == played
    assert "engine plays" in err


def _follower(pair: BoardPair) -> Follower:
    return Follower("memory", open_port=pair.open_port, clock=pair.host_clock)


def _args(*words: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *words])


@pytest.mark.skipif(STOCKFISH is None, reason="needs stockfish (apt-get install stockfish)")
def test_ctrl_c_just_after_a_move_prints_the_game_with_that_move(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Ctrl-C comes after the board has committed the person's move but before the host
    has read it off the line: the PGN printed is still the board's whole game. On the
    pair, the host's `stop` is where the person makes the move: the host reads nothing
    meanwhile."""
    assert STOCKFISH is not None
    args = _args("--engine", STOCKFISH, "--level", "0", "--color", "white")
    pair = BoardPair()
    caplog.set_level(logging.INFO, logger="reedboard_host")

    def said() -> list[str]:
        return logged(caplog, "reedboard_host")

    def stop() -> bool:
        assert pair.clock.now_ms() < LIMIT_MS, said()
        if not any("you play white" in line for line in said()):
            return False
        pair.run_until(lambda: pair.quiet_view() is not None, "a quiet board")
        start = Position.standard()
        pair.push(human_script(start, [start.parse_uci("e2e4")], seed=5).lines)
        pair.run_until(lambda: pair.moves() == ["e2e4"], "the board's e2e4")
        return True  # Ctrl-C

    assert play(args, stop=stop, follower=_follower(pair)) == 0
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


def test_the_engines_underpromotion_is_the_piece_the_board_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """The person carries out the lit pawn move; the board, told which piece the engine
    chose, promotes to it (sensors cannot tell a knight from a queen)."""
    engine = scripted_engine(tmp_path / "engine", ENGINE_MOVES)
    pair = BoardPair()
    # White plays PERSON_MOVES and carries out the engine's moves as lit (a promotion as
    # lifts and places alone: the board is told the piece).
    person = Person(pair, random.Random(1), white=True, script=list(PERSON_MOVES), limit=10)
    pair.watch(person.step)
    caplog.set_level(logging.INFO, logger="reedboard_host")

    def said() -> list[str]:
        return logged(caplog, "reedboard_host")

    def stop() -> bool:
        assert pair.clock.now_ms() < LIMIT_MS, (pair.moves(), said())
        return len(pair.moves()) == 10 and pair.quiet_view() is not None

    args = _args("--engine", str(engine), "--color", "white")
    assert play(args, stop=stop, follower=_follower(pair)) == 0
    assert pair.moves()[-1] == "c2d1n", pair.moves()
    assert not [line for line in said() if "take it back" in line], said()
    assert "cxd1=N" in capsys.readouterr().out


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
    pair = BoardPair()
    args = _args("--engine", str(engine), "--color", "black")
    with pytest.raises(EngineError) as raised:
        play(args, follower=_follower(pair))
    message = str(raised.value)
    assert message.startswith("the engine ") and "\n" not in message
    assert message.endswith("dying-engine stopped (exit status 3)")


def test_the_engines_move_and_the_persons_next_read_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The person carries out the engine's lit move and makes their own next move before
    the host reads the line again (a busy PC): both moves come in one read. The host must
    still see the engine's move was the one lit, and ask the engine for the next one."""
    engine = scripted_engine(tmp_path / "engine", ["e7e5", "b8c6", "g8f6"])
    pair = BoardPair()
    person = Person(pair, random.Random(2), white=True, script=["e2e4", "g1f3", "f1c4"], limit=5)
    pair.watch(person.step)
    caplog.set_level(logging.INFO, logger="reedboard_host")

    def said() -> list[str]:
        return logged(caplog, "reedboard_host")

    def stop() -> bool:
        assert pair.clock.now_ms() < LIMIT_MS, (pair.moves(), said())
        if len(pair.moves()) == 1 and any("engine plays e7e5" in line for line in said()):
            # The host reads nothing while the person carries out e7e5 and plays g1f3.
            pair.run_until(lambda: len(pair.moves()) == 3, "the lit move and the next")
        return len(pair.moves()) >= 6 and pair.quiet_view() is not None

    args = _args("--engine", str(engine), "--color", "white")
    assert play(args, stop=stop, follower=_follower(pair)) == 0
    assert pair.moves() == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]
    assert not [line for line in said() if "take it back" in line], said()


def test_another_move_than_the_lit_one_and_the_next_read_at_once_are_both_taken_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The engine's lit move carried out otherwise, and the person's next move made before
    the host reads the line: the host takes both back and lights the engine's move again."""
    engine = scripted_engine(tmp_path / "engine", ["e7e5", "b8c6"])
    pair = BoardPair()
    person = Person(pair, random.Random(3), white=True, script=["e2e4", "g1f3"], limit=3)
    person.wrong = 1
    pair.watch(person.step)
    done: list[bool] = []
    caplog.set_level(logging.INFO, logger="reedboard_host")

    def said() -> list[str]:
        return logged(caplog, "reedboard_host")

    def stop() -> bool:
        assert pair.clock.now_ms() < LIMIT_MS, (pair.moves(), said())
        if person.plies == 2 and len(pair.moves()) == 1 and not done:
            # The other move than e7e5 is under way: the host reads nothing while it is
            # made and the person then plays their own next move.
            done.append(True)
            pair.run_until(lambda: len(pair.moves()) == 2, "the other move than e7e5")
            pair.run_until(lambda: pair.quiet_view() is not None, "a quiet board")
            assert pair.app.board_game is not None
            position = pair.app.board_game.game.position
            pair.push(human_script(position, [position.parse_uci("b1c3")], seed=6).lines)
            pair.run_until(lambda: len(pair.moves()) == 3, "the person's next move")
        return len(pair.moves()) >= 4 and pair.quiet_view() is not None

    args = _args("--engine", str(engine), "--color", "white")
    assert play(args, stop=stop, follower=_follower(pair)) == 0
    assert pair.moves() == ["e2e4", "e7e5", "g1f3", "b8c6"], (pair.moves(), said())
    [mistake] = person.mistakes
    assert f"{mistake.split()[0]} is not the engine's move e7e5: take it back" in said()
