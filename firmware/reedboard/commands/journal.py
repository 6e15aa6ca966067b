"""`reedboard journal export --events [--journal FILE]`: what the board's journal kept of
the game in progress (or the one played last), as an event script on stdout. `reedboard
replay` then shows what the board made of it: how a misread move is reported."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reedboard.command_line import example
from reedboard.commands.run import DEFAULT_JOURNAL
from reedboard.errors import InvalidInputError


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "journal",
        help="read the board's journal",
        description="Read the board's journal.",
        epilog=example("reedboard journal export --events > game.events"),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export",
        help="write the game in progress (or the last one) to stdout",
        description="Write the game in progress, or the one played last, to stdout.",
        epilog=example(
            "reedboard journal export --events > game.events", "reedboard replay game.events"
        ),
    )
    export.add_argument(
        "--events",
        action="store_true",
        required=True,
        help="as an event script: the raw sensor changes, for `reedboard replay`",
    )
    export.add_argument(
        "--journal", metavar="FILE", default=DEFAULT_JOURNAL, help="the board's SQLite journal"
    )
    export.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Loaded by the command that reads a journal, not by `reedboard --help` or the board's
    # start: SQLite and the replay's rules take a Pi seconds (and pathlib brings urllib).
    from pathlib import Path

    from reedboard.journal.check import journal_problem
    from reedboard.journal.store import Journal, JournalError
    from reedboard.replay.journal_events import events_text

    path = Path(args.journal)
    if not path.is_file():
        return _refuse(f"there is no journal at {path}")
    problem = journal_problem(path)
    if problem is not None:
        return _refuse(f"the journal {path} cannot be trusted: {problem}")
    try:
        with Journal(path) as journal:
            game = journal.latest_game()
            if game is None:
                return _refuse(f"the journal {path} holds no game")
            clocks = journal.clocks(game.id)
            control = None if clocks is None else clocks.control
            text = events_text(game, journal.sensor_lines(game.id), control)
    except (JournalError, InvalidInputError) as error:
        return _refuse(str(error))
    sys.stdout.write(text)
    return 0


def _refuse(message: str) -> int:
    print(f"reedboard journal: {message}", file=sys.stderr)
    return 2
