"""The relay's commands to its boards, with a real Mosquitto and paho turned by an asyncio
loop as the relay turns it: at most 20 await the broker's acknowledgement at once, so
paho's `loop_read` (which reads a packet for each of them at every call) reads a few
packets per turn of the loop; every command still goes, in order, and one already
waiting is not sent twice."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from paho.mqtt.enums import MQTTErrorCode
from reedboard.link.mqtt_client import BrokerSettings, new_client
from reedboard_relay.commands_out import IN_FLIGHT, CommandsOut
from reedboard_relay.mqtt_loop import MqttOnLoop

from tests.relay.broker import running_broker

COMMANDS = 300
WAIT_S = 60.0


class Board:
    """One client reading every board's requests, as the boards would (its own thread)."""

    def __init__(self, url: str) -> None:
        self.client, address = new_client("boards-t", BrokerSettings(url, "boards"), clean=True)
        self.got: list[bytes] = []
        self.subscribed = threading.Event()
        self.client.on_connect = lambda c, *_a: c.subscribe("reedboard/boards/+/request", 1)
        self.client.on_subscribe = lambda *_a: self.subscribed.set()
        self.client.on_message = lambda _c, _u, m: self.got.append(bytes(m.payload))
        self.client.connect(address.host, address.port)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def test_few_commands_in_flight_and_every_one_delivered_once(tmp_path: Path) -> None:
    with running_broker(tmp_path) as broker:
        board = Board(broker.url)
        try:
            assert board.subscribed.wait(WAIT_S)
            most, sent = asyncio.run(relay_sending(broker.url, board))
        finally:
            board.stop()
    assert 1 <= most <= IN_FLIGHT  # before: every command sent was awaited at once
    assert board.got == sent


async def relay_sending(url: str, board: Board) -> tuple[int, list[bytes]]:
    loop = asyncio.get_running_loop()
    client, address = new_client("relay-t", BrokerSettings(url, "relay"), clean=True)
    client.connect_async(address.host, address.port)
    connected = asyncio.Event()
    client.on_connect = lambda *_a: connected.set()
    driver = MqttOnLoop(client, loop, lambda: None)
    commands = CommandsOut(client)
    most = 0
    reading = client.loop_read

    def read_counted(max_packets: int = 1) -> MQTTErrorCode:
        # What paho will read at this call: a packet for each message it awaits.
        nonlocal most
        most = max(most, len(client._out_messages))
        return reading(max_packets)

    client.loop_read = read_counted  # type: ignore[method-assign]
    driver.start()
    try:
        await asyncio.wait_for(connected.wait(), WAIT_S)
        sent = [f"command {n}".encode() for n in range(COMMANDS)]
        for n, frame in enumerate(sent):
            commands.send(f"reedboard/boards/b{n % 10}/request", frame)
        last = f"reedboard/boards/b{(COMMANDS - 1) % 10}/request"
        commands.send(last, sent[-1])  # still waiting (no ack is read till the loop turns)
        deadline = time.monotonic() + WAIT_S
        while len(board.got) < COMMANDS:
            assert time.monotonic() < deadline, f"{len(board.got)} of {COMMANDS} arrived"
            await asyncio.sleep(0.05)  # waiting for the broker, not timing it
        commands.send(last, b"end")  # behind a doubled command, were there one
        while board.got[-1] != b"end":
            assert time.monotonic() < deadline, "the last command never arrived"
            await asyncio.sleep(0.05)
        return most, [*sent, b"end"]
    finally:
        driver.stop()
