"""Two real pseudo-terminals joined by a relay thread: one end for the board, one for the
host, each a path that pyserial opens like a device. The relay can corrupt bytes and
cut the line for a while, to test the link under faults."""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import tty


class PtyBridge:
    def __init__(self, *, corrupt: float = 0.0, seed: int = 0) -> None:
        self.corrupt = corrupt
        self.rng = random.Random(seed)
        self._board_master, self._board_slave = os.openpty()
        self._host_master, self._host_slave = os.openpty()
        for fd in (self._board_slave, self._host_slave):
            tty.setraw(fd)  # no echo, no line discipline, before either side opens it
        self.board_path = os.ttyname(self._board_slave)
        self.host_path = os.ttyname(self._host_slave)
        self.cut = threading.Event()  # while set, every byte is lost (a pulled cable)
        self.corrupted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        pairs = {self._board_master: self._host_master, self._host_master: self._board_master}
        while not self._stop.is_set():
            ready, _, _ = select.select(list(pairs), [], [], 0.02)
            for fd in ready:
                try:
                    data = bytearray(os.read(fd, 4096))
                except OSError:
                    continue
                if self.cut.is_set():
                    continue
                if self.corrupt:
                    for i in range(len(data)):
                        if self.rng.random() < self.corrupt:
                            data[i] ^= 1 << self.rng.randrange(8)
                            self.corrupted += 1
                with contextlib.suppress(OSError):  # the other side is not open yet
                    os.write(pairs[fd], bytes(data))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        for fd in (self._board_master, self._board_slave, self._host_master, self._host_slave):
            os.close(fd)

    def __enter__(self) -> PtyBridge:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
