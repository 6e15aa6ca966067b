"""A board's connection to an MQTT broker (paho-mqtt), at the edge, off the board's loop.

`publish_frames` and `take_requests` never wait: frames go into a bounded queue that a
thread of this class hands to paho, with QoS 1 on a persistent session, so what the broker
has not acknowledged is sent again when it is back. Frames are handed over only once the
broker has answered the connection, and after a reconnection only once it has acknowledged
what paho held from before: paho sends a message published while its socket is open at
once, but those it kept only on the broker's answer, so handed over as they came, older
frames reached the broker after newer ones. (A reconnection between the pump's look and
its hand-over can still put one frame ahead: the relay orders frames by their `seq`.) When
the queue is full (a broker away for a long time) the oldest frames are dropped: the relay
sees the gap and asks for them (`resend`, or the whole `state`). The board's status topic says `online`, retained, and
the broker says `offline` for it when it goes (its last will). A board going away hands
the broker its tail first while a connection is up, and waits for no broker that cannot
take it (`close`). How the link is (`status`: connected, lost, refused and why, the
frames the broker has not taken) is told to the board's page and voice (`watch`), in
words that name neither the broker nor its credentials (`broker_status`)."""

from __future__ import annotations

import logging
import ssl
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from reedboard.errors import ConfigError
from reedboard.link import mqtt_topics
from reedboard.link.broker_status import (
    BrokerStatus,
    LinkTracker,
    Spoken,
    failure_reason,
    refusal_reason,
)
from reedboard.link.mqtt_acks import Acks as Acks  # its users name it from here too
from reedboard.link.mqtt_health import BrokerHealth
from reedboard.link.mqtt_retry import RETRY_MS, check_retry_ms

logger = logging.getLogger(__name__)

QUEUE_FRAMES = 50_000  # about an hour of a busy board's frames
PAHO_QUEUE = 1000  # frames paho holds unacknowledged beyond its window
CLOSE_WAIT_S = 10.0  # how long a board going away waits for a live broker to take its tail
# How long a board going away still waits for a connection that is being made: its first,
# from the board's start until an attempt fails, or one lost, from the loss. paho tries
# again a quarter of `RETRY_MS` after a loss (1 s by default): a broker back after a blink
# is found, and a board whose broker is gone or was never reached stops at once.
BACK_WAIT_S = 2.0
# Where the frames a board going away could not hand over are kept, as its line says:
# `close`'s caller knows (a journal, the board behind a bridge); on its own, only that
# the relay does not have them.
KEPT_BY_JOURNAL = (
    "the board's journal keeps the game: started again on it, the board sends the relay "
    "the whole game once it reaches the broker"
)
NO_JOURNAL = "the board keeps no journal: the relay will not have them"
NOT_KEPT = "the relay does not have them"


@dataclass(frozen=True)
class BrokerSettings:
    url: str
    board_id: str
    username: str = ""
    password_file: str = ""
    ca_file: str = ""
    retry_ms: int = RETRY_MS  # the longest wait between attempts to connect


def retry_waits_s(retry_ms: int) -> tuple[float, float, float]:
    """The waits between attempts to connect, in seconds, the last repeated: a quarter of
    the longest, a half, then the longest (`RETRY_MS`)."""
    longest = retry_ms / 1000
    return longest / 4, longest / 2, longest


def read_password(path: str) -> str:
    if not path:
        return ""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().strip()
    except OSError as error:
        reason = error.strerror or error
        raise ConfigError(f"cannot read the MQTT password file {path}: {reason}") from None


