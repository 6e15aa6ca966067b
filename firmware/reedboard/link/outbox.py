"""What the board has said but the line has not yet taken: a bounded queue of batches.

The loop hands each turn's bytes over as one batch (`add`), and the port writes from the
front (`head`, `sent`) only as much as the line takes at once, so a host that reads
slowly, or not at all, never stalls the board. Each batch is whole messages: the native
endpoint's batch is whole frames, an emulation's whole DGT or ChessLink messages.

When the queue would grow past its limit the oldest batches not yet begun are dropped,
whole, so no message is cut in half: for the native protocol a host that misses frames
asks for them again (`resend`, a `state`), and a ChessLink client's newer status reports
supersede the older ones. A batch already begun is always finished, and the newest batch
is always kept, so the line carries the latest word. Pure: no I/O.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

# A few seconds of the busiest talk (ChessLink reports at about 1.6 KB/s) and more than
# the largest reply of a long game (a `state` of a few hundred moves).
DEFAULT_LIMIT = 16384


class Outbox:
    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self.dropped = 0  # bytes dropped so far, for the curious
        self._batches: deque[bytes] = deque()
        self._begun = 0  # bytes of the first batch already written
        self._size = 0  # bytes not yet written

    def __len__(self) -> int:
        return self._size

    def add(self, data: bytes) -> None:
        if not data:
            return
        self._batches.append(bytes(data))
        self._size += len(data)
        while self._size > self.limit:
            # The first batch, once begun, is finished; the newest always stays.
            index = 1 if self._begun else 0
            if index >= len(self._batches) - 1:
                break
            dropped = self._batches[index]
            del self._batches[index]
            self._size -= len(dropped)
            self.dropped += len(dropped)

    def head(self) -> bytes:
        """The bytes to write next: the rest of the first batch (empty when none)."""
        if not self._batches:
            return b""
        return self._batches[0][self._begun :]

    def drain(self, write: Callable[[bytes], int]) -> None:
        """Hand the line what it takes now: `write(data)` writes what it can of `data`
        without waiting and returns how many bytes that was (0: the line is full for now).
        The I/O stays the caller's; the rest waits here for a later turn."""
        while self._batches:
            taken = write(self.head())
            if not taken:
                return
            self.sent(taken)

    def sent(self, count: int) -> None:
        """The line took `count` bytes of `head()`."""
        self._size -= count
        self._begun += count
        while self._batches and self._begun >= len(self._batches[0]):
            self._begun -= len(self._batches.popleft())


__all__ = ["DEFAULT_LIMIT", "Outbox"]
