"""The `reedboard` command: one subcommand per module in `reedboard.commands`.

`reedboard run` with a plain command line (the board's service's) is read without
argparse, and nothing here loads argparse or `logging` before a command needs them (the
board sets up its log itself, after its first scan): on a Pi Zero 2 W they are a good
part of the board's start-up (bench/startup.py)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from reedboard import __version__

if TYPE_CHECKING:
    from reedboard.command_line import OneLineParser


def build_parser() -> OneLineParser:
    from reedboard.command_line import OneLineParser
    from reedboard.commands import all_commands

    parser = OneLineParser(
        prog="reedboard",
        description="An open electronic chessboard: the board's firmware.",
        epilog="example:\n  reedboard sim\n\n`reedboard COMMAND --help` describes each command.",
    )
    parser.add_argument("--version", action="version", version=f"reedboard {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in all_commands():
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from reedboard.commands.run import plain_command_line

    try:
        args = plain_command_line(list(sys.argv[1:] if argv is None else argv))
        if args is None:
            parser = build_parser()
            args = parser.parse_args(argv)
            if args.command is None:
                parser.print_help(sys.stderr)
                return 2
        if args.command != "run":  # the board sets up its log after its first scan
            from reedboard.log_setup import log_to_stderr

            log_to_stderr("reedboard")
        result: int = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return result
    except BrokenPipeError:
        # `reedboard perft 5 --divide | head -1`: the reader has what it wanted.
        from reedboard.command_line import closed_output

        return closed_output()


if __name__ == "__main__":
    sys.exit(main())
