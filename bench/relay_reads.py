"""Benchmark: the relay's CPU for its public reads while a thousand boards move.

    python bench/relay_reads.py [--boards 1000] [--plies 40] [--seconds 10] [--rate 350]
                                [--joins 300]

The relay's parts in this process over a SQLite file (no broker, no sockets: each move's
frame is handed to the relay's MQTT callback as paho would, topic and payload, so its
reading, its checks and the asking at the end of a read turn count), N boards each
`--plies` into a game; then
`--rate` moves a second spread over random boards, for `--seconds` of simulated time in
steps of 0.1 s, each step followed by one `/api/boards` body, every fifth by one
`/games.pgn` body and every second by one turn of the event stream (three listeners).
Before the moves, `--joins` listeners join the event stream one after another (each
given every board in its first message) and leave, their CPU time printed apart.
The moves are taken 20 to a read turn (one transaction), as the relay reads them from
Mosquitto.
Prints the process's CPU time (not the wall clock: on shared cores it says what the
relay asks, not what it got) for taking the moves, for each body and for the turns.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from reedboard.link.frame import encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.event_stream import Listener
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.pairings import Pairings
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore
from reedboard_relay.web import RelayWeb
from relay_events import frames, line_of_play, moves_of, read

STEP_S = 0.1
# The messages the relay stores in one transaction, as it reads them from its broker:
# those of one turn of reading, at most the 20 Mosquitto sends unacknowledged.
READ_TURN = 20


def on_topic(board: str, frame: dict[str, object]) -> mqtt.MQTTMessage:
    """A board's frame as paho hands it to the relay: on its stream topic, encoded."""
    message = mqtt.MQTTMessage(topic=f"reedboard/boards/{board}/stream".encode())
    message.payload = encode_frame(frame).rstrip(b"\n")
    message.qos = 1
    return message


async def run(
    boards: int, plies: int, seconds: float, rate: int, db: Path, joins: int = 0
) -> tuple[dict[str, float], float]:
    store = RelayStore(str(db))
    service = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), Boards(store))
    relay = RelayWeb(service, GamePairings(Pairings(None), store.db))
    service.changed = relay.changed  # as the command line joins them
    steps = round(seconds / STEP_S)
    effects = moves_of(line_of_play(plies + int(rate * seconds) // boards + 20))
    ids = [str(n) for n in range(1, boards + 1)]
    for board in ids:
        for frame in frames(effects[:plies], board):
            service.boards.heard(board, read(frame), 0)
    relay.loop = asyncio.get_running_loop()
    listeners = [Listener() for _ in range(3)]
    for listener in listeners:
        relay.events.join(listener)
    await relay.games_body()
    await relay.boards_body()
    began = time.process_time()
    for _ in range(joins):  # spectators opening the page at once, as at a round's start
        joined = Listener()
        relay.events.join(joined)
        relay.events.listeners.discard(joined)
    joining = time.process_time() - began
    at = dict.fromkeys(ids, plies)
    rng = random.Random(1)
    spent = {"moves": 0.0, "/api/boards": 0.0, "/games.pgn": 0.0, "event turns": 0.0}

    async def timed(what: str, read: object) -> None:
        began = time.process_time()
        if asyncio.iscoroutine(read):
            await read
        spent[what] += time.process_time() - began

    taken = 0
    for step in range(steps):
        began = time.process_time()
        for _ in range(round(rate * STEP_S)):
            board = rng.choice(ids)
            if at[board] >= len(effects):
                continue
            at[board] += 1
            if taken % READ_TURN == 0:
                service._commit()  # a turn's messages stored, acknowledged
                service._hold()
            taken += 1
            service._message(service.client, None, on_topic(board, effects[at[board] - 1]))
        service._commit()
        spent["moves"] += time.process_time() - began
        await timed("/api/boards", relay.boards_body())
        if step % 5 == 0:
            await timed("/games.pgn", relay.games_body())
        if step % 2 == 0:
            began = time.process_time()
            relay.events.turn()
            spent["event turns"] += time.process_time() - began
        for listener in listeners:  # read at once, as a listener keeping up would
            listener.queue.clear()
            listener.queued_bytes = 0
            listener.owed.clear()
    store.close()
    return spent, joining


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    p.add_argument("--boards", type=int, default=1000)
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--rate", type=int, default=350, help="moves a second, all boards")
    p.add_argument("--joins", type=int, default=300, help="listeners joining before the moves")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "relay.sqlite"
        spent, joining = asyncio.run(
            run(args.boards, args.plies, args.seconds, args.rate, db, args.joins)
        )
    if args.joins:
        each = joining * 1000 / args.joins
        print(f"{args.joins} listeners joining: {joining:.2f} s of CPU ({each:.2f} ms each)")
    moves = round(args.rate * args.seconds)
    print(f"boards: {args.boards}, {moves} moves over {args.seconds:g} s; CPU time:")
    for what, seconds in spent.items():
        print(f"  {what:12} {seconds:6.2f} s  ({seconds * 1000 / moves:.3f} ms a move)")
    total = sum(spent.values())
    print(f"  {'all':12} {total:6.2f} s  ({total * 1000 / moves:.3f} ms a move)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
