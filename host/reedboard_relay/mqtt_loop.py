"""paho's client turned by an asyncio loop instead of a thread of its own: its socket is
read and written when the loop says it is ready (paho's socket callbacks, the technique
aiomqtt uses), its keepalive is kept by a task, and a lost connection is opened again
after 1, 2 and then every 4 s (`--mqtt-retry-ms`, a quarter and a half of it first), as
paho's own loop does. Every paho callback (a message,
a connection, a subscription) then runs on the loop, between the web side's handlers:
nothing the relay keeps is touched by two threads.

The boards' messages come first: when the socket is readable, every message waiting in
it is read and acknowledged (for up to `READ_TURN_S`) before the loop turns to the
spectators' requests and event streams. Before, paho read a few packets a turn and its
acknowledgements waited for the next turn, while the broker sends at most 20
unacknowledged messages: with 300 event streams and 20 PGN pollers making each turn
long, the relay took fewer board messages a second than the boards sent and fell tens
of seconds behind its broker, its own CPU far from spent.

The messages of one turn are stored in one transaction (`holding`), committed before
any byte goes to the broker (`stored`), so none is acknowledged before it is stored.
Their acknowledgements go out together once the socket holds no more (the broker's 20
unacknowledged messages read), or when the turn ends. A commit that fails (a full disk)
lets nothing more out on that connection: it is cut without a word, paho's queue with
it, and the broker sends the messages it holds unacknowledged again on the next one.

Only opening a connection runs in a worker thread: a host that does not answer would
otherwise hold the loop for paho's connect timeout. Its failure is told to `failed`
from inside the `except`, as paho tells `on_connect_fail`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import paho.mqtt.client as mqtt
from reedboard.link.mqtt_client import retry_waits_s
from reedboard.link.mqtt_retry import RETRY_MS

if TYPE_CHECKING:
    from paho.mqtt.client import SocketLike

KEEPALIVE_TURN_S = 1.0  # paho's `loop_misc`: pings, and a broker gone silent found
# The longest a turn of the loop reads the boards' messages while more are waiting: the
# web side's handlers still get a turn when the boards send more than the relay can take.
READ_TURN_S = 0.05

logger = logging.getLogger(__name__)


class MqttOnLoop:
    def __init__(
        self,
        client: mqtt.Client,
        loop: asyncio.AbstractEventLoop,
        failed: Callable[[], None],
        *,
        holding: Callable[[], None] = lambda: None,
        stored: Callable[[], bool | None] = lambda: None,
        retry_ms: int = RETRY_MS,
    ) -> None:
        self.client = client
        self.loop = loop
        self.failed = failed  # called inside the `except` of a failed attempt to connect
        self.holding = holding  # before reading: the messages' writes held together
        # Before writing: what was held, committed (False: the commit failed).
        self.stored = stored
        self.retry_waits_s = retry_waits_s(retry_ms)  # between attempts, the last repeated
        self._sock: SocketLike | None = None
        self._waiting: select.poll | None = None  # whether the socket holds more to read
        self._closed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        client.on_socket_open = self._opened
        client.on_socket_close = self._closing
        client.on_socket_register_write = self._want_write
        client.on_socket_unregister_write = self._no_write

    def start(self) -> None:
        """On the loop: connect, keep the connection, and connect again when it is lost."""
        self._tasks = [
            self.loop.create_task(self._connecting()),
            self.loop.create_task(self._keeping()),
        ]

    def stop(self) -> None:
        """On the loop: the connection closed cleanly (paho says goodbye to the broker)."""
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            self.client.disconnect()
            self._write()  # the DISCONNECT packet out before the socket goes
        self._forget()

    async def _connecting(self) -> None:
        attempt = 0
        while True:
            self._closed.clear()
            try:
                await asyncio.to_thread(self.client.reconnect)
            except (OSError, ValueError):
                self.failed()
            else:
                attempt = 0
                await self._closed.wait()
            waits = self.retry_waits_s
            await asyncio.sleep(waits[min(attempt, len(waits) - 1)])
            attempt += 1

    async def _keeping(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE_TURN_S)
            if self._sock is not None:
                self.client.loop_misc()

    # ----- paho's socket callbacks: any thread may call them; the loop acts on them -----

    def _on_loop(self, act: Callable[[], None]) -> None:
        if _running_loop() is self.loop:
            act()
        elif not self.loop.is_closed():
            self.loop.call_soon_threadsafe(act)

    def _opened(self, _c: object, _u: object, sock: SocketLike) -> None:
        def register() -> None:
            self._sock = sock
            self._waiting = select.poll()  # not select(): a relay may hold 1,024 sockets
            self._waiting.register(sock.fileno(), select.POLLIN)
            self.loop.add_reader(sock, self._readable)

        self._on_loop(register)

    def _closing(self, _c: object, _u: object, sock: SocketLike) -> None:
        def forget() -> None:
            if self._sock is sock:
                self._forget()

        self._on_loop(forget)

    def _want_write(self, _c: object, _u: object, sock: SocketLike) -> None:
        def register() -> None:
            if self._sock is sock:
                self.loop.add_writer(sock, self._write)

        self._on_loop(register)

    def _no_write(self, _c: object, _u: object, sock: SocketLike) -> None:
        def forget() -> None:
            if self._sock is sock:
                self.loop.remove_writer(sock)

        self._on_loop(forget)

    def _forget(self) -> None:
        sock, self._sock, self._waiting = self._sock, None, None
        if sock is not None:
            with contextlib.suppress(ValueError, OSError):
                self.loop.remove_reader(sock)
                self.loop.remove_writer(sock)
        self._closed.set()

    def _write(self) -> None:
        if self._committed():  # no acknowledgement before its message is committed
            self.client.loop_write()

    def _committed(self) -> bool:
        """What was held committed; else the connection cut, nothing written."""
        if self.stored() is not False:
            return True
        # paho's queue holds the acknowledgements of messages the store does not have:
        # the loop lets go of the socket and the broker sees it close at once; paho
        # closes it and clears its queue when it connects again (`reconnect`).
        sock = self._sock
        self._forget()
        if isinstance(sock, socket.socket):  # an SSL socket is one too
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        return False

    def _readable(self) -> None:
        # paho's `loop_read` ignores its bound: it reads a packet for each of the
        # relay's requests still in flight (one when none is), so the relay keeps few in
        # flight (commands_out.py); it is called again while the socket holds more.
        # The acknowledgements go out in this turn, once the socket holds no more: the
        # broker sends a client at most 20 unacknowledged messages (Mosquitto's
        # `max_inflight_messages`), so acknowledgements left for the loop's next turn
        # capped the relay at 20 a turn.
        began = time.monotonic()
        self.holding()
        try:
            while True:
                self.client.loop_read()
                if not self._more_waiting() or time.monotonic() - began >= READ_TURN_S:
                    break
        finally:
            committed = self._committed()
        if committed and self._sock is not None and self.client.want_write():
            self.client.loop_write()
        sock = self._sock
        # TLS may hold decrypted bytes the socket no longer shows as readable.
        if isinstance(sock, ssl.SSLSocket) and sock.pending():
            self.loop.call_soon(self._readable_again)

    def _more_waiting(self) -> bool:
        sock, waiting = self._sock, self._waiting
        if sock is None or waiting is None:
            return False
        if isinstance(sock, ssl.SSLSocket) and sock.pending():
            return True
        return bool(waiting.poll(0))

    def _readable_again(self) -> None:
        if self._sock is not None:
            self._readable()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def loop_in_thread(name: str) -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    """A loop of its own in a thread, for a relay started from code without one."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=name, daemon=True)
    thread.start()
    return loop, thread


def start_on_a_loop(
    name: str, begin: Callable[[asyncio.AbstractEventLoop], None]
) -> tuple[asyncio.AbstractEventLoop, threading.Thread | None]:
    """`begin` run on the running loop (the web side's), or, called from code without
    one, on a loop of its own in a thread named `name`, waited for: the loop, and that
    thread (None: the running loop), which the caller stops and joins when it ends."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop, thread = loop_in_thread(name)
        asyncio.run_coroutine_threadsafe(called(lambda: begin(loop)), loop).result()
        return loop, thread
    begin(loop)
    return loop, None


async def called(act: Callable[[], None]) -> None:
    """`act` as a coroutine, for `asyncio.run_coroutine_threadsafe` from another thread."""
    act()
