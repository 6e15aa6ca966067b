"""Playing a human script through the board's own replay path and reading the verdict:
which moves the arbiter committed, ply by ply against the game's."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.events import Effect, MoveMade
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.squares import SQUARE_NAMES
from reedboard.sim.human import HumanScript

_SQUARE_INDEX = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def replay_human(script: HumanScript, settle_ms: int) -> list[Effect]:
    run = Replay(Game(script.start), mode=script.mode, settle_ms=settle_ms)
    for t_ms, action, argument in script.lines:
        if action == "choose":
            run.choose(argument, t_ms)
        else:
            run.sensor(_SQUARE_INDEX[argument], action == "place", t_ms)
    run.finish(script.end_ms)
    return run.effects


@dataclass(frozen=True)
class Verdict:
    committed: tuple[MoveMade, ...]
    exact: int  # leading plies recognised exactly
    false: int  # committed moves that are not the game's
    missed: int  # game moves the board never committed

    @property
    def ok(self) -> bool:
        return self.false == 0 and self.missed == 0


def judge(script: HumanScript, effects: list[Effect]) -> Verdict:
    """Compare ply by ply: after the first difference nothing more can be right, so the
    rest of the committed moves count as false and the rest of the game's as missed."""
    committed = tuple(e for e in effects if isinstance(e, MoveMade))
    exact = 0
    for made, expected in zip(committed, script.ucis, strict=False):
        if made.uci != expected:
            break
        exact += 1
    return Verdict(committed, exact, len(committed) - exact, len(script.ucis) - exact)
