"""Spectators for `bench/relay.py`: clients polling `/games.pgn` every 2 s (a threads'
pool, each poll timed) and listeners on the page's event stream (`/events`, raw sockets
all read by one thread through epoll, their bytes counted). Started before the boards,
stopped after: what the relay spends on them is in its figures. `SpectatorProcesses`
runs the pollers and the listeners in processes of their own."""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import selectors
import socket
import statistics
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit

PGN_EVERY_S = 2.0


class Spectators:
    def __init__(self, page: str, pollers: int, listeners: int) -> None:
        self.page = page
        self.pgn_ms: list[float] = []  # each `/games.pgn` poll, from asking to the last byte
        self.pgn_failed = 0
        self.event_bytes = 0
        self.listening = 0  # event streams that answered
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._poll, args=(n,), daemon=True) for n in range(pollers)
        ]
        if listeners:
            self._threads.append(
                threading.Thread(target=self._listen, args=(listeners,), daemon=True)
            )
        for thread in self._threads:
            thread.start()

    def _poll(self, n: int) -> None:
        """One client asking for `/games.pgn` every 2 s: the request urllib writes, its
        answer read to the end into one buffer (a megabyte a poll at a thousand boards,
        which urllib's reading copied several times over)."""
        where = urlsplit(self.page)
        host, port = where.hostname or "127.0.0.1", where.port or 80
        request = (
            f"GET {where.path}games.pgn HTTP/1.1\r\nAccept-Encoding: identity\r\n"
            f"Host: {host}:{port}\r\nUser-Agent: Python-urllib/{sys.version_info[0]}."
            f"{sys.version_info[1]}\r\nConnection: close\r\n\r\n"
        ).encode()
        buffer = bytearray(1 << 20)
        self._stop.wait(PGN_EVERY_S * n / max(1, len(self._threads)))  # spread over 2 s
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                with socket.create_connection((host, port), timeout=120) as sock:
                    sock.sendall(request)
                    status = b""
                    while got := sock.recv_into(buffer):
                        status = status or bytes(buffer[:got].split(b"\r\n", 1)[0])
                if status.split(b" ")[1:2] != [b"200"]:
                    raise OSError(f"answered {status!r}")
                self.pgn_ms.append((time.monotonic() - began) * 1000)
            except OSError:
                self.pgn_failed += 1
            self._stop.wait(max(0.0, PGN_EVERY_S - (time.monotonic() - began)))

    def _listen(self, count: int) -> None:
        where = urlsplit(self.page)
        host, port = where.hostname or "127.0.0.1", where.port or 80
        selector = selectors.DefaultSelector()
        request = f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
        for _ in range(count):
            with contextlib.suppress(OSError):
                sock = socket.create_connection((host, port), timeout=10)
                sock.sendall(request)
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
        answered: set[int] = set()
        buffer = bytearray(1 << 20)  # every stream read into it: its bytes are only counted
        while not self._stop.is_set():
            for key, _events in selector.select(0.2):
                conn = key.fileobj
                if not isinstance(conn, socket.socket):
                    continue
                try:
                    got = conn.recv_into(buffer)
                except BlockingIOError:
                    continue
                except OSError:
                    got = 0
                if not got:
                    selector.unregister(conn)
                    conn.close()
                    continue
                answered.add(conn.fileno())
                self.listening = len(answered)
                self.event_bytes += got
        for key in list(selector.get_map().values()):
            with contextlib.suppress(OSError):
                key.fileobj.close()  # type: ignore[union-attr]

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(130)

    def said(self) -> str:
        if not self.pgn_ms and not self.listening:
            return ""
        ordered = sorted(self.pgn_ms) or [float("nan")]
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        median = statistics.median(ordered)
        return (
            f"  /games.pgn polls: {len(self.pgn_ms)}, median {median:.0f} ms, p99 {p99:.0f} ms,"
            f" failed {self.pgn_failed}; event streams: {self.listening} answered,"
            f" {self.event_bytes / 1e6:.1f} MB read"
        )


def _watch(page: str, pollers: int, listeners: int, stop: Any, out: Any) -> None:
    crowd = Spectators(page, pollers, listeners)
    stop.wait()
    crowd.stop()
    out.put((crowd.pgn_ms, crowd.pgn_failed, crowd.event_bytes, crowd.listening))


class SpectatorProcesses:
    """The pollers and the listeners each in a process of their own: in the bench's own
    process, the listeners' reading and twenty pollers shared one interpreter lock with
    the bench, and a poll's time was mostly its wait for that lock, not for the relay."""

    def __init__(self, page: str, pollers: int, listeners: int) -> None:
        self._stop = multiprocessing.Event()
        self._out: Any = multiprocessing.Queue()
        self._named = [
            (name, multiprocessing.Process(
                target=_watch, args=(page, *crowd, self._stop, self._out), daemon=True
            ))
            for name, crowd in (("pgn pollers", (pollers, 0)), ("listeners", (0, listeners)))
            if any(crowd)
        ]  # fmt: skip
        self._processes = [process for _name, process in self._named]
        for process in self._processes:
            process.start()
        self.figures = Spectators(page, 0, 0)  # what the processes found, once stopped

    def pids(self) -> dict[str, list[int | None]]:
        """Each crowd's process, for the bench's count of where the CPU went."""
        return {name: [process.pid] for name, process in self._named}

    def stop(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        for _process in self._processes:
            with contextlib.suppress(queue.Empty):
                pgn_ms, failed, event_bytes, listening = self._out.get(timeout=180)
                self.figures.pgn_ms += pgn_ms
                self.figures.pgn_failed += failed
                self.figures.event_bytes += event_bytes
                self.figures.listening += listening
        for process in self._processes:
            process.join(10)
            if process.is_alive():
                process.terminate()

    def said(self) -> str:
        return self.figures.said()
