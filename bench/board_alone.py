"""The board with no PC: its scan loop while Stockfish thinks at full strength AND five
phones watch its page, and what reedboard's own process weighs in an engine game.

- scan: the board `reedboard run --fake --random-game SEED --web 127.0.0.1:0` assembles
  (its page, its clients), its loop in a process of its own playing the human model's
  random game on the fake matrix through the real scanner at the real clock, with
  Stockfish at level 20 searching without pause (nice, SCHED_IDLE, as the engine opponent
  runs it) and five pages open in Debian's Chromium (outside any CPU limit: the phones
  are other devices). Against the same board alone (no engine, no page). Scan rate and
  commit latency (from a move's last switch change to its `move` event), medians over
  the rounds. With `--cpu-fraction F` the board and its engine are held to F of a core
  (1/15: a Pi Zero 2 W's class; needs root); with `--engine-apart` too, the engine is
  moved out of that group once it runs, as on a Pi, whose four cores give the engine
  cores of its own while the board's loop keeps one.
- cpu: what the board's loop costs, as a share of one core and per turn of the loop (CPU
  time, the process's whole), the board `reedboard run --fake --web off` assembles: idle
  (no script: nobody touches the board; and again with the scan apart, the matrix read
  once and its reading kept, for the fake matrix's scan is not a real one's) and in play
  (the human model's random game, at the real clock: CPU per move too), each round in a
  process of its own; with
  `--cpu-fraction F` held to F of a core, as the scan figures.
- turn: one turn of the loop in this process (`App.step` on a virtual clock, its LEDs
  on a recording strip, the matrix a fake's): idle, and with a host's `state` question
  each turn (a page asks one after each effect), as microseconds a turn, medians over
  the rounds; the process's own overhead (the scan's sleep, its select) apart, so two
  versions of the loop compare within a few percent on a loaded machine.
- rss: a real `reedboard run --fake --web ... --opponent engine:5 --script -`, a phone's
  five pages open, a game against the engine played on its switches from stdin: the
  reedboard process's RSS after each move (Stockfish's apart), median and max.

    python bench/board_alone.py [--seconds 30] [--rounds 3] [--cpu-fraction 0.0667]
        [--engine-apart] [--plies 12] [--only scan|cpu|turn|rss]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.*

PAGES = 5
VIEWPORT: Any = {"width": 360, "height": 740}  # a phone


# ----- the board's side: a process of its own (in the CPU-limited group if asked) -----


def board(
    seconds: float, seed: int, loaded: bool, apart: bool, idle: bool = False, still: bool = False
) -> None:
    """The board with its page (and, `loaded`, the engine thinking; `idle`: no script,
    nobody touches it; `still`: its first reading kept, the matrix not scanned again):
    prints its page's URL, waits for `go` on stdin (the pages open), then measures for
    `seconds` and prints the figures as one JSON line."""
    from engine_load import keep_thinking
    from reedboard.cli import build_parser
    from reedboard.commands import board_assembly, run_board
    from reedboard.commands.run_script import board_script
    from reedboard.config import load_config
    from reedboard.events import MoveMade
    from reedboard.link.board_messages import EffectMessage

    command = ["run", "--fake"] + ([] if idle else ["--random-game", str(seed), "--plies", "400"])
    args = build_parser().parse_args([*command, "--web", "127.0.0.1:0" if loaded else "off"])
    script, _ = board_script(args)
    assembled = run_board.assemble(args, load_config(None), script)
    app, fake = assembled.app, assembled.scanner
    changes = [] if script is None else sorted(line.t_ms for line in script.lines)
    counting = threading.Event()
    scans, latencies, cpu = [0], list[int](), [0.0]
    reading = fake.scan()

    class Counted:
        def scan(self) -> int:
            if counting.is_set():
                scans[0] += 1
            return reading if still else fake.scan()

    def cpu_s() -> float:
        used = resource.getrusage(resource.RUSAGE_SELF)
        return used.ru_utime + used.ru_stime

    def on_effect(message: EffectMessage) -> None:
        if counting.is_set() and isinstance(message.effect, MoveMade):
            last = max((t for t in changes if t <= message.effect.t_ms), default=0)
            latencies.append(app.clock.now_ms() - last)

    app.scanner, app.on_effect = Counted(), on_effect
    page = board_assembly.board_page(args, assembled)
    stop = threading.Event()
    engine = keep_thinking(stop) if loaded else None
    loop = threading.Thread(target=app.run, args=(stop.is_set,))
    loop.start()
    try:
        if page is not None:
            page.start()
            print(page.wait_ready(), flush=True)
        else:
            print("no page", flush=True)
        sys.stdin.readline()  # the pages are open
        if apart:
            _engine_apart()
        cpu[0] = -cpu_s()
        counting.set()
        time.sleep(seconds)
        counting.clear()
        cpu[0] += cpu_s()
    finally:
        stop.set()
        loop.join(60)
        if engine is not None:
            engine.close()
        board_assembly.close_board(assembled, page)
    figures = {"scans_per_s": scans[0] / seconds, "latencies": latencies, "cpu_s": cpu[0]}
    print(json.dumps(figures | {"turns": scans[0]}), flush=True)


def _engine_apart() -> None:
    """The engine (running by now: it thinks without pause) moved out of the board's
    CPU-limited group into the machine's own, as a Pi gives it cores of its own."""
    from cpu_limit import leave_group

    engines = [pid for pid in _children(os.getpid()) if _name(pid) == "stockfish"]
    if not engines:
        raise SystemExit("--engine-apart: no engine running to move")
    for pid in engines:
        leave_group(pid)


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


