"""The relay under load: N fake boards (whole firmware processes, each playing a
human-model game at 10x speed) publishing to one Mosquitto on this machine, and one
`reedboard-relay` carrying them; then N light publishers: one process replaying board
streams recorded once from whole fake boards, each board with its own MQTT connection,
session and last will (all turned by one loop), at a real board's pace, answering the
relay's requests from the recording.

Prints, for each number of boards: the moves carried per second, the latency from a
board's commit (a whole board: the moment it prints the move, after its journal has it;
a light one: the moment it publishes the move) to the move being in the relay's games
(polled on `/api/boards`, which reads what `/games.pgn` writes, every 20 ms plus the
poll's own time: the figures include that), median and p99, the relay's CPU time per
move (its polls included), its memory, and whether `/games.pgn` equals every board's
own game (nothing lost, nothing doubled). A board stays up after its game, as a real
one does, until the relay has all of it. A light run also says how much of the
machine's CPU (both cores' time over the run) each group of processes took: the relay,
the broker, the publishers, the `/games.pgn` pollers, the listeners, the bench's own
process, and everything else on the machine (`others`).

    python bench/relay.py [--boards 10 50 100] [--light 200 500 1000] [--plies 60]
                          [--speed 10] [--pace 1] [--pgn-pollers N] [--listeners N]
                          [--inflight N] [--poll-ms 20]

`--boards` or `--light` with no number skips that half (`--light 1000` alone runs the
whole-board half too, with its default sizes: give `--boards` with no number).
`--pgn-pollers N` adds N clients polling `/games.pgn` every 2 s and `--listeners N` N
spectators on the event stream, to the light half (bench/relay_spectators.py). RELAY_PROFILE=FILE runs the relay
under cProfile; RELAY_TURNS=FILE times its loop's turns (bench/relay_turns.py);
BENCH_DUMP=FILE appends each move's commit time and latency.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import paho.mqtt.client as mqtt
from cpu_shares import CpuShares
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link.frame import decode_line
from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard.sim.human import human_script
from relay_light import Recording, replay
from relay_spectators import SpectatorProcesses

BIN = Path(sys.executable).parent
MOSQUITTO = "/usr/sbin/mosquitto"
POLL_S = 0.02


def game_script(plies: int, seed: int) -> str:
    rng = random.Random(seed)
    while True:
        game = random_game(Position.standard(), rng, max_plies=plies)
        if len(game) == plies:
            break
    return human_script(Position.standard(), game.moves, seed=seed).text()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def get(url: str, timeout: float = 10) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        text: str = answer.read().decode()
        return text


def get_bytes(url: str, timeout: float = 10) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        body: bytes = answer.read()
        return body


# The start of each entry of `/api/boards`, as the relay writes it: its id, then its ply.
ENTRY = re.compile(rb'"id": "([^"\\]*)", "online": (?:true|false), "fen": (?:null|"[^"]*"), '
                   rb'"ply": (\d+)')  # fmt: skip


def plies_of(body: bytes) -> list[tuple[str, int]]:
    """Each board's id and ply in an `/api/boards` body: read by a pattern, not parsed
    whole (a thousand boards' entries, their moves included, fifty times a second took
    the bench's process more than half a core); parsed whole where the pattern finds
    none, so that a changed entry is never read as no board."""
    found = [(board.decode(), int(ply)) for board, ply in ENTRY.findall(body)]
    if found or body.strip() == b"[]":
        return found
    return [(entry["id"], entry["ply"]) for entry in json.loads(body)]


def read_moves(stream: IO[str], times: list[float], sans: list[str]) -> None:
    for line in stream:
        effect = json.loads(line)
        if effect.get("event") == "move":
            times.append(time.monotonic())
            sans.append(effect["san"])


def sans_by_board(pgn: str) -> dict[str, list[str]]:
    games: dict[str, list[str]] = {}
    for text in pgn.split("[Event ")[1:]:
        site = re.search(r'\[Site "reedboard ([^"]+)"\]', text)
        assert site is not None
        body = "\n".join(line for line in text.splitlines()[1:] if not line.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        games[site.group(1)] = [
            t for t in body.split() if not re.fullmatch(r"\d+\.+|\*|1-0|0-1|1/2-1/2", t)
        ]
    return games


class Poller:
    """Reads `/api/boards` every `every_s` (POLL_S) in a thread of its own, from before the first board
    starts: `seen[board][k]` is when the relay first showed the board's move k+1."""

    def __init__(self, page: str, ids: list[str], every_s: float = POLL_S) -> None:
        self.page = page
        self.every_s = every_s
        self.seen: dict[str, list[float]] = {b: [] for b in ids}
        self.polls: list[float] = []  # how long each poll took (ms)
        self.failed = 0  # polls that timed out or failed: the next one still counts
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                entries = plies_of(get_bytes(self.page + "api/boards"))
            except (OSError, ValueError):
                # A relay starved of CPU for 10 s: the moves show in a later poll, late,
                # as they are; a poller that stopped would count them as never carried.
                self.failed += 1
                continue
            now = time.monotonic()
            self.polls.append((now - began) * 1000)
            for board, ply in entries:
                marks = self.seen.get(board)
                if marks is not None:
                    while len(marks) < ply:
                        marks.append(now)
            self._stop.wait(self.every_s)  # the polling interval, part of the figures

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)


