"""The board link's log lines as they come, for a test to wait for one (or for a count of
them), and the frames a test publishes: shared by the tests of the board's broker link."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

WAIT_S = 30.0  # a bound for a loaded machine, not a measure


class Heard(logging.Handler):
    """The board's log lines as they come, for a test to wait for one."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self._changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        with self._changed:
            self.lines.append(record.getMessage())
            self._changed.notify_all()

    def wait_for(self, part: str) -> None:
        with self._changed:
            came = self._changed.wait_for(lambda: self.with_part(part), WAIT_S)
        assert came, f"never heard {part!r} in {self.lines}"

    def wait_count(self, part: str, count: int) -> None:
        """Until `count` lines with `part` were logged."""
        with self._changed:
            came = self._changed.wait_for(lambda: len(self.with_part(part)) >= count, WAIT_S)
        assert came, f"never heard {part!r} {count} times in {self.lines}"

    def with_part(self, part: str) -> list[str]:
        with self._changed:
            return [line for line in self.lines if part in line]


@contextmanager
def hearing_the_link() -> Iterator[Heard]:
    """The board's link's log lines, debug ones too (a lost connection and each failed
    attempt are debug lines)."""
    handler = Heard()
    board_logs = logging.getLogger("reedboard.link")
    level = board_logs.level
    board_logs.addHandler(handler)
    board_logs.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        board_logs.removeHandler(handler)
        board_logs.setLevel(level)


def frames(first: int, last: int) -> list[bytes]:
    return [b'{"type":"effect","seq":%d}' % n for n in range(first, last + 1)]
