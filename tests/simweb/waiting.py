"""Waiting for the simulator's board to come round, in the tests that drive it without a
browser: a condition polled until it holds, or a failure once its bound is spent."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(check: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