# ----- the phones' side -----


def round_of(
    seconds: float, seed: int, loaded: bool, fraction: float | None, apart: bool
) -> dict[str, Any]:
    """One round: the board (held to `fraction` of a core if given) and, `loaded`, the
    engine (`apart`: outside the board's group) and five pages open on it; its figures."""
    from playwright.sync_api import sync_playwright

    from tests.simweb.page import CHROMIUM, FLAGS

    argv = [sys.executable, __file__, "--board", "--seconds", str(seconds), "--seed", str(seed)]
    argv += ["--loaded"] if loaded else []
    argv += ["--engine-apart"] if apart and loaded else []
    with limited(fraction) as join, sync_playwright() as p:
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, preexec_fn=join
        )
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            assert process.stdin is not None and process.stdout is not None
            url = process.stdout.readline().strip()
            if loaded:
                for _ in range(PAGES):
                    page = browser.new_page(viewport=VIEWPORT)
                    page.goto(url)
                    page.wait_for_selector('.sq[data-square="e1"] .piece', timeout=120_000)
            process.stdin.write("go\n")
            process.stdin.flush()
            figures: dict[str, Any] = json.loads(process.stdout.readline())
        finally:
            browser.close()
            process.kill()
            process.wait()
    return figures


def alone_round(seconds: float, seed: int, fraction: float | None, kind: str) -> dict[str, Any]:
    """One round of the board alone, no page (held to `fraction` of a core if given), of
    a kind of `CPU_KINDS`; its figures."""
    argv = [sys.executable, __file__, "--board", "--seconds", str(seconds), "--seed", str(seed)]
    argv += CPU_KINDS[kind]
    with limited(fraction) as join:
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, preexec_fn=join
        )
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdout.readline()  # "no page"
            process.stdin.write("go\n")
            process.stdin.flush()
            figures: dict[str, Any] = json.loads(process.stdout.readline())
        finally:
            process.kill()
            process.wait()
    return figures


class limited:
    """A context giving the `preexec_fn` that puts a child in a group held to `fraction`
    of a core (None: no limit)."""

    def __init__(self, fraction: float | None) -> None:
        self.fraction = fraction
        self._group: Any = None

    def __enter__(self) -> Any:
        if self.fraction is None:
            return None
        from cpu_limit import CpuLimitError, cpu_limited

        self._group = cpu_limited(self.fraction)
        try:
            limit = self._group.__enter__()
        except CpuLimitError as error:
            raise SystemExit(f"not held: {error}") from None
        print(f"  held to {limit.describe()}", flush=True)
        return limit.join

    def __exit__(self, *exc: object) -> None:
        if self._group is not None:
            self._group.__exit__(*exc)


