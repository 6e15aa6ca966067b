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


def _added(script: HumanScript, base: HumanScript) -> list[int]:
    """The indices of the lines `script` adds to `base` (whose lines it keeps in order,
    some later)."""
    added, at = [], 0
    for index, line in enumerate(script.lines):
        if at < len(base.lines) and line[1:] == base.lines[at][1:]:
            assert line.t_ms >= base.lines[at].t_ms
            at += 1
        else:
            added.append(index)
    assert at == len(base.lines)
    return added


def test_knocks_by_hand_are_put_back_slowly_before_the_piece_is_set_down() -> None:
    # Each knock: a square lifted while the moving piece is in the hand, put back
    # 250 ms-1.5 s later, and the next placement elsewhere (the piece in the hand, or
    # its slide) 20 ms-3 s after it (never with it, nor before).
    knocks = 0
    for seed in range(1, 9):
        base = game_for_seed(seed, SETTINGS.without_noise())
        script = FAMILIES["knock_by_hand"](base, random.Random(seed), SETTINGS.settle_ms)
        if script is None:
            continue
        added = _added(script, base)
        lines = script.lines
        for lift, back in zip(added[::2], added[1::2], strict=True):
            assert (lines[lift].action, lines[back].action) == ("lift", "place")
            assert lines[lift].what == lines[back].what
            assert 250 <= lines[back].t_ms - lines[lift].t_ms <= 1500
            after = next(x for x in lines[back + 1 :] if x.action == "place")
            assert 20 <= after.t_ms - lines[back].t_ms <= 3000
            knocks += 1
    assert knocks > 20
