"""The relay held up: how often it asks the boards again for what is on its way.

N boards (the firmware's own link, `BrokerTee` and `BoardBroker`, driven by one loop,
each with its `alive` every second) publish to one Mosquitto on this machine; one relay
(`RelayService`, in this process) follows them. K times, the relay is held up for S
seconds (its lock taken, as a page rendering every board's games takes it) while each
board sends F frames: more than the 20 Mosquitto keeps in flight to the relay, so the
boards' `alive`s (QoS 0) overtake the frames it holds (QoS 1). Nothing is lost: every
`resend` the relay sends is a question it did not need to ask.

Prints the `resend`s the boards received (in all, and per board and stall) and the time
from a stall's end until the relay has every board's last frame (median of the stalls).

    python bench/relay_stall.py [--boards 10] [--stalls 5] [--stall-s 2.5] [--frames 40]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.relay

from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore

from tests.relay.broker import running_broker
from tests.relay.link_board import LinkBoard

TURN_S = 0.05


class Loop:
    """Every board's loop, turned together: requests answered, `alive` every second."""

    def __init__(self, boards: list[LinkBoard]) -> None:
        self.boards = boards
        self.alive_at = time.monotonic()

    def run(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if time.monotonic() >= self.alive_at:
                for board in self.boards:
                    board.alive()
                self.alive_at += 1.0
            for board in self.boards:
                board.turn()
            time.sleep(TURN_S)  # the boards' pace, not a measurement


def caught_up(service: RelayService, boards: list[LinkBoard]) -> bool:
    """Whether the relay has each board's last frame (read through its receiver)."""

    def last(b: Boards, board_id: str) -> int:
        known = b.boards.get(board_id)
        return -1 if known is None else known.receiver.last_seq

    return service.snapshot(
        lambda b: all(last(b, board.broker.board) == board.seq for board in boards)
    )


def behind(boards: list[LinkBoard]) -> Callable[[Boards], list[str]]:
    """What the relay holds of each board it has not caught up with, and what it asked."""

    def read(known: Boards) -> list[str]:
        told = []
        for board in boards:
            receiver = known.boards[board.broker.board].receiver
            if receiver.last_seq != board.seq:
                told.append(
                    f"{board.broker.board}: {receiver.session} at {receiver.last_seq} of "
                    f"{board.seq}, seen {receiver.highest_seen}, held {receiver.held}, "
                    f"asked {board.asked[-3:]}"
                )
        return told

    return read


def run(count: int, stalls: int, stall_s: float, frames: int) -> None:
    with tempfile.TemporaryDirectory() as folder, running_broker(Path(folder)) as broker:
        store = RelayStore(str(Path(folder) / "relay.sqlite"))
        service = RelayService(BrokerSettings(broker.url, "relay"), Boards(store))
        subscribed = threading.Event()
        service.client.on_subscribe = lambda *_: subscribed.set()
        service.start()
        boards = [LinkBoard(broker.url, f"b{n}", f"s{n}") for n in range(count)]
        try:
            assert subscribed.wait(30)
            loop = Loop(boards)
            for board in boards:
                board.start()
            loop.run(3.0)
            before = sum(board.asked.count("resend") for board in boards)
            catching_up: list[float] = []
            for _ in range(stalls):
                with service.lock:
                    started = time.monotonic()
                    for number in range(frames):
                        for board in boards:
                            board.touch()
                        loop.run(started + stall_s * (number + 1) / frames - time.monotonic())
                released = time.monotonic()
                while not caught_up(service, boards) and time.monotonic() < released + 60:
                    loop.run(0.1)
                catching_up.append(time.monotonic() - released)
                if catching_up[-1] >= 60:
                    print(f"  not caught up in 60 s: {service.snapshot(behind(boards))}")
                loop.run(2.0)  # the relay hears `alive`s on
            resends = sum(board.asked.count("resend") for board in boards) - before
        finally:
            service.stop()
            for board in boards:
                board.close()
            store.close()
    per = resends / (count * stalls)
    print(f"{count} boards, {stalls} stalls of {stall_s} s, {frames} frames each per stall:")
    late = statistics.median(catching_up)
    print(f"  resends {resends} ({per:.2f} per board and stall); caught up {late:.2f} s after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--stalls", type=int, default=5)
    parser.add_argument("--stall-s", type=float, default=2.5)
    parser.add_argument("--frames", type=int, default=40)
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)  # what went wrong in the relay, if anything
    run(arguments.boards, arguments.stalls, arguments.stall_s, arguments.frames)


if __name__ == "__main__":
    main()
