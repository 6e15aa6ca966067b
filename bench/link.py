"""Benchmark: the running board and its link, as a user feels them.

    python bench/link.py [--plies N] [--speed X] [--seed S]

Plays one game of N plies (default 200), carried out by the human model, on a fake board
(`reedboard run`'s loop in a process of its own, with a SQLite journal) whose link is a
real pseudo-terminal; this process reads it as the host does. Prints:

- latency: from the arbiter's commit of a move (its own decision, which waits for the
  hand to be done) to the host holding the move; median and p99, in real milliseconds.
  Goal: p99 under 10 ms. The arbiter's own wait after the final placement is printed too;
- the journal's cost per move (median), appending moves to a SQLite file;
- the board process's resident memory (RSS) after the game. Goal: under 40 MB.

`--speed X` runs the board's clock X times faster than real time (the board then scans X
times as often in real time too, so a high X loads the CPU more than a real board does).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reedboard.events import MoveMade
from reedboard.journal.store import Journal
from reedboard.link.board_messages import EffectMessage
from reedboard.link.host import HostEndpoint
from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard.sim.human import human_script

from tests.support.linked_pty import LinkedPty


def board_child(start_s: float, speed: float, pty: str, script_path: str, db: str) -> None:
    """The board: `reedboard run --fake` wired by hand, so that its clock starts at a
    moment this process knows. Prints its RSS when the script is over."""
    from reedboard.app import App
    from reedboard.app_ports import GameSetup, HostLink, Sensing
    from reedboard.hal.clock import MonotonicClock
    from reedboard.link.serial_port import open_port
    from reedboard.log_setup import log_to_stderr
    from reedboard.replay.script import parse_script
    from reedboard.replay.scripted_board import scripted_board
    from reedboard.rules.game import Game

    log_to_stderr("reedboard")  # the board's lines, as `reedboard run` prints them
    script = parse_script(Path(script_path).read_text())
    board = scripted_board(script)
    with Journal(db) as journal:
        app = App(
            Sensing(board, source=board),
            MonotonicClock(speed, start_s=start_s),
            link=HostLink(open_port(pty)),
            journal=journal,
            game=GameSetup(start=Game(script.start)),
        )
        app.run(until_done=True)
    print(rss_mb(os.getpid()), flush=True)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def game_script(plies: int, seed: int) -> tuple[str, tuple[int, ...]]:
    rng = random.Random(seed)
    while True:
        game = random_game(Position.standard(), rng, max_plies=plies)
        if len(game) == plies:
            break
    script = human_script(Position.standard(), game.moves, seed=seed)
    return script.text(), script.decisive_ms


def latencies(plies: int, speed: float, seed: int) -> tuple[list[float], list[int], float]:
    """Per move: real ms from commit to the host holding it, and board ms from the final
    placement to the commit; and the board's RSS in MB."""
    text, decisive = game_script(plies, seed)
    with tempfile.TemporaryDirectory() as tmp:
        script_path, db = os.path.join(tmp, "game.events"), os.path.join(tmp, "j.sqlite")
        Path(script_path).write_text(text)
        line = LinkedPty()  # a path of its own: a late child never opens another's pty
        master = line.master
        start_s = time.monotonic() + 1.0  # the child's imports take less than that
        child = subprocess.Popen(
            [sys.executable, __file__, "--board-child", str(start_s), str(speed),
             line.path, script_path, db],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        host = HostEndpoint()
        arrivals: dict[int, tuple[float, int]] = {}  # ply -> (real arrival s, commit t_ms)
        os.set_blocking(master, False)
        while child.poll() is None:
            try:
                data = os.read(master, 65536)
            except BlockingIOError:
                time.sleep(0.0005)
                continue
            now = time.monotonic()
            for message in host.receive_data(data, int(now * 1000)):
                if isinstance(message, EffectMessage) and isinstance(message.effect, MoveMade):
                    arrivals.setdefault(message.effect.ply, (now, message.effect.t_ms))
            os.write(master, host.data_to_send() or b"")
        rss = float(child.stdout.read().strip() or "nan") if child.stdout else float("nan")
        line.close()
    beyond = [(at - start_s) * 1000 - t_ms / speed for at, t_ms in arrivals.values()]
    own = [t_ms - decisive[ply - 1] for ply, (_at, t_ms) in arrivals.items()]
    return beyond, own, rss


def journal_cost(moves: int = 200) -> float:
    with tempfile.TemporaryDirectory() as tmp, Journal(os.path.join(tmp, "j.sqlite")) as j:
        game = j.start_game(Position.standard().fen(), chess960=False, variant="standard",
                            mode="casual")  # fmt: skip
        times = []
        for ply in range(1, moves + 1):
            begin = time.perf_counter()
            j.append_move(game, ply, "e2e4", ply * 1000)
            times.append(time.perf_counter() - begin)
    return statistics.median(times) * 1000


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--board-child":
        start_s, speed, pty, script, db = sys.argv[2:7]
        board_child(float(start_s), float(speed), pty, script, db)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    beyond, own, rss = latencies(args.plies, args.speed, args.seed)
    print(f"moves received:                      {len(beyond)} of {args.plies}")
    print(f"commit -> host, median:              {statistics.median(beyond):.2f} ms")
    print(f"commit -> host, p99:                 {p99(beyond):.2f} ms   (goal < 10 ms)")
    print(f"final placement -> commit (arbiter): {statistics.median(own):.0f} ms median "
          f"board time")  # fmt: skip
    print(f"journal, per move (median):          {journal_cost():.2f} ms")
    print(f"board RSS after the game:            {rss:.1f} MB   (goal < 40 MB)")


if __name__ == "__main__":
    main()
