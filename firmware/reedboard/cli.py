"""The `reedboard` command: one subcommand per module in `reedboard.commands`."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from reedboard import __version__
from reedboard.command_line import OneLineParser, closed_output, log_to_stderr
from reedboard.commands import COMMANDS


def build_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="reedboard",
        description="An open electronic chessboard: the board's firmware.",
        epilog="example:\n  reedboard sim\n\n`reedboard COMMAND --help` describes each command.",
    )
    parser.add_argument("--version", action="version", version=f"reedboard {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        log_to_stderr("reedboard")
        if args.command is None:
            parser.print_help(sys.stderr)
            return 2
        result: int = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return result
    except BrokenPipeError:
        # `reedboard perft 5 --divide | head -1`: the reader has what it wanted.
        return closed_output()


if __name__ == "__main__":
    sys.exit(main())