def start_broker(folder: Path, inflight: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Mosquitto on a free port; `inflight`: its `max_inflight_messages` (20 when None),
    the QoS 1 messages it sends a client before waiting for their acknowledgements."""
    port = free_port()
    config = folder / "mosquitto.conf"
    window = "" if inflight is None else f"max_inflight_messages {inflight}\n"
    config.write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n{window}"
    )
    broker = subprocess.Popen([MOSQUITTO, "-c", str(config)], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            break
        time.sleep(0.05)  # waiting for the port to open, not timing anything
    return broker, f"mqtt://127.0.0.1:{port}"


def start_relay(url: str, folder: Path) -> tuple[subprocess.Popen[str], str]:
    command = [str(BIN / "reedboard-relay"), "--mqtt", url, "--db", str(folder / "relay.sqlite")]
    profile = os.environ.get("RELAY_PROFILE")  # a file: the relay runs under cProfile
    if profile:
        command = [sys.executable, "-m", "cProfile", "-o", profile, *command]
    turns = os.environ.get("RELAY_TURNS")  # a file: the loop's turns timed (relay_turns.py)
    if turns:
        command = [sys.executable, str(Path(__file__).with_name("relay_turns.py")), turns, *command]
    relay = subprocess.Popen(
        command,
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert relay.stdout is not None
    return relay, relay.stdout.readline().strip()


def stop_all(children: Sequence[subprocess.Popen[str] | subprocess.Popen[bytes]]) -> None:
    for running in children:
        if running.poll() is None:
            running.send_signal(signal.SIGTERM)
    for running in children:
        try:
            running.wait(15)
        except subprocess.TimeoutExpired:
            running.kill()
            running.wait()


def figures(
    ids: list[str],
    times: dict[str, list[float]],
    seen: dict[str, list[float]],
    elapsed: float,
    cpu: float,
    memory: float,
    exact: bool,
) -> dict[str, float]:
    latencies = [
        (seen[b][k] - times[b][k]) * 1000
        for b in ids
        for k in range(min(len(seen[b]), len(times[b])))
    ]
    moves = sum(len(times[b]) for b in ids)
    dump = os.environ.get("BENCH_DUMP")  # a file: each move's commit time and latency
    if dump:
        with open(dump, "a") as out:
            for b in ids:
                for k in range(min(len(seen[b]), len(times[b]))):
                    out.write(
                        f"{len(ids)} {times[b][k]:.3f} {(seen[b][k] - times[b][k]) * 1000:.1f}\n"
                    )
    return {
        "moves": moves,
        "per_s": moves / elapsed,
        "median": statistics.median(latencies) if latencies else float("nan"),
        "p99": p99(latencies) if latencies else float("nan"),
        "cpu_ms": cpu * 1000 / max(1, moves),
        "rss": memory,
        "exact": float(exact),
    }


def check(page: str, ids: list[str], sans: dict[str, list[str]]) -> bool:
    # As long as the spectators' pollers wait, at most: a relay on cores others take
    # answers late, which the pollers' figures say; this asks what it carried.
    carried = sans_by_board(get(page + "games.pgn", timeout=120))
    wrong = [b for b in ids if carried.get(b) != sans[b]]
    for b in wrong:
        got = carried.get(b, [])
        print(f"  {b}: board {len(sans[b])} moves, relay {len(got)}", file=sys.stderr)
    return not wrong


def run(boards: int, plies: int, speed: float, folder: Path) -> dict[str, float]:
    broker, url = start_broker(folder)
    relay, page = start_relay(url, folder)
    ids = [f"b{n:04}" for n in range(boards)]
    times: dict[str, list[float]] = {b: [] for b in ids}
    sans: dict[str, list[str]] = {b: [] for b in ids}
    processes: list[subprocess.Popen[str]] = []
    poller = Poller(page, ids)
    try:
        scripts = []
        for n, board in enumerate(ids):
            script = folder / f"{board}.events"
            script.write_text(game_script(plies, seed=n + 1))
            scripts.append(script)
        cpu_before = cpu_s(relay.pid)
        started = time.monotonic()
        for board, script in zip(ids, scripts, strict=True):
            # No --until-done: a board stays up after its game, as a real one does, so the
            # relay can still ask it for what it missed.
            process = subprocess.Popen(
                [str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed",
                 str(speed), "--mqtt", url, "--board-id", board],
                stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            processes.append(process)
            assert process.stdout is not None
            threading.Thread(
                target=read_moves, args=(process.stdout, times[board], sans[board]), daemon=True
            ).start()
        seen = poller.seen
        # Done once every board has played its plies (or stopped) and the relay shows them.
        while not all(
            len(seen[b]) >= len(sans[b]) and (len(sans[b]) >= plies or p.poll() is not None)
            for b, p in zip(ids, processes, strict=True)
        ):
            if time.monotonic() - started > 900:
                break
            time.sleep(0.1)  # waiting for the boards and the relay, not timing anything
        elapsed = time.monotonic() - started
        poller.stop()
        cpu = cpu_s(relay.pid) - cpu_before
        memory = rss_mb(relay.pid)
        exact = check(page, ids, sans)
    finally:
        poller.stop()
        stop_all([*processes, relay, broker])
    return figures(ids, times, poller.seen, elapsed, cpu, memory, exact)


# ----- light publishers: recorded board streams replayed, many boards in one process -----


def record(url: str, folder: Path, games: int, plies: int, speed: float) -> list[Recording]:
    """Play `games` whole fake boards through the broker once and keep their frames."""
    heard: dict[str, list[tuple[float, bytes]]] = {f"rec{n}": [] for n in range(games)}
    ready = threading.Event()
    listener = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-recorder")
    listener.on_connect = lambda c, *_: c.subscribe("reedboard/boards/+/stream", qos=1)
    listener.on_subscribe = lambda *_: ready.set()

    def keep(_c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        board = message.topic.split("/")[2]
        heard[board].append((time.monotonic(), bytes(message.payload)))

    listener.on_message = keep
    address = url.rsplit(":", 1)
    listener.connect(address[0].removeprefix("mqtt://"), int(address[1]))
    listener.loop_start()
    processes = []
    try:
        assert ready.wait(10)
        for n, board in enumerate(heard):
            script = folder / f"{board}.events"
            script.write_text(game_script(plies, seed=1000 + n))
            processes.append(subprocess.Popen(
                [str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed",
                 str(speed), "--until-done", "--mqtt", url, "--board-id", board],
                stdout=subprocess.DEVNULL,
            ))  # fmt: skip
        for process in processes:
            process.wait(600)
    finally:
        stop_all(processes)
        listener.disconnect()
        listener.loop_stop()
    recordings = []
    for board, frames in heard.items():
        # Forget the recording boards, so the relay never hears of them.
        clear = mqtt.Client(CallbackAPIVersion.VERSION2)
        clear.connect(address[0].removeprefix("mqtt://"), int(address[1]))
        clear.publish(f"reedboard/boards/{board}/status", b"", qos=1, retain=True).wait_for_publish(
            5
        )
        clear.disconnect()
        wires = [decode_line(frame) for _t, frame in frames]
        moves = [i for i, w in enumerate(wires) if w and w.get("event") == "move"]
        recordings.append(Recording(
            frames=[(t - frames[0][0], frame) for t, frame in frames],
            seqs=[int(w.get("seq", 0)) if w and w.get("type") != "alive" else 0 for w in wires],
            kinds=[str((w or {}).get("type")) for w in wires],
            moves=moves,
            sans=[str((wires[i] or {})["san"]) for i in moves],
        ))  # fmt: skip
    return recordings


def run_light(
    boards: int,
    recordings: list[Recording],
    pace: float,
    folder: Path,
    crowd: tuple[int, int] = (0, 0),
    inflight: int | None = None,
    poll_s: float = POLL_S,
) -> dict[str, float]:
    broker, url = start_broker(folder, inflight)
    relay, page = start_relay(url, folder)
    ids = [f"l{n:04}" for n in range(boards)]
    sans = {b: recordings[n % len(recordings)].sans for n, b in enumerate(ids)}
    out = folder / "published.json"
    stop = multiprocessing.Event()
    publisher = multiprocessing.Process(
        target=replay, args=(url, recordings, ids, pace, out, stop), daemon=True
    )
    poller = Poller(page, ids, poll_s)
    spectators = SpectatorProcesses(page, *crowd)
    shares = CpuShares()

    def groups() -> dict[str, list[int | None]]:
        return {"relay": [relay.pid], "broker": [broker.pid], "publishers": [publisher.pid],
                **spectators.pids(), "bench": [os.getpid()]}  # fmt: skip

    try:
        cpu_before = cpu_s(relay.pid)
        started = time.monotonic()
        shares.start(groups(), started)
        publisher.start()
        longest = max(r.frames[-1][0] for r in recordings) / pace + 6.0
        while time.monotonic() - started < longest or not all(
            len(poller.seen[b]) >= len(sans[b]) for b in ids
        ):
            if time.monotonic() - started > longest + 600:
                break
            time.sleep(0.1)  # waiting for the relay, not timing anything
        elapsed = time.monotonic() - started
        shares.end(groups(), started + elapsed)
        poller.stop()
        spectators.stop()
        cpu = cpu_s(relay.pid) - cpu_before
        memory = rss_mb(relay.pid)
        exact = check(page, ids, sans)
        stop.set()
        publisher.join(60)
        sent = json.loads(out.read_text())
    finally:
        poller.stop()
        spectators.stop()
        stop.set()
        if publisher.is_alive():
            publisher.terminate()
        stop_all([relay, broker])
    if sent["drops"]:
        print(f"  light boards' connections dropped: {sent['drops']}", file=sys.stderr)
    if sent["asked"]:
        print(f"  the relay asked the light boards: {sent['asked']}", file=sys.stderr)
    slowest = statistics.median(poller.polls) if poller.polls else float("nan")
    print(f"  /api/boards poll: median {slowest:.1f} ms", file=sys.stderr)
    if poller.failed:
        print(f"  /api/boards polls failed: {poller.failed}", file=sys.stderr)
    if spectators.said():
        print(spectators.said(), file=sys.stderr)
    if sent.get("refused"):
        print(f"  light boards' connections refused: {sent['refused']}", file=sys.stderr)
    print(shares.said(), flush=True)
    return figures(ids, sent["times"], poller.seen, elapsed, cpu, memory, exact)


def row(size: int, r: dict[str, float]) -> str:
    return (f"{size:6}  {r['moves']:5.0f}  {r['per_s']:7.1f}  {r['median']:9.1f}  "
            f"{r['p99']:6.1f}  {r['cpu_ms']:17.2f}  {r['rss']:12.1f}  "
            f"{'yes' if r['exact'] else 'NO'}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, nargs="*", default=[10, 50, 100],
                        help="whole fake boards, one run per number (default 10 50 100); "
                             "given with no number, the whole-board half is skipped")  # fmt: skip
    parser.add_argument("--light", type=int, nargs="*", default=[200, 500, 1000],
                        help="light publishers, one run per number (default 200 500 1000); "
                             "--light alone does not skip the whole-board half: give "
                             "--boards with no number")  # fmt: skip
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--pace", type=float, default=1.0,
                        help="light boards replay at this many times a real board's pace")  # fmt: skip
    parser.add_argument("--pgn-pollers", type=int, default=0, metavar="N",
                        help="clients polling /games.pgn every 2 s during the light runs")  # fmt: skip
    parser.add_argument("--listeners", type=int, default=0, metavar="N",
                        help="spectators on the event stream during the light runs")  # fmt: skip
    parser.add_argument("--inflight", type=int, default=None, metavar="N",
                        help="the light runs' broker sends a client N QoS 1 messages "
                             "before waiting for their acknowledgements (Mosquitto's "
                             "max_inflight_messages; default its own, 20)")  # fmt: skip
    parser.add_argument("--poll-ms", type=float, default=POLL_S * 1000, metavar="MS",
                        help="the light runs' /api/boards poll, which times the moves, "
                             "waits this long between polls (default 20)")  # fmt: skip
    args = parser.parse_args()
    header = "boards  moves  moves/s  median ms  p99 ms  relay CPU/move ms  relay RSS MB  exact"
    if args.boards:
        print(f"whole firmware processes at {args.speed:g}x\n{header}")
    for boards in args.boards:
        with tempfile.TemporaryDirectory() as tmp:
            print(row(boards, run(boards, args.plies, args.speed, Path(tmp))), flush=True)
    if not args.light:
        return
    with tempfile.TemporaryDirectory() as tmp:
        broker, url = start_broker(Path(tmp))
        try:
            recordings = record(url, Path(tmp), 4, args.plies, args.speed)
        finally:
            stop_all([broker])
    # Recorded at `speed`: replayed `speed` times slower is a real board's pace.
    for recording in recordings:
        recording.frames = [(t * args.speed, f) for t, f in recording.frames]
    print(f"light publishers at {args.pace:g}x a real board's pace\n{header}", flush=True)
    for boards in args.light:
        with tempfile.TemporaryDirectory() as tmp:
            crowd = (args.pgn_pollers, args.listeners)
            result = run_light(
                boards, recordings, args.pace, Path(tmp), crowd, args.inflight, args.poll_ms / 1000
            )
            print(row(boards, result), flush=True)


if __name__ == "__main__":
    main()
