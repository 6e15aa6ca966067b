"""What the board tells the host, held back until the journal has made durable what it
tells of.

The journal's writes run off the scan loop (`journal.writer`): a move is told only once
the batch it was written in is done, and so is everything told after it (a reply, the
lights' voice, the next move), so the host hears things in the order they happened and
never of a move a power cut could take back. Nothing waits: what is held goes out on a
later turn, once its batch is done."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

from reedboard.journal.writer import InlineWriter, JournalWriter
from reedboard.link.board_messages import EffectMessage, Reply

logger = logging.getLogger("reedboard.app")  # the loop's log: the lines are the loop's


class Outbox:
    def __init__(self, writer: InlineWriter | JournalWriter | None) -> None:
        self.writer = writer
        self._held: deque[tuple[int, Callable[[], None]]] = deque()

    def put(self, tell: Callable[[], None], *, droppable: bool = False) -> None:
        """`tell` now if nothing written is pending, else once the latest batch handed to
        the journal is done. `droppable`: it tells nothing (an empty write, which only
        gives the link its chance to open a lost port again): now, or not at all."""
        ticket = 0 if self.writer is None else self.writer.latest
        if not self._held and (self.writer is None or self.writer.done() >= ticket):
            tell()
        elif not droppable:
            self._held.append((ticket, tell))

    def release(self) -> None:
        """Tell what was held for the batches done since."""
        if not self._held or self.writer is None:
            return
        done = self.writer.done()
        while self._held and self._held[0][0] <= done:
            self._held.popleft()[1]()

    @property
    def held(self) -> int:
        """How many things wait for the journal."""
        return len(self._held)


def told(what: str, message: Reply | EffectMessage, seq: int) -> None:
    """One debug line a numbered message queued for the host (`REEDBOARD_LOG=debug`): its
    type, number and, for an effect, the event and move, to set beside the host's reads."""
    if logger.isEnabledFor(logging.DEBUG):
        wire = message.to_wire()
        words = "".join(f" {wire[key]}" for key in ("event", "uci") if wire.get(key))
        logger.debug("%s: %s %d%s", what, message.TYPE, seq, words)
