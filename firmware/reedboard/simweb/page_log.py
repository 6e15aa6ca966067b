"""The board's log lines for the simulator's page: a `logging.Handler` that keeps the
latest few, attached to the board's loggers while the simulated board runs."""

from __future__ import annotations

import logging
from collections import deque

BOARD_LOGGER = "reedboard"  # the firmware's loggers all sit under this one


class PageLog(logging.Handler):
    """Keeps the text of the latest `keep` records (no prefix: the page labels them)."""

    def __init__(self, keep: int) -> None:
        super().__init__(logging.INFO)
        self.lines: deque[str] = deque(maxlen=keep)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def attach(self) -> None:
        logger = logging.getLogger(BOARD_LOGGER)
        # The page shows every line a person at the board would read, the quiet ones too.
        if logger.getEffectiveLevel() > logging.INFO:
            logger.setLevel(logging.INFO)
        logger.addHandler(self)

    def detach(self) -> None:
        logging.getLogger(BOARD_LOGGER).removeHandler(self)
