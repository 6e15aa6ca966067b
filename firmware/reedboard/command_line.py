"""What both command lines (`reedboard`, `reedboard-host`) share: a parser whose errors are
one line, help that shows every default and an example, and a quiet end when the reader
of stdout goes away. Their argument types are `argument_types`, their log `log_setup`:
neither loads argparse."""

from __future__ import annotations

import argparse
import os
import sys
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


def closed_output() -> int:
    """The reader of stdout has gone: stop quietly. stdout is pointed at /dev/null so that
    Python's own flush at exit does not complain a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return CLOSED_OUTPUT
