"""The families of real hands' situations (reedboard.sim.episodes): their scripts are
consistent, and the board reads every game of them exactly (its takebacks undone)."""

from __future__ import annotations

import random

import pytest
from reedboard.reader.mode import Mode
from reedboard.rules.position import Position
from reedboard.sim.check import replay_human
from reedboard.sim.episodes import FAMILIES, check_lines, net_moves
from reedboard.sim.games import random_game
from reedboard.sim.human import HumanScript, human_script
from reedboard.sim.settings import HumanSettings

SETTINGS = HumanSettings()
SEEDS = range(1, 400)
GAMES = 8  # per family: the first seeds whose games show it
# Of seeds 1-399, only these play a castling with king and rook both in the hand, which
# `same_scan` needs: searching all of them played 399 games' hands (7 s of CPU) to find
# the same four, so the search is written down (and each must still show it).
SEEDS_OF = {"same_scan": (135, 319, 354, 364)}


def game_for_seed(seed: int, settings: HumanSettings) -> HumanScript:
    """A random game, casual or strict by seed, played by clean hands."""
    rng = random.Random(seed)
    mode: Mode = "strict" if seed % 2 else "casual"
    game = random_game(Position.standard(), rng, 80)
    return human_script(game.start, game.moves, seed, mode=mode, settings=settings)


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_is_read_exactly(family: str) -> None:
    played = 0
    listed = SEEDS_OF.get(family)
    for seed in SEEDS if listed is None else listed:
        base = game_for_seed(seed, SETTINGS.without_noise())
        script = FAMILIES[family](base, random.Random(seed), SETTINGS.settle_ms)
        if script is None:
            assert listed is None, f"seed {seed} no longer shows {family}"
            continue
        check_lines(script)
        assert script.lines != base.lines, "the family changed nothing"
        made = [m.uci for m in net_moves(replay_human(script, SETTINGS.settle_ms))]
        assert made == list(script.ucis), script.text(f"{family} seed {seed}")
        played += 1
        if played == GAMES:
            break
    assert played, f"no game of the first seeds shows {family}"
