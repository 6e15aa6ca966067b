"""Helpers shared by the human-model tests."""

from __future__ import annotations

import random
from dataclasses import replace

from reedboard.reader.mode import Mode
from reedboard.rules.position import Position
from reedboard.sim.games import greedy_game, random_game
from reedboard.sim.human import HumanScript, human_script
from reedboard.sim.settings import HumanSettings

# Every order plain and every slip off: the baseline the behaviour families build on.
CLEAN = replace(
    HumanSettings().without_noise(),
    fast_reply=0.0,
    capture_victim_first=0.0,
    capture_fast_swap=0.0,
    ep_capturer_placed_first=0.0,
    ep_victim_first=0.0,
    castle_both_lifted=0.0,
    castle_rook_first=0.0,
    castle960_king_first=0.0,
    castle960_natural=0.0,
    slide=0.0,
    promotion_exchange=0.0,
    arrive_first=0.0,
    promotion_piece_first=0.0,
)


def sample_script(
    seed: int,
    *,
    chess960: bool,
    greedy: bool,
    mode: Mode = "casual",
    settings: HumanSettings | None = None,
    plies: int = 60,
) -> HumanScript:
    rng = random.Random(seed)
    start = Position.chess960_start(rng.randrange(960)) if chess960 else Position.standard()
    game = (greedy_game if greedy else random_game)(start, rng, plies)
    return human_script(
        game.start, game.moves, seed, mode=mode, settings=settings or HumanSettings()
    )
