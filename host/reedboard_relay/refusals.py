"""What the relay refuses, logged without letting a sender fill the log: one line per kind
of refusal at most every `every_s`, the next saying how many were left unsaid. Pure but
for the clock it is given."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

EVERY_S = 10.0
KINDS = 1000  # kinds remembered; beyond them the oldest is forgotten, not kept forever


@dataclass
class _Said:
    when: float
    unsaid: int = 0


class RateLimitedLog:
    def __init__(
        self,
        logger: logging.Logger,
        *,
        every_s: float = EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.every_s = every_s
        self.clock = clock
        self._said: OrderedDict[str, _Said] = OrderedDict()

    def warn(self, kind: str, text: str) -> bool:
        """Log `text` unless a line of `kind` went out within `every_s`; True if logged."""
        now = self.clock()
        said = self._said.get(kind)
        if said is not None and now - said.when < self.every_s:
            said.unsaid += 1
            return False
        more = f" ({said.unsaid} more like it since the last line)" if said and said.unsaid else ""
        self.logger.warning("%s%s", text, more)
        self._said[kind] = _Said(now)
        self._said.move_to_end(kind)
        while len(self._said) > KINDS:
            self._said.popitem(last=False)
        return True
