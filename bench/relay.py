"""The relay under load: N fake boards (whole firmware processes, each playing a
human-model game at 10x speed) publishing to one Mosquitto on this machine, and one
`reedboard-relay` carrying them.

Prints, for each number of boards: the moves carried per second, the latency from a
board's commit (the moment the board prints the move, after its journal has it) to the
move being in the relay's games (polled on `/api/boards`, which reads what `/games.pgn`
writes, every 20 ms: the figures include up to 20 ms of polling), median and p99, the
relay's CPU time per move, its memory, and whether `/games.pgn` equals every board's
own game (nothing lost, nothing doubled).

    python bench/relay.py [--boards 10 50 100] [--plies 60] [--speed 10]
"""

from __future__ import annotations

import argparse
import json
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
from pathlib import Path
from typing import IO

from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard.sim.human import human_script

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


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        text: str = answer.read().decode()
        return text


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


def run(boards: int, plies: int, speed: float, folder: Path) -> dict[str, float]:
    port = free_port()
    config = folder / "mosquitto.conf"
    config.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n")
    broker = subprocess.Popen([MOSQUITTO, "-c", str(config)], stderr=subprocess.DEVNULL)
    url = f"mqtt://127.0.0.1:{port}"
    time.sleep(0.5)  # the broker opening its port (not a measured time)
    relay = subprocess.Popen(
        [str(BIN / "reedboard-relay"), "--mqtt", url, "--db", str(folder / "relay.sqlite")],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert relay.stdout is not None
    page = relay.stdout.readline().strip()
    ids = [f"b{n:04}" for n in range(boards)]
    times: dict[str, list[float]] = {b: [] for b in ids}
    sans: dict[str, list[str]] = {b: [] for b in ids}
    seen: dict[str, list[float]] = {b: [] for b in ids}
    processes: list[subprocess.Popen[str]] = []
    readers = []
    try:
        for n, board in enumerate(ids):
            script = folder / f"{board}.events"
            script.write_text(game_script(plies, seed=n + 1))
            process = subprocess.Popen(
                [str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed",
                 str(speed), "--until-done", "--mqtt", url, "--board-id", board],
                stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            processes.append(process)
            assert process.stdout is not None
            reader = threading.Thread(
                target=read_moves, args=(process.stdout, times[board], sans[board]), daemon=True
            )
            reader.start()
            readers.append(reader)
        cpu_before = cpu_s(relay.pid)
        started = time.monotonic()
        while any(p.poll() is None for p in processes) or any(
            len(seen[b]) < len(sans[b]) for b in ids
        ):
            now = time.monotonic()
            for entry in json.loads(get(page + "api/boards")):
                marks = seen.get(entry["id"])
                if marks is not None:
                    while len(marks) < entry["ply"]:
                        marks.append(now)
            if now - started > 600:
                break
            time.sleep(POLL_S)  # the polling interval, part of the figures
        elapsed = time.monotonic() - started
        for reader in readers:
            reader.join(5)
        cpu = cpu_s(relay.pid) - cpu_before
        memory = rss_mb(relay.pid)
        carried = sans_by_board(get(page + "games.pgn"))
        exact = all(carried.get(b) == sans[b] for b in ids)
    finally:
        children: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = [
            *processes, relay, broker
        ]  # fmt: skip
        for running in children:
            if running.poll() is None:
                running.send_signal(signal.SIGTERM)
                try:
                    running.wait(10)
                except subprocess.TimeoutExpired:
                    running.kill()
                    running.wait()
    latencies = [
        (seen[b][k] - times[b][k]) * 1000
        for b in ids
        for k in range(min(len(seen[b]), len(times[b])))
    ]
    moves = sum(len(sans[b]) for b in ids)
    return {
        "moves": moves,
        "per_s": moves / elapsed,
        "median": statistics.median(latencies) if latencies else float("nan"),
        "p99": p99(latencies) if latencies else float("nan"),
        "cpu_ms": cpu * 1000 / max(1, moves),
        "rss": memory,
        "exact": float(exact),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--speed", type=float, default=10.0)
    args = parser.parse_args()
    print("boards  moves  moves/s  median ms  p99 ms  relay CPU/move ms  relay RSS MB  exact")
    for boards in args.boards:
        with tempfile.TemporaryDirectory() as tmp:
            r = run(boards, args.plies, args.speed, Path(tmp))
        print(f"{boards:6}  {r['moves']:5.0f}  {r['per_s']:7.1f}  {r['median']:9.1f}  "
              f"{r['p99']:6.1f}  {r['cpu_ms']:17.2f}  {r['rss']:12.1f}  "
              f"{'yes' if r['exact'] else 'NO'}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
