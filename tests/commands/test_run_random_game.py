"""`reedboard run --fake --random-game SEED`: a fake board plays, by itself, the random
legal game the seed names, through the human model's hands and the board's own code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reedboard.sim.whole_games import random_game_script

BIN = Path(sys.executable).parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "reedboard"), "run", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_the_board_plays_the_seeds_game_to_its_end() -> None:
    done = run("--fake", "--random-game", "5", "--plies", "12", "--speed", "10", "--until-done")
    assert done.returncode == 0, done.stderr
    effects = [json.loads(line) for line in done.stdout.splitlines()]
    played = [e["uci"] for e in effects if e["event"] == "move"]
    assert played == list(random_game_script(5, max_plies=12).ucis)
    assert len(played) == 12


def test_a_random_game_needs_a_fake_board_and_no_script() -> None:
    alone = run("--random-game", "5")
    assert alone.returncode == 2 and "need --fake" in alone.stderr
    both = run("--fake", "--random-game", "5", "--script", "game.events")
    assert both.returncode == 2 and "not both" in both.stderr
    bad = run("--fake", "--random-game", "five")
    assert bad.returncode == 2 and "--random-game" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
