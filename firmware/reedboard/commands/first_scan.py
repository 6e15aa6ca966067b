"""The board's first moments: its matrix opened and read before the game is loaded.

`reedboard run` opens the switch matrix and the clock first (cheap modules: the
configuration, the GPIO adapter or the fake board) and reads the matrix on a thread
(`ScanAhead`) while the rest of the board loads, so what the players do in those seconds
reaches the game with its times. A scripted fake board (`--script`, `--random-game`) is
not read ahead: its changes come from the script, each at its own time, not from hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.config import BoardConfig, load_config
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.scan_ahead import ScanAhead
from reedboard.wiring import open_scanner

if TYPE_CHECKING:
    import argparse

    from reedboard.hal.clock_buttons import ClockButtons
    from reedboard.hal.fake_board import FakeBoard
    from reedboard.hal.gpio import GpioModule
    from reedboard.hal.ports import SwitchMatrix

# What the switches of a fake board read before anyone touches it: the pieces in the
# start position (ranks 1, 2, 7 and 8), as an empty script's board stands.
START_OCCUPANCY = 0xFFFF_0000_0000_FFFF


class FirstScan:
    """The parts opened first: the configuration, the matrix (`scanner`; a fake board is
    `source` too), the clock's buttons if wired, the board's clock and the thread reading
    the matrix on it (`ahead`)."""

    def __init__(
        self,
        config: BoardConfig,
        scanner: SwitchMatrix,
        clock: MonotonicClock,
        source: FakeBoard | None = None,
        buttons: ClockButtons | None = None,
    ) -> None:
        self.config = config
        self.scanner = scanner
        self.clock = clock
        self.source = source
        self.buttons = buttons
        period_ms = max(1, round(1000 / config.matrix.scan_hz))
        self.ahead = ScanAhead(scanner, clock, period_ms=period_ms)

    def close(self) -> None:
        """Release the matrix's pins (again: the loop closes it too, when it ran)."""
        close = getattr(self.scanner, "close", None)
        if close is not None:
            close()


def reads_ahead(args: argparse.Namespace) -> bool:
    """Whether this command line's board is read ahead: the real board, or a fake one
    that no script plays (its arguments the loader refuses are left to it, with its
    messages)."""
    scripted = args.script or args.random_game is not None or args.until_done
    return not scripted and (args.fake or args.speed == 1.0)


def open_first(args: argparse.Namespace, *, gpio: GpioModule | None = None) -> FirstScan | None:
    """The board's matrix and clock, opened from its configuration, with the thread that
    reads it not started yet; None for a board that is not read ahead. Raises what the
    configuration or the GPIO raise (`ReedboardError`), as the loader would."""
    if not reads_ahead(args):
        return None
    config = load_config(args.config)
    clock = MonotonicClock(args.speed)
    if args.fake:
        from reedboard.hal.fake_board import FakeBoard
        from reedboard.wiring import matrix_wiring

        wiring = matrix_wiring(config.matrix)
        board = FakeBoard(
            START_OCCUPANCY, rows=wiring.rows, columns=wiring.columns, layout=wiring.layout
        )
        board.finish()  # nothing scheduled: only hands change it
        return FirstScan(config, board, clock, source=board)
    buttons = None
    if config.clock.white_pin:  # opened first, as the loader always has
        from reedboard.hal.clock_buttons import open_clock_buttons

        buttons = open_clock_buttons(config.clock.white_pin, config.clock.black_pin, gpio=gpio)
    return FirstScan(config, open_scanner(config.matrix, gpio=gpio), clock, buttons=buttons)
