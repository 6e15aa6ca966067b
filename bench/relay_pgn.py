"""Benchmark: the relay's PGN of a board at each of its moves, written whole or grown.

    python bench/relay_pgn.py [--boards N] [--plies N] [--runs N]

`--boards` boards (default 200) each play a random game of `--plies` plies (default
60) with a clock after every ply, as the relay's boards tell them; after each move the
board's PGN is written as the relay serves it (its pairing's tags, the moves' SAN kept
by the relay): whole (`board_pgn`) or grown from the last one (`PgnMemo`). Prints, for
each, the median over `--runs` runs (default 5) of this process's CPU time per move
(the SAN worked out before the clock starts: both use the same), and their ratio.
Games from fixed seeds: the same file measures any version.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import time
from collections.abc import Callable

from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard_host.mirror import MirroredGame
from reedboard_relay.pairings import Pairing
from reedboard_relay.pgn import board_pgn
from reedboard_relay.pgn_memo import PgnMemo
from reedboard_relay.san_memo import SanMemo

DAY = datetime.date(2026, 11, 30)
Writer = Callable[[str, MirroredGame, Pairing, datetime.date, list[str]], str]


def games(boards: int, plies: int) -> list[Game]:
    """One random game a board, of `plies` plies where it lasts that long."""
    return [random_game(Position.standard(), random.Random(seed), plies) for seed in range(boards)]


def cpu_per_move_us(played: list[Game], write: Writer) -> float:
    """Plays every board's game a move a round, writing its PGN after each move."""
    names = [f"b{n}" for n in range(len(played))]
    pairings = [
        Pairing("1", str(n + 1), white=f"White {n}", black=f"Black {n}") for n in range(len(played))
    ]
    mirrored = [MirroredGame(Game(), time_control="90+30") for _ in played]
    sans, spent, moves = SanMemo(), 0.0, 0
    for ply in range(max(len(game) for game in played)):
        for name, game, shown, pairing in zip(names, played, mirrored, pairings, strict=True):
            if ply >= len(game):
                continue
            shown.game.push(game.moves[ply])
            shown.clocks[ply + 1] = (5_400_000 - 20_000 * ply, 5_400_000 - 19_000 * ply)
            known = sans.of(name, shown.game)
            started = time.process_time()
            write(name, shown, pairing, DAY, known)
            spent += time.process_time() - started
            moves += 1
    return spent / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    played = games(args.boards, args.plies)
    whole, grown = [], []
    for _ in range(args.runs):
        whole.append(cpu_per_move_us(played, board_pgn))
        grown.append(cpu_per_move_us(played, PgnMemo().of))
    print(f"{args.boards} boards x {args.plies} plies, median of {args.runs} runs, CPU a move:")
    print(f"  whole: {statistics.median(whole):7.1f} µs")
    print(f"  grown: {statistics.median(grown):7.1f} µs")
    print(f"  ratio: {statistics.median(whole) / statistics.median(grown):7.1f}x")


if __name__ == "__main__":
    main()
