"""Benchmark: the scan loop while the journal's disk is slow.

    python bench/journal.py [--fsync-ms MS] [--games N] [--plies N] [--seed S]

An SD card's flush can take 150 ms. Here every fsync and fdatasync is made that slow by a
small shim (compiled with gcc into a temporary directory and loaded with LD_PRELOAD), and
the real loop (`App` on the real clock, 200 scans a second) plays seeded random games
whose captures are quick (the victim lifted, the capturer lifted and put down, 40 ms
apart), on a board whose switches are read as they are at each scan (as the GPIO's are:
a loop that falls behind sees changes merged, nothing replays them).

Three ways, each game in a process of its own, the ways taking turns game by game (the
machine's load varies over minutes): no journal (what the load alone does to the scans),
the journal written inside the loop (as before), and the journal written by its own
thread (`journal_in_background`, as `reedboard run` does). For each: the median, 99th
percentile and longest gap between scans; how many gaps were over twice the scan period,
and how many of those came while the journal was writing (for most of the gap); what
share of the gaps while it wrote, and of the others, were that long (the same share: the
writes cost the loop nothing the load did not); the moves the board got wrong (a game
stops counting at its first); and how long after a move was made the host was told of
it (it waits for the disk: that is the rule).
Goal: with the writer's thread, no move missed and no scan gap over twice the period
that the journal causes (compare with the run without a journal).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import reedboard.journal.writer
from reedboard.app import App
from reedboard.app_ports import HostLink, Sensing
from reedboard.events import MoveMade
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import Action, SensorLine
from reedboard.journal.store import Journal, JournalError
from reedboard.journal.writer import JournalWriter, Write
from reedboard.link.board_messages import EffectMessage
from reedboard.rules.game import Game
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Bitboard

SCAN_HZ = 200
PERIOD_MS = 1000 / SCAN_HZ
QUICK_MS = 40  # between the lines of a quick capture
QUIET_MS = 150  # between the lift and the place of any other move

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static void slow(void) {
    const char *ms = getenv("BENCH_FSYNC_MS");
    if (ms != NULL) usleep((useconds_t)atol(ms) * 1000);
}
int fsync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slow();
    return real(fd);
}
int fdatasync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slow();
    return real(fd);
}
"""
MODES = {"none": "no journal", "loop": "journal in the loop", "thread": "journal by its thread"}


def random_game(rng: random.Random, plies: int) -> list[str]:
    """A legal game that captures whenever it can, half the time: many quick captures."""
    game = Game()
    moves: list[str] = []
    while len(moves) < plies and not game.is_game_over():
        legal = [m for m in game.position.legal_moves() if m.promotion in (None, 0, QUEEN)]
        captures = [m for m in legal if game.position.is_capture(m)]
        move = rng.choice(captures if captures and rng.random() < 0.5 else legal)
        moves.append(game.position.uci(move))
        game.push(move)
    return moves


def move_lines(position: Position, uci: str, t: int) -> tuple[list[SensorLine], int, bool]:
    """One move's lines from `t`; the time of its last line; whether it is a capture."""
    move = position.parse_uci(uci)
    steps: list[tuple[Action, int]]
    gap = QUIET_MS
    if position.is_castling(move):
        kf, kt, rf, rt = position.castling_squares(move)
        steps = [("lift", kf), ("place", kt), ("lift", rf), ("place", rt)]
    elif position.is_capture(move):
        victim = move.to_square
        if position.is_en_passant(move):
            victim = move.to_square - 8 if position.turn else move.to_square + 8
        steps = [("lift", victim), ("lift", move.from_square), ("place", move.to_square)]
        gap = QUICK_MS
    else:
        steps = [("lift", move.from_square), ("place", move.to_square)]
    lines = [SensorLine(t + i * gap, a, SQUARE_NAMES[sq]) for i, (a, sq) in enumerate(steps)]
    return lines, lines[-1].t_ms, gap == QUICK_MS


