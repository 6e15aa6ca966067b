"""`reedboard scan`: read the switch matrix and print the occupancy (the maker's first tool).

    reedboard scan [--config FILE] [--watch] [--expect start|empty|SQUARES]
    reedboard scan --check          the whole build check, guided on the LEDs
    reedboard scan --diode-patterns the four setups that find every missing diode
    reedboard scan --fake --closed a1,a2,b1 [--no-diodes] [--no-diode SQ] [--stuck e4]
                   [--swapped-rows 2,3] [--swapped-columns 4,5] ...

Prints 8 lines, rank 8 first, files a..h, `#` occupied and `.` empty. With `--fake` the
real scanner reads a fake electrical matrix instead of the Pi's GPIO. Exit status: 0, or 1
when the hardware fails or `--expect` or `--check` finds faults, 2 for bad input.
"""

from __future__ import annotations

import argparse
from typing import Any

from reedboard.command_line import example


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="read the switch matrix and print the occupancy",
        description=(
            "Read the switch matrix once (or continuously with --watch) and print 8 lines, "
            "rank 8 first: '#' occupied, '.' empty. With --fake, read a fake matrix."
        ),
        epilog=example(
            "reedboard scan --check",
            "reedboard scan --expect start",
            "reedboard scan --fake --check --no-diode e4",
        ),
    )
    parser.add_argument("--config", metavar="FILE", help="board TOML file (default: built-in)")
    parser.add_argument("--watch", action="store_true", help="keep scanning; print each change")
    parser.add_argument(
        "--expect",
        metavar="WHAT",
        help="run the self-test against 'start', 'empty' or a comma list of squares",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="the whole build check: LED test, orientation, every switch and diode",
    )
    parser.add_argument(
        "--diode-patterns",
        action="store_true",
        help="print the four setups that find every missing diode (one line each)",
    )
    parser.add_argument(
        "--trace",
        metavar="SQUARE",
        help="print each change on SQUARE and its neighbours as a piece slides across",
    )
    parser.add_argument(
        "--settle-test",
        action="store_true",
        help="measure the shortest settle time that reads the board as it stands, stably",
    )
    fake = parser.add_argument_group("fake matrix")
    fake.add_argument("--fake", action="store_true", help="scan a fake matrix, not the GPIO")
    fake.add_argument("--closed", metavar="SQUARES", default="", help="closed switches: a1,a2,b1")
    fake.add_argument("--no-diodes", action="store_true", help="a matrix built without diodes")
    fake.add_argument(
        "--no-diode", metavar="SQUARES", default="", help="squares whose diode is left out"
    )
    fake.add_argument(
        "--reversed-diode", metavar="SQUARES", default="", help="squares whose diode is reversed"
    )
    fake.add_argument(
        "--transposed",
        action="store_true",
        help="a matrix laid with its row lines the other way than [matrix] rows_are says",
    )
    fake.add_argument("--stuck", metavar="SQUARES", default="", help="switches stuck closed")
    fake.add_argument("--stuck-open", metavar="SQUARES", default="", help="switches stuck open")
    fake.add_argument("--broken-row", metavar="N", default="", help="row line N (1..8) cut off")
    fake.add_argument(
        "--broken-column", metavar="N", default="", help="column line N (1..8) cut off"
    )
    fake.add_argument(
        "--swapped-rows", metavar="N,M", default="", help="row lines N and M's wires swapped"
    )
    fake.add_argument(
        "--swapped-columns",
        metavar="N,M",
        default="",
        help="column lines N and M's wires swapped",
    )
    fake.add_argument(
        "--discharge-us",
        metavar="US",
        type=float,
        default=0.0,
        help="column lines take US microseconds to fall LOW (an RC settle)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The scanner, the checks and the lights are loaded once the matrix is to be read:
    # `reedboard --help` and the other commands need none of them.
    from reedboard.commands.scan_matrix import scan_matrix

    return scan_matrix(args)
