"""What a board's link to its MQTT broker is doing, told to the people at the board (its
page, its voice) rather than only to a log nobody at the board reads. Pure: the MQTT
client feeds `LinkTracker` paho's events with the wall time, and reads `BrokerStatus`.

The link is `connecting` (since the board's start), `connected` (since the broker
accepted it), `lost` (since an accepted connection ended), `unreachable` (never reached,
an attempt failed) or `refused` (the broker answered no; why, in `reason`). What is shown
is a closed vocabulary: never the broker's host, port, user or password, nor an error's
own text (a TLS error names the host), so that anyone watching the page may read it.

The voice says the trouble once and its end once (`Spoken`), and only trouble an attempt
confirmed: a connection dropped and taken again at the first attempt (a blink, or another
client with the same id taking it over again and again) says nothing, where a person
told "down, back, down, back" would learn nothing but to stop listening."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Link = Literal["connecting", "connected", "lost", "unreachable", "refused"]
# Why an attempt failed: the network (nothing answers, or the connection was reset), TLS
# (the broker's certificate is not trusted), or the broker's own refusal.
Reason = Literal["network", "tls", "password", "client_id", "unavailable", "protocol", "other"]
Spoken = Literal["down", "back"]
TROUBLE: frozenset[Link] = frozenset({"lost", "unreachable", "refused"})

# The broker's CONNACK refusals (MQTT 3.1.1's codes 1-5 as paho names them, MQTT 5's).
_REFUSALS: dict[str, Reason] = {
    "bad user name or password": "password",
    "not authorized": "password",
    "client identifier not valid": "client_id",
    "server unavailable": "unavailable",
    "server busy": "unavailable",
    "unsupported protocol version": "protocol",
}


@dataclass(frozen=True)
class BrokerStatus:
    """The link as the page shows it: its state since a wall time (ms since the epoch),
    why it is down (None while it is not), how many frames the broker has not yet taken
    (queued, or sent and not acknowledged) and how many it will never have from this run
    (dropped from a full queue: the relay asks the board for them)."""

    link: Link
    since_ms: int
    reason: Reason | None = None
    unsent: int = 0
    dropped: int = 0


def refusal_reason(code: object) -> Reason:
    """The reason of a CONNACK refusal (paho's `ReasonCode`, named by its text)."""
    return _REFUSALS.get(str(code).strip().lower(), "other")


def failure_reason(error: BaseException | None) -> Reason:
    """The reason an attempt to connect failed, from the exception at hand."""
    import ssl  # loaded already by a board that connects: not by one that only reads this

    return "tls" if isinstance(error, ssl.SSLError) else "network"


class LinkTracker:
    """The link's state from paho's events; each event says whether the voice speaks."""

    def __init__(self, now_ms: int) -> None:
        self.state = BrokerStatus("connecting", now_ms)
        self._reached = False  # the broker has accepted a connection at least once
        self._said_down = False

    @property
    def said_down(self) -> bool:
        """Whether the trouble the link is in was said (its end is said next)."""
        return self._said_down

    def connected(self, now_ms: int) -> Spoken | None:
        self._reached = True
        if self.state.link != "connected":
            self.state = BrokerStatus("connected", now_ms)
        if self._said_down:
            self._said_down = False
            return "back"
        return None

    def disconnected(self, now_ms: int) -> None:
        """An accepted connection ended (a failed attempt is `failed` or `refused`)."""
        if self.state.link == "connected":
            self.state = BrokerStatus("lost", now_ms)

    def failed(self, reason: Reason) -> Spoken | None:
        """An attempt could not connect: since when the link is down stays as it was."""
        if self.state.link == "connected":
            return None  # a stray failure of an attempt the broker then accepted
        link: Link = "lost" if self._reached else "unreachable"
        self.state = replace(self.state, link=link, reason=reason)
        return self._down()

    def refused(self, reason: Reason) -> Spoken | None:
        self.state = replace(self.state, link="refused", reason=reason)
        return self._down()

    def _down(self) -> Spoken | None:
        if self._said_down:
            return None
        self._said_down = True
        return "down"


# The page's words for each state, in the page's language (English). `unsent` is told
# apart, so the line a screen reader announces changes only when the link's state does.
KEPT = "The board keeps the game and sends it once the broker is back."
_DOWN_WORDS: dict[Reason, str] = {
    "network": "the board cannot reach the broker (its network, or the broker, is down)",
    "tls": "the board does not trust the broker's certificate",
    "password": "the broker refused the board's user name or password",
    "client_id": "the broker refused the board's name",
    "unavailable": "the broker says it is unavailable",
    "protocol": "the broker does not speak the board's MQTT version",
    "other": "the broker refused the board",
}


def status_words(status: BrokerStatus) -> str:
    """The link's state in words, for anyone watching the board's page."""
    if status.link == "connected":
        return "The broadcast is on: the board is connected to the broker."
    if status.link == "connecting":
        return "The broadcast is starting: the board is connecting to the broker."
    if status.link == "lost" and status.reason in (None, "network"):
        # One line for a loss, whether an attempt has failed yet or not: announced once.
        return f"The broadcast is down: the board lost the broker, and tries again. {KEPT}"
    why = _DOWN_WORDS[status.reason or "other"]
    return f"The broadcast is down: {why}. {KEPT}"
