"""`reedboard journal export --events [--journal FILE]`: what the board's journal kept of
the game in progress (or the one played last), as an event script on stdout. `reedboard
replay` then shows what the board made of it: how a misread move is reported.

`reedboard journal resume FILE [--game N] [--journal JOURNAL]`: a game read from FILE (a
journal set aside as damaged, or any journal) made the game in progress of the board's
journal, so that the board resumes it at its next start. From a damaged file only what
the recovery reads is taken: the unbroken run of legal moves from the first."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reedboard.command_line import example
from reedboard.commands.run_options import DEFAULT_JOURNAL
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
    resume = actions.add_parser(
        "resume",
        help="make a game read from FILE (a journal set aside as damaged) the game in progress",
        description=(
            "Make a game read from FILE, a journal set aside as damaged or any other, the "
            "game in progress of the board's journal: the board resumes it at its next "
            "start. Stop the board first. A game in progress there is kept, as abandoned."
        ),
        epilog=example(
            "reedboard journal resume /var/lib/reedboard/journal.sqlite.damaged-20260921T141320Z"
        ),
    )
    resume.add_argument("file", metavar="FILE", help="the journal to read the game from")
    resume.add_argument(
        "--game", type=int, metavar="N", help="its game number (default: the last with moves)"
    )
    resume.add_argument(
        "--journal", metavar="JOURNAL", default=DEFAULT_JOURNAL, help="the board's SQLite journal"
    )
    resume.set_defaults(run=run_resume)


def run(args: argparse.Namespace) -> int:
    # Loaded by the command that reads a journal, not by `reedboard --help` or the board's
    # start: SQLite and the replay's rules take a Pi seconds (and pathlib brings urllib).
    from pathlib import Path

    from reedboard.journal.check import journal_problem
    from reedboard.journal.store import Journal, JournalError
    from reedboard.replay.journal_events import events_text

    path = Path(args.journal)
    if not path.is_file():
        return refuse(f"there is no journal at {path}")
    problem = journal_problem(path)
    if problem is not None:
        return refuse(f"the journal {path} cannot be trusted: {problem}")
    try:
        with Journal(path) as journal:
            game = journal.latest_game()
            if game is None:
                return refuse(f"the journal {path} holds no game")
            clocks = journal.clocks(game.id)
            control = None if clocks is None else clocks.control
            text = events_text(game, journal.sensor_lines(game.id), control)
    except (JournalError, InvalidInputError) as error:
        return refuse(str(error))
    sys.stdout.write(text)
    return 0


def run_resume(args: argparse.Namespace) -> int:
    # Recovery and the rules are loaded only when a game is to be resumed.
    from reedboard.commands.journal_resume import resume

    return resume(args)


def refuse(message: str) -> int:
    print(f"reedboard journal: {message}", file=sys.stderr)
    return 2
