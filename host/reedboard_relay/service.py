"""The relay's MQTT side: subscribes to every board, keeps their games through `Boards`,
asks boards for what it missed. It runs on one asyncio loop with the web side (paho's
socket turned by the loop, mqtt_loop.py; the asking a task of it), so a message and a
page's request never run at once. The lock stays for callers off the loop (a relay
started from code without a loop runs its own in a thread; tests read through it).

A message is stored before paho acknowledges it to the broker (paho queues a QoS 1
message's acknowledgement when its callback returns; the messages of one turn of reading
are committed together before anything is written to the broker, mqtt_loop.py), so a relay killed at any moment has stored all that
the broker will not send again; what the broker lost is asked of the board."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import paho.mqtt.client as mqtt
from reedboard.link.board_messages import Alive, BoardMessage, read_board_line
from reedboard.link.frame import MAX_FRAME
from reedboard.link.messages import WireCommand, frame_of
from reedboard.link.mqtt_client import BrokerSettings, new_client
from reedboard.link.mqtt_health import BrokerHealth

from reedboard_relay.boards import RETRY_MS, Boards
from reedboard_relay.checkpoints import EVERY_S as CHECKPOINT_S
from reedboard_relay.checkpoints import Checkpoints
from reedboard_relay.commands_out import CommandsOut
from reedboard_relay.mqtt_loop import MqttOnLoop, called, start_on_a_loop
from reedboard_relay.refusals import RateLimitedLog
from reedboard_relay.venues import (
    UP,
    board_topic,
    bridge_of,
    mark_topic,
    request_topic,
    subscriptions,
)

T = TypeVar("T")
# How often each board's snapshot (snapshots.py) is brought up to date: a relay killed
# outright replays at most this long's messages at its next start.
SNAPSHOT_S = 30.0
SNAPSHOTS_AT_ONCE = 50
# A mark not read back within this is taken for lost (a connection cut), and sent again.
MARK_AGAIN_MS = 8000

logger = logging.getLogger(__name__)


class RelayService:
    def __init__(
        self,
        settings: BrokerSettings,
        boards: Boards,
        *,
        client_id: str = "reedboard-relay",
        changed: Callable[[str], None] = lambda _board: None,
        heard: Callable[[str, BoardMessage], None] = lambda _board, _message: None,
        venues: tuple[str, ...] = (),
        clock_ms: Callable[[], int] | None = None,
    ) -> None:
        self.boards = boards
        self.clock_ms = clock_ms or _now_ms  # the relay's monotonic clock
        self.venues = venues  # only these venues' boards (`--venue`); none: every board
        self.lock = threading.Lock()
        self.changed = changed
        # Told of every frame of a board's stream, outside the lock: the arbiter's
        # console follows the answers to its commands (`hello`, `ack`, `error`), and
        # tells the round's mode again to a board heard while it owes an answer.
        self.heard = heard
        self.refusals = RateLimitedLog(logger)
        # More to keep with the boards' snapshots, under the lock (the delay's boards).
        self.snapshotters: list[Callable[[], None]] = []
        self.client, address = new_client(client_id, settings)
        self.retry_ms = settings.retry_ms
        self.health = BrokerHealth(f"{address.host}:{address.port}", client_id)
        self.health.attach(self.client)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.commands = CommandsOut(self.client)
        self.client.connect_async(address.host, address.port, keepalive=10)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._own_thread: threading.Thread | None = None  # the loop's, when it is the relay's
        self._driver: MqttOnLoop | None = None
        self._asking: asyncio.Task[None] | None = None
        self._checkpoints: Checkpoints | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        # The boards heard in this turn of reading the broker's socket (None: not in
        # one): asked at its end, once the frames read with theirs are taken (a `hello`
        # and the `state` right after it, a gap filled a few frames later).
        self._turn: set[str] | None = None
        # The boards whose games changed in this turn: told once each at its end, after
        # the commit (a board's several frames in one turn, one notice; and no listener
        # shown what the store might still lose).
        self._changed: set[str] = set()
        # A write of this turn the store refused as it was heard (not at the commit):
        # nothing of the turn is acknowledged (`_commit`), the broker sends it all again.
        self._refused: str | None = None
        self._unstored = False  # the store's last turn failed (said once in the log)
        # The relay's marks (a numbered QoS 1 message to itself, queued by the broker
        # behind every frame it holds for the relay): a board's `alive` (QoS 0) passes
        # those frames, so the tail it names is believed missing only once a mark sent
        # after it is read back. A relay that stalled reads its backlog first; it took
        # `alive`s read a second apart in that backlog for lost tails, and asked a
        # thousand boards again (a storm of resends, each answer a longer backlog).
        self.mark_topic = mark_topic(secrets.token_hex(6))
        self._marks_sent = 0
        self._marks_read = 0
        self._mark_sent_at = 0
        self._mark_due = False  # an `alive` waits for a mark not sent yet

    def start(self) -> None:
        """On the running loop (the web side's), or on a loop of its own without one."""
        self.loop, self._own_thread = start_on_a_loop("relay-loop", self._begin)

    def _begin(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._driver = MqttOnLoop(
            self.client, self.loop, self.health.failed, holding=self._hold, stored=self._commit,
            retry_ms=self.retry_ms,
        )  # fmt: skip
        self._driver.start()
        self._asking = self.loop.create_task(self._tick())
        self._checkpoints = Checkpoints(self.boards.store.db)
        self._checkpointing = self.loop.create_task(self._checkpoint(self._checkpoints))

    def stop(self) -> None:
        loop = self.loop
        if loop is not None and self._own_thread is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(called(self._end), loop).result(5.0)
            loop.call_soon_threadsafe(loop.stop)
            self._own_thread.join(5.0)
            loop.close()
        elif loop is not None:
            self._end()
        self.keep_snapshots()  # the next start serves at once

    def _hold(self) -> None:
        with self.lock:
            self.boards.store.hold()
            self._turn = set()

    def _commit(self) -> bool:
        """The messages read so far stored for good, before paho acknowledges them; then
        the boards heard in this turn asked for what they still miss. False: the commit
        failed (a full disk), or a write of the turn did, and nothing of the turn is kept
        (`_unstored`)."""
        now_ms = self.clock_ms()
        failure: str | None = None
        due: list[tuple[str, WireCommand]] = []
        with self.lock:
            turn, self._turn = self._turn or set(), None
            refused, self._refused = self._refused, None
            committed = False
            try:
                if refused is not None:
                    failure = f"keep a message: {refused}"
                    self.boards.store.discard()
                else:
                    committed = self.boards.store.commit()
            except sqlite3.Error as error:
                failure = failure or f"commit: {error}"
            if failure is None:
                if self._unstored and committed:
                    logger.warning("the store commits again")
                    self._unstored = False
                boards = self.boards.boards
                due = [
                    (board, wanted)
                    for board in sorted(turn)
                    if board in boards and (wanted := boards[board].wants(now_ms)) is not None
                ]
        if failure is not None:
            self._changed.clear()  # the turn's boards are all told, as the store holds them
            self._not_stored(turn, failure)
            return False
        for board, wanted in due:
            self.command(board, wanted)
        self._mark(now_ms)
        self._tell_changed()
        return True

    def _tell_changed(self) -> None:
        """The turn's changed boards told, each whatever the others do (an exception
        out of here would leave the turn's acknowledgements unsent)."""
        changed, self._changed = self._changed, set()
        for board in sorted(changed):
            try:
                self.changed(board)
            except Exception:
                logger.exception("a change of board %s was not taken", board)

    def _mark(self, now_ms: int) -> None:
        """A mark sent if an `alive` waits for one, one in flight at a time (sent again
        when it seems lost)."""
        in_flight = self._marks_read < self._marks_sent
        if not self._mark_due or (in_flight and now_ms - self._mark_sent_at < MARK_AGAIN_MS):
            return
        self._marks_sent += 1
        self._mark_sent_at = now_ms
        self._mark_due = False
        self.client.publish(self.mark_topic, str(self._marks_sent).encode(), qos=1)

    def _marked(self, payload: bytes) -> None:
        """One of the relay's marks read back: the boards whose tail is now known lost
        are asked at the turn's end (or at once, outside a turn)."""
        text = payload.decode("ascii", "replace")
        if not text.isdigit():
            return
        mark = min(int(text), self._marks_sent)
        with self.lock:
            self._marks_read = max(self._marks_read, mark)
            found, waited = self.boards.marked(mark)
            self._mark_due = self._mark_due or waited > self._marks_sent
            if self._turn is not None:
                self._turn.update(found)
                return
            now_ms = self.clock_ms()
            due = [(b, w) for b in found if (w := self.boards.boards[b].wants(now_ms)) is not None]
        for board, wanted in due:
            self.command(board, wanted)

    def _not_stored(self, turn: set[str], failure: str) -> None:
        """A turn the store could not keep (an insert or its commit failed): its boards
        as the store holds them again (the broker sends their messages again,
        unacknowledged), said once in the log."""
        with self.lock:
            self.boards.reload(turn)
            said, self._unstored = self._unstored, True
        if not said:
            logger.error(
                "the store cannot %s: no message is acknowledged until it can; "
                "the broker sends them again",
                failure,
            )
        for board in sorted(turn):
            self.changed(board)  # shown again as the store holds it

    def _end(self) -> None:
        if self._asking is not None:
            self._asking.cancel()
        if self._checkpointing is not None:
            self._checkpointing.cancel()
        if self._checkpoints is not None:
            self._checkpoints.close()
        if self._driver is not None:
            self._driver.stop()

    def keep_snapshots(self) -> None:
        """Every board's snapshot brought up to date (a failure is logged: the store's
        messages still hold every game, only the next start is slower)."""
        try:
            # A few boards at a time: a thousand boards' snapshots take about 0.3 s,
            # which no board's message should wait behind.
            while True:
                with self.lock:
                    if self.boards.keep_snapshots(SNAPSHOTS_AT_ONCE) < SNAPSHOTS_AT_ONCE:
                        break
            with self.lock:
                for keep in self.snapshotters:
                    keep()
        except Exception:
            logger.exception("the boards' snapshots were not kept")

    def _connected(
        self, client: mqtt.Client, _u: object, _f: object, reason: object, _p: object = None
    ) -> None:
        if not self.health.connected(reason):
            return
        client.subscribe([*subscriptions(self.venues), (self.mark_topic, 1)])

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
        except sqlite3.Error as error:
            if self._turn is None:  # not in a held turn: its own transaction undone
                logger.exception("a message on %s was not stored", message.topic)
            elif self._refused is None:  # the turn goes unacknowledged (`_commit`)
                self._refused = str(error)
        except Exception:
            logger.exception("a message on %s was not taken", message.topic)

    def _take(self, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.mark_topic:
            self._marked(bytes(message.payload))
            return
        place = board_topic(message.topic)
        if place is None:
            self._bridge(message)
            return
        board, kind = place
        read: BoardMessage | None = None
        if len(message.payload) > MAX_FRAME:
            size = len(message.payload)
            self.refusals.warn(f"{board} size", f"board {board}: refused a message of {size} bytes")
            return
        if kind == "stream":
            # Read before taking the lock: the web side waits on it, and reading needs
            # nothing the lock guards. Not a frame, or one whose number cannot be placed:
            # nothing to take (its board's next number shows any gap).
            read, _problem = read_board_line(bytes(message.payload))
            if read is None:
                return
        elif kind != "status":
            return
        with self.lock:
            if self._turn is not None:  # before taking it: a failure rolls its board back
                self._turn.add(board)
            refused = self.boards.refusal(board, read)
            wanted: WireCommand | None = None
            if refused is not None:
                changed = False
            elif read is None:
                changed = self.boards.status(board, bytes(message.payload) == b"online")
            else:
                ask = self._turn is None
                mark = self._marks_sent + 1
                changed, wanted = self.boards.heard(
                    board, read, self.clock_ms(), ask=ask, mark=mark
                )
                if isinstance(read, Alive) and board in self.boards.boards:
                    awaited = self.boards.boards[board].receiver.awaited_mark
                    self._mark_due = self._mark_due or awaited > self._marks_sent
            twins, self.boards.twins_found = self.boards.twins_found, []
        if refused is not None:
            self.refusals.warn(f"{board} frame", f"board {board}: refused {refused}")
            return
        for twin in twins:
            logger.warning("board %s: two boards publish with this id (sessions alternate)", twin)
            self.changed(twin)
        if wanted is not None:
            self.command(board, wanted)
        if changed and self._turn is not None:
            self._changed.add(board)  # told at the turn's end (`_commit`)
        elif changed:
            self.changed(board)
        if read is not None:
            self.heard(board, read)

    def _bridge(self, message: mqtt.MQTTMessage) -> None:
        """A venue's bridge up (`1`) or cut (its will, `0`): its boards follow."""
        venue = bridge_of(message.topic)
        if venue is None:
            return
        up = bytes(message.payload) == UP
        with self.lock:
            changed = self.boards.bridge(venue, up)
        if not up:
            logger.warning("venue %s: its bridge to this broker is down; its boards offline", venue)
        for board in changed:
            self.changed(board)

    def command(self, board: str, command: WireCommand) -> None:
        """A command for the board on its request topic (QoS 1: a broker that keeps the
        board's session hands it over when the board is back), a few in flight at once
        (commands_out.py)."""
        frame = frame_of(command).rstrip(b"\n")
        self.commands.send(request_topic(board), frame)

    async def _tick(self) -> None:
        snapshot_due = time.monotonic() + SNAPSHOT_S
        while True:
            await asyncio.sleep(RETRY_MS / 1000)
            try:
                self.commands.pump()  # were an acknowledgement's turn ever missed
                self._ask_again()
                self._mark(self.clock_ms())
            except Exception:  # the asking must outlive one bad turn, as `_message` does
                logger.exception("asking the boards again failed")
            if time.monotonic() >= snapshot_due:
                await self._keep_snapshots_by_turns()
                snapshot_due = time.monotonic() + SNAPSHOT_S

    async def _checkpoint(self, checkpoints: Checkpoints) -> None:
        """The store's log copied into its database off the loop (checkpoints.py)."""
        failed = False
        while True:
            await asyncio.sleep(CHECKPOINT_S)
            try:
                await asyncio.to_thread(checkpoints.checkpoint)
            except sqlite3.Error as error:
                if not failed:  # said once: the log keeps every commit meanwhile
                    logger.warning("the store's log is not copied into it: %s", error)
                failed = True
            else:
                failed = False

    async def _keep_snapshots_by_turns(self) -> None:
        """`keep_snapshots` a few boards a turn, the loop's other work between."""
        try:
            while True:
                with self.lock:
                    if self.boards.keep_snapshots(SNAPSHOTS_AT_ONCE) < SNAPSHOTS_AT_ONCE:
                        break
                await asyncio.sleep(0)
            with self.lock:
                for keep in self.snapshotters:
                    keep()
        except Exception:
            logger.exception("the boards' snapshots were not kept")

    def _ask_again(self) -> None:
        """Ask each board that is online for what the relay still misses of it, when its
        question is due (its receiver paces it)."""
        now_ms = self.clock_ms()
        with self.lock:
            due = [
                (b.id, request)
                for b in self.boards.boards.values()
                if b.reachable and (request := b.wants(now_ms)) is not None
            ]
        for board, request in due:
            self.command(board, request)

    def snapshot(self, read: Callable[[Boards], T]) -> T:
        with self.lock:
            return read(self.boards)


def _now_ms() -> int:
    return int(time.monotonic() * 1000)
