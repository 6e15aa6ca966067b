"""Benchmark: what the spectator page's event stream sends when one board moves.

    python bench/relay_events.py [--boards 500] [--plies 40] [--moves 20]

Builds the relay's parts in this process over a SQLite file (no broker: the boards'
frames are handed in as the MQTT side would), N boards each N plies into a game, serves
them with the relay's own aiohttp app on 127.0.0.1, and reads `/events` as a page does.
Then one board moves, `--moves` times. Prints the first message's size (every board),
the median size of a message after one board's move (only what changed), their ratio,
and the median time from the move being handed in to its message being read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, web
from reedboard.link.board_messages import BoardMessage, read_board_message
from reedboard.link.mqtt_client import BrokerSettings
from reedboard.rules.game import Game
from reedboard.rules.san import san
from reedboard_relay.boards import Boards
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.pairings import Pairings
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore
from reedboard_relay.web import RelayWeb, make_app

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def line_of_play(plies: int, seed: int = 1) -> list[str]:
    """A seeded game of `plies` legal moves that has not ended (UCI)."""
    rng = random.Random(seed)
    while True:
        game = Game()
        played: list[str] = []
        while len(played) < plies and game.outcome() is None:
            chosen = rng.choice(game.position.legal_moves())
            played.append(game.position.uci(chosen))
            game.push(chosen)
        if len(played) == plies and game.outcome() is None:
            return played


def frames(effects: list[dict[str, Any]], board: str) -> list[dict[str, Any]]:
    # The board's own id: the relay takes no frame whose board is not its topic's.
    hello = {"type": "hello", "seq": 1, "protocol": 1, "firmware": "x", "board": board,
             "session": "s", "variant": "standard", "mode": "casual", "game": 0}  # fmt: skip
    state = {"type": "state", "seq": 2, "id": 1, "game": 0, "variant": "standard",
             "chess960": False, "start_fen": START, "fen": START, "moves": [], "san": [],
             "result": None, "reason": None}  # fmt: skip
    return [hello, state, *effects]


def moves_of(line: list[str]) -> list[dict[str, Any]]:
    """The move effects a board sends for `line`, numbered from 3 (after `hello`, `state`)."""
    game = Game()
    effects = []
    for ply, uci in enumerate(line, start=1):
        before = game.position
        written = san(before, game.push_uci(uci))
        effects.append({"type": "effect", "event": "move", "game": 0, "seq": 2 + ply,
                        "uci": uci, "ply": ply, "t_ms": ply, "san": written,
                        "fen": game.position.fen()})  # fmt: skip
    return effects


def read(frame: dict[str, Any]) -> BoardMessage:
    """A frame as the relay takes it: the typed message the link's codec reads."""
    message, problem = read_board_message(frame)
    assert message is not None, problem
    return message


async def run(boards: int, plies: int, moves: int, db: Path) -> None:
    store = RelayStore(str(db))
    service = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), Boards(store))
    relay = RelayWeb(service, GamePairings(Pairings(None), store.db))
    line = line_of_play(plies + moves)
    effects = moves_of(line)
    for n in range(1, boards + 1):
        for frame in frames(effects[:plies], str(n)):
            service.boards.heard(str(n), read(frame), 0)
    relay.loop = asyncio.get_running_loop()
    runner = web.AppRunner(make_app(relay), shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    sizes: list[int] = []
    waits: list[float] = []
    async with ClientSession() as session, session.get(f"http://127.0.0.1:{port}/events") as r:
        first = await r.content.readline()
        await r.content.readline()  # the blank line after it
        for n in range(moves):
            ply = plies + n + 1
            with service.lock:
                service.boards.heard("1", read(effects[ply - 1]), ply)
            handed = time.perf_counter()
            relay.changed("1")
            message = await r.content.readline()
            waits.append(time.perf_counter() - handed)
            await r.content.readline()
            sizes.append(len(message))
            assert [s["id"] for s in json.loads(message[len(b"data: ") :])] == ["1"]
    await runner.cleanup()
    store.close()
    median = statistics.median(sizes)
    print(f"boards: {boards}, plies each: {plies}")
    print(f"first message (every board): {len(first):,} bytes")
    print(f"after one board's move, median of {moves}: {median:,.0f} bytes")
    print(f"ratio first / after a move: {len(first) / median:,.0f}")
    print(f"move handed in to its message read, median: {statistics.median(waits) * 1e3:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    p.add_argument("--boards", type=int, default=500)
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--moves", type=int, default=20)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args.boards, args.plies, args.moves, Path(tmp) / "relay.sqlite"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
