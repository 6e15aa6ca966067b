"""The command lines' log: our packages' records on stderr, one line each, at the level
`REEDBOARD_LOG` names. Apart from `command_line` so that a command that logs nothing yet
(`--help`, a board before its first scan) does not load `logging` (with `traceback`,
`string` and `weakref`): about 0.1 s of a Pi Zero 2 W's start-up (bench/startup.py)."""

from __future__ import annotations

import logging
import os
import sys

# The environment variable that sets how much the command lines log: `debug` adds what
# the link carries and decides (for a run that misbehaves), `warning` keeps only trouble.
LOG_LEVEL_VARIABLE = "REEDBOARD_LOG"
LOG_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever `sys.stderr` is when a record comes (a test may swap it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def log_to_stderr(
    prefix: str, packages: tuple[str, ...] = ("reedboard", "reedboard_host", "reedboard_relay")
) -> None:
    """Send the log records of our packages to stderr, one line each, as `prefix: text`:
    the lines a person running the command reads (at info, or the level `REEDBOARD_LOG`
    names). Called once, at the start of a command line; a second call replaces the
    first's handler rather than doubling every line."""
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter(f"{prefix}: %(message)s"))
    wanted = os.environ.get(LOG_LEVEL_VARIABLE, "").strip().lower()
    level = LOG_LEVELS.get(wanted or "info")
    for name in packages:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if isinstance(h, _StderrHandler)]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(level or logging.INFO)
    if level is None:
        logging.getLogger(packages[0]).warning(
            "%s=%s is not a log level (%s): logging at info",
            LOG_LEVEL_VARIABLE, wanted, ", ".join(LOG_LEVELS),
        )  # fmt: skip
