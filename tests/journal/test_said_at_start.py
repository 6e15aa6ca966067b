"""What the journal leaves behind is said, one line each, never in silence: a journal that
holds more than one unfinished game (the others are not resumed), and a game left
unfinished for a new one (kept as abandoned); both say how to take the game up again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from reedboard.app import App
from reedboard.app_ports import Sensing
from reedboard.cli import main
from reedboard.hal.clock import VirtualClock
from reedboard.journal.opening import open_journal
from reedboard.journal.store import Journal
from reedboard.link.messages import parse_command
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.fen import STARTING_FEN


def _two_unfinished(path: Path) -> None:
    with Journal(path) as journal:
        for moves in (["e2e4", "e7e5", "g1f3"], ["d2d4"]):
            game_id = journal.start_game(
                STARTING_FEN, chess960=False, variant="standard", mode="casual"
            )
            for ply, uci in enumerate(moves, start=1):
                journal.append_move(game_id, ply, uci, ply * 1000)
    db = sqlite3.connect(path)  # as a board that lost the write closing game 1 leaves it
    db.execute("UPDATE games SET result = NULL, reason = NULL, finished_at = NULL")
    db.commit()
    db.close()


def test_a_second_unfinished_game_is_said_with_how_to_resume_the_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.journal"
    _two_unfinished(path)
    with open_journal(path) as journal:
        current = journal.current()
        assert current is not None and current.id == 2
    [line] = caplog.messages
    assert "holds 2 unfinished games: game 2 (1 plies) is resumed, game 1 (3 plies) left" in line
    assert f"`reedboard journal resume {path} --game N`" in line
    assert main(["journal", "resume", str(path), "--game", "1", "--journal", str(path)]) == 0
    assert "game 2 (1 plies) there is kept as abandoned" in capsys.readouterr().out
    with Journal(path) as journal:
        current = journal.current()
        assert current is not None and [m.uci for m in current.moves] == ["e2e4", "e7e5", "g1f3"]


def test_a_game_left_for_a_new_one_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = parse_script("@start standard\n1000 lift e2\n1400 place e4\n")
    board = scripted_board(script)
    with Journal(tmp_path / "board.journal") as journal:
        app = App(Sensing(board, source=board), VirtualClock(), journal=journal)
        for now in range(0, 3000, 5):
            app.step(now)
        first = app.game_id
        app.local_command(parse_command({"type": "new_game"}), 3000)
        assert app.game_id != first
    [line] = [m for m in caplog.messages if "left unfinished" in m]
    assert f"game {first} was left unfinished after 1 plies for a new game" in line
    assert f"--game {first}`" in line


def test_a_new_game_after_a_finished_one_says_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]  # fool's mate
    lines, t = ["@start standard"], 1000
    squares = {"f2f3": ("f2", "f3"), "e7e5": ("e7", "e5"), "g2g4": ("g2", "g4"),
               "d8h4": ("d8", "h4")}  # fmt: skip
    for uci in moves:
        lift, place = squares[uci]
        lines += [f"{t} lift {lift}", f"{t + 400} place {place}"]
        t += 1500
    board = scripted_board(parse_script("\n".join(lines) + "\n"))
    with Journal(tmp_path / "board.journal") as journal:
        app = App(Sensing(board, source=board), VirtualClock(), journal=journal)
        for now in range(0, t + 2000, 5):
            app.step(now)
        assert app.board_game is not None and app.board_game.game.is_game_over()
        app.local_command(parse_command({"type": "new_game"}), t + 2000)
    assert not [m for m in caplog.messages if "left unfinished" in m]
