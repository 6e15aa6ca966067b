"""Two real pseudo-terminals joined by a relay thread: one end for the board, one for the
host, each a path that pyserial opens like a device. The relay can corrupt bytes and cut
the line for a while, to test the link under faults.

- `corrupt`: that fraction of the bytes gets one bit flipped;
- `cuts_per_s`: random cuts (a pulled cable), on average that many a second, each
  100-400 ms long, of one direction or both; the relay loses every byte meanwhile.
- `cut`: an event that cuts both directions while it is set.

Whatever the timing of a loaded machine, the faults only change how long recovery takes,
never what the two sides must end up agreeing on."""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty


class PtyBridge:
    def __init__(self, *, corrupt: float = 0.0, seed: int = 0, cuts_per_s: float = 0.0) -> None:
        self.corrupt = corrupt
        self.cuts_per_s = cuts_per_s
        self.rng = random.Random(seed)
        self._board_master, self._board_slave = os.openpty()
        self._host_master, self._host_slave = os.openpty()
        for fd in (self._board_slave, self._host_slave):
            tty.setraw(fd)  # no echo, no line discipline, before either side opens it
        self.board_path = os.ttyname(self._board_slave)
        self.host_path = os.ttyname(self._host_slave)
        self.cut = threading.Event()  # while set, every byte is lost (a pulled cable)
        self.corrupted = 0
        self.cuts = 0
        self._cut_until = {self._board_master: 0.0, self._host_master: 0.0}
        self._next_cut = self._schedule(time.monotonic())
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _schedule(self, now: float) -> float:
        if not self.cuts_per_s:
            return float("inf")
        return now + self.rng.expovariate(self.cuts_per_s)

    def _maybe_cut(self) -> None:
        now = time.monotonic()
        if now < self._next_cut:
            return
        self._next_cut = self._schedule(now)
        self.cuts += 1
        ends = self.rng.choice([[self._board_master], [self._host_master], list(self._cut_until)])
        for fd in ends:
            self._cut_until[fd] = now + self.rng.uniform(0.1, 0.4)

    def _relay(self) -> None:
        pairs = {self._board_master: self._host_master, self._host_master: self._board_master}
        while not self._stop.is_set():
            ready, _, _ = select.select(list(pairs), [], [], 0.02)
            self._maybe_cut()
            for fd in ready:
                try:
                    data = bytearray(os.read(fd, 4096))
                except OSError:
                    continue
                if self.cut.is_set() or time.monotonic() < self._cut_until[fd]:
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
        self._thread.join(5)
        for fd in (self._board_master, self._board_slave, self._host_master, self._host_slave):
            os.close(fd)

    def __enter__(self) -> PtyBridge:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
