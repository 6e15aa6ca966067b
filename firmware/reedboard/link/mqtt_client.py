"""A board's connection to an MQTT broker (paho-mqtt), at the edge, off the board's loop.

`publish_frames` and `take_requests` never wait: frames go into a bounded queue that a
thread of this class hands to paho, with QoS 1 on a persistent session, so what the broker
has not acknowledged is sent again when it is back. When the queue is full (a broker away
for a long time) the oldest frames are dropped: the relay sees the gap and asks for them
(`resend`, or the whole `state`). The board's status topic says `online`, retained, and
the broker says `offline` for it when it goes (its last will)."""

from __future__ import annotations

import ssl
import threading
from collections import deque
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from reedboard.errors import ConfigError
from reedboard.link import mqtt_topics

QUEUE_FRAMES = 50_000  # about an hour of a busy board's frames
PAHO_QUEUE = 1000  # frames paho holds unacknowledged beyond its window


@dataclass(frozen=True)
class BrokerSettings:
    url: str
    board_id: str
    username: str = ""
    password_file: str = ""
    ca_file: str = ""


def read_password(path: str) -> str:
    if not path:
        return ""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().strip()
    except OSError as error:
        raise ConfigError(f"cannot read the MQTT password file {path}: {error}") from None


def new_client(
    client_id: str, settings: BrokerSettings, *, clean: bool = False
) -> tuple[mqtt.Client, mqtt_topics.BrokerAddress]:
    """A paho client for `settings`, not yet connected: MQTT 3.1.1, a persistent session
    unless `clean`, TLS for mqtts://, the user and password if given."""
    address = mqtt_topics.parse_url(settings.url)
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean,
        protocol=mqtt.MQTTv311,
    )
    if settings.username:
        client.username_pw_set(settings.username, read_password(settings.password_file))
    if address.tls:
        context = ssl.create_default_context(cafile=settings.ca_file or None)
        client.tls_set_context(context)
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    return client, address


class BoardBroker:
    """The board's side: publishes its frames, collects the relay's requests."""

    def __init__(self, settings: BrokerSettings, *, limit: int = QUEUE_FRAMES) -> None:
        self.settings = settings
        self.board = mqtt_topics.check_board_id(settings.board_id)
        self.dropped = 0
        self._queue: deque[bytes] = deque()
        self._limit = limit
        self._wake = threading.Condition()
        self._requests: deque[bytes] = deque()
        self._stopping = False
        self.client, address = new_client(f"reedboard-board-{self.board}", settings)
        self.client.max_queued_messages_set(PAHO_QUEUE)
        self.client.will_set(mqtt_topics.status(self.board), b"offline", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.connect_async(address.host, address.port, keepalive=10)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._pump, name="mqtt-publish", daemon=True)
        self._thread.start()

    # ----- the loop's side: never waits -----

    def publish_frames(self, frames: list[bytes]) -> None:
        if not frames:
            return
        with self._wake:
            self._queue.extend(frames)
            while len(self._queue) > self._limit:
                self._queue.popleft()
                self.dropped += 1
            self._wake.notify()

    def take_requests(self) -> list[bytes]:
        taken: list[bytes] = []
        while self._requests:
            taken.append(self._requests.popleft())
        return taken

    # ----- paho's side -----

    def _connected(
        self,
        client: mqtt.Client,
        _userdata: object,
        _flags: object,
        reason: object,
        _properties: object = None,
    ) -> None:
        if getattr(reason, "is_failure", False):
            return
        client.subscribe(mqtt_topics.request(self.board), qos=1)
        client.publish(mqtt_topics.status(self.board), b"online", qos=1, retain=True)

    def _message(self, _client: mqtt.Client, _userdata: object, message: mqtt.MQTTMessage) -> None:
        self._requests.append(bytes(message.payload))

    def _pump(self) -> None:
        stream = mqtt_topics.stream(self.board)
        while True:
            with self._wake:
                while not self._queue and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
                frame = self._queue.popleft()
            # alive frames are only a nudge: a lost one is harmless.
            qos = 0 if frame.startswith(b'{"type":"alive"') else 1
            while not self._stopping:
                info = self.client.publish(stream, frame, qos=qos)
                if info.rc != mqtt.MQTT_ERR_QUEUE_SIZE:
                    break
                with self._wake:  # paho's own queue is full: the broker is away or slow
                    self._wake.wait(0.05)

    def close(self, timeout_s: float = 2.0) -> None:
        """Hand paho what is queued (within `timeout_s`), then say goodbye."""
        with self._wake:
            deadline = threading.Event()
            self._wake.notify()
        waited = 0.0
        while (self._queue or self.client.want_write()) and waited < timeout_s:
            deadline.wait(0.02)
            waited += 0.02
        with self._wake:
            self._stopping = True
            self._wake.notify()
        self._thread.join(timeout_s)
        self.client.publish(mqtt_topics.status(self.board), b"offline", qos=1, retain=True)
        self.client.disconnect()
        self.client.loop_stop()
