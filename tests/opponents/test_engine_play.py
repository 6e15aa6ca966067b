"""How the engine plays, as values: its options, its time, and openings that differ."""

from __future__ import annotations

import os
import random

import pytest
from reedboard.opponents.engine_play import (
    VARIED_PLIES,
    EngineSettings,
    go_limits,
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


def test_a_timed_game_gives_the_engine_both_clocks_and_the_increment() -> None:
    black = EngineSettings(side="black")
    limits, longest = go_limits(black, (250_000, 240_000), "5+3")
    assert limits == "wtime 250000 btime 240000 winc 3000 binc 3000"
    assert longest == 240_000 // 30 + 3000
    # Before the first move: each side's whole time.
    assert go_limits(black, None, "5+3")[0] == "wtime 300000 btime 300000 winc 3000 binc 3000"
    assert go_limits(black, (1000, 20), "1+0")[1] == 50  # never less than a blink


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
