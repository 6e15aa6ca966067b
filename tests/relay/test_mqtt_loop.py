"""paho turned by the relay's loop reads every message waiting in its socket at one turn
of the loop, not a packet a turn: the boards' messages come before the spectators' work
that shares the loop. Real Mosquitto; the messages are let pile up in the socket (the
loop not watching it) and then read."""

from __future__ import annotations

import asyncio
import fcntl
import struct
import termios
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode
from reedboard.link.mqtt_client import BrokerSettings, new_client
from reedboard_relay.mqtt_loop import MqttOnLoop

from tests.relay.broker import running_broker

MESSAGES = 200
TOPIC = "reedboard/boards/b1/stream"
PAYLOAD = b"x" * 40
# A QoS 0 PUBLISH: fixed header (2 bytes: the length is under 128), topic, payload.
PACKET = 2 + 2 + len(TOPIC) + len(PAYLOAD)
WAIT_S = 60.0


def test_messages_waiting_are_read_in_one_turn(tmp_path: Path) -> None:
    with running_broker(tmp_path) as broker:
        turns, got = asyncio.run(reading_turns(broker.url))
    assert got == MESSAGES
    assert turns <= 5  # before: a turn of the loop for each message (200)


async def reading_turns(url: str) -> tuple[int, int]:
    loop = asyncio.get_running_loop()
    client, address = new_client("relay-t", BrokerSettings(url, "relay"), clean=True)
    got: list[bytes] = []
    subscribed = asyncio.Event()
    client.on_connect = lambda c, *_a: c.subscribe(TOPIC, 0)
    client.on_subscribe = lambda *_a: subscribed.set()
    client.on_message = lambda _c, _u, m: got.append(bytes(m.payload))
    client.connect_async(address.host, address.port)
    driver = MqttOnLoop(client, loop, lambda: None)
    driver.start()
    try:
        await asyncio.wait_for(subscribed.wait(), WAIT_S)
        sock = client.socket()
        assert sock is not None
        loop.remove_reader(sock)  # the messages pile up in the socket meanwhile
        await asyncio.to_thread(publish, url)
        deadline = time.monotonic() + WAIT_S
        while waiting_bytes(sock.fileno()) < MESSAGES * PACKET:
            assert time.monotonic() < deadline, "the broker never sent every message"
            await asyncio.sleep(0.05)  # waiting for the broker, not timing it
        turns = 0

        def readable() -> None:
            nonlocal turns
            turns += 1
            driver._readable()

        loop.add_reader(sock, readable)
        while len(got) < MESSAGES:
            assert time.monotonic() < deadline, f"{len(got)} of {MESSAGES} read"
            await asyncio.sleep(0.05)
        return turns, len(got)
    finally:
        driver.stop()


def publish(url: str) -> None:
    client, address = new_client("board-t", BrokerSettings(url, "board"), clean=True)
    client.connect(address.host, address.port)
    client.loop_start()
    try:
        sent: list[mqtt.MQTTMessageInfo] = [
            client.publish(TOPIC, PAYLOAD, qos=1) for _ in range(MESSAGES)
        ]
        for info in sent:
            info.wait_for_publish(WAIT_S)
    finally:
        client.loop_stop()
        client.disconnect()


def waiting_bytes(fd: int) -> int:
    """Bytes in the socket's receive buffer, not yet read."""
    answer = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    count: int = struct.unpack("i", answer)[0]
    return count


def test_no_message_is_acknowledged_before_it_is_stored(tmp_path: Path) -> None:
    with running_broker(tmp_path) as broker:
        taken, unstored = asyncio.run(acknowledging(broker.url))
    assert taken == MESSAGES  # acknowledged, or the broker would stop at 20 in flight
    assert unstored == []  # at every write to the broker, every message read was stored


async def acknowledging(url: str) -> tuple[int, list[int]]:
    """QoS 1 messages read by the loop: how many, and, at each write to the broker that
    found messages read but not yet stored (their acknowledgements among its bytes), how
    many those were."""
    loop = asyncio.get_running_loop()
    client, address = new_client("relay-t", BrokerSettings(url, "relay"), clean=True)
    subscribed = asyncio.Event()
    counts = {"taken": 0, "stored": 0}
    unstored: list[int] = []
    client.on_connect = lambda c, *_a: c.subscribe(TOPIC, 1)
    client.on_subscribe = lambda *_a: subscribed.set()

    def take(_c: object, _u: object, _m: object) -> None:
        counts["taken"] += 1

    def store() -> None:
        counts["stored"] = counts["taken"]

    write = client.loop_write

    def checked_write() -> MQTTErrorCode:
        if counts["taken"] != counts["stored"]:
            unstored.append(counts["taken"] - counts["stored"])
        return write()

    client.on_message = take
    client.loop_write = checked_write  # type: ignore[method-assign]
    client.connect_async(address.host, address.port)
    driver = MqttOnLoop(client, loop, lambda: None, stored=store)
    driver.start()
    try:
        await asyncio.wait_for(subscribed.wait(), WAIT_S)
        await asyncio.to_thread(publish, url)
        deadline = time.monotonic() + WAIT_S
        while counts["taken"] < MESSAGES:
            assert time.monotonic() < deadline, f"{counts['taken']} of {MESSAGES} read"
            await asyncio.sleep(0.05)
        return counts["taken"], unstored
    finally:
        driver.stop()
