"""The relay's commands to its boards (QoS 1), at most `IN_FLIGHT` unacknowledged at once;
the others wait their turn, in order, and a command already waiting is not doubled.

Why: paho's `loop_read` reads, at each call, one packet for each QoS 1 message the
client still awaits the broker's acknowledgement of. A relay behind its broker asked
hundreds of boards again, their acknowledgements queued behind the backlog, and each
time its socket was readable the loop read that many packets before it turned: seconds
without serving a page. With few in flight, a read is a few packets, through paho's
public calls only (`publish`, `on_publish`).

The acknowledgement is told in paho's `on_publish`, inside its read and under its own
lock: the next command goes once that read is over (`call_soon` on the loop), so the
relay's lock is never taken inside paho's."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict, deque

import paho.mqtt.client as mqtt

IN_FLIGHT = 20
# A command the broker has not acknowledged in this long no longer counts (paho sends
# it again itself on a new connection): a count that lost one cannot stop the relay.
FORGET_S = 60.0


class CommandsOut:
    def __init__(self, client: mqtt.Client, in_flight: int = IN_FLIGHT) -> None:
        self.client = client
        self.at_most = in_flight
        self._lock = threading.Lock()  # `send` may come from any thread
        self._waiting: OrderedDict[tuple[str, bytes], None] = OrderedDict()
        self._sent: dict[int, float] = {}  # message id: when, for those not acknowledged
        self._acknowledged: deque[int] = deque()  # told by paho, not yet counted
        client.on_publish = self._published

    @property
    def in_flight(self) -> int:
        return len(self._sent)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def send(self, topic: str, frame: bytes) -> None:
        with self._lock:
            self._waiting[(topic, frame)] = None
            self._pump()

    def pump(self) -> None:
        with self._lock:
            self._pump()

    def _pump(self) -> None:
        while self._acknowledged:
            self._sent.pop(self._acknowledged.popleft(), None)
        now = time.monotonic()
        for mid in [mid for mid, when in self._sent.items() if now - when > FORGET_S]:
            del self._sent[mid]
        while self._waiting and len(self._sent) < self.at_most:
            (topic, frame), _ = self._waiting.popitem(last=False)
            # Kept by paho until acknowledged, connected or not (sent when it is).
            self._sent[self.client.publish(topic, frame, qos=1).mid] = now

    def _published(self, _c: object, _u: object, mid: int, *_rest: object) -> None:
        self._acknowledged.append(mid)  # no lock: paho holds its own here
        # Without a loop (paho turned by a thread of its own), the next `pump` counts it.
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_soon(self.pump)
