"""`reedboard run --fake --random-game SEED`: a fake board plays, by itself, the random
legal game the seed names, through the human model's hands and the board's own code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.cli import main
from reedboard.sim.whole_games import random_game_script

BIN = Path(sys.executable).parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "reedboard"), "run", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_the_board_plays_the_seeds_game_to_its_end() -> None:
    done = run(
        "--fake", "--random-game", "5", "--plies", "12", "--speed", "10", "--until-done",
        "--web", "off",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    effects = [json.loads(line) for line in done.stdout.splitlines()]
    played = [e["uci"] for e in effects if e["event"] == "move"]
    assert played == list(random_game_script(5, max_plies=12).ucis)
    assert len(played) == 12


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[object, str]:
    """`reedboard run ARGS` in this process (its arguments are read before any board is
    made): the exit status and what it said on stderr."""
    try:
        status: object = main(["run", *args])
    except SystemExit as exit_:  # argparse's refusal
        status = exit_.code
    return status, capsys.readouterr().err


def test_a_random_game_needs_a_fake_board_and_no_script(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, err = refused(capsys, "--random-game", "5")
    assert status == 2 and "need --fake" in err
    status, err = refused(capsys, "--fake", "--random-game", "5", "--script", "game.events")
    assert status == 2 and "not both" in err
    status, err = refused(capsys, "--fake", "--random-game", "five")
    assert status == 2 and "--random-game" in err
    assert len(err.strip().splitlines()) == 1
