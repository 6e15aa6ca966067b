"""Polling the relay until what it serves equals what the boards played: the relay takes
the boards' frames as they come, so a test that has seen a board's last move reads the
relay's outputs until they have caught up, within a bound for a stuck relay."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

WAIT_S = 60.0  # a bound for a stuck relay on a loaded machine, not a timing
POLL_S = 0.1  # between two reads: the relay is read, not timed


def caught_up(read: Callable[[], T], expected: T, wait_s: float = WAIT_S) -> T:
    """What `read` gives once it equals `expected`, or the last it gave when `wait_s` has
    passed (the caller asserts it, and a failure shows what the relay had)."""
    deadline = time.monotonic() + wait_s
    while (seen := read()) != expected and time.monotonic() < deadline:
        time.sleep(POLL_S)  # polling the relay until it has caught up, not timing it
    return seen
