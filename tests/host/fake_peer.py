"""Something at the other end of a pty that is not a working board: silent, speaking
garbage, a board of another protocol version, or a board on a line too noisy for its
hello to get through (it answers every hello with a well-formed frame that is not the
hello, and the host keeps trying). It answers what it reads, so nothing here depends on
timing. `unplug` takes it away as a pulled cable does: the host's reads and writes fail,
and its path is gone (a link in a directory of its own, never another test's pty under a
reused number)."""

from __future__ import annotations

import contextlib
import os
import random
import select
import tempfile
import threading
import tty

from reedboard.link.frame import FrameDecoder, encode_frame


class FakePeer:
    def __init__(self, kind: str) -> None:
        assert kind in ("silent", "garbage", "version2", "noisy")
        self.kind = kind
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self._link_dir = tempfile.mkdtemp(prefix="fakepeer-")
        self.path = os.path.join(self._link_dir, "board")
        os.symlink(os.ttyname(self._slave), self.path)
        self._decoder = FrameDecoder()
        self._rng = random.Random(1)
        self.heard = threading.Event()  # the host has spoken: it is up and waiting
        self._hellos = 0  # the host's hellos read so far
        self._hello_read = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        seq = 0
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            out = b""
            if b"hello" in data:
                self.heard.set()
                with self._hello_read:
                    self._hellos += data.count(b'"hello"')
                    self._hello_read.notify_all()
            if self.kind == "noisy" and b"hello" in data:
                seq += 1
                out = encode_frame({"type": "alive", "seq": seq})
            elif self.kind == "garbage":
                out = bytes(self._rng.randrange(256) for _ in range(200)) + b"\n"
            elif self.kind == "version2":
                for message in self._decoder.feed(data):
                    if message["type"] == "hello":
                        seq += 1
                        out += encode_frame(
                            {"type": "hello", "seq": seq, "id": message.get("id"),
                             "protocol": 2, "session": "s2", "game": 1}
                        )  # fmt: skip
            if out:
                os.write(self._master, out)

    def hellos_read(self, count: int, timeout_s: float = 60) -> bool:
        """Wait until the host has sent `count` hellos (it is that far into its handshake);
        False if not within `timeout_s`, a bound for a host that never gets there."""
        with self._hello_read:
            return self._hello_read.wait_for(lambda: self._hellos >= count, timeout_s)

    def unplug(self) -> None:
        """The cable pulled: the pty closed and its path gone."""
        self._stop.set()
        self._thread.join(5)
        # The path first: a closed pty's number is soon another test's, which the host,
        # looking for its board again at this path, would open (and lock) instead.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        if self._master >= 0:
            os.close(self._master)
            os.close(self._slave)
            self._master = self._slave = -1

    def close(self) -> None:
        self.unplug()
        os.rmdir(self._link_dir)

    def __enter__(self) -> FakePeer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
