"""Python's garbage collector kept from stalling the loop that reads the boards.

A full pass of the collector looks at every object the relay holds, and the games hold
many (each position its lists): at 1,000 boards 40 plies in, one pass took about 0.3 s,
and with the boards moving the collector made one every few seconds (12 in 85 s of the
1,000-board bench, the longest 0.48 s), each a stall in which no board's message was
read. Nearly all of it is the games, which live as long as the relay.

So what the relay holds is frozen (`gc.freeze`, which costs nothing: it moves the
collector's lists whole) every `TICK_S`: the collector's passes then look only at what
was made since the last tick (at most about 20 ms in that bench). What is frozen is
still freed as soon as nothing refers to it; only a cycle of objects that became garbage
after it was frozen (a request in flight at the tick) waits, for the sweep made every
`SWEEP_S` (everything unfrozen, one full pass, frozen again): one stall that long,
instead of one every few seconds. Frozen every second, the relay held 37,000 such
objects at the end of the bench (2,100 without freezing); every ten seconds, 5,100."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

TICK_S = 10.0  # how often what the relay holds is frozen
SWEEP_S = 600.0  # how often the collector looks at everything once


class Collector:
    def __init__(
        self, sweep_s: float = SWEEP_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.sweep_s = sweep_s
        self.clock = clock
        self._swept = clock()
        self.sweeps = 0

    def tick(self) -> None:
        """What the relay holds now frozen; swept first when a sweep is due."""
        if self.clock() - self._swept >= self.sweep_s:
            gc.unfreeze()
            gc.collect()
            self._swept = self.clock()
            self.sweeps += 1
        gc.freeze()

    @staticmethod
    def stop() -> None:
        """Everything frozen given back to the collector (the relay ends, or a test)."""
        gc.unfreeze()

    async def run(self, every_s: float = TICK_S) -> None:
        """On the loop, until cancelled: a tick every `every_s`."""
        try:
            while True:
                self.tick()
                await asyncio.sleep(every_s)
        finally:
            self.stop()
