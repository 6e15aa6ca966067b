"""How the engine plays, as values: its options, its time, and openings that differ."""

from __future__ import annotations

import os
import random

import pytest
from reedboard.opponents.engine_play import (
    VARIED_PLIES,
    EngineSettings,
    go_limits,
    level_ceiling_ms,
    margin_cp,
    pick,
    uci_options,
)
from reedboard.opponents.thinker import EngineThread, Question
from reedboard.opponents.uci_engine import Thought
from reedboard.rules.fen import STARTING_FEN

LINES = Thought("e2e4", (("e2e4", 40), ("d2d4", 35), ("c2c4", 20), ("a2a3", -80)))


def test_a_level_is_a_skill_level_and_a_rating_limits_the_strength() -> None:
    assert ("Skill Level", 5) in uci_options(EngineSettings(level=5))
    rated = uci_options(EngineSettings(elo=1800))
    assert ("UCI_LimitStrength", "true") in rated and ("UCI_Elo", 1800) in rated
    assert not [name for name, _ in rated if name == "Skill Level"]
    assert ("UCI_Elo", 1320) in uci_options(EngineSettings(elo=900))  # Stockfish's lowest


def test_low_levels_draw_their_opening_moves_among_the_near_best() -> None:
    weak = EngineSettings(level=5)
    drawn = {pick(LINES, weak, 0, random.Random(seed)) for seed in range(40)}
    assert drawn == {"e2e4", "d2d4", "c2c4"}  # a2a3 is a full pawn worse: never
    assert pick(LINES, weak, VARIED_PLIES, random.Random(1)) == "e2e4"  # past the opening
    full = EngineSettings(level=20)
    assert {pick(LINES, full, 0, random.Random(s)) for s in range(40)} == {"e2e4"}
    assert margin_cp(EngineSettings(level=1)) > margin_cp(weak) > margin_cp(full)


def test_the_same_seed_draws_the_same_moves() -> None:
    weak = EngineSettings(level=3)
    first = [pick(LINES, weak, 0, random.Random(9)) for _ in range(5)]
    assert first == [pick(LINES, weak, 0, random.Random(9)) for _ in range(5)]


def test_an_untimed_game_takes_the_fixed_time_a_move() -> None:
    assert go_limits(EngineSettings(movetime_ms=700), None, None) == ("movetime 700", 700)


def test_full_strength_in_a_timed_game_manages_its_clock_within_a_share() -> None:
    full = EngineSettings(level=20, side="black")
    limits, longest = go_limits(full, (250_000, 240_000), "5+3")
    share = 240_000 // 30 + 3000
    assert limits == f"wtime 250000 btime 240000 winc 3000 binc 3000 movetime {share}"
    assert longest == share
    # Before the first move: each side's whole time.
    first = "wtime 300000 btime 300000 winc 3000 binc 3000 movetime 13000"
    assert go_limits(full, None, "5+3") == (first, 13_000)
    # A top rating is full strength too.
    assert go_limits(EngineSettings(elo=3190), None, "5+3")[0].startswith("wtime ")


def test_a_weak_level_answers_in_seconds_whatever_the_clock() -> None:
    for control in ("5+3", "15+10", "90/40:30+30"):
        assert go_limits(EngineSettings(level=1), None, control) == ("movetime 1000", 1000)
        assert go_limits(EngineSettings(level=5), None, control) == ("movetime 2000", 2000)
    assert go_limits(EngineSettings(level=19), None, "90+30") == ("movetime 16000", 16000)
    assert go_limits(EngineSettings(elo=1320), None, "5+3") == ("movetime 1000", 1000)


def test_the_ceiling_grows_with_the_level() -> None:
    ceilings = [level_ceiling_ms(EngineSettings(level=level)) for level in range(1, 21)]
    known = [c for c in ceilings if c is not None]
    assert known == sorted(known) and known[0] == 1000 and ceilings[-1] is None


def test_a_short_clock_caps_even_a_strong_level() -> None:
    # 1+0: a thirtieth of a minute is 2 s, under level 19's 16 s.
    assert go_limits(EngineSettings(level=19), None, "1+0") == ("movetime 2000", 2000)
    # Level 5 at 1+0 keeps its own 2 s; with 30 s left, a thirtieth is 1 s.
    assert go_limits(EngineSettings(level=5, side="white"), (30_000, 60_000), "1+0")[1] == 1000


def test_low_time_left_never_spends_the_clock() -> None:
    black = EngineSettings(level=5, side="black")
    # 1 s left and 3 s increment: the increment comes after the move, so half of 1 s.
    assert go_limits(black, (60_000, 1000), "5+3") == ("movetime 500", 500)
    assert go_limits(black, (60_000, 20), "1+0") == ("movetime 50", 50)  # never less
    assert go_limits(EngineSettings(level=20), (1000, 20), "1+0")[1] == 50


@pytest.mark.skipif(not os.access("/usr/games/stockfish", os.X_OK), reason="needs stockfish")
def test_games_at_a_low_level_open_differently_with_stockfish() -> None:
    weak = EngineSettings(level=3)
    thread = EngineThread(weak)
    try:
        thread.ask(Question("k", STARTING_FEN, ("e2e4",), "movetime 200", 200, multi_pv=4))
        assert thread.wait(30)
        [answer] = thread.answers()
    finally:
        thread.close()
    assert answer.thought is not None and len(answer.thought.lines) == 4
    replies = {pick(answer.thought, weak, 1, random.Random(seed)) for seed in range(20)}
    assert len(replies) >= 2
