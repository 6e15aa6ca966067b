"""Benchmark: writing one 60-ply game's PGN, as a relay does many times a second.

    python bench/pgn_write.py [--runs N] [--number N]

Four cases: a standard game and a Chess960 game, each with its moves' SAN given (as the
relay gives them: it keeps each board's SAN) and worked out by the writer. Prints, for
each, the median over `--runs` runs (default 9) of `timeit` timing `--number` calls
(default 2,000), in µs of this process's CPU time a call (other work on the machine
does not count). The games are random legal games from fixed seeds, so the
same file measures any version of the writer (run it with another tree first on
`PYTHONPATH` to compare).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit
from collections.abc import Callable
from functools import partial

from reedboard.rules.game import Game
from reedboard.rules.pgn import write_pgn
from reedboard.rules.position import Position
from reedboard.sim.games import random_game

PLIES = 60
CHESS960_START = Position.chess960_start(123)
HEADERS = {"Event": "Club night", "White": "Ann", "Black": "Bob", "Round": "3"}


def game_of(start: Position, plies: int = PLIES) -> Game:
    """The first random game from seed 1 on that lasts `plies` plies."""
    seed = 1
    while True:
        game = random_game(start, random.Random(seed), max_plies=plies)
        if len(game) == plies:
            return game
        seed += 1


def median_us(call: Callable[[], object], runs: int, number: int) -> float:
    times = timeit.repeat(call, timer=time.process_time, number=number, repeat=runs)
    return statistics.median(times) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--number", type=int, default=2_000)
    args = parser.parse_args()
    games = {"standard": game_of(Position.standard()), "Chess960": game_of(CHESS960_START)}
    for name, game in games.items():
        sans = game.san_moves()
        with_sans = median_us(partial(write_pgn, game, HEADERS, sans=sans), args.runs, args.number)
        alone = median_us(partial(write_pgn, game, HEADERS), args.runs, args.number)
        print(
            f"{name:9} {PLIES} plies: {with_sans:7.1f} µs with its SAN given, "
            f"{alone:7.1f} µs working out its SAN (medians of {args.runs} x {args.number})"
        )


if __name__ == "__main__":
    main()