def p99(values: list[int]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else float(values[0])


def scan(args: argparse.Namespace) -> None:
    where = "this machine" if args.cpu_fraction is None else f"1/{1 / args.cpu_fraction:.0f} core"
    where += ", the engine apart" if args.engine_apart else ""
    results: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
    for number in range(args.rounds):
        for loaded in (False, True):  # in turn, so the machine's load falls on both alike
            figures = round_of(
                args.seconds, args.seed + number, loaded, args.cpu_fraction, args.engine_apart
            )
            results[loaded].append(figures)
            lat = figures["latencies"]
            print(
                f"  round {number + 1} {'engine + pages' if loaded else 'board alone   '}: "
                f"{figures['scans_per_s']:6.1f} scans/s, {len(lat)} moves, latency median "
                f"{statistics.median(lat) if lat else float('nan'):.0f} ms, "
                f"p99 {p99(lat) if lat else float('nan'):.0f} ms",
                flush=True,
            )
    print(f"{where}, {args.rounds} rounds of {args.seconds:g} s (medians of the rounds):")
    rates = {k: statistics.median(r["scans_per_s"] for r in v) for k, v in results.items()}
    for loaded in (False, True):
        p99s = [p99(r["latencies"]) for r in results[loaded] if r["latencies"]]
        medians = [statistics.median(r["latencies"]) for r in results[loaded] if r["latencies"]]
        name = "engine at level 20 + 5 pages" if loaded else "board alone"
        print(
            f"  {name:28}: {rates[loaded]:6.1f} scans/s, commit latency median "
            f"{statistics.median(medians):.0f} ms, p99 {statistics.median(p99s):.0f} ms"
            " (goal <= settle_ms + 50 = 350 ms)"
        )
    print(f"  scan rate loaded / alone: {rates[True] / rates[False]:.3f}")


def cpu(args: argparse.Namespace) -> None:
    """The board's loop's CPU, idle and in play, alternating rounds (the machine's load
    falls on both alike)."""
    where = "this machine" if args.cpu_fraction is None else f"1/{1 / args.cpu_fraction:.0f} core"
    rounds: dict[str, list[dict[str, Any]]] = {kind: [] for kind in CPU_KINDS}
    for number in range(args.rounds):
        for kind in rounds:
            figures = alone_round(args.seconds, args.seed + number, args.cpu_fraction, kind)
            rounds[kind].append(figures)
            print(f"  round {number + 1} {kind}: {_cpu_line(figures, args.seconds)}", flush=True)
    print(f"the board's loop, {where}, {args.rounds} rounds of {args.seconds:g} s (medians):")
    for kind, results in rounds.items():
        share = statistics.median(100 * r["cpu_s"] / args.seconds for r in results)
        turn = statistics.median(1e6 * r["cpu_s"] / max(1, r["turns"]) for r in results)
        rate = statistics.median(r["scans_per_s"] for r in results)
        line = (
            f"  {kind:16}: {share:5.2f} % of a core, {turn:6.1f} us CPU a turn, {rate:5.1f} turns/s"
        )
        moved = [r for r in results if r["latencies"]]
        if kind == "play" and moved:
            per_move = statistics.median(1e3 * r["cpu_s"] / len(r["latencies"]) for r in moved)
            line += f", {per_move:.1f} ms CPU a move"
        print(line)


# The board's kinds of rounds, and how each is asked of its process.
CPU_KINDS = {"idle": ["--idle"], "idle, scan apart": ["--idle", "--still"], "play": []}


def _cpu_line(figures: dict[str, Any], seconds: float) -> str:
    turns, moves = figures["turns"], len(figures["latencies"])
    return (
        f"{100 * figures['cpu_s'] / seconds:5.2f} % of a core, "
        f"{1e6 * figures['cpu_s'] / max(1, turns):6.1f} us a turn, "
        f"{figures['scans_per_s']:5.1f} turns/s, {moves} moves"
    )


def turn(rounds: int, turns: int = 4000) -> None:
    """The loop's turn in process: idle, and answering a host's `state` each turn."""
    from reedboard.app import App
    from reedboard.app_ports import HostLink, Sensing
    from reedboard.commands.run_board import board_lights
    from reedboard.config import LedConfig
    from reedboard.hal.clock import VirtualClock
    from reedboard.hal.recording_strip import RecordingStrip
    from reedboard.link.frame import encode_frame
    from reedboard.replay.script import parse_script
    from reedboard.replay.scripted_board import scripted_board

    from tests.app.wire_link import WireLink

    def per_turn_us(asking: bool) -> float:
        fake = scripted_board(parse_script("@start standard\n"))
        link, strip = WireLink(), RecordingStrip(64, keep=4)
        app = App(Sensing(fake, source=fake), VirtualClock(), link=HostLink(link),
                  lights=board_lights(LedConfig(), strip))  # fmt: skip
        app.step(0)
        asked = [b"\n" + encode_frame({"type": "state", "id": n + 1}) for n in range(turns)]
        data = asked if asking else [b""] * turns
        started = time.perf_counter()
        for number, bytes_in in enumerate(data, start=1):
            app.step(5 * number, bytes_in)
            link.written.clear()
        return 1e6 * (time.perf_counter() - started) / turns

    print(f"one turn of the loop, in process, {rounds} rounds of {turns} turns (medians):")
    for name, asking in (("idle", False), ("a state asked", True)):
        figure = statistics.median(per_turn_us(asking) for _ in range(rounds))
        print(f"  {name:16}: {figure:6.1f} us a turn")


def rss(plies: int) -> None:
    """reedboard's own process in an engine game with five pages open: RSS after each
    move, Stockfish's apart."""
    from playwright.sync_api import sync_playwright
    from reedboard.opponents.uci_engine import UciEngine
    from reedboard.rules.game import Game
    from reedboard.rules.position import Position

    from tests.simweb.page import CHROMIUM, FLAGS
    from tests.web.board_process import running_board
    from tests.web.test_whole_game_from_page import carry_out

    ours, engines = list[float](), list[float]()
    with (
        tempfile.TemporaryDirectory() as folder,
        sync_playwright() as p,
        running_board(Path(folder), None, "--opponent", "engine:5", live="") as running,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        person = UciEngine("stockfish")
        try:
            person.start()
            for _ in range(PAGES):
                page = browser.new_page(viewport=VIEWPORT)
                page.goto(running.url)
                page.wait_for_selector('.sq[data-square="e1"] .piece', timeout=120_000)
            game = Game(Position.standard())
            while len(game) < plies:
                if len(game) % 2 == 0:
                    uci = person.best_move(game.start.fen(), _moves(game), 100)
                else:
                    uci = _lit(running.host)
                carry_out(running, game.position, uci)
                game.push_uci(_wait_for_ply(running.host, len(game) + 1)[-1])
                ours.append(_rss_mb(running.process.pid))
                engines += [_rss_mb(pid) for pid in _children(running.process.pid)]
        finally:
            person.close()
            browser.close()
    print(f"reedboard run with {PAGES} pages open and an engine game, {len(ours)} moves:")
    print(f"  RSS median {statistics.median(ours):.1f} MB, max {max(ours):.1f} MB (goal < 80 MB)")
    if engines:
        print(f"  Stockfish apart: median {statistics.median(engines):.1f} MB")


def _moves(game: Any) -> list[str]:
    return [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]


def _lit(host: Any) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        hint = host.state().get("hint")
        if hint:
            return str(hint[0]) + str(hint[1])
        time.sleep(0.1)
    raise SystemExit("the engine's move was never lit")


def _wait_for_ply(host: Any, plies: int) -> list[str]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        moves = [str(m) for m in host.state()["moves"]]
        if len(moves) >= plies:
            return moves
        time.sleep(0.1)
    raise SystemExit("the move was not made on the board")


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _children(pid: int) -> list[int]:
    """The process's children, whichever of its threads started them (the engine's)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--plies", type=int, default=12, help="the RSS game's plies")
    parser.add_argument("--cpu-fraction", type=float, help="hold the board to this share")
    parser.add_argument(
        "--engine-apart", action="store_true", help="the engine outside the board's CPU group"
    )
    parser.add_argument("--only", choices=("scan", "cpu", "turn", "rss"))
    parser.add_argument("--board", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--loaded", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--idle", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--still", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.board:
        board(args.seconds, args.seed, args.loaded, args.engine_apart, args.idle, args.still)
        return
    if args.only in (None, "scan"):
        scan(args)
    if args.only in (None, "cpu"):
        cpu(args)
    if args.only in (None, "turn"):
        turn(max(args.rounds, 5))
    if args.only in (None, "rss"):
        rss(args.plies)


if __name__ == "__main__":
    main()
