"""A TCP proxy between one board and the broker, standing for the board's network: `cut()`
drops every connection through it at once (reset, as when a board's Wi-Fi goes) and
refuses new ones until `restore()`; `hold_answers()` keeps what the broker says from the
board (a slow network on the way back) until `release_answers()`, and `accepted` counts
the connections made through it. Threads of its own, stopped by `close()`."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Iterator

CHUNK = 65536


class NetworkProxy:
    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._cut = False
        self._closed = False
        self.cuts = 0  # connections dropped or refused while cut
        self.accepted = threading.Semaphore(0)  # released once per connection made
        self._answers = threading.Event()  # set: the broker's bytes go through
        self._answers.set()
        self._thread = threading.Thread(target=self._accept, name="proxy", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            dropped = list(self._open)
            self._open.clear()
        for sock in dropped:
            _reset(sock)
        self.cuts += len(dropped)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def hold_answers(self) -> None:
        self._answers.clear()

    def release_answers(self) -> None:
        self._answers.set()

    def close(self) -> None:
        self._closed = True
        self._answers.set()
        self.cut()
        # Closing a socket does not wake a thread blocked in its `accept` (the join then
        # waited its whole bound); shutting it down does.
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._thread.join(5)
        assert not self._thread.is_alive(), "the proxy's accepting thread did not end"

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                refused = self._cut
            if refused:
                self.cuts += 1
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                _reset(client)  # the broker itself is away: the board sees it as it is
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._cut:
                    for sock in (client, upstream):
                        _reset(sock)
                    continue
                self._open.update((client, upstream))
            for source, sink, answers in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(
                    target=self._pump, args=(source, sink, answers), daemon=True
                ).start()
            self.accepted.release()

    def _pump(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(CHUNK):
                if answers:
                    self._answers.wait()
                sink.sendall(data)
        with self._lock:
            pair = [s for s in (source, sink) if s in self._open]
            self._open.difference_update(pair)
        for sock in pair:
            _reset(sock)


def _reset(sock: socket.socket) -> None:
    """Close with a reset, not a polite goodbye: the far end learns at once, as it would
    when a link goes down under it."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


@contextlib.contextmanager
def network_proxy(target_port: int) -> Iterator[NetworkProxy]:
    proxy = NetworkProxy(target_port)
    try:
        yield proxy
    finally:
        proxy.close()
