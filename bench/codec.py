"""Benchmark: the link's codec at both ends, in one run.

    python bench/codec.py [--runs N]

- the host reads 5,000 `move` effects: the frames of real games (a hello first) through
  the host's endpoint, CRC, JSON, checks and the typed event each;
- the same 5,000, already JSON, through `read_board_message` alone (the codec itself);
- the board parses 10,000 commands (every kind a host sends, in turn) through the
  board's endpoint.

Prints the median of `--runs` runs (default 7) of each, in ms of this process's CPU time
(so that other work on the machine does not count), and per message in µs.
The frames are built as plain JSON here, so the same file measures any version of the
link (run it with another tree first on `PYTHONPATH` to compare).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import read_board_message
from reedboard.link.frame import encode_frame
from reedboard.link.host import HostEndpoint
from reedboard.rules.position import Position
from reedboard.rules.san import san
from reedboard.sim.games import random_game

MOVES = 5_000
COMMANDS = 10_000


def move_wires(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """`count` move effects of random games, numbered from 2 (the hello is 1)."""
    rng = random.Random(seed)
    wires: list[dict[str, Any]] = []
    game = 1
    while len(wires) < count:
        position = Position.standard()
        for ply, move in enumerate(random_game(position, rng, max_plies=120).moves, start=1):
            said = san(position, move)
            position = position.play(move)
            seq = len(wires) + 2
            wires.append(
                {"type": "effect", "seq": seq, "event": "move", "t_ms": seq * 900}
                | {"uci": move.uci(), "san": said, "fen": position.fen(), "ply": ply}
                | {"game": game}
            )
            if len(wires) == count:
                break
        game += 1
    return wires


COMMAND_KINDS: list[dict[str, Any]] = [
    {"type": "show", "uci": "e2e4"},
    {"type": "mark", "squares": ["e4", "d4"], "blink": ["a1"]},
    {"type": "state"},
    {"type": "moves", "from": 4},
    {"type": "mode", "mode": "strict"},
    {"type": "promotion", "piece": "n"},
    {"type": "takeback", "to_ply": 3, "game": 2},
    {"type": "clock_add", "color": "white", "ms": 1000},
    {"type": "settings", "settle_ms": 80, "tournament": True},
    {"type": "hello", "protocol": 1, "client": "bench"},
    {"type": "resend", "after": 10, "session": "s", "until": 20},
    {"type": "new_game", "variant": "chess960", "number": 518, "clock": "5+3"},
    {"type": "brightness", "percent": 40},
    {"type": "say", "what": "e4"},
]


def command_frames(count: int) -> bytes:
    frames = bytearray()
    for index in range(count):
        command = COMMAND_KINDS[index % len(COMMAND_KINDS)] | {"id": index + 1}
        frames += encode_frame(command)
    return bytes(frames)


def median_ms(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        begin = time.process_time()
        work()
        times.append((time.process_time() - begin) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    wires = move_wires(MOVES)
    hello = encode_frame({"type": "hello", "seq": 1, "session": "s", "protocol": 1})
    stream = hello + b"".join(encode_frame(wire) for wire in wires)
    commands = command_frames(COMMANDS)

    def host_reads() -> None:
        delivered = HostEndpoint().receive_data(stream, 0)
        assert len(delivered) == MOVES + 1, len(delivered)

    def codec_reads() -> None:
        for wire in wires:
            message, problem = read_board_message(wire)
            assert problem is None and message is not None

    def board_parses() -> None:
        parsed = BoardEndpoint("s").receive_data(commands)
        assert len(parsed) == COMMANDS, len(parsed)

    for name, count, work in (
        ("host reads move effects (frames)", MOVES, host_reads),
        ("host reads move effects (codec alone)", MOVES, codec_reads),
        ("board parses commands (frames)", COMMANDS, board_parses),
    ):
        ms = median_ms(args.runs, work)
        print(f"{name:<40} {count:>6}: median {ms:8.1f} ms, {ms * 1000 / count:6.1f} µs each")


if __name__ == "__main__":
    main()
