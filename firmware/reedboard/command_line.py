"""What both command lines (`reedboard`, `reedboard-host`) share: a parser whose errors are
one line, help that shows every default and an example, argument types that refuse what
the board would refuse, and a quiet end when the reader of stdout goes away."""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

BAD_ARGUMENTS = 2  # the exit status of a command line that cannot be carried out as given
# Hardware the Pi is not set up for (a library, SPI, a permission, a busy pin): sysexits'
# EX_CONFIG. Distinct from a crash (1), so the service's unit restarts after a crash but
# not after this, which only a person can fix.
NEEDS_A_PERSON = 78
# A reader that went away (`reedboard perft 5 --divide | head -1`): the status of a Unix
# tool killed by SIGPIPE (128 + 13), which shells treat as the pipe's ordinary end.
CLOSED_OUTPUT = 141


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Shows the default of every option that has one; keeps the epilog's line breaks
    (its example), and leaves out defaults that say nothing (none, off)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse makes a formatter for every option it adds, and without a width it
        # imports `shutil` to measure the terminal: a fifth of the board's start-up at a
        # Pi Zero 2 W's speed (bench/startup.py). `os` measures it as well.
        if width is None:
            width = terminal_columns() - 2  # argparse's own margin
        super().__init__(prog, indent_increment, max_help_position, width)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if says_nothing(action.default) or "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` gives it: `COLUMNS`, else the
    terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):  # not a terminal, or stdout closed
            columns = 0
    return columns if columns > 0 else 80


def says_nothing(default: object) -> bool:
    """A default not worth showing: none, a switch that is off, an empty list or text
    (help would read "(default: )"). (Not `in`: a default of 0 equals False.)"""
    empty = isinstance(default, str | list | tuple) and not default
    return default is None or default is False or empty or default == argparse.SUPPRESS


class OneLineParser(argparse.ArgumentParser):
    """A bad argument is one line on stderr naming it, and exit status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # ArgumentParser's, passed on
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(BAD_ARGUMENTS)


def example(*lines: str) -> str:
    """An epilog with the given example command lines."""
    return "example:\n" + "\n".join(f"  {line}" for line in lines)


def number_in(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high` (no nan, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"{text!r} is not a number from {low:g} to {high:g}")
        return value

    return parse


def whole_number_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        stripped = text.strip()
        digits = stripped[1:] if stripped[:1] in "+-" else stripped
        if not digits.isdigit() or not low <= int(stripped) <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {low}..{high}")
        return int(stripped)

    return parse


def closed_output() -> int:
    """The reader of stdout has gone: stop quietly. stdout is pointed at /dev/null so that
    Python's own flush at exit does not complain a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return CLOSED_OUTPUT


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever `sys.stderr` is when a record comes (a test may swap it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


# The environment variable that sets how much the command lines log: `debug` adds what
# the link carries and decides (for a run that misbehaves), `warning` keeps only trouble.
LOG_LEVEL_VARIABLE = "REEDBOARD_LOG"
LOG_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}


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
