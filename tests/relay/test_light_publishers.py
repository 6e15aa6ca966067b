"""The bench's light publishers (bench/relay_light.py) write the packets a board's paho
client writes: the relay the bench measures hears the same bytes, only cheaper made."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
import relay_light  # noqa: E402


def paho_bytes(act: object) -> bytes:
    """What a board's paho client (as the whole fake boards make it) writes on a real
    loopback connection: connected, subscribed, told online, then `act` done."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="reedboard-board-b7",
                             clean_session=False, protocol=mqtt.MQTTv311)  # fmt: skip
        client.will_set("reedboard/boards/b7/status", b"offline", qos=1, retain=True)
        client.connect("127.0.0.1", port, keepalive=30)
        peer, _ = server.accept()
        with peer:
            peer.sendall(b"\x20\x02\x00\x00")  # CONNACK: accepted
            client.loop_read()
            client.subscribe("reedboard/boards/b7/request", qos=1)
            client.publish("reedboard/boards/b7/status", b"online", qos=1, retain=True)
            assert callable(act)
            act(client)
            client.loop_write()
            peer.settimeout(5)
            heard = b""
            while True:
                try:
                    chunk = peer.recv(65536)
                except TimeoutError:
                    break
                heard += chunk
                peer.settimeout(0.2)  # the rest, written at once, is already there
                if not chunk:
                    break
        client.socket().close()  # type: ignore[union-attr]
        return heard


def test_a_light_board_writes_what_paho_writes() -> None:
    frame = b'{"type":"effect","event":"move","game":0,"seq":12,"uci":"c7c6"}*b7706f57'
    alive = b'{"type":"alive","seq":12}*00000000'
    heard = paho_bytes(
        lambda c: (
            c.publish("reedboard/boards/b7/stream", frame, qos=1),
            c.publish("reedboard/boards/b7/stream", alive, qos=0),
        )
    )
    stream = b"reedboard/boards/b7/stream"
    status = b"reedboard/boards/b7/status"
    ours = (
        relay_light.connect_packet(b"reedboard-board-b7", status, b"offline")
        + relay_light.subscribe_packet(b"reedboard/boards/b7/request", 1)
        + relay_light.publish_packet(status, b"online", 1, 2, retain=True)
        + relay_light.publish_packet(stream, frame, 1, 3, retain=False)
        + relay_light.publish_packet(stream, alive, 0, 0, retain=False)
    )
    assert heard == ours


def test_a_long_frame_has_its_length_in_several_bytes() -> None:
    payload = b"x" * 20_000  # a `state` of a long game: more than 127 and 16,383 bytes
    packet = relay_light.publish_packet(b"t", payload, 1, 7, retain=False)
    size = 2 + 1 + 2 + len(payload)  # the topic's length and text, the packet id, payload
    assert packet[1:4] == bytes([(size & 0x7F) | 0x80, ((size >> 7) & 0x7F) | 0x80, size >> 14])
    assert packet.endswith(payload)
