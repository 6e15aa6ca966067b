"""Benchmark: how late a DGT client of `reedboard-host emulate dgt` sees each move.

    python bench/emulation_latency.py [--games N] [--plies P] [--seed S]

Plays N games (greedy: many captures) of P plies (default 4 of 60), carried out by the human model, on the
firmware's real loop with the host's real emulation in front of it, both in one process
on one virtual clock (tests/support/board_pair.py): board time, so the figures do not
depend on this machine's load. The client asks for every change (DGT `44`) and decodes
what it receives as a DGT client does.

For each move it takes the moment of the placement that completed it (the human model's
decisive change) and the first moment after it at which the client's board is the
position after the move. Prints the median and p99 of that delay, in board ms, for all
moves and for captures alone; and how many moves the client never saw whole (the next
move's hands were on the board before the client caught up).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.support

from reedboard.rules.position import Position
from reedboard.sim.games import greedy_game
from reedboard.sim.human import HumanScript, human_script
from reedboard_host.emulate import emulate
from reedboard_host.follow import Follower

from tests.link.emulated import DgtClient
from tests.support.board_pair import BoardPair
from tests.support.pushed_lines import LEAD_MS

SETTLE_MS = 3000  # after the last move, for the last commit to reach the client


class _Software:
    """The DGT client's end: asks for the board and every change; keeps what it receives
    with the board time it came at."""

    def __init__(self, pair: BoardPair) -> None:
        self.pair = pair
        self.to_board = bytes((0x42, 0x44))
        self.received: list[tuple[int, bytes]] = []

    def read(self) -> bytes:
        data, self.to_board = self.to_board, b""
        return data

    def write(self, data: bytes) -> None:
        if data:
            self.received.append((self.pair.clock.now_ms(), data))


def _game(seed: int, plies: int) -> tuple[HumanScript, list[str], list[int]]:
    """A random game carried out by the human model; the board FEN after each move; the
    indices of the captures."""
    rng = random.Random(seed)
    while True:
        game = greedy_game(Position.standard(), rng, max_plies=plies)
        if len(game) == plies:
            break
    position = Position.standard()
    script = human_script(position, game.moves, seed=seed)
    after, captures = [], []
    for index, move in enumerate(game.moves):
        if position.is_capture(move):
            captures.append(index)
        position = position.play(move)
        after.append(position.board_fen())
    return script, after, captures


def delays(seed: int, plies: int) -> tuple[list[int], list[int], int]:
    """Per move seen: board ms from its decisive placement to the client showing it; the
    same for captures; and the number of moves the client never showed whole."""
    script, after, captures = _game(seed, plies)
    decisive = script.decisive_ms
    pair = BoardPair()
    follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
    software = _Software(pair)
    pushed_at: list[int] = []
    end = [0]

    def stop() -> bool:
        if not pushed_at and pair.clock.now_ms() > 500:
            pushed_at.append(pair.clock.now_ms() + LEAD_MS)
            end[0] = pair.push(script.lines) + SETTLE_MS
        return bool(pushed_at) and pair.clock.now_ms() > end[0]

    emulate("dgt", follower, software, stop)
    assert pair.moves() == list(script.ucis), "the board read the game otherwise"
    client = DgtClient()
    shown: list[tuple[int, str]] = []
    for t, data in software.received:
        client.feed(data)
        shown.append((t, client.board_fen()))
    seen: list[int] = []
    seen_captures: list[int] = []
    missed = 0
    for index, fen in enumerate(after):
        placed = pushed_at[0] + decisive[index]
        until = pushed_at[0] + decisive[index + 1] if index + 1 < len(after) else end[0]
        at = next((t for t, board in shown if placed <= t <= until and board == fen), None)
        if at is None:
            missed += 1
            continue
        seen.append(at - placed)
        if index in captures:
            seen_captures.append(at - placed)
    return seen, seen_captures, missed


def p99(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    every: list[int] = []
    captures: list[int] = []
    missed = 0
    for game in range(args.games):
        seen, seen_captures, lost = delays(args.seed + game, args.plies)
        every += seen
        captures += seen_captures
        missed += lost
    print(f"moves: {len(every)} seen, {missed} never seen whole")
    print(
        f"placement to client, all moves: median {statistics.median(every):.0f} ms, "
        f"p99 {p99(every)} ms"
    )
    if captures:
        print(
            f"placement to client, captures ({len(captures)}): "
            f"median {statistics.median(captures):.0f} ms, p99 {p99(captures)} ms"
        )


if __name__ == "__main__":
    main()
