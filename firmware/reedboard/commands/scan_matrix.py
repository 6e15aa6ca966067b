"""`reedboard scan` at work: the matrix read once, watched, checked against what should
stand on it, or put through the whole build check; a fake matrix with `--fake`."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

from reedboard.commands.scan_check import run_check
from reedboard.commands.scan_settle import run_settle_test
from reedboard.commands.scan_trace import trace
from reedboard.config import BoardConfig, load_config
from reedboard.errors import HardwareError, InvalidInputError, ReedboardError
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.hal.ports import LedStrip
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights.output import LightsOutput
from reedboard.rules.squares import BB_RANKS, Bitboard, bitboard_of, parse_square, squares_of
from reedboard.sensing.diode_check import diode_patterns, pattern_line
from reedboard.sensing.selftest import self_test
from reedboard.sensing.text import occupancy_text
from reedboard.stopping import stop_on_signals
from reedboard.wiring import matrix_wiring, open_scanner, open_strip, strip_layout

_START_OCCUPANCY = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]


def scan_matrix(args: argparse.Namespace) -> int:
    if args.diode_patterns:
        for pattern in diode_patterns():
            print(pattern_line(pattern))
        return 0
    try:
        config = load_config(args.config)
        expected = _parse_expect(args.expect)
        _refuse_conflicts(args, expected)
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
    if args.check:
        return _check(args, config, scanner, gpio)
    if args.settle_test:
        return _settle_test(config, scanner, gpio)
    try:
        with scanner:
            if args.watch:
                watch(scanner, sys.stdout, period_s=1.0 / config.matrix.scan_hz)
                return 0
            if args.trace is not None:
                square = _squares("--trace", args.trace)
                trace(scanner, square[0], sys.stdout, period_s=1.0 / config.matrix.scan_hz)
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


def _refuse_conflicts(args: argparse.Namespace, expected: Bitboard | None) -> None:
    if args.check and (args.watch or expected is not None):
        raise InvalidInputError("--check runs on its own: leave out --watch and --expect")
    if args.settle_test and (args.check or args.watch or expected is not None):
        raise InvalidInputError("--settle-test runs on its own")
    if args.trace is not None:
        if args.check or args.watch or args.settle_test or expected is not None:
            raise InvalidInputError("--trace runs on its own")
        if len(_squares("--trace", args.trace)) != 1:
            raise InvalidInputError("--trace: give one square, e.g. e4")
    if args.discharge_us < 0 or not args.discharge_us < float("inf"):
        raise InvalidInputError("--discharge-us: give a number of microseconds, 0 or more")
    if args.check and args.closed:
        raise InvalidInputError("--closed: with --check the pieces go where the LEDs say")


def _settle_test(config: BoardConfig, scanner: MatrixScanner, gpio: FakeGPIO | None) -> int:
    clock = time.perf_counter if gpio is None else (lambda: gpio.now)
    with scanner:
        try:
            return run_settle_test(
                scanner, sys.stdout, clock=clock, configured_us=config.matrix.settle_us
            )
        except (HardwareError, RuntimeError) as exc:
            print(f"reedboard scan: {exc}", file=sys.stderr)
            return 1


def _check(
    args: argparse.Namespace, config: BoardConfig, scanner: MatrixScanner, gpio: FakeGPIO | None
) -> int:
    wiring = matrix_wiring(config.matrix)
    try:
        strip: LedStrip = (
            RecordingStrip(config.leds.count) if gpio is not None else open_strip(config.leds)
        )
        lights = LightsOutput(strip_layout(config.leds), strip)
    except ReedboardError as exc:
        scanner.close()
        print(f"reedboard scan: {exc}", file=sys.stderr)
        return 1
    fake = gpio
    if fake is None:
        place = None
        ask = _ask_terminal
    else:
        layout = _fake_layout(args, config)

        def place(squares: Bitboard) -> None:
            # The fake maker puts the pieces exactly where the lights say.
            fake.set_closed(layout.cell_of(sq) for sq in squares_of(squares))

        def ask(prompt: str) -> str:
            print(prompt)
            return ""

    try:
        with scanner:
            ok = run_check(
                scanner, wiring, lights, sys.stdout, ask=ask, place=place, pause=_sleep_for(gpio)
            )
    except (HardwareError, RuntimeError) as exc:
        print(f"reedboard scan: {exc}", file=sys.stderr)
        return 1
    finally:
        close = getattr(strip, "close", None)
        if close is not None:
            close()
    return 0 if ok else 1


def _ask_terminal(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return ""


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
    # Ctrl-C or SIGTERM ends it; the caller's `with scanner` then releases the pins.
    with stop_on_signals():
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


def _sleep_for(gpio: FakeGPIO | None) -> Callable[[float], None]:
    # A fake matrix waits on its own virtual clock: no reason to wait for real.
    return time.sleep if gpio is None else gpio.sleep


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
    for option in (
        "closed",
        "no_diode",
        "reversed_diode",
        "stuck",
        "stuck_open",
        "broken_row",
        "broken_column",
        "swapped_rows",
        "swapped_columns",
    ):
        if getattr(args, option):
            raise InvalidInputError(f"--{option.replace('_', '-')} needs --fake")
    for flag in ("no_diodes", "transposed"):
        if getattr(args, flag):
            raise InvalidInputError(f"--{flag.replace('_', '-')} needs --fake")


def _fake_layout(args: argparse.Namespace, config: BoardConfig) -> MatrixLayout:
    """How the fake matrix really lies under the board: as configured, or transposed."""
    rows_are = config.matrix.rows_are
    if args.transposed:
        rows_are = "files" if rows_are == "ranks" else "ranks"
    return MatrixLayout(config.matrix.a1, rows_are)


def _fake_gpio(args: argparse.Namespace, config: BoardConfig) -> FakeGPIO:
    matrix = config.matrix
    layout = _fake_layout(args, config)
    gpio = FakeGPIO(
        matrix.rows, matrix.columns, diodes=not args.no_diodes, discharge_s=args.discharge_us / 1e6
    )
    gpio.set_closed(layout.cell_of(sq) for sq in _squares("--closed", args.closed))
    for sq in _squares("--no-diode", args.no_diode):
        gpio.remove_diode(*layout.cell_of(sq))
    for sq in _squares("--reversed-diode", args.reversed_diode):
        gpio.reverse_diode(*layout.cell_of(sq))
    for sq in _squares("--stuck", args.stuck):
        gpio.stick_switch(*layout.cell_of(sq), closed=True)
    for sq in _squares("--stuck-open", args.stuck_open):
        gpio.stick_switch(*layout.cell_of(sq), closed=False)
    for row in _lines("--broken-row", args.broken_row):
        gpio.break_row(row)
    for column in _lines("--broken-column", args.broken_column):
        gpio.break_column(column)
    if args.swapped_rows:
        gpio.swap_rows(*_pair("--swapped-rows", args.swapped_rows))
    if args.swapped_columns:
        gpio.swap_columns(*_pair("--swapped-columns", args.swapped_columns))
    return gpio


def _pair(option: str, text: str) -> tuple[int, int]:
    lines = _lines(option, text)
    if len(lines) != 2 or lines[0] == lines[1]:
        raise InvalidInputError(f"{option}: give two different line numbers 1..8, e.g. 2,3")
    return lines[0], lines[1]
