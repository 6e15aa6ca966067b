"""Generated scripts are event scripts that `reedboard replay` reads, and their sensor
changes agree with the game they play."""

from __future__ import annotations

import pytest
from reedboard.replay.script import parse_script
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sim.settings import HumanSettings

from .support import sample_script

CASES = [
    (seed, seed % 3 == 0, seed % 2 == 0, "strict" if seed % 4 == 1 else "casual")
    for seed in range(24)
]


@pytest.mark.parametrize(("seed", "chess960", "greedy", "mode"), CASES)
def test_script_parses_and_ends_in_the_final_position(
    seed: int, chess960: bool, greedy: bool, mode: str
) -> None:
    hs = sample_script(seed, chess960=chess960, greedy=greedy, mode=mode)  # type: ignore[arg-type]
    script = parse_script(hs.text())  # raises on any inconsistent lift or place
    assert script.start.fen() == hs.start.fen()
    assert script.mode == mode
    assert len(script.lines) == len(hs.lines)
    game = Game(hs.start)
    for uci in hs.ucis:
        game.push(game.position.parse_uci(uci))
    occupancy = hs.start.occupied
    for line in script.lines:
        if line.action != "choose":
            occupancy ^= 1 << line.square
    assert occupancy == game.position.occupied


@pytest.mark.parametrize("seed", range(12))
def test_decisive_times_are_real_changes_in_order(seed: int) -> None:
    hs = sample_script(seed, chess960=seed % 2 == 1, greedy=True)
    assert len(hs.decisive_ms) == len(hs.ucis) == len(hs.tags)
    times = [t for t, action, _ in hs.lines if action != "choose"]
    assert times == sorted(times)
    assert hs.decisive_ms == tuple(sorted(hs.decisive_ms))
    assert set(hs.decisive_ms) <= set(times)


def test_the_seed_names_the_script() -> None:
    one = sample_script(7, chess960=True, greedy=False)
    again = sample_script(7, chess960=True, greedy=False)
    assert (again.lines, again.ucis, again.decisive_ms) == (one.lines, one.ucis, one.decisive_ms)
    assert sample_script(8, chess960=True, greedy=False).lines != one.lines


def test_underpromotion_is_chosen_by_the_host_before_the_move() -> None:
    seen = 0
    for seed in range(40):
        hs = sample_script(seed, chess960=False, greedy=True, plies=120)
        chooses = [line for line in hs.lines if line[1] == "choose"]
        under = [uci for uci in hs.ucis if len(uci) == 5 and uci[4] != "q"]
        assert [c[2] for c in chooses] == [uci[4] for uci in under]
        seen += len(under)
    assert seen > 0


def test_bounce_never_changes_the_final_state_of_a_square() -> None:
    clean = sample_script(3, chess960=False, greedy=True, settings=HumanSettings(bounce=0.0))
    bouncy = sample_script(3, chess960=False, greedy=True, settings=HumanSettings(bounce=1.0))
    assert bouncy.ucis == clean.ucis
    assert len(bouncy.lines) > len(clean.lines)
    final = bouncy.start.occupied
    for _t, action, square in bouncy.lines:
        if action != "choose":
            final ^= 1 << parse_square(square)
    game = Game(bouncy.start)
    for uci in bouncy.ucis:
        game.push(game.position.parse_uci(uci))
    assert final == game.position.occupied


def test_waypoints_rest_20_to_150_ms_on_empty_squares() -> None:
    hs = sample_script(
        5,
        chess960=False,
        greedy=False,
        settings=HumanSettings(slide=1.0, bounce=0.0, flicker=0.0, fast_reply=0.0, knock=0.0),
    )
    placed: dict[str, int] = {}
    rests = []
    for t, action, square in hs.lines:
        if action == "place":
            placed[square] = t
        elif action == "lift" and square in placed:
            rests.append(t - placed.pop(square))
    short = [r for r in rests if r <= 150]
    assert short, "no waypoint at all"
    assert min(short) >= 20
