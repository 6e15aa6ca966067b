"""Benchmark: the board's steps on this machine and at a Pi Zero 2 W's speed.

    sudo .venv/bin/python bench/pi_speed.py [--rounds N] [--cpu-fraction F]

Four steps of the board's loop, timed here and again in a child process held to F of one
core (default 1/15, a Pi Zero 2 W's speed; see bench/cpu_limit.py):

- scan: a full matrix scan on the fake GPIO (its settling sleeps left out) and its
  debouncing, the start position standing (bench/scan.py's scan + debounce);
- commit: the scan that commits a move (e2 lifted, e4 placed, the settle time over);
- LED frame: a new scene on 64 LEDs through Adafruit's real pixel buffer, encoded and
  handed to a recording transmit (the SPI transfer itself is not in it);
- longest scan, 32 in hand: all 32 pieces lifted between two scans and put back between
  two, the costliest scan of that episode (bench/hands.py's worst case);
- idle turn: one turn of the board's loop (`App`: the game, the host's side, the lights)
  while nobody touches the board, as `reedboard run --fake --web off` assembles it; the
  scan apart (the first figure's), for a real matrix is not the fake one.

A limited group does not run slower: once its share of a period is spent it stops until
the next. So each figure is the wall time of a batch of the same step, made ready
beforehand (untimed), divided by its size, and each batch spans many periods (15 ms ones,
the shortest the kernel allows at 1/15). Medians of `--rounds` batches; ratio: limited
wall time / this machine's. The CPU columns are what the steps cost whatever the load:
the limited wall time is a Pi's only while the machine is quiet enough to give the child
its whole share (limited wall / CPU near 1/F); on a busy machine both wall times also
hold the time spent waiting for other programs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

from cpu_limit import PI_ZERO_2_W, CpuLimitError, cpu_limited, shortest_period_us
from reedboard.board_game import BoardGame
from reedboard.config import MatrixConfig
from reedboard.events import MoveMade
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.hal.pixelbuf_strip import PixelBufStrip
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
from reedboard.lights.output import LightsOutput
from reedboard.lights.scenes import scene_for
from reedboard.lights.strip_layout import StripLayout
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard, parse_square, squares_of
from reedboard.sensing.debounce import Debouncer, SquareChange

Step = Callable[[], object]
SCAN_MS = 5  # the board scans 200 times a second
START = Game().position.occupied


def batch_us(prepare: Callable[[], Step], size: int, rounds: int) -> tuple[float, float]:
    """The medians over `rounds` batches of the wall time and the CPU time per step of a
    batch of `size` steps, each made ready by `prepare` before the batch is timed."""
    walls, cpus = [], []
    for _ in range(rounds):
        steps = [prepare() for _ in range(size)]
        begin, begin_cpu = time.perf_counter(), time.process_time()
        for step in steps:
            step()
        walls.append((time.perf_counter() - begin) / size)
        cpus.append((time.process_time() - begin_cpu) / size)
    return statistics.median(walls) * 1e6, statistics.median(cpus) * 1e6


def scans() -> Callable[[], Step]:
    matrix, layout = MatrixConfig(), MatrixLayout()
    gpio = FakeGPIO(matrix.rows, matrix.columns, diodes=True)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(START))
    scanner = MatrixScanner(gpio, matrix.rows, matrix.columns, layout, sleep=lambda _s: None)
    debouncer = Debouncer(START)
    clock = iter(range(0, 1 << 62, SCAN_MS))
    return lambda: lambda: debouncer.feed(scanner.scan(), next(clock))


def episode(timeline: dict[int, list[int]]) -> Iterator[tuple[int, BoardGame, Bitboard]]:
    """A board game from the start position, scanned every 5 ms: before each scan, its
    time, the game and the board, the squares `timeline` names at that time toggled."""
    game = Game()
    board_game = BoardGame(game, game.position.occupied, rng=random.Random(0))
    board = game.position.occupied
    for now in range(0, max(timeline) + 3000, SCAN_MS):
        for sq in timeline.get(now, ()):
            board ^= 1 << sq
        yield now, board_game, board


def played_to(timeline: dict[int, list[int]], until_ms: int) -> Step:
    """The scan at `until_ms` of the episode, every scan before it done."""
    for now, board_game, board in episode(timeline):
        if now == until_ms:
            return lambda: board_game.scan(board, now)
        board_game.scan(board, now)
    raise AssertionError(f"the episode ends before {until_ms} ms")


def costliest_scan_ms(timeline: dict[int, list[int]]) -> int:
    """The time of the scan that takes the most CPU in the episode."""
    spent = {}
    for now, board_game, board in episode(timeline):
        begin = time.thread_time_ns()
        board_game.scan(board, now)
        spent[now] = time.thread_time_ns() - begin
    return max(spent, key=spent.__getitem__)


def commits() -> Callable[[], Step]:
    timeline = {1000: [parse_square("e2")], 1300: [parse_square("e4")]}
    when = next(
        now
        for now, board_game, board in episode(timeline)
        if any(isinstance(effect, MoveMade) for effect in board_game.scan(board, now))
    )
    return lambda: played_to(timeline, when)


def hands_of_32() -> Callable[[], Step]:
    everything = list(squares_of(START))
    timeline = {1000: everything, 2000: everything}
    when = costliest_scan_ms(timeline)
    return lambda: played_to(timeline, when)


def frames() -> Callable[[], Step]:
    arbiter = MoveReader(Game.from_fen("r3k2r/ppp2ppp/2n5/3pP3/8/2N5/PPP2PPP/R3K2R w KQkq d6 0 1"))
    arbiter.feed(SquareChange(parse_square("e1"), False, 1000))
    view = arbiter.view()

    def prepare() -> Step:
        buffer = RecordingPixelBuf(64, byteorder="GRB", brightness=0.25)
        output = LightsOutput(StripLayout.per_square(), PixelBufStrip(buffer))
        return lambda: output.update(scene_for(view), 0)

    return prepare


def idle_turns() -> Callable[[], Step]:
    from reedboard.cli import build_parser
    from reedboard.commands import run_board
    from reedboard.config import load_config

    args = build_parser().parse_args(["run", "--fake", "--web", "off"])
    app = run_board.assemble(args, load_config(None), None).app
    app.start()
    reading = app.scanner.scan()

    class Still:
        def scan(self) -> Bitboard:
            return reading

    app.scanner = Still()
    clock = iter(range(SCAN_MS, 1 << 62, SCAN_MS))

    def prepare() -> Step:
        now = next(clock)

        def turn() -> None:
            app.catch_up(now)
            app.step(now)

        return turn

    return prepare


# name: (the step's preparation, batch size); each batch is well over 20 periods at 1/15
FIGURES: dict[str, tuple[Callable[[], Callable[[], Step]], int]] = {
    "scan + debounce": (scans, 600),
    "commit (the scan that commits e2-e4)": (commits, 60),
    "LED frame, new scene, 64 LEDs": (frames, 200),
    "longest scan, 32 in hand": (hands_of_32, 6),
    "idle turn of the loop, scan apart": (idle_turns, 600),
}


def measure(rounds: int) -> dict[str, tuple[float, float]]:
    return {name: batch_us(make(), size, rounds) for name, (make, size) in FIGURES.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description="the board's steps here and at a Pi's speed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu-fraction", type=float, default=PI_ZERO_2_W)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:  # the child in the limited group: its figures as JSON
        print(json.dumps(measure(args.rounds)))
        return
    here = measure(args.rounds)
    try:
        with cpu_limited(args.cpu_fraction, shortest_period_us(args.cpu_fraction)) as limit:
            done = subprocess.run(
                [sys.executable, __file__, "--inside", "--rounds", str(args.rounds)],
                capture_output=True,
                text=True,
                check=False,
                preexec_fn=limit.join,
            )
            label = limit.describe()
    except CpuLimitError as error:
        raise SystemExit(f"bench/pi_speed.py: {error}") from None
    if done.returncode != 0:
        raise SystemExit(f"bench/pi_speed.py: the limited run failed:\n{done.stderr}")
    there = json.loads(done.stdout)
    print(f"the board's steps: median of {args.rounds} batches; limited: {label}")
    print(
        f"{'(ms per step)':38} {'wall':>7} {'CPU':>7}   {'limited wall':>12} {'CPU':>7} {'ratio':>6}"
    )
    for name, (wall, cpu) in here.items():
        slow, slow_cpu = there[name]
        print(
            f"{name:38} {wall / 1000:7.3f} {cpu / 1000:7.3f}   {slow / 1000:12.3f}"
            f" {slow_cpu / 1000:7.3f} {slow / wall:6.1f}"
        )


if __name__ == "__main__":
    main()
