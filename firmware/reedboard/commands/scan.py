"""`reedboard scan`: read the switch matrix and print the occupancy (the maker's first tool).

    reedboard scan [--config FILE] [--watch] [--expect start|empty|SQUARES]
    reedboard scan --fake --closed a1,a2,b1 [--no-diodes] [--stuck e4] [--broken-row N]

Prints 8 lines, rank 8 first, files a..h, `#` occupied and `.` empty. With `--fake` the
real scanner reads a fake electrical matrix instead of the Pi's GPIO. Exit status: 0, or 1
when the hardware fails or `--expect` finds faults, 2 for bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

from reedboard.command_line import example
from reedboard.config import BoardConfig, load_config
from reedboard.errors import HardwareError, InvalidInputError, ReedboardError
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import BB_RANKS, Bitboard, bitboard_of, parse_square
from reedboard.sensing.selftest import self_test
from reedboard.sensing.text import occupancy_text
from reedboard.wiring import matrix_wiring, open_scanner

_START_OCCUPANCY = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="read the switch matrix and print the occupancy",
        description=(
            "Read the switch matrix once (or continuously with --watch) and print 8 lines, "
            "rank 8 first: '#' occupied, '.' empty. With --fake, read a fake matrix."
        ),
        epilog=example(
            "reedboard scan --expect start", "reedboard scan --fake --closed a1,a2,b1 --no-diodes"
        ),
    )
    parser.add_argument("--config", metavar="FILE", help="board TOML file (default: built-in)")
    parser.add_argument("--watch", action="store_true", help="keep scanning; print each change")
    parser.add_argument(
        "--expect",
        metavar="WHAT",
        help="run the self-test against 'start', 'empty' or a comma list of squares",
    )
    fake = parser.add_argument_group("fake matrix")
    fake.add_argument("--fake", action="store_true", help="scan a fake matrix, not the GPIO")
    fake.add_argument("--closed", metavar="SQUARES", default="", help="closed switches: a1,a2,b1")
    fake.add_argument("--no-diodes", action="store_true", help="a matrix built without diodes")
    fake.add_argument("--stuck", metavar="SQUARES", default="", help="switches stuck closed")
    fake.add_argument("--stuck-open", metavar="SQUARES", default="", help="switches stuck open")
    fake.add_argument("--broken-row", metavar="N", default="", help="row line N (1..8) cut off")
    fake.add_argument(
        "--broken-column", metavar="N", default="", help="column line N (1..8) cut off"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        expected = _parse_expect(args.expect)
        if args.fake:
            gpio: FakeGPIO | None = _fake_gpio(args, config)
        else:
            _refuse_fake_options(args)
            gpio = None
        scanner = open_scanner(config.matrix, gpio=gpio, sleep=_sleep_for(gpio))
    except InvalidInputError as exc:
        print(f"reedboard scan: {exc}", file=sys.stderr)
        return 2
    except ReedboardError as exc:
        print(f"reedboard scan: {exc}", file=sys.stderr)
        return 1
    try:
        with scanner:
            if args.watch:
                watch(scanner, sys.stdout, period_s=1.0 / config.matrix.scan_hz)
                return 0
            occupancy = scanner.scan()
            sys.stdout.write(occupancy_text(occupancy))
            if expected is not None:
                report = self_test(
                    [occupancy, scanner.scan(), scanner.scan()],
                    expected,
                    matrix_wiring(config.matrix),
                )
                print(report)
                return 0 if report.ok else 1
            return 0
    except (HardwareError, RuntimeError) as exc:
        print(f"reedboard scan: {exc}", file=sys.stderr)
        return 1


def watch(
    scanner: MatrixScanner,
    out: TextIO,
    *,
    period_s: float,
    sleep: Callable[[float], None] = time.sleep,
    max_scans: int | None = None,
) -> None:
    """Print the occupancy, then again each time it changes, until Ctrl-C (or `max_scans`)."""
    last: Bitboard | None = None
    count = 0
    try:
        while max_scans is None or count < max_scans:
            occupancy = scanner.scan()
            count += 1
            if occupancy != last:
                if last is not None:
                    out.write("\n")
                out.write(occupancy_text(occupancy))
                out.flush()
                last = occupancy
            sleep(period_s)
    except KeyboardInterrupt:
        pass


def _sleep_for(gpio: FakeGPIO | None) -> Callable[[float], None]:
    # A fake matrix settles at once: no reason to wait between rows.
    return time.sleep if gpio is None else (lambda _seconds: None)


def _squares(option: str, text: str) -> list[int]:
    try:
        return [parse_square(name.strip()) for name in text.split(",") if name.strip()]
    except InvalidInputError as exc:
        raise InvalidInputError(f"{option}: {exc}") from None


def _lines(option: str, text: str) -> list[int]:
    lines = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if not item.isdigit() or not 1 <= int(item) <= 8:
            raise InvalidInputError(f"{option}: {item!r} is not a line number 1..8")
        lines.append(int(item) - 1)
    return lines


def _parse_expect(text: str | None) -> Bitboard | None:
    if text is None:
        return None
    if text == "start":
        return _START_OCCUPANCY
    if text == "empty":
        return 0
    return bitboard_of(_squares("--expect", text))


def _refuse_fake_options(args: argparse.Namespace) -> None:
    for option in ("closed", "stuck", "stuck_open", "broken_row", "broken_column"):
        if getattr(args, option):
            raise InvalidInputError(f"--{option.replace('_', '-')} needs --fake")
    if args.no_diodes:
        raise InvalidInputError("--no-diodes needs --fake")


def _fake_gpio(args: argparse.Namespace, config: BoardConfig) -> FakeGPIO:
    matrix = config.matrix
    layout = MatrixLayout(matrix.a1, matrix.rows_are)
    gpio = FakeGPIO(matrix.rows, matrix.columns, diodes=not args.no_diodes)
    gpio.set_closed(layout.cell_of(sq) for sq in _squares("--closed", args.closed))
    for sq in _squares("--stuck", args.stuck):
        gpio.stick_switch(*layout.cell_of(sq), closed=True)
    for sq in _squares("--stuck-open", args.stuck_open):
        gpio.stick_switch(*layout.cell_of(sq), closed=False)
    for row in _lines("--broken-row", args.broken_row):
        gpio.break_row(row)
    for column in _lines("--broken-column", args.broken_column):
        gpio.break_column(column)
    return gpio
