"""A relay restarted on a large store: how long before it serves, and before its page
has every game.

Writes a store as the relay writes it (SQLite, `messages` rows of real board frames:
each board's `hello`, its `state`, then one `move` effect per ply of a random legal
game), as an older relay left it: every game only in its messages. Then, three times:
rebuilds the boards from it in this process (`Boards`), and starts `reedboard-relay` on
a copy of it (its broker on a port where nothing listens: the relay serves without
one), timing its first line (it serves) and the moment `/api/boards` shows every board's
last ply. The relay, stopped, keeps each board's snapshot (snapshots.py): the same is
timed again on that store, as a relay restarted mid-round finds it. Prints the medians.

    python bench/relay_restart.py [--boards 1030] [--plies 148] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from reedboard.rules.position import Position
from reedboard.sim.games import random_game
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

BIN = Path(sys.executable).parent
RUNS = 3
POLL_S = 0.05


def game_frames(plies: int) -> list[dict[str, object]]:
    """One board's frames: `hello`, `state` at the start, then each ply's `move`."""
    start = Position.standard()
    seed = 0
    while True:
        game = random_game(start, random.Random(seed), max_plies=plies)
        if len(game) == plies:
            break
        seed += 1
    fen = start.fen()
    frames: list[dict[str, object]] = [
        {"type": "hello", "seq": 1, "protocol": 1, "firmware": "bench", "board": "",
         "session": "s1", "variant": "standard", "mode": "casual", "game": 0},
        {"type": "state", "seq": 2, "id": 1, "game": 0, "variant": "standard",
         "chess960": False, "start_fen": fen, "fen": fen, "moves": [], "san": [],
         "result": None, "reason": None},
    ]  # fmt: skip
    sans = game.san_moves()
    for ply, move in enumerate(game.moves, start=1):
        position = game.positions[ply - 1]
        frames.append({
            "type": "effect", "seq": ply + 2, "event": "move", "t_ms": 1000 * ply,
            "game": 0, "uci": position.uci(move), "san": sans[ply - 1], "ply": ply,
            "fen": game.positions[ply].fen(),
        })  # fmt: skip
    return frames


def write_store(path: Path, boards: int, plies: int) -> int:
    """The store, written directly in the relay's own schema; the number of messages."""
    RelayStore(str(path)).close()  # the schema, as the relay makes it
    frames = game_frames(plies)
    db = sqlite3.connect(path)
    with db:
        for number in range(1, boards + 1):
            board = f"b{number}"
            rows = [(board, json.dumps(f | {"board": board} if f["type"] == "hello" else f),
                     1.0) for f in frames]  # fmt: skip
            db.executemany("INSERT INTO messages (board, wire, heard) VALUES (?, ?, ?)", rows)
            db.execute(
                "INSERT INTO boards (board, session, last, online) VALUES (?, 's1', ?, 0)",
                (board, len(frames)),
            )
    db.close()  # the WAL checkpointed into the file: a copy of the file holds it all
    return boards * len(frames)


def rebuild_s(path: Path) -> float:
    began = time.perf_counter()
    store = RelayStore(str(path))
    Boards(store)
    took = time.perf_counter() - began
    store.close()
    return took


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def relay_s(path: Path, boards: int, plies: int) -> tuple[float, float]:
    """(seconds until the relay serves, until its page shows every board's last ply)."""
    nowhere = f"mqtt://127.0.0.1:{free_port()}"
    began = time.perf_counter()
    relay = subprocess.Popen(
        [str(BIN / "reedboard-relay"), "--mqtt", nowhere, "--db", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert relay.stdout is not None
        page = relay.stdout.readline().strip()
        serves = time.perf_counter() - began
        while True:
            with urllib.request.urlopen(page + "api/boards", timeout=60) as answer:
                shown = json.loads(answer.read())
            if len(shown) == boards and all(b["ply"] == plies for b in shown):
                return serves, time.perf_counter() - began
            time.sleep(POLL_S)  # polling the relay's answer
    finally:
        relay.terminate()
        relay.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1030)
    parser.add_argument("--plies", type=int, default=148)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "relay.sqlite"
        messages = write_store(store, args.boards, args.plies)
        print(f"{args.boards} boards, {messages:,} messages")
        kept = Path(folder) / "kept.sqlite"  # the same store, with the relay's snapshots
        for name, path in (("messages only", store), ("with snapshots", kept)):
            rebuilds, serving, complete = [], [], []
            for run in range(args.runs):
                copy = Path(folder) / f"run{run}.sqlite"
                shutil.copy(path, copy)
                serves, all_shown = relay_s(copy, args.boards, args.plies)
                if not kept.exists():
                    shutil.copy(copy, kept)  # stopped by SIGTERM: its snapshots kept
                rebuilds.append(rebuild_s(path))
                serving.append(serves)
                complete.append(all_shown)
            print(f"{name}: rebuilt in this process: median {statistics.median(rebuilds):.2f} s")
            print(f"{name}: relay serves after: median {statistics.median(serving):.2f} s")
            print(
                f"{name}: relay shows every game after: median {statistics.median(complete):.2f} s"
            )


if __name__ == "__main__":
    main()
