"""The relay's MQTT side: subscribes to every board, keeps their games through `Boards`,
asks boards for what it missed. paho's thread calls in; the web side reads under a lock.

A message is stored before paho acknowledges it to the broker (paho acknowledges a QoS 1
message when its callback returns), so a relay killed at any moment has stored all that
the broker will not send again; what the broker lost is asked of the board."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import paho.mqtt.client as mqtt
from reedboard.link import mqtt_topics
from reedboard.link.frame import MAX_FRAME, Wire, decode_line, encode_frame
from reedboard.link.mqtt_client import BrokerSettings, new_client
from reedboard.link.mqtt_health import BrokerHealth

from reedboard_relay.asking import FIRST_S, AskPacer
from reedboard_relay.boards import Boards
from reedboard_relay.refusals import RateLimitedLog

T = TypeVar("T")

logger = logging.getLogger(__name__)


class RelayService:
    def __init__(
        self,
        settings: BrokerSettings,
        boards: Boards,
        *,
        client_id: str = "reedboard-relay",
        changed: Callable[[str], None] = lambda _board: None,
        heard: Callable[[str, Wire], None] = lambda _board, _wire: None,
    ) -> None:
        self.boards = boards
        self.lock = threading.Lock()
        self.changed = changed
        # Told of every frame of a board's stream, outside the lock: the arbiter's
        # console follows the answers to its commands (`hello`, `ack`, `error`), and
        # tells the round's mode again to a board heard while it owes an answer.
        self.heard = heard
        self._pacer = AskPacer()  # guarded by `lock`
        self.refusals = RateLimitedLog(logger)
        self.client, address = new_client(client_id, settings)
        self.health = BrokerHealth(f"{address.host}:{address.port}", client_id)
        self.health.attach(self.client)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.client.connect_async(address.host, address.port, keepalive=10)
        self._ticking = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="relay-asks", daemon=True)

    def start(self) -> None:
        self.client.loop_start()
        self._ticker.start()

    def stop(self) -> None:
        self._ticking.set()
        self.client.disconnect()
        self.client.loop_stop()
        self._ticker.join(2.0)

    def _connected(
        self, client: mqtt.Client, _u: object, _f: object, reason: object, _p: object = None
    ) -> None:
        if not self.health.connected(reason):
            return
        client.subscribe(
            [
                (f"{mqtt_topics.PREFIX}/+/stream", 1),
                (f"{mqtt_topics.PREFIX}/+/status", 1),
            ]
        )

    def _disconnected(
        self, _c: object, _u: object, _f: object, reason: object, _p: object = None
    ) -> None:
        self.health.disconnected(reason)

    def _message(self, _client: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        """One message, whatever it does: an exception out of paho's callback ends paho's
        thread, and the relay would go on serving its page while hearing nothing more.
        A message that failed is logged; its board's next number shows the gap, which is
        asked for again like any other."""
        try:
            self._take(message)
        except Exception:
            logger.exception("a message on %s was not taken", message.topic)

    def _take(self, message: mqtt.MQTTMessage) -> None:
        place = mqtt_topics.board_of(message.topic)
        if place is None:
            return
        board, kind = place
        wire: Wire | None = None
        if len(message.payload) > MAX_FRAME:
            size = len(message.payload)
            self.refusals.warn(f"{board} size", f"board {board}: refused a message of {size} bytes")
            return
        if kind == "stream":
            # Read before taking the lock: the web side waits on it, and reading needs
            # nothing the lock guards.
            wire = decode_line(bytes(message.payload))
            if wire is None:
                return
        elif kind != "status":
            return
        with self.lock:
            refused = self.boards.refusal(board, wire)
            if refused is not None:
                changed, wanted = False, None
            elif wire is None:
                changed = self.boards.status(board, bytes(message.payload) == b"online")
                wanted = None
            else:
                changed, wanted = self.boards.heard(board, wire)
            if wanted is not None:
                wanted = self._due(board, wanted)
            elif refused is None:  # a refused frame says nothing of what the board wants
                self._pacer.settled(board)
            twins, self.boards.twins_found = self.boards.twins_found, []
        if refused is not None:
            self.refusals.warn(f"{board} frame", f"board {board}: refused {refused}")
            return
        for twin in twins:
            logger.warning("board %s: two boards publish with this id (sessions alternate)", twin)
            self.changed(twin)
        if wanted is not None:
            self._send(board, wanted)
        if changed:
            self.changed(board)
        if wire is not None:
            self.heard(board, wire)

    def command(self, board: str, command: Wire) -> None:
        """A command for the board on its request topic (QoS 1: a broker that keeps the
        board's session hands it over when the board is back)."""
        self.client.publish(mqtt_topics.request(board), encode_frame(command).rstrip(b"\n"), qos=1)

    def _due(self, board: str, request: Wire) -> Wire | None:
        """`request` if it is time to send it (under the lock). The same question is the
        same kind of request in the same session: a `resend` whose start moved on is
        still the question the board is answering."""
        question = f"{request.get('type')} {request.get('session')}"
        return request if self._pacer.ask(board, question, time.monotonic()) else None

    def _send(self, board: str, request: Wire) -> None:
        frame = encode_frame(request).rstrip(b"\n")
        self.client.publish(mqtt_topics.request(board), frame, qos=1)

    def _tick(self) -> None:
        while not self._ticking.wait(FIRST_S):
            try:
                self._ask_again()
            except Exception:  # the asking must outlive one bad turn, as `_message` does
                logger.exception("asking the boards again failed")

    def _ask_again(self) -> None:
        """Ask each board that is online for what the relay still misses of it."""
        with self.lock:
            due = []
            for b in self.boards.boards.values():
                request = b.wants() if b.online else None
                if request is None:
                    self._pacer.settled(b.id)
                    continue
                request = self._due(b.id, request)
                if request is not None:
                    due.append((b.id, request))
        for board, request in due:
            self._send(board, request)

    def snapshot(self, read: Callable[[Boards], T]) -> T:
        with self.lock:
            return read(self.boards)
