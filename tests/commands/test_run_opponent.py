"""`reedboard run --opponent`: the board plays the engine itself, or says in one line
why it cannot read the opponent asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.cli import main

from tests.children import child, stop


@pytest.mark.skipif(not os.access("/usr/games/stockfish", os.X_OK), reason="needs stockfish")
def test_the_engine_playing_white_lights_its_first_move(tmp_path: Path) -> None:
    # The board is stopped once it has shown the engine's move, however long Stockfish took
    # to start: a script that ended 3 s in was over before a loaded machine had started it.
    # The script's two minutes only bound a board whose engine never moves.
    script = tmp_path / "wait.events"
    script.write_text("@start standard\n120000 lift a2\n120300 place a2\n")
    # The board's page is left off: not this test's subject, and half a second of CPU.
    command = [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
               "--web", "off"]  # fmt: skip
    told: list[str] = []
    with child(
        [*command, "--until-done", "--opponent", "engine:5:white"],
        stderr=subprocess.PIPE,
        text=True,
    ) as board:
        assert board.stderr is not None
        for line in board.stderr:  # until the move is shown, or the board ends
            told.append(line)
            if "carry it out on the board" in line:
                break
        assert stop(board) == 0, "".join(told)
    assert "the opponent: Stockfish level 5, playing white" in "".join(told)
    assert "carry it out on the board" in told[-1], "".join(told)


def test_an_opponent_that_cannot_be_read_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # In this process: the opponent is read before any board is made.
    try:
        status: object = main(["run", "--fake", "--opponent", "engine:25"])
    except SystemExit as exit_:  # argparse's refusal
        status = exit_.code
    assert status == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "reedboard run: opponent 'engine:25': '25' is not in 1..20 (person, engine, "
        "engine:LEVEL (1-20), engine:elo=RATING, each engine with :white or :black; "
        "lichess (docs/opponents.md))"
    ]
