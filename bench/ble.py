"""Bluetooth LE: from a move's commit on the board to a phone's app holding its CPP
`move` notification, on BlueZoo's virtual adapters (a private D-Bus, no radio): median
and p99 (goal: p99 < 50 ms), split into the board's part (the commit to the phone's
client handing the notification over), the peripheral's thread's (to the notification
emitted on D-Bus) and the D-Bus path's (BlueZ's mock, then bleak). Also what the phone
costs the board's loop: the time its client takes in a turn that sends (it only queues
notifications; the D-Bus conversation runs on a thread of its own).

The board is the real App with the phone's client and the real GATT peripheral, turning
on its own thread; the central is bleak. Each sample: the player plays e2e4 (timed from
the board's loop publishing the commit to the notification's arrival at the central, both
on this process's clock; the phone's client hears of it once the journal would have it,
at its next turn), the app answers `ok` then `undo e2e4`, and the player puts the
pawn back.

    python bench/ble.py [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.ble

from reedboard.ble.peripheral import Peripheral
from reedboard.ble.phone import CPP_SERVICE
from reedboard.events import MoveMade
from reedboard.link.board_messages import EffectMessage, Outgoing
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard

from tests.ble.central import Central, Turning, board_time
from tests.ble.mock_bluez import mock_bluez
from tests.ble.phone_board import PhoneBoard

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"


class Timed:
    """The board, timed: when each commit was published by its loop, and how long each
    turn of the phone's client took the loop in the turns it sent notifications."""

    def __init__(self, board: PhoneBoard) -> None:
        self.commits: list[float] = []
        self.handed: list[float] = []  # when the phone's client handed each `move` over
        self.emitted: list[float] = []  # when the peripheral's D-Bus thread emitted it
        self.turns: list[float] = []
        endpoint, phone = board.app.endpoint, board.phone
        send, turn, transport_send = endpoint.send, phone.turn, phone.transport.send
        sent = [0]

        def timed_send(message: Outgoing) -> int:
            if isinstance(message, EffectMessage) and isinstance(message.effect, MoveMade):
                self.commits.append(time.perf_counter())
            return send(message)

        def counted_send(service: str, data: bytes) -> None:
            sent[0] += 1
            if data.startswith(b"move "):
                self.handed.append(time.perf_counter())
            transport_send(service, data)

        def timed_turn(game: Game, sensors: Bitboard, now_ms: int) -> None:
            before, count = time.perf_counter(), sent[0]
            turn(game, sensors, now_ms)
            if sent[0] > count:  # a turn that had notifications to hand over
                self.turns.append(time.perf_counter() - before)

        peripheral = phone.transport
        assert isinstance(peripheral, Peripheral)
        characteristic = peripheral._tx["cpp"]  # once started: the CPP notifications'
        notify = characteristic.notify

        def timed_notify(value: bytes) -> None:
            if value.startswith(b"move "):
                self.emitted.append(time.perf_counter())
            notify(value)

        characteristic.notify = timed_notify  # type: ignore[method-assign]
        endpoint.send = timed_send  # type: ignore[method-assign]
        phone.turn = timed_turn  # type: ignore[method-assign]
        phone.transport.send = counted_send  # type: ignore[method-assign]


async def measure(
    board: PhoneBoard, timed: Timed, moves: int
) -> list[tuple[float, float, float, float]]:
    """Each move's commit to its arrival at the central, and its three parts: the board's
    (the commit to the phone's client handing the notification over), the peripheral's
    thread's (to its emitting it on D-Bus) and the D-Bus path's (through BlueZ's mock to
    bleak)."""
    phone = Central("reedboard-0001")
    await phone.connect()
    await phone.write("feature undo")
    await phone.next()
    await phone.write(f"begin {START}")
    await phone.until("sync ")
    latencies = []
    for _ in range(moves):
        board.lift("e2")
        await board_time(board, 150)
        board.place("e4")
        while True:
            when, text = await asyncio.wait_for(phone.heard.get(), 20)
            if text == "move e2e4":
                break
        commit, handed, emitted = timed.commits[-1], timed.handed[-1], timed.emitted[-1]
        latencies.append((when - commit, handed - commit, emitted - handed, when - emitted))
        await phone.write("ok")
        await phone.write("undo e2e4")
        while len(board.game) != 0:
            await board_time(board, 20)
        board.lift("e4")
        await board_time(board, 150)
        board.place("e2")
        await board_time(board, 1500)
    await phone.disconnect()
    return latencies


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, mock_bluez(Path(folder)):
        peripheral = Peripheral("", [CPP_SERVICE])
        peripheral.start()
        try:
            board = PhoneBoard(peripheral)
            timed = Timed(board)
            with Turning(board):
                latencies = asyncio.run(measure(board, timed, args.moves))
        finally:
            peripheral.close()
    ms, board_ms, thread_ms, path_ms = ([1000 * x[i] for x in latencies] for i in range(4))
    turn_us = [1e6 * x for x in timed.turns]
    print(f"commit to notification at the central, {len(ms)} moves on BlueZoo:")
    print(f"  median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
          f"max {max(ms):.1f} ms (goal: p99 < 50 ms)")  # fmt: skip
    for part, values in (
        ("the board's loop", board_ms),
        ("the peripheral's thread", thread_ms),
        ("the D-Bus path", path_ms),
    ):
        print(f"  of which {part}: median {statistics.median(values):.1f} ms, "
              f"p99 {percentile(values, 0.99):.1f} ms")  # fmt: skip
    print(f"the phone's client in the board's turn, {len(turn_us)} turns that sent:")
    print(f"  median {statistics.median(turn_us):.1f} us, p99 {percentile(turn_us, 0.99):.1f} us, "
          f"max {max(turn_us):.1f} us; dropped {peripheral.dropped}")  # fmt: skip


if __name__ == "__main__":
    main()
