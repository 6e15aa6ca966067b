"""`reedboard run --opponent`: the board plays the engine itself, or says in one line
why it cannot read the opponent asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.cli import main


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "run", "--fake", *args],
        capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


@pytest.mark.skipif(not os.access("/usr/games/stockfish", os.X_OK), reason="needs stockfish")
def test_the_engine_playing_white_lights_its_first_move(tmp_path: Path) -> None:
    script = tmp_path / "wait.events"
    script.write_text("@start standard\n3000 lift a2\n3300 place a2\n")
    done = run("--script", str(script), "--until-done", "--opponent", "engine:5:white")
    assert done.returncode == 0, done.stderr
    assert "the opponent: Stockfish level 5, playing white" in done.stderr
    assert "carry it out on the board" in done.stderr


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
