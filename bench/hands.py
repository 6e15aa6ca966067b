"""Benchmark: CPU per scan while many pieces are in the hands.

    python bench/hands.py [--rounds N] [--seed S]

Every place branches the arbiter's hypotheses into one per kind of piece in the hands,
so the cost of a scan grows with how many pieces are off the board. For 1, 4, 8, 16 and
32 pieces in hand the board's own path (`BoardGame.scan`: debouncer and arbiter, a
scan every 5 ms) runs through two episodes from the start position:

- one by one: the pieces are lifted 100 ms apart, then put back on their squares in a
  shuffled order, 100 ms apart (the hands cannot be told apart);
- one scan: all of them lifted between two scans, then all put back between two scans
  (a board cleared and set up again under a cloth, the worst case).

The last row, `set-up`, is a guided Chess960 set-up of all 32 pieces after the board was
cleared (one by one, or all in one scan).

Figures are the median and the maximum CPU time of the scans that handle a change (the
others only read the switches), over `--rounds` seeded choices of which pieces, and the
maximum of any scan. Goal: no scan over 10 ms with all 32 pieces in hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reedboard.board_game import BoardGame
from reedboard.reader.setup import SETUP_ORDER
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import squares_of

COUNTS = (1, 4, 8, 16, 32)
SCAN_MS = 5
GOAL_MS = 10.0


def episode(squares: list[int], one_scan: bool, rng: random.Random) -> tuple[list[int], int]:
    """Run one lift-and-set-up episode; the CPU ns of each scan that handled a change,
    and the longest of all scans."""
    game = Game()
    board_game = BoardGame(game, game.position.occupied, rng=random.Random(0))
    board = game.position.occupied
    timeline: dict[int, list[int]] = {}
    t = 1000
    if one_scan:
        timeline[t] = list(squares)
        timeline[t + 1000] = list(squares)
    else:
        for sq in squares:
            timeline.setdefault(t, []).append(sq)
            t += 100
        t += 500
        for sq in rng.sample(squares, len(squares)):
            timeline.setdefault(t, []).append(sq)
            t += 100
    end = max(timeline) + 3000
    busy: list[int] = []
    longest = 0
    for now in range(0, end, SCAN_MS):
        for sq in timeline.get(now, ()):
            board ^= 1 << sq
        before = board_game.debouncer.occupancy
        begin = time.thread_time_ns()
        board_game.scan(board, now)
        spent = time.thread_time_ns() - begin
        longest = max(longest, spent)
        if board_game.debouncer.occupancy != before:
            busy.append(spent)
    assert board_game.game.position.occupied == board, "the board no longer follows the pieces"
    return busy, longest


def guided_setup(number: int, one_scan: bool) -> tuple[list[int], int]:
    """The board cleared, then a guided Chess960 set-up of position `number` with all 32
    pieces, type by type as the lights ask (one piece at a time, or each type's pieces in
    one scan): the CPU ns of each scan that handled a change, and the longest scan."""
    game = Game()
    board_game = BoardGame(game, game.position.occupied, rng=random.Random(0))
    target = Position.chess960_start(number)
    groups = [
        list(squares_of(target.pieces_of(kind, True) | target.pieces_of(kind, False)))
        for kind in SETUP_ORDER
    ]
    timeline: dict[int, list[int]] = {1000: list(squares_of(game.position.occupied))}
    t = 2000
    for group in groups:
        for batch in [group] if one_scan else [[sq] for sq in group]:
            timeline[t] = batch
            t += 100
    board = game.position.occupied
    busy: list[int] = []
    longest = 0
    for now in range(0, t + 1000, SCAN_MS):
        for sq in timeline.get(now, ()):
            board ^= 1 << sq
        if now == 1500:
            board_game.arbiter.start_setup(number, now)
        before = board_game.debouncer.occupancy
        begin = time.thread_time_ns()
        board_game.scan(board, now)
        spent = time.thread_time_ns() - begin
        longest = max(longest, spent)
        if board_game.debouncer.occupancy != before:
            busy.append(spent)
    assert board_game.game.chess960 and board_game.arbiter.setup is None, "the set-up did not end"
    return busy, longest


def main() -> None:
    parser = argparse.ArgumentParser(description="CPU per scan with pieces in the hands")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    pieces = list(squares_of(Game().position.occupied))
    print(f"reedboard hands: CPU per scan (ms), {args.rounds} rounds, seed {args.seed}")
    print(
        f"{'in hand':>8}  {'one by one: median':>19} {'max':>7}  {'one scan: median':>17} {'max':>7}"
    )
    worst = 0.0
    for count in COUNTS:
        row = []
        for one_scan in (False, True):
            busy: list[int] = []
            longest = 0
            for round_ in range(args.rounds):
                rng = random.Random(args.seed * 1000 + count * 10 + round_)
                chosen = rng.sample(pieces, count)
                spent, top = episode(chosen, one_scan, rng)
                busy += spent
                longest = max(longest, top)
            row += [statistics.median(busy) / 1e6, longest / 1e6]
            worst = max(worst, longest / 1e6)
        print(f"{count:>8}  {row[0]:>19.3f} {row[1]:>7.3f}  {row[2]:>17.3f} {row[3]:>7.3f}")
    row = []
    for one_scan in (False, True):
        busy = []
        longest = 0
        for round_ in range(args.rounds):
            number = random.Random(args.seed * 7 + round_).choice(
                [n for n in range(960) if n != 518]
            )
            spent, top = guided_setup(number, one_scan)
            busy += spent
            longest = max(longest, top)
        row += [statistics.median(busy) / 1e6, longest / 1e6]
        worst = max(worst, longest / 1e6)
    print(f"{'set-up':>8}  {row[0]:>19.3f} {row[1]:>7.3f}  {row[2]:>17.3f} {row[3]:>7.3f}")
    verdict = "met" if worst <= GOAL_MS else "MISSED"
    print(f"longest scan: {worst:.3f} ms (goal <= {GOAL_MS:.0f} ms: {verdict})")


if __name__ == "__main__":
    main()
