"""Which QoS 1 messages the MQTT broker has not acknowledged yet (`BoardBroker`'s book),
kept apart from the client so that each stays one idea."""

from __future__ import annotations

import threading


class Acks:
    """Which QoS 1 messages the broker has not acknowledged yet, by paho's message id.

    paho calls `on_publish` from its own thread, possibly before `publish` has returned
    the id to the thread that published, so an acknowledgement may come first; a QoS 0
    message is "published" once written, and is no one's concern here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: set[int] = set()
        self._early: set[int] = set()  # acknowledged before `sent` heard of them
        self._quiet: set[int] = set()  # QoS 0 ids whose `on_publish` has not come yet

    def sent(self, mid: int, qos: int) -> None:
        with self._lock:
            early = mid in self._early
            self._early.discard(mid)
            if qos == 0:
                if not early:
                    self._quiet.add(mid)
            elif not early:
                self._waiting.add(mid)

    def acknowledged(self, mid: int) -> None:
        with self._lock:
            if mid in self._waiting:
                self._waiting.discard(mid)
            elif mid in self._quiet:
                self._quiet.discard(mid)
            else:
                self._early.add(mid)

    def waiting(self) -> int:
        with self._lock:
            return len(self._waiting)

    def unclaimed(self) -> int:
        """Acknowledgements whose id no `sent` has claimed yet: for an instant one or two,
        never more. One left behind would, once paho's ids wrap, pass a later frame with
        that id off as acknowledged before the broker had it."""
        with self._lock:
            return len(self._early)
