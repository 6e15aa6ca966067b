"""A real Mosquitto run on the files `reedboard-relay secure-setup` wrote (on a free port of
127.0.0.1), and small paho clients that log in as one of its users."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link.mqtt_client import tls_context
from reedboard_relay.secure_setup import main as secure_setup

from tests.relay.broker import Broker, broker_on_a_free_port

BOARDS = ("b1", "b2", "b3")
WAIT_S = 20.0


@contextlib.contextmanager
def secure_broker(folder: Path, venues: tuple[str, ...] = ()) -> Iterator[Broker]:
    """The set-up written into `folder` for BOARDS (and `venues`), its broker running."""

    def make(port: int) -> Broker:
        command = [str(folder), "--boards", ",".join(BOARDS), "--host", "127.0.0.1"]
        command += ["--venues", ",".join(venues)] if venues else []
        assert secure_setup([*command, "--port", str(port)]) == 0
        return Broker(folder, port, config=folder / "mosquitto.conf")

    with broker_on_a_free_port(make) as broker:
        yield broker


class Client:
    """A paho client of the broker, logged in as `user` (none: anonymous). `refused` is
    the broker's answer when it refused the connection; `messages` what came in."""

    def __init__(
        self, broker: Broker, user: str | None, client_id: str, *, password: str | None = None
    ) -> None:
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311
        )
        if user is not None:
            secret = password or (broker.folder / _password_file(user)).read_text().strip()
            self.client.username_pw_set(user, secret)
        self.client.tls_set_context(tls_context(str(broker.folder / "ca.crt")))
        self.client.reconnect_delay_set(1, 2)
        self.answered = threading.Event()
        self.refused: str | None = None
        self.dropped = threading.Event()  # the broker closed the connection once
        self.messages: list[tuple[str, bytes]] = []
        self.arrived = threading.Condition()
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.client.connect_async("127.0.0.1", broker.port, keepalive=10)
        self.client.loop_start()

    def _connected(self, _c: object, _u: object, _f: object, reason: object, _p: object) -> None:
        if getattr(reason, "is_failure", False):
            self.refused = str(reason)
            self.client.disconnect()  # no trying again: the answer is what the test wants
        self.answered.set()

    def _disconnected(self, *_args: object) -> None:
        if self.answered.is_set() and self.refused is None:
            self.dropped.set()

    def _message(self, _c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        with self.arrived:
            self.messages.append((message.topic, bytes(message.payload)))
            self.arrived.notify_all()

    def connected(self) -> bool:
        assert self.answered.wait(WAIT_S), "the broker never answered"
        return self.refused is None

    def subscribe(self, *topics: str) -> None:
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_args: subscribed.set()
        self.client.subscribe([(topic, 1) for topic in topics])
        assert subscribed.wait(WAIT_S)

    def publish(self, topic: str, payload: bytes) -> None:
        """Sent and acknowledged by the broker (which acknowledges, and drops, what its
        access list refuses)."""
        self.client.publish(topic, payload, qos=1).wait_for_publish(WAIT_S)

    def wait_for(self, payload: bytes) -> list[tuple[str, bytes]]:
        """Everything that came in up to and including `payload`."""
        with self.arrived:
            assert self.arrived.wait_for(
                lambda: any(p == payload for _t, p in self.messages), WAIT_S
            ), f"{payload!r} never came: {self.messages}"
            return list(self.messages)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _password_file(user: str) -> str:
    return "relay.password" if user == "relay" else f"{user}.password"


@contextlib.contextmanager
def client(
    broker: Broker, user: str | None, client_id: str, *, password: str | None = None
) -> Iterator[Client]:
    made = Client(broker, user, client_id, password=password)
    try:
        yield made
    finally:
        made.close()