class ReadAsTheyAre:
    """The switches as they stand at the moment of each scan, timed."""

    def __init__(self, board: FakeBoard, clock: MonotonicClock) -> None:
        self.board, self.clock = board, clock
        self.times: list[float] = []

    def scan(self) -> Bitboard:
        self.times.append(time.perf_counter())
        self.board.advance(self.clock.now_ms())
        return self.board.scan()


class WriteTimes:
    """When the journal was writing: each batch's start and end (`time.perf_counter`), to
    tell the scan gaps the journal made from those the machine's load made."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []
        commit = reedboard.journal.writer.commit_batch

        def timed(journal: Journal, writes: Sequence[Write]) -> list[JournalError]:
            begin = time.perf_counter()
            try:
                return commit(journal, writes)
            finally:
                self.spans.append((begin, time.perf_counter()))

        reedboard.journal.writer.commit_batch = timed  # the writers look it up each time

    def during(self, begin: float, end: float) -> bool:
        """Whether a write was going on for most of a gap from `begin` to `end`."""
        overlap = sum(max(0.0, min(end, e) - max(begin, b)) for b, e in self.spans)
        return overlap > (end - begin) / 2


def play(mode: str, moves: list[str], rng: random.Random, folder: Path) -> dict[str, Any]:
    """One game on the real clock; what the loop did."""
    board = FakeBoard(Position.standard().occupied, electrical=False)
    position, t = Position.standard(), 1000
    quick: list[bool] = []
    scheduled: list[SensorLine] = []
    for uci in moves:
        # The next hand comes 400 to 900 ms after the last piece was put down, once the
        # move before has settled (300 ms) with a margin for a loaded machine (a hand
        # closer than that is the arbiter's question, not the journal's): sometimes while
        # the journal writes the move before.
        lines, t, is_capture = move_lines(position, uci, t + rng.randrange(400, 900))
        scheduled += lines
        quick.append(is_capture)
        position = position.play(position.parse_uci(uci))
    board.schedule(scheduled)  # at their own times, from the board's time 0
    clock = MonotonicClock()
    scanner = ReadAsTheyAre(board, clock)
    journal = None if mode == "none" else Journal(folder / f"{mode}-{rng.random()}.sqlite")
    writes = WriteTimes()
    told_after: list[int] = []
    made: list[str] = []

    def told(message: EffectMessage) -> None:
        if isinstance(message.effect, MoveMade):
            made.append(message.effect.uci)
            told_after.append(clock.now_ms() - message.effect.t_ms)

    kept = JournalWriter(journal) if journal is not None and mode == "thread" else journal
    app = App(Sensing(scanner, scan_hz=SCAN_HZ), clock, link=HostLink(on_effect=told), journal=kept)
    end = t + 1500
    app.run(lambda: clock.now_ms() > end)
    app.close()
    if journal is not None:
        journal.close()
    right = 0
    while right < min(len(made), len(moves)) and made[right] == moves[right]:
        right += 1
    missed = int(right < len(moves))
    pairs = list(zip(scanner.times, scanner.times[1:], strict=False))
    gaps = [(b - a) * 1000 for a, b in pairs]
    return {
        "gaps": gaps,
        "writing": [writes.during(a, b) for a, b in pairs],
        "told_after": told_after,
        "counted": right + missed,
        "missed": missed,
        "quick": sum(quick[: right + missed]),
        "quick_missed": int(missed and quick[right]),
    }


def child(mode: str, number: int, plies: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        rng = random.Random(seed + number)
        json.dump(play(mode, random_game(rng, plies), rng, Path(folder)), sys.stdout)


def compile_shim(folder: Path) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("bench/journal.py: gcc is needed to build the slow-fsync shim")
    source, library = folder / "slow_fsync.c", folder / "slow_fsync.so"
    source.write_text(SHIM)
    subprocess.run([gcc, "-shared", "-fPIC", "-O2", "-o", str(library), str(source), "-ldl"],
                   check=True)  # fmt: skip
    return library


def run_game(mode: str, number: int, args: argparse.Namespace, shim: Path) -> dict[str, Any]:
    env = dict(os.environ, LD_PRELOAD=str(shim), BENCH_FSYNC_MS=str(args.fsync_ms))
    command = [sys.executable, __file__, "--child", mode, "--game", str(number),
               "--plies", str(args.plies), "--seed", str(args.seed)]  # fmt: skip
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def fsync_ms(shim: Path, wanted: int) -> float:
    """What one fsync takes with the shim loaded: proof it is in force."""
    env = dict(os.environ, LD_PRELOAD=str(shim), BENCH_FSYNC_MS=str(wanted))
    code = (
        "import os,tempfile,time\n"
        "with tempfile.TemporaryFile() as f:\n"
        " f.write(b'x'); f.flush(); t=time.perf_counter(); os.fsync(f.fileno())\n"
        " print((time.perf_counter()-t)*1000)"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return float(done.stdout)


def report(mode: str, results: list[dict[str, Any]]) -> None:
    gaps = [g for r in results for g in r["gaps"]]
    told = [t for r in results for t in r["told_after"]]
    writing = [w for r in results for w in r["writing"]]
    over = sum(g > 2 * PERIOD_MS for g in gaps)
    over_writing = sum(g > 2 * PERIOD_MS and w for g, w in zip(gaps, writing, strict=True))
    p99 = statistics.quantiles(gaps, n=100)[98]
    # The share of gaps over twice the period while the journal wrote, and while it did
    # not: the same share means the writes cost the loop nothing the load did not.
    writing_all = sum(writing)
    share_writing = 100 * over_writing / writing_all if writing_all else 0.0
    share_other = 100 * (over - over_writing) / max(1, len(gaps) - writing_all)
    counted, missed = sum(r["counted"] for r in results), sum(r["missed"] for r in results)
    quick, quick_missed = sum(r["quick"] for r in results), sum(r["quick_missed"] for r in results)
    told_text = f"{statistics.median(told):5.0f} / {max(told):5.0f}" if told else "    - /     -"
    print(f"{MODES[mode]:<22}{statistics.median(gaps):5.1f} {p99:5.1f} {max(gaps):6.1f}"
          f" {over:5d} {over_writing:5d} {share_writing:5.1f}% {share_other:5.1f}%"
          f"  {missed:2d} of {counted:3d} ({quick_missed} of"
          f" {quick:2d} quick)  {told_text}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description="the scan loop while the journal's disk is slow")
    parser.add_argument("--fsync-ms", type=int, default=150)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--child", choices=tuple(MODES), help=argparse.SUPPRESS)
    parser.add_argument("--game", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.game, args.plies, args.seed)
        return
    with tempfile.TemporaryDirectory() as folder:
        shim = compile_shim(Path(folder))
        print(f"fsync and fdatasync slowed to {args.fsync_ms} ms (one fsync measured: "
              f"{fsync_ms(shim, args.fsync_ms):.0f} ms); {args.games} games of up to "
              f"{args.plies} plies; a scan every {PERIOD_MS:g} ms")  # fmt: skip
        print(f"{'':<22}{'scan gaps, ms':<19}{'> 2 periods, and share of gaps':<33}"
              f"{'moves missed':<28}told after ms")  # fmt: skip
        print(f"{'':<22}{'med':>5} {'p99':>5} {'max':>6} {'all':>5} {'writing':>7}"
              f"{'writing':>8} {'other':>6}{'':<28}median /   max")  # fmt: skip
        results: dict[str, list[dict[str, Any]]] = {mode: [] for mode in MODES}
        for number in range(args.games):  # the modes in turn, so the machine's load is shared
            for mode in MODES:
                results[mode].append(run_game(mode, number, args, shim))
        for mode in MODES:
            report(mode, results[mode])


if __name__ == "__main__":
    main()
