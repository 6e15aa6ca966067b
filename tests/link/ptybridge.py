"""Two real pseudo-terminals joined by a relay thread: one end for the board, one for the
host, each a path that pyserial opens like a device. The relay can corrupt and drop bytes,
cut the line for a while and unplug the host's end, to test the link under faults.

- `corrupt`: that fraction of the bytes gets one bit flipped;
- `drop`: that fraction of the bytes is lost on the way;
- `cuts_per_s`: random cuts (a pulled cable), on average that many a second, each
  100-400 ms long, of one direction or both; the relay loses every byte meanwhile.
- `cut`: an event that cuts both directions while it is set.
- `pluggable`: `unplug(s)` can take the host's end away (its reads and writes fail, as a
  pulled USB cable's do) and bring a new one back at the same path `s` seconds later.

`board_spoke` is set once the board's end has written anything (its keep-alive, which a
board sends from its start, cut or not): a test starts the host after it, so that the
host's first handshake does not race the board's start.

Both paths are links to the ptys, in a directory of the bridge's own that goes with it: a
program a test left running (its test killed) that keeps reopening its path finds
nothing there, never another test's pty under a reused /dev/pts number.

The faults come from one seeded generator. Whatever the timing of a loaded machine, the
faults only change how long recovery takes, never what the two sides must end up
agreeing on."""

from __future__ import annotations

import contextlib
import os
import random
import select
import tempfile
import threading
import time
import tty


class PtyBridge:
    def __init__(
        self,
        *,
        corrupt: float = 0.0,
        seed: int = 0,
        cuts_per_s: float = 0.0,
        drop: float = 0.0,
        pluggable: bool = False,
    ) -> None:
        self.corrupt = corrupt
        self.drop = drop
        self.cuts_per_s = cuts_per_s
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        self._board_master, self._board_slave = _raw_pty()
        self._host_master, self._host_slave = _raw_pty()
        self.pluggable = pluggable
        self._link_dir = tempfile.mkdtemp(prefix="ptybridge-")
        self.board_path = os.path.join(self._link_dir, "board")
        os.symlink(os.ttyname(self._board_slave), self.board_path)
        self.host_path = os.path.join(self._link_dir, "host")
        os.symlink(os.ttyname(self._host_slave), self.host_path)
        self.cut = threading.Event()  # while set, every byte is lost (a pulled cable)
        self.board_spoke = threading.Event()
        self.corrupted = 0
        self.dropped = 0
        self.cuts = 0
        self._plug_at: float | None = None  # while unplugged: when the new end comes
        self._cut_until = {"board": 0.0, "host": 0.0}
        self._next_cut = self._schedule(time.monotonic())
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def cut_for(self, seconds: float) -> None:
        """Both directions lose every byte for `seconds` from now."""
        with self._lock:
            until = time.monotonic() + seconds
            self._cut_until = {"board": until, "host": until}

    def unplug(self, seconds: float) -> None:
        """Take the host's end away now, and plug a new one in `seconds` later."""
        assert self.pluggable, "PtyBridge(pluggable=True) can be unplugged"
        with self._lock:
            # The device is gone, as an unplugged one's node is; its path first (`close`).
            os.unlink(self.host_path)
            for fd in (self._host_master, self._host_slave):
                os.close(fd)
            self._host_master = self._host_slave = -1
            self._plug_at = time.monotonic() + seconds

    def _plug_in(self) -> None:
        self._host_master, self._host_slave = _raw_pty()
        fresh = os.path.join(self._link_dir, "fresh")
        os.symlink(os.ttyname(self._host_slave), fresh)
        os.replace(fresh, self.host_path)
        self._plug_at = None

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
        ends = self.rng.choice([["board"], ["host"], ["board", "host"]])
        for end in ends:
            self._cut_until[end] = now + self.rng.uniform(0.1, 0.4)

    def _damage(self, data: bytearray) -> bytes:
        out = bytearray()
        for byte in data:
            if self.drop and self.rng.random() < self.drop:
                self.dropped += 1
                continue
            if self.corrupt and self.rng.random() < self.corrupt:
                byte ^= 1 << self.rng.randrange(8)
                self.corrupted += 1
            out.append(byte)
        return bytes(out)

    def _relay(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self._plug_at is not None and time.monotonic() >= self._plug_at:
                    self._plug_in()
                ends = {"board": self._board_master}
                if self._host_master >= 0:
                    ends["host"] = self._host_master
            try:
                ready, _, _ = select.select(list(ends.values()), [], [], 0.02)
            except (OSError, ValueError):
                continue  # the host's end was unplugged meanwhile
            with self._lock:
                self._maybe_cut()
                for name, fd in ends.items():
                    if fd not in ready:
                        continue
                    try:
                        data = bytearray(os.read(fd, 4096))
                    except OSError:
                        continue
                    if name == "board" and data:
                        self.board_spoke.set()
                    other = self._host_master if name == "board" else self._board_master
                    if self.cut.is_set() or time.monotonic() < self._cut_until[name]:
                        continue
                    if other < 0 or fd not in (self._board_master, self._host_master):
                        continue  # unplugged meanwhile
                    with contextlib.suppress(OSError):  # the other side is not open yet
                        os.write(other, self._damage(data))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        # The paths go before the ptys: once a pty is closed its /dev/pts number is free
        # for another test's, and a program still running that opens the path again (a
        # kept link) would take that one, and its exclusive lock with it.
        for name in ("board", "host", "fresh"):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self._link_dir, name))
        os.rmdir(self._link_dir)
        for fd in (self._board_master, self._board_slave, self._host_master, self._host_slave):
            if fd >= 0:
                os.close(fd)

    def __enter__(self) -> PtyBridge:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _raw_pty() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo, no line discipline, before either side opens it
    return master, slave
