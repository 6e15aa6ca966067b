"""`reedboard perft DEPTH [--fen FEN] [--chess960] [--divide]`: count the legal move tree."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reedboard.command_line import example
from reedboard.errors import InvalidFenError


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "perft",
        help="count the leaf nodes of the legal move tree",
        description="Count the leaf nodes of the legal move tree to DEPTH plies.",
        epilog=example("reedboard perft 4", "reedboard perft 3 --divide --fen FEN"),
    )
    parser.add_argument("depth", type=_depth, metavar="DEPTH")
    parser.add_argument("--fen", help="the position (default: the start position)")
    parser.add_argument(
        "--chess960", action="store_true", help="read the castling rights as Chess960 rights"
    )
    parser.add_argument(
        "--divide", action="store_true", help="first print the count below each legal move"
    )
    parser.set_defaults(run=run)


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"DEPTH is a whole number >= 0, not {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    # The rules are loaded when a command needs them: their tables cost `reedboard --help`.
    from reedboard.rules.fen import STARTING_FEN
    from reedboard.rules.moves import move_of_code
    from reedboard.rules.position import Position, perft

    try:
        position = Position.from_fen(
            STARTING_FEN if args.fen is None else args.fen, chess960=args.chess960
        )
    except InvalidFenError as error:
        print(f"reedboard perft: bad FEN: {error}", file=sys.stderr)
        return 2
    if not args.divide or args.depth < 1:
        print(perft(position, args.depth))
        return 0
    total = 0
    for code in position.legal_codes():
        count = perft(position.play_code(code), args.depth - 1)
        total += count
        print(f"{position.uci(move_of_code(code))} {count}")
    print(total)
    return 0