def tls_context(ca_file: str) -> ssl.SSLContext:
    """The TLS context of an mqtts:// connection: the CA in `ca_file` trusted (the
    system's when ""). A file that cannot be read or holds no certificate is one line."""
    try:
        return ssl.create_default_context(cafile=ca_file or None)
    except (OSError, ssl.SSLError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ConfigError(f"cannot read the MQTT CA file {ca_file}: {reason}") from None


def check_settings(settings: BrokerSettings) -> None:
    """Raise `ConfigError` for what would stop the connection before it is tried: the URL,
    the retry time, the password file, the CA file."""
    address = mqtt_topics.parse_url(settings.url)
    check_retry_ms(settings.retry_ms)
    read_password(settings.password_file)
    if address.tls:
        tls_context(settings.ca_file)


def new_client(
    client_id: str, settings: BrokerSettings, *, clean: bool = False
) -> tuple[mqtt.Client, mqtt_topics.BrokerAddress]:
    """A paho client for `settings`, not yet connected: MQTT 3.1.1, a persistent session
    unless `clean`, TLS for mqtts://, the user and password if given, paho's own loop
    (the board's) trying again after `retry_waits_s`."""
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
        client.tls_set_context(tls_context(settings.ca_file))
    first, _, longest = retry_waits_s(check_retry_ms(settings.retry_ms))
    # paho's hints say whole seconds; its wait takes any number of them.
    client.reconnect_delay_set(min_delay=first, max_delay=longest)  # type: ignore[arg-type]
    return client, address


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class BoardBroker:
    """The board's side: publishes its frames, collects the relay's requests, and says
    how its link is (`status`, and `watch` for each change, from paho's thread)."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        limit: int = QUEUE_FRAMES,
        clock_ms: Callable[[], int] = wall_ms,
    ) -> None:
        self.settings = settings
        self.board = mqtt_topics.check_board_id(settings.board_id)
        self.dropped = 0
        self._queue: deque[bytes] = deque()
        self._limit = limit
        self._wake = threading.Condition()
        self._requests: deque[bytes] = deque()
        self._stopping = False
        self._closing = False  # `close` has begun: it waits on `_wake` for each acknowledgement
        self._reached = False  # the broker has accepted a connection at least once
        # Since when a connection is being made (monotonic): from the board's start, from
        # the loss of an accepted connection, or from a socket opened to a broker never
        # reached; None when connected, and once an attempt to reach that broker failed.
        self._pending_since: float | None = time.monotonic()
        self._in_hand = False  # the pump holds a frame taken from the queue, not yet in paho's
        self._answered = False  # the broker has answered the connection (CONNACK)
        # And has acknowledged every frame paho was given before that: new frames may follow.
        self._ready = False
        self._acks = Acks()
        self._clock_ms = clock_ms
        self._link = LinkTracker(clock_ms())  # its state: `_wake` held
        self._refused = False  # the broker refused the attempt under way: its end says nothing
        self._watchers: list[Callable[[BrokerStatus, Spoken | None], None]] = []
        self._shown = self._link.state  # the state the watchers were last told
        client_id = f"reedboard-board-{self.board}"
        self.client, address = new_client(client_id, settings)
        self.health = BrokerHealth(f"{address.host}:{address.port}", client_id)
        self.health.attach(self.client)
        self.client.on_connect_fail = self._failed
        self.client.on_socket_open = self._socket_opened
        self.client.max_queued_messages_set(PAHO_QUEUE)
        self.client.will_set(mqtt_topics.status(self.board), b"offline", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.on_publish = self._published
        self.client.on_disconnect = self._disconnected
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
        if not self.health.connected(reason):
            with self._wake:
                self._refused = True
                spoken = self._link.refused(refusal_reason(reason))
            self._told(spoken)
            self._not_reached()
            return
        with self._wake:
            late = self._stopping
        if late:  # reached once `close` had given up on it: the board is going
            client.disconnect()
            return
        client.subscribe(mqtt_topics.request(self.board), qos=1)
        status = client.publish(mqtt_topics.status(self.board), b"online", qos=1, retain=True)
        # Booked as a message no frame waits for (its acknowledgement must find its id),
        # not as one to wait for: the status need not reach the broker before the frames.
        self._acks.sent(status.mid, qos=0)
        with self._wake:
            self._answered = True
            self._reached = True
            self._pending_since = None
            late = self._stopping
            spoken = self._link.connected(self._clock_ms())
            self._wake.notify_all()  # a `close` waiting for it to come back
        self._told(spoken)
        if late:  # `close` gave up on the broker meanwhile: `offline` follows `online`
            self._goodbye()
            return
        self._check_ready()

    def _disconnected(
        self, _c: object, _u: object, _f: object, reason: object, _p: object = None
    ) -> None:
        self.health.disconnected(reason)
        spoken: Spoken | None = None
        with self._wake:
            if self._answered:
                self._pending_since = time.monotonic()
                self._link.disconnected(self._clock_ms())
            elif not (self._refused or self._stopping):
                # A socket opened and closed before the broker answered (a network that
                # resets what it lets through): an attempt that failed, as one refused.
                spoken = self._link.failed("network")
            self._answered = False
            self._ready = False
            self._wake.notify_all()  # a `close` waiting for the tail waits no more for it
        self._told(spoken)

    def _socket_opened(self, _client: object, _userdata: object, _socket: object) -> None:
        """A socket to the broker is open: its answer may come (`close` waits a while). A
        while already running (since the start, or a loss) is not made longer by it: the
        attempts a board makes every 100 ms would push it back for ever."""
        with self._wake:
            self._refused = False
            if not self._answered and self._pending_since is None:
                self._pending_since = time.monotonic()

    def _failed(self, client: mqtt.Client, userdata: object) -> None:
        """An attempt to connect failed (paho calls this inside its `except OSError`)."""
        self.health.failed(client, userdata)
        with self._wake:
            spoken = self._link.failed(failure_reason(sys.exception()))
        self._told(spoken)
        self._not_reached()

    def _not_reached(self) -> None:
        """An attempt failed or was refused: a broker never reached is no longer waited
        for by `close` (one lost stays waited for a while after the loss)."""
        with self._wake:
            if not self._reached:
                self._pending_since = None
                self._wake.notify_all()

    # ----- the link's status, for the people at the board -----

    def status(self) -> BrokerStatus:
        """The link as it is now, with the frames the broker has not taken yet."""
        with self._wake:
            state = self._link.state
            unsent = len(self._queue) + self._in_hand + self._acks.waiting()
            return replace(state, unsent=unsent, dropped=self.dropped)

    def watch(self, watcher: Callable[[BrokerStatus, Spoken | None], None]) -> None:
        """Call `watcher` at each change of the link's state (on paho's thread: it must
        not wait), with what the voice says of it, if anything; and now, with the state
        as it is (a trouble met before it watched is said to it)."""
        with self._wake:  # held: a change after this one is told to it after this call
            self._watchers.append(watcher)
            watcher(self.status(), "down" if self._link.said_down else None)

    def _told(self, spoken: Spoken | None) -> None:
        """The watchers told the link's state if it changed (outside `_wake`: they may
        read `status`): a broker refusing every attempt the same way is one change."""
        with self._wake:
            changed, self._shown = self._link.state != self._shown, self._link.state
            watchers = list(self._watchers) if changed or spoken else []
        status = self.status()
        for watcher in watchers:
            try:
                watcher(status, spoken)
            except Exception:
                # A watcher's fault (a page gone) must not stop paho's thread.
                logger.exception("a watcher of the broker's link failed")

    def _check_ready(self) -> None:
        """Connected, and nothing given to paho before waits for the broker any more:
        new frames may follow."""
        with self._wake:
            if self._answered and not self._ready and not self._acks.waiting():
                self._ready = True
                self._wake.notify()

    def _message(self, _client: mqtt.Client, _userdata: object, message: mqtt.MQTTMessage) -> None:
        """A request for the board; a retained one is never carried out. The relay never
        retains its requests: a retained command is anyone's, and the broker would hand
        it over again at every connection (a new game each time the network came back)."""
        if message.retain:
            logger.warning("a retained command on %s was not carried out", message.topic)
            return
        self._requests.append(bytes(message.payload))

    def _pump(self) -> None:
        stream = mqtt_topics.stream(self.board)
        while True:
            with self._wake:
                while not (self._queue and self._ready) and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
                frame = self._queue.popleft()
                self._in_hand = True
            # alive frames are only a nudge: a lost one is harmless.
            qos = 0 if frame.startswith(b'{"type":"alive"') else 1
            while not self._stopping:
                info = self.client.publish(stream, frame, qos=qos)
                if info.rc != mqtt.MQTT_ERR_QUEUE_SIZE:
                    # paho keeps a QoS 1 message for a broker that is away, not a QoS 0.
                    if qos or info.rc == mqtt.MQTT_ERR_SUCCESS:
                        self._acks.sent(info.mid, qos)
                    break
                with self._wake:  # paho's own queue is full: the broker is away or slow
                    self._wake.wait(0.05)
            with self._wake:
                self._in_hand = False

    def _published(
        self, _client: mqtt.Client, _userdata: object, mid: int, _reason: object, _p: object
    ) -> None:
        self._acks.acknowledged(mid)
        self._check_ready()
        with self._wake:
            if self._closing:  # `close` waits for the last acknowledgement
                self._wake.notify_all()

    def unclaimed_acknowledgements(self) -> int:
        """The broker's acknowledgements still waiting for their message's id (see
        `Acks.unclaimed`)."""
        return self._acks.unclaimed()

    def handed_over(self) -> bool:
        """Whether the broker has acknowledged every frame queued so far."""
        with self._wake:
            return not self._queue and not self._in_hand and not self._acks.waiting()

    def _undelivered(self) -> int:
        return self.status().unsent

    def _goodbye(self) -> None:
        """`offline` on the status topic, then a clean disconnection (no last will)."""
        status = self.client.publish(mqtt_topics.status(self.board), b"offline", qos=1, retain=True)
        self._acks.sent(status.mid, qos=0)
        self.client.disconnect()

    def _worth_waiting(self, deadline: float, back_s: float) -> float:
        """Until when `close` may wait for the broker to take the tail (`_wake` held): the
        deadline while a connection is up; `back_s` after a connection began to be made
        (the first, or one lost), in case it is; no time at all when the broker was never
        reached and an attempt failed, as no frame can reach it before the board is gone."""
        if self._answered:
            return deadline
        if self._pending_since is None:
            return 0.0
        return min(deadline, self._pending_since + back_s)

    def _why_left(self, timeout_s: float, back_s: float) -> str:
        """Why frames were left behind (`_wake` held), for the line that says so."""
        if self._answered:
            return f"it had not taken them {timeout_s:g} s after the board began to stop"
        if not self._reached:
            return "it was never reached"
        return f"the connection to it was lost and not back within {back_s:g} s"

    def close(
        self,
        timeout_s: float = CLOSE_WAIT_S,
        *,
        back_s: float = BACK_WAIT_S,
        kept: str = NOT_KEPT,
    ) -> int:
        """Hand the broker the tail, then say goodbye; the number of frames the broker
        never acknowledged, said in one line with why and `kept` (where they stay).

        Handing frames to paho is not enough: paho sends at most its window ahead of the
        broker's acknowledgements, and a client that disconnects drops what it still
        holds, so a board stopped right after its last move would lose its game's tail.
        So `close` waits (up to `timeout_s`) while a connection is up and the broker is
        taking the tail; for a connection being made, only `back_s` after the board's start
        or the connection's loss; for a broker never reached (an attempt failed), not at
        all: a board switched off, or a Pi shutting down, would otherwise hang for nothing.
        The frames left are the ones the relay does not have: `kept` says where they are."""
        deadline = time.monotonic() + timeout_s
        with self._wake:
            self._closing = True
            self._wake.notify_all()
            while not self.handed_over():
                left = self._worth_waiting(deadline, back_s) - time.monotonic()
                if left <= 0:
                    break
                self._wake.wait(left)  # woken by each acknowledgement, loss and connection
            self._stopping = True
            connected = self._answered
            why = self._why_left(timeout_s, back_s)
            self._wake.notify_all()
        self._thread.join(timeout_s)
        undelivered = self._undelivered()
        if undelivered:
            logger.warning(
                "%d frames of this board never reached the MQTT broker at %s (%s); %s",
                undelivered, self.health.where, why, kept,
            )  # fmt: skip
        if connected:
            self._goodbye()
            self.client.loop_stop()
        else:
            # paho may be between two attempts (it sleeps up to a second at a time) or in
            # one (up to its connect timeout): told to stop, its thread ends by itself, and
            # the board need not wait for it. The broker's last will says `offline` for a
            # connection it lost.
            self.client.disconnect()
            threading.Thread(target=self.client.loop_stop, name="mqtt-let-go", daemon=True).start()
        return undelivered
