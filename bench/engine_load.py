"""The scan loop while the board's own engine thinks at full strength: the scan rate and
the commit latency (from a move's last switch change to its `move` event), the engine
idle and the engine busy, on this machine.

The board plays a scripted random game (the human model's hands) on the fake matrix read
through the real scanner, in real time, while Stockfish at level 20 searches a middle
game position without pause, in its own process at the board's lower priority, as the
engine opponent runs it. Goal: p99 latency within settle_ms + 50 ms, the scan rate
holding. Run: `python bench/engine_load.py [--seconds S]`."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.board_game import Settings
from reedboard.events import MoveMade
from reedboard.hal.clock import MonotonicClock
from reedboard.link.board_messages import EffectMessage
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.thinker import EngineThread, Question
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.sim.whole_games import random_game_script

MIDDLE_GAME = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 9"


def run_board(seconds: float, seed: int) -> tuple[float, list[int], int]:
    """(scans a second, commit latencies in ms, settle_ms) of one board run."""
    script = parse_script(random_game_script(seed, max_plies=400).text())
    fake = scripted_board(script)
    clock = MonotonicClock()
    latencies: list[int] = []
    changes = sorted(line.t_ms for line in script.lines)
    scans = [0]

    class Counted:
        def scan(self) -> int:
            scans[0] += 1
            return fake.scan()

    def on_effect(message: EffectMessage) -> None:
        if isinstance(message.effect, MoveMade):
            last = max((t for t in changes if t <= message.effect.t_ms), default=0)
            latencies.append(clock.now_ms() - last)

    settings = Settings()
    app = App(Sensing(Counted(), source=fake), clock, link=HostLink(on_effect=on_effect), game=GameSetup(settings=settings, start=Game(script.start)))  # fmt: skip
    end = time.monotonic() + seconds
    app.run(lambda: time.monotonic() >= end)
    app.close()
    return scans[0] / seconds, latencies, settings.settle_ms


def keep_thinking(stop: threading.Event) -> EngineThread:
    """Stockfish at full strength, searching without pause until `stop`."""
    engine = EngineThread(EngineSettings(level=20))

    def feed() -> None:
        while not stop.is_set():
            engine.ask(Question("load", MIDDLE_GAME, (), "movetime 2000", 2000))
            engine.wait(30)
            engine.answers()

    threading.Thread(target=feed, daemon=True).start()
    return engine


def p99(values: list[int]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else float(values[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--cpu-fraction", type=float, help="also held to this share of a core")
    args = parser.parse_args()
    if args.cpu_fraction:
        limited(args)
        return
    figures = {}
    for load in ("idle", "engine"):
        stop = threading.Event()
        engine = keep_thinking(stop) if load == "engine" else None
        try:
            rate, latencies, settle = run_board(args.seconds, args.seed)
        finally:
            stop.set()
            if engine is not None:
                engine.close()
        figures[load] = rate
        print(
            f"{load:6}: {rate:6.1f} scans/s, {len(latencies)} moves, commit latency "
            f"median {statistics.median(latencies):.0f} ms, p99 {p99(latencies):.0f} ms "
            f"(goal <= {settle + 50} ms)"
        )
    print(f"scan rate with the engine / idle: {figures['engine'] / figures['idle']:.3f}")


def limited(args: argparse.Namespace) -> None:
    """This bench again, in a group held to `args.cpu_fraction` of a core."""
    from cpu_limit import CpuLimitError, cpu_limited

    try:
        with cpu_limited(args.cpu_fraction) as limit:
            print(f"held to {limit.describe()}", flush=True)
            argv = [sys.executable, __file__, "--seconds", str(args.seconds),
                    "--seed", str(args.seed)]  # fmt: skip
            subprocess.run(argv, check=False, preexec_fn=limit.join)
    except CpuLimitError as error:
        print(f"not held: {error}")


if __name__ == "__main__":
    main()
