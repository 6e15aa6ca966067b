"""The whole games a fake board plays: the shipped demo games replay to the moves their
comments name, whole (the game ends where it ended), and a seed names one random game."""

from __future__ import annotations

from pathlib import Path

import pytest
from reedboard.sim.whole_games import DEMO_GAMES, DemoGame, random_game_script

from tests.reader.support import moves, replay

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "relay-demo"


def expected_moves(text: str) -> list[str]:
    line = next(x for x in text.splitlines() if x.startswith("# Expected moves:"))
    return line.split(":", 1)[1].split()


def test_every_demo_game_is_shipped() -> None:
    shipped = sorted(p.stem for p in FOLDER.glob("*.events"))
    assert shipped == sorted(demo.name for demo in DEMO_GAMES)


@pytest.mark.parametrize("demo", DEMO_GAMES, ids=[d.name for d in DEMO_GAMES])
def test_a_shipped_game_replays_to_its_moves_and_ends(demo: DemoGame) -> None:
    text = (FOLDER / f"{demo.name}.events").read_text(encoding="utf-8")
    effects = replay(text)
    expected = expected_moves(text)
    assert moves(effects) == expected
    assert len(expected) >= 30, "a whole game, not an opening"
    # Whole: the game the comment names ends on the board (mate, a draw by the rules).
    assert effects[-1]["event"] == "game_over", effects[-1]


def test_the_opera_game_ends_in_morphys_mate() -> None:
    effects = replay((FOLDER / "opera-game.events").read_text(encoding="utf-8"))
    sans = [e["san"] for e in effects if e["event"] == "move"]
    assert sans[-1] == "Rd8#" and len(sans) == 33
    assert effects[-1]["result"] == "1-0"


def test_a_seed_names_one_random_game_that_the_board_reads_whole() -> None:
    first = random_game_script(11, max_plies=40)
    assert first.text() == random_game_script(11, max_plies=40).text()
    assert first.ucis != random_game_script(12, max_plies=40).ucis
    assert len(first.ucis) == 40
    assert moves(replay(first.text())) == list(first.ucis)


def test_the_commands_random_game_length_is_the_models() -> None:
    # `reedboard run --help` shows the default without loading the model: one number, kept
    # in two places, equal.
    from reedboard.commands import run_options
    from reedboard.sim import whole_games

    assert run_options.RANDOM_GAME_PLIES == whole_games.RANDOM_GAME_PLIES
