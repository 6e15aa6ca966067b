"""How often a board, the bridge and the relay try a broker they cannot reach.

Kept apart from the MQTT client so that a board's settings are checked at start without
loading paho or anything the first scan need not wait for (tests/commands/test_start_imports.py).
"""

from __future__ import annotations

from reedboard.errors import ConfigError

# The longest wait between two attempts to reach the broker (board, bridge and relay): the
# first waits a quarter of it, the next a half, so a broker back after a blink is found at
# once, and one away for long is not knocked at more than every few seconds by each board.
RETRY_MS = 4000
RETRY_MS_RANGE = (10, 600_000)  # a setting outside is refused


def check_retry_ms(retry_ms: int) -> int:
    """`retry_ms`, or `ConfigError` for a wait outside `RETRY_MS_RANGE`."""
    low, high = RETRY_MS_RANGE
    if not low <= retry_ms <= high:
        raise ConfigError(f"the MQTT retry time {retry_ms} ms is not {low}..{high} ms")
    return retry_ms
