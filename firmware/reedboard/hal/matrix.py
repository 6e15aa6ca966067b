"""`MatrixScanner`: reads the 64 reed switches through a GPIO module.

One row line at a time is driven HIGH while the other row lines float (set up as inputs):
a floating row cannot fight the driven one even on a board built without diodes, and a
diode per switch keeps current from flowing back up into other rows. After a settling
wait (the column lines' capacitance must charge, or discharge through the pull-downs after
the previous row) the 8 column lines are read; a HIGH column means that crossing's switch
is closed.

The GPIO module comes in through the constructor (`RPi.GPIO`, `rpi-lgpio` or `FakeGPIO`),
and so does the sleep function, so tests never wait. `reedboard.hal.rpi` builds one for
the real board.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from types import TracebackType

from reedboard.errors import ConfigError
from reedboard.hal.gpio import GpioModule
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import Bitboard

DEFAULT_SETTLE_S = 20e-6


class MatrixScanner:
    """A `SwitchMatrix` on a GPIO module; a context manager that releases its pins."""

    def __init__(
        self,
        gpio: GpioModule,
        rows: Sequence[int],
        columns: Sequence[int],
        layout: MatrixLayout | None = None,
        *,
        settle_s: float = DEFAULT_SETTLE_S,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """`rows[i]` / `columns[j]` are the BCM pins of row line i / column line j;
        `settle_s` is the wait in seconds between driving a row and reading the columns;
        `sleep` is called with it (`time.sleep` on the board, a no-op or recorder in tests)."""
        if len(rows) != 8 or len(columns) != 8:
            raise ConfigError("the matrix needs exactly 8 row pins and 8 column pins")
        if len(set(rows) | set(columns)) != 16:
            raise ConfigError("the 16 matrix pins must all be different")
        if settle_s < 0:
            raise ConfigError("the settling time cannot be negative")
        self._gpio = gpio
        self._rows = tuple(rows)
        self._columns = tuple(columns)
        self.layout = layout or MatrixLayout()
        self._settle_s = settle_s
        self._sleep = sleep
        # Per row line: (row pin, ((column pin, square bit), ...)), so a scan is table lookups.
        self._plan = tuple(
            (
                row_pin,
                tuple(
                    (column_pin, 1 << self.layout.square_at(row, column))
                    for column, column_pin in enumerate(self._columns)
                ),
            )
            for row, row_pin in enumerate(self._rows)
        )
        self._open = False
        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        try:
            for pin in self._rows:
                gpio.setup(pin, gpio.IN)
            for pin in self._columns:
                gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_DOWN)
        except BaseException:
            gpio.cleanup(self._rows + self._columns)
            raise
        self._open = True

    @property
    def settle_s(self) -> float:
        """The wait between driving a row and reading the columns, in seconds."""
        return self._settle_s

    @settle_s.setter
    def settle_s(self, seconds: float) -> None:
        if seconds < 0:
            raise ConfigError("the settling time cannot be negative")
        self._settle_s = seconds

    @property
    def pins(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The (row pins, column pins) this scanner uses."""
        return self._rows, self._columns

    def scan(self) -> Bitboard:
        """Read every switch once: bit n set when square n's switch is closed."""
        if not self._open:
            raise ValueError("the scanner is closed")
        gpio = self._gpio
        setup, read, sleep, settle = gpio.setup, gpio.input, self._sleep, self._settle_s
        out, high, float_ = gpio.OUT, gpio.HIGH, gpio.IN
        occupancy = 0
        for row_pin, cells in self._plan:
            setup(row_pin, out, initial=high)
            try:
                sleep(settle)
                for column_pin, bit in cells:
                    if read(column_pin):
                        occupancy |= bit
            finally:
                setup(row_pin, float_)
        return occupancy

    def close(self) -> None:
        """Release the 16 pins (and only those: the LED pins may be in use elsewhere)."""
        if self._open:
            self._open = False
            self._gpio.cleanup(self._rows + self._columns)

    def __enter__(self) -> MatrixScanner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
