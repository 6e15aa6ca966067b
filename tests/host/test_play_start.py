"""How `reedboard-host play` starts: the engine must be a UCI engine before the board is
touched, a game under way is replaced only when asked, and the PGN names the players. On
the board and host pair in memory (the engines are real programs)."""

from __future__ import annotations

import io
import logging
import shutil

import chess.pgn
import pytest
from reedboard.opponents.uci_engine import EngineError
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.cli import build_parser
from reedboard_host.connection import HostError
from reedboard_host.follow import Follower
from reedboard_host.play import play

from tests.support.board_pair import BoardPair
from tests.support.logged import logged

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
LIMIT_MS = 600_000  # a bound in the pair's board time for a stuck run, never a wait


def play_e4(pair: BoardPair) -> None:
    """The person plays 1. e4 on the board, and the board has it."""
    start = Position.standard()
    pair.push(human_script(start, [start.parse_uci("e2e4")], seed=1).lines)
    pair.run_until(lambda: pair.moves() == ["e2e4"], "e2e4 on the board")


def _follower(pair: BoardPair) -> Follower:
    return Follower("memory", open_port=pair.open_port, clock=pair.host_clock)


def test_a_program_that_is_no_uci_engine_is_one_line_and_the_game_stays() -> None:
    pair = BoardPair()
    play_e4(pair)
    args = build_parser().parse_args(["play", "--engine", "/bin/cat"])
    with pytest.raises(EngineError) as raised:
        play(args, follower=_follower(pair))
    assert str(raised.value) == "/bin/cat is not a UCI engine: no uciok within 5 s"
    assert pair.answered == []  # the board was never asked anything
    assert pair.moves() == ["e2e4"]  # the board's game is untouched


@pytest.mark.skipif(STOCKFISH is None, reason="needs stockfish (apt-get install stockfish)")
def test_a_game_under_way_is_replaced_only_when_asked(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    pair = BoardPair()
    play_e4(pair)
    refused = build_parser().parse_args(["play", "--level", "0"])
    with pytest.raises(HostError) as raised:
        play(refused, follower=_follower(pair))
    assert str(raised.value) == (
        "a game is under way on the board (1 plies): finish it, or give --new to replace it"
    )
    assert pair.moves() == ["e2e4"]
    caplog.set_level(logging.INFO, logger="reedboard_host")

    def said() -> list[str]:
        return logged(caplog, "reedboard_host")

    args = build_parser().parse_args(
        ["play", "--new", "--level", "3", "--color", "black", "--name", "Ada",
         "--movetime-ms", "50"]
    )  # fmt: skip

    def stop() -> bool:  # Ctrl-C once the engine's move lights up
        assert pair.clock.now_ms() < LIMIT_MS, said()
        return pair.view is not None and pair.view.hint is not None

    assert play(args, stop=stop, follower=_follower(pair)) == 0
    assert "the game under way on the board (1 plies) is replaced" in said()
    game = chess.pgn.read_game(io.StringIO(capsys.readouterr().out))
    assert game is not None and not game.errors
    assert game.headers["White"].startswith("Stockfish")
    assert game.headers["White"].endswith("(level 3)")
    assert game.headers["Black"] == "Ada"
