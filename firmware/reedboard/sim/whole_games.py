"""Whole games as a fake board's hands play them: a seeded random legal game, and the
games shipped under docs/relay-demo/, all turned into event scripts by the human model.

A fake board that plays one of these lasts as long as a real game, so a relay or a host
shown on it has something to follow; a seed names a game for good."""

from __future__ import annotations

import random
from dataclasses import dataclass

from reedboard.reader.mode import Mode
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.games import greedy_game, random_game
from reedboard.sim.human import HumanScript, human_script

RANDOM_GAME_PLIES = 160  # a random game rarely ends by itself: cut it off here


def random_game_script(seed: int, *, max_plies: int = RANDOM_GAME_PLIES) -> HumanScript:
    """A random legal game from the standard start, chosen and played by the human model
    from one seed (`reedboard run --fake --random-game SEED`)."""
    game = random_game(Position.standard(), random.Random(seed), max_plies)
    return human_script(game.start, game.moves, seed)


# Morphy against the Duke of Brunswick and Count Isouard, Paris 1858: mate in 17 moves.
OPERA_GAME = (
    "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 "
    "Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"
)


@dataclass(frozen=True)
class DemoGame:
    """One shipped game: its file name, what its comment says, and how it is made."""

    name: str
    comment: str
    seed: int
    mode: Mode = "casual"
    san: str = ""  # a game given move by move; empty: a greedy game from the seed
    chess960: bool = False

    def game(self) -> Game:
        if self.san:
            game = Game(Position.standard())
            for move in self.san.split():
                game.push_san(move)
            return game
        rng = random.Random(self.seed)
        start = (
            Position.chess960_start(rng.randrange(960)) if self.chess960 else Position.standard()
        )
        return greedy_game(start, rng, max_plies=200)

    def script(self) -> HumanScript:
        game = self.game()
        return human_script(game.start, game.moves, self.seed, mode=self.mode)

    def text(self) -> str:
        return self.script().text(self.comment)


DEMO_GAMES = (
    DemoGame("opera-game", "Morphy's Opera game, Paris 1858, played by the human model.", 1858,
             san=OPERA_GAME),
    DemoGame("greedy-strict", "A greedy game in strict mode, played by the human model.", 7,
             mode="strict"),
    DemoGame("greedy-chess960", "A greedy Chess960 game, played by the human model.", 960,
             chess960=True),
)  # fmt: skip
