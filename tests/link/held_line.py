"""A line that can hold what the board sends: a relay between a port's path (the board's
end, as a `PtyBridge` offers it) and a new pseudo-terminal for the host. While `held`,
what comes from the board is kept; `release()` hands all of it to the host at once (as
far as the host's end takes it, the rest as it reads), as a host that was busy reads it, and `waiting()` says how much of it the
host has yet to read. What the host sends always goes through.

It makes an ordering happen on purpose that a loaded machine makes happen by chance: a
reply the board produced before some event reaching the host in the same read as that
event's message."""

from __future__ import annotations

import array
import contextlib
import fcntl
import os
import select
import termios
import threading
import tty

from tests.support.linked_pty import LinkedPty

# A pseudo-terminal's line discipline holds at most this much for its reader (4 KiB less
# one); more waits in the kernel behind it, and FIONREAD counts only this much.
READ_QUEUE_MAX = 4095


class HeldLine:
    def __init__(self, board_path: str) -> None:
        self._board = os.open(board_path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._board)
        # The host opens a link of the test's own, never the raw /dev/pts path: a host
        # left running after its test reopens its port, and the number is another's by then.
        self._host_end = LinkedPty("host")
        self._master, self._slave = self._host_end.master, self._host_end.slave
        self.host_path = self._host_end.path
        # Written to the host's end as it takes it, never waited on: a host stopped with
        # its read queue full must not stop the line (or a `release` under the lock).
        os.set_blocking(self._master, False)
        self._out = bytearray()  # for the host, in order, not taken by it yet
        self._held = bytearray()
        self._holding = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def hold(self) -> None:
        with self._lock:
            self._holding = True

    def held(self) -> bytes:
        with self._lock:
            return bytes(self._held)

    def release(self) -> int:
        """Hand what was held to the host, all at once as far as its end takes it (the
        rest as it reads); returns how many bytes."""
        with self._lock:
            self._holding = False
            count = len(self._held)
            self._out += self._held
            self._held = bytearray()
            self._flush()
            return count

    def waiting(self) -> int:
        """How many bytes wait at the host's end for the host to read them."""
        count = array.array("i", [0])
        fcntl.ioctl(self._slave, termios.FIONREAD, count)
        return count[0]

    def handed_over(self, released: int) -> bool:
        """Whether the `released` bytes wait for the host, as far as its read queue holds
        them: a busy machine holds the line longer (the host asks again meanwhile, the
        board answers), and what piles up may pass 4 KiB."""
        return self.waiting() >= min(released, READ_QUEUE_MAX)

    def _relay(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                writing = [self._master] if self._out else []
            ready, _, _ = select.select([self._board, self._master], writing, [], 0.02)
            for fd in ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    continue
                with self._lock:
                    if fd == self._master:
                        self._write(self._board, data)
                    elif self._holding:
                        self._held += data
                    else:
                        self._out += data
            with self._lock:
                self._flush()

    def _flush(self) -> None:
        """What the host's end takes now of what waits for it (under the lock)."""
        while self._out:
            try:
                written = os.write(self._master, self._out)
            except BlockingIOError:
                return  # full: the rest once the host reads
            except OSError:
                self._out.clear()  # the host's end is not open (yet, or any more)
                return
            del self._out[:written]

    @staticmethod
    def _write(fd: int, data: bytes) -> None:
        while data:
            try:
                data = data[os.write(fd, data) :]
            except BlockingIOError:
                select.select([], [fd], [], 0.1)
            except OSError:
                return  # the other end is not open (yet, or any more)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        self._host_end.close()
        with contextlib.suppress(OSError):
            os.close(self._board)

    def __enter__(self) -> HeldLine:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
