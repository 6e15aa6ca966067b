"""The lines a running program writes on a pipe (its stderr), read by a thread of their
own so that a test can wait for one line with a deadline and count the lines after."""

from __future__ import annotations

import threading
import time
from typing import IO


class SaidLines:
    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._ended = False
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                with self._changed:
                    self.lines.append(line.rstrip("\n"))
                    self._changed.notify_all()
        except (OSError, ValueError):  # the test closed the pipe
            pass
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def wait_for(self, part: str, timeout_s: float = 60.0, *, count: int = 1) -> str:
        """The first line containing `part`, once `count` lines contain it; fails if they
        do not come within `timeout_s` (a bound for a loaded machine, not a measure)."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while True:
                found = [line for line in self.lines if part in line]
                if len(found) >= count:
                    return found[0]
                left = deadline - time.monotonic()
                if left <= 0 or self._ended:
                    raise AssertionError(f"not {count} lines with {part!r} in {self.lines}")
                self._changed.wait(left)

    def wait_end(self, timeout_s: float = 30.0) -> list[str]:
        """Every line, once the program has closed the pipe (it has ended)."""
        self._thread.join(timeout_s)
        assert not self._thread.is_alive(), "the program never closed its pipe"
        return self.lines

    def with_part(self, part: str) -> list[str]:
        with self._changed:
            return [line for line in self.lines if part in line]
