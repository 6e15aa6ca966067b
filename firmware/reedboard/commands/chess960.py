"""`reedboard chess960 N`: the FEN of Chess960 start position N.

Castling is written as the board writes it everywhere (X-FEN): KQkq, which names a start
position's rooks unambiguously; GUIs and engines that play Chess960 read it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reedboard.command_line import example
from reedboard.errors import InvalidChess960Error


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "chess960",
        help="print the FEN of Chess960 start position N (0..959; 518 = standard)",
        description="Print the FEN of Chess960 start position N (0..959; 518 = standard).",
        epilog=example("reedboard chess960 518"),
    )
    parser.add_argument("number", metavar="N")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The rules are loaded when a command needs them: their tables cost `reedboard --help`.
    from reedboard.rules.position import Position

    text: str = args.number
    try:
        number = int(text) if text.lstrip("-").isdigit() else -1
        if number < 0:
            raise InvalidChess960Error(f"N is a whole number 0..959, not {text!r}")
        print(Position.chess960_start(number).fen())
    except InvalidChess960Error as error:
        print(f"reedboard chess960: {error}", file=sys.stderr)
        return 2
    return 0
