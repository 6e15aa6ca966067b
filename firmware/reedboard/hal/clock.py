"""The board's clock, a port: the loop asks the time and waits through it, so a test or a
sped-up run drives the very same loop on another clock.

- `MonotonicClock(speed=1)`: real time (CLOCK_MONOTONIC), optionally running `speed`
  times faster: the board lives through a script's minutes in seconds, with every timing
  rule (debounce, settle) unchanged in the board's own milliseconds.
- `VirtualClock`: no waiting at all; waiting moves the time on. Runs are then as fast
  as the CPU and exactly repeatable.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds of board time since the clock started."""
        ...

    def real_seconds_until(self, t_ms: int) -> float:
        """How long, in real seconds, until board time `t_ms` (0 when it has come)."""
        ...

    def sleep_until(self, t_ms: int) -> None:
        """Wait until board time `t_ms`."""
        ...


class MonotonicClock:
    def __init__(self, speed: float = 1.0, *, start_s: float | None = None) -> None:
        if speed <= 0:
            raise ValueError("the clock's speed must be positive")
        self.speed = speed
        self.start_s = time.monotonic() if start_s is None else start_s

    def now_ms(self) -> int:
        return int((time.monotonic() - self.start_s) * 1000 * self.speed)

    def to_monotonic(self, t_ms: int) -> float:
        """The `time.monotonic()` reading at board time `t_ms`."""
        return self.start_s + t_ms / 1000 / self.speed

    def real_seconds_until(self, t_ms: int) -> float:
        return max(0.0, self.to_monotonic(t_ms) - time.monotonic())

    def sleep_until(self, t_ms: int) -> None:
        wait = self.real_seconds_until(t_ms)
        if wait > 0:
            time.sleep(wait)


class VirtualClock:
    def __init__(self, start_ms: int = 0) -> None:
        self.t_ms = start_ms

    def now_ms(self) -> int:
        return self.t_ms

    def real_seconds_until(self, t_ms: int) -> float:
        return 0.0

    def sleep_until(self, t_ms: int) -> None:
        self.t_ms = max(self.t_ms, t_ms)
