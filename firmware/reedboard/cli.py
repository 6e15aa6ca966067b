"""The `reedboard` command: one subcommand per module in `reedboard.commands`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reedboard import __version__
from reedboard.commands import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reedboard", description="An open electronic chessboard: the board's firmware."
    )
    parser.add_argument("--version", action="version", version=f"reedboard {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
