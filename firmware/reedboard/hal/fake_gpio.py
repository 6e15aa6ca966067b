"""A fake `RPi.GPIO` module wired to a model of the board's switch matrix.

It speaks pins, not chess: the Pi drives row lines and reads column lines, and what a column
reads follows from the electrics. Each crossing of a row line and a column line holds a reed
switch, in series with a diode (anode on the row side) unless the board was built without
them. A column pin reads HIGH when a driven-HIGH row pin reaches its line through closed
switches: with diodes current only goes row -> switch -> column, so only that crossing
counts; without diodes it also flows back up other closed switches into other row lines and
down again, which is how three closed corners of a rectangle light the fourth (a ghost).
One diode alone can be left out or soldered the wrong way round, as a maker's slip does;
`hal.matrix_electrics` works out where the current goes.

Faults a maker meets after soldering are modelled too: a switch stuck closed or open, a
broken row or column wire (the line stays in the matrix, but its pin no longer reaches it),
two row (or two column) wires swapped at the Pi's header (each pin reaches the other line).

A column line can also be slow: with `discharge_s` set, a column that a row pulled HIGH
keeps reading HIGH for that long after the row lets go (its capacitance discharging through
the pull-down, an RC settle), on a virtual clock that `sleep` advances, so a scan that waits
too little reads the previous row's columns again.

Solving the electrics costs far more than reading a pin, and a scan drives each row line in
turn 200 times a second while the switches seldom change. So each solution is kept, keyed
on the rows driven and their levels, until the switches, faults, wiring, pulls or grounded
pins change; and with no slow columns the column pins' levels are kept per drive too. A
read of an unchanged matrix is then a dictionary look-up. `cache=False` works everything
out again on every read, which tests use to show the kept answers are the same.

The real `MatrixScanner` runs on this in every test, and the call counter lets a benchmark
count GPIO calls per scan. Misuse that the real module refuses (no numbering mode, reading
a pin that was never set up, writing to an input) raises `RuntimeError` here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from reedboard.errors import HardwareError
from reedboard.hal.matrix_electrics import ALL_LINES, directions, lines_reached

# Pins for a fake matrix that stands for no board in particular: which pins a fake uses
# changes nothing it reads, so a fake board needs none from the configuration.
FAKE_ROWS: tuple[int, ...] = tuple(range(8))
FAKE_COLUMNS: tuple[int, ...] = tuple(range(8, 16))


class FakeGPIO:
    """Instances behave like the `RPi.GPIO` module, for a matrix wired to the given pins.

    `rows[i]` and `columns[j]` are the BCM pins wired to row line i and column line j.
    """

    # The values the real module uses, so a mix-up of constants shows up the same way.
    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22

    def __init__(
        self,
        rows: Sequence[int],
        columns: Sequence[int],
        *,
        diodes: bool = True,
        discharge_s: float = 0.0,
        cache: bool = True,
    ) -> None:
        if len(rows) != 8 or len(columns) != 8:
            raise HardwareError("the fake matrix needs 8 row pins and 8 column pins")
        if len(set(rows) | set(columns)) != 16:
            raise HardwareError("the fake matrix needs 16 different pins")
        self.diodes = diodes
        self.discharge_s = discharge_s
        self._cache = cache
        self.calls = 0
        self.now = 0.0  # the virtual clock, in seconds: `sleep` advances it
        self._fell_at = [-1.0] * 8  # when each column line lost its HIGH source
        self._row_of_pin = {pin: i for i, pin in enumerate(rows)}
        self._column_of_pin = {pin: j for j, pin in enumerate(columns)}
        self._mode: int | None = None
        self._direction: dict[int, int] = {}
        self._pull: dict[int, int] = {}
        self._level: dict[int, int] = {}
        # Switch states as one 8-bit mask of column lines per row line.
        self._closed = [0] * 8
        self._stuck_closed = [0] * 8
        self._stuck_open = [0] * 8
        self._no_diode = [0] * 8
        self._reversed_diode = [0] * 8
        self._broken_rows = 0
        self._broken_columns = 0
        self._grounded: set[int] = set()  # pins a closed switch ties to ground
        # What HIGH outputs reach, cached until the electrics change (None).
        self._columns_high: int | None = None
        self._rows_high = 0
        # The row lines whose pins drive HIGH and LOW, as masks kept up to date pin by pin:
        # with the matrix as it is, they decide the solution.
        self._driven_high = 0
        self._driven_low = 0
        # Kept until anything but the rows' drive changes: the solution per drive (high,
        # low), and the levels the set-up column pins read per drive; `_reads` is this
        # drive's (None: not looked up yet).
        self._solutions: dict[tuple[int, int], tuple[int, int]] = {}
        self._column_reads: dict[tuple[int, int], dict[int, int]] = {}
        self._reads: dict[int, int] | None = None

    # -- the matrix: what a test or a simulator changes ----------------------------------

    def set_switch(self, row: int, column: int, closed: bool) -> None:
        """Close (a magnet is over it) or open one switch."""
        if closed:
            self._closed[row] |= 1 << column
        else:
            self._closed[row] &= ~(1 << column)
        self._changed()

    def set_closed(self, cells: Iterable[tuple[int, int]]) -> None:
        """Close exactly these switches and open all others."""
        self._closed = [0] * 8
        for row, column in cells:
            self._closed[row] |= 1 << column
        self._changed()

    def stick_switch(self, row: int, column: int, closed: bool = True) -> None:
        """Make a switch stuck: closed whatever the magnet does (welded contacts, a stray
        magnet), or open (a cracked glass, a dry joint)."""
        bit = 1 << column
        self._stuck_closed[row] = (
            self._stuck_closed[row] | bit if closed else self._stuck_closed[row] & ~bit
        )
        self._stuck_open[row] = (
            self._stuck_open[row] & ~bit if closed else self._stuck_open[row] | bit
        )
        self._changed()

    def remove_diode(self, row: int, column: int) -> None:
        """Leave out the diode of one crossing: its switch conducts both ways when closed."""
        self._no_diode[row] |= 1 << column
        self._reversed_diode[row] &= ~(1 << column)
        self._changed()

    def reverse_diode(self, row: int, column: int) -> None:
        """Solder the diode of one crossing the wrong way round: its switch then passes
        current only from the column back into the row, so it never reads itself."""
        self._reversed_diode[row] |= 1 << column
        self._no_diode[row] &= ~(1 << column)
        self._changed()

    def break_row(self, row: int) -> None:
        """Cut the wire between row line `row` and its pin."""
        self._broken_rows |= 1 << row
        self._changed()

    def break_column(self, column: int) -> None:
        """Cut the wire between column line `column` and its pin."""
        self._broken_columns |= 1 << column
        self._changed()

    def swap_rows(self, a: int, b: int) -> None:
        """Swap the wires of row lines `a` and `b` at the header: the pin configured for
        line `a` drives line `b`, and the other way round."""
        self._swap(self._row_of_pin, a, b)

    def swap_columns(self, a: int, b: int) -> None:
        """Swap the wires of column lines `a` and `b` at the header."""
        self._swap(self._column_of_pin, a, b)

    def _swap(self, line_of_pin: dict[int, int], a: int, b: int) -> None:
        if a == b or not (0 <= a < 8 and 0 <= b < 8):
            raise HardwareError("a swap needs two different lines 0..7")
        pin_a = next(pin for pin, line in line_of_pin.items() if line == a)
        pin_b = next(pin for pin, line in line_of_pin.items() if line == b)
        line_of_pin[pin_a], line_of_pin[pin_b] = b, a
        self._count_drive()
        self._changed()

    def ground(self, pin: int, grounded: bool = True) -> None:
        """A switch between `pin` and ground closes (a clock button held down) or opens."""
        if grounded:
            self._grounded.add(pin)
        else:
            self._grounded.discard(pin)
        self._forget_reads()

    def is_closed(self, row: int, column: int) -> bool:
        """Whether the switch conducts now, faults included."""
        return bool(self._conducting(row) >> column & 1)

    def sleep(self, seconds: float) -> None:
        """Let `seconds` pass on the virtual clock (the scanner's wait on this fake)."""
        self.now += seconds

    def _changed(self) -> None:
        """Something other than the rows' drive changed: forget every kept answer."""
        self._solutions.clear()
        self._forget_reads()
        self._drive_changed()

    def _forget_reads(self) -> None:
        """The pins' levels for a drive may differ now (the solutions still hold)."""
        self._column_reads.clear()
        self._reads = None

    def _drive_changed(self) -> None:
        """The rows driven changed: look the solution up again at the next read, or with
        slow columns solve now and note which columns lost their source, and when."""
        self._reads = None
        if not self.discharge_s:
            self._columns_high = None
            return
        before = self._columns_high or 0
        self._columns_high, self._rows_high = self._solution()
        for column in range(8):
            if before >> column & 1 and not self._columns_high >> column & 1:
                self._fell_at[column] = self.now

    def _still_charged(self, column: int) -> bool:
        fell = self._fell_at[column]
        return fell >= 0 and self.now - fell < self.discharge_s

    # -- the RPi.GPIO API --------------------------------------------------------------

    def setmode(self, mode: int) -> None:
        self.calls += 1
        if mode not in (self.BCM, self.BOARD):
            raise ValueError("An invalid mode was passed to setmode()")
        if self._mode is not None and mode != self._mode:
            raise ValueError("A different mode has already been set!")
        self._mode = mode
        self._reads = None

    def setwarnings(self, flag: bool) -> None:
        self.calls += 1

    def setup(
        self,
        channel: int | Sequence[int],
        direction: int,
        pull_up_down: int = PUD_OFF,
        initial: int | None = None,
    ) -> None:
        self.calls += 1
        self._check_mode()
        channels = [channel] if isinstance(channel, int) else list(channel)
        try:
            self._setup(channels, direction, pull_up_down, initial)
        finally:
            self._pins_changed(channels)

    def _setup(
        self, channels: list[int], direction: int, pull_up_down: int, initial: int | None
    ) -> None:
        for pin in channels:
            self._check_pin(pin)
            if direction == self.OUT:
                if pull_up_down != self.PUD_OFF:
                    raise ValueError("pull_up_down parameter is not valid for outputs")
                self._direction[pin] = self.OUT
                self._level[pin] = self.LOW if initial is None else int(bool(initial))
            elif direction == self.IN:
                if initial is not None:
                    raise ValueError("initial parameter is not valid for inputs")
                self._direction[pin] = self.IN
                self._pull[pin] = pull_up_down
                self._level.pop(pin, None)
            else:
                raise ValueError("An invalid direction was passed to setup()")

    def output(self, channel: int, value: int | bool) -> None:
        self.calls += 1
        self._check_mode()
        if self._direction.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self._level[channel] = int(bool(value))
        self._pins_changed([channel])

    def input(self, channel: int) -> int:
        self.calls += 1
        reads = self._reads
        if reads is None:
            reads = self._reads = self._reads_now()
        level = reads.get(channel)
        return self._read(channel) if level is None else level

    def _read(self, channel: int) -> int:
        """What `channel` reads, worked out from the pins and the solution."""
        self._check_mode()
        direction = self._direction.get(channel)
        if direction is None:
            raise RuntimeError("You must setup() the GPIO channel first")
        if direction == self.OUT:
            return self._level[channel]
        if self._columns_high is None:
            self._columns_high, self._rows_high = self._solution()
        column = self._column_of_pin.get(channel)
        if (
            column is not None
            and not self._broken_columns >> column & 1
            and (self._columns_high >> column & 1 or self._still_charged(column))
        ):
            return self.HIGH
        row = self._row_of_pin.get(channel)
        if row is not None and not self._broken_rows >> row & 1 and self._rows_high >> row & 1:
            return self.HIGH
        if channel in self._grounded:
            return self.LOW
        return self.HIGH if self._pull.get(channel) == self.PUD_UP else self.LOW

    def cleanup(self, channel: int | Iterable[int] | None = None, *_: Any) -> None:
        self.calls += 1
        if channel is None:
            pins: Iterable[int] = list(self._direction)
            self._mode = None
        else:
            pins = [channel] if isinstance(channel, int) else list(channel)
        for pin in pins:
            self._direction.pop(pin, None)
            self._pull.pop(pin, None)
            self._level.pop(pin, None)
        self._count_drive()
        self._changed()

    def is_setup(self, channel: int) -> bool:
        """Whether a pin is claimed (set up and not cleaned up): lets tests check cleanup."""
        return channel in self._direction

    def _check_mode(self) -> None:
        if self._mode is None:
            raise RuntimeError(
                "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                "GPIO.setmode(GPIO.BCM)"
            )

    def _check_pin(self, pin: int) -> None:
        if self._mode == self.BCM and not 0 <= pin <= 27:
            raise ValueError("The channel sent is invalid on a Raspberry Pi")

    # -- the kept answers --------------------------------------------------------------

    def _pins_changed(self, pins: Iterable[int]) -> None:
        """These pins were set up or written. A row pin changes the drive (the scanner
        drives and floats each row line in turn); a column pin what the columns read; any
        other pin, or a row pin's own pull, only what that pin reads, which is never kept."""
        rows = columns = False
        for pin in pins:
            if pin in self._row_of_pin:
                self._drive_pin(pin)
                rows = True
            elif pin in self._column_of_pin:
                columns = True
        if columns:
            self._forget_reads()
        if rows:
            self._drive_changed()

    def _drive_pin(self, pin: int) -> None:
        """Note what row pin `pin` drives now."""
        bit = 1 << self._row_of_pin[pin]
        self._driven_high &= ~bit
        self._driven_low &= ~bit
        if self._direction.get(pin) == self.OUT:
            if self._level[pin]:
                self._driven_high |= bit
            else:
                self._driven_low |= bit

    def _count_drive(self) -> None:
        """Note what every row pin drives (after a swap or a cleanup)."""
        self._driven_high = self._driven_low = 0
        for pin in self._row_of_pin:
            self._drive_pin(pin)

    def _solution(self) -> tuple[int, int]:
        """`_solve()`, kept per drive while nothing else changes. A short is raised again
        on every read, as it is found again."""
        if not self._cache:
            return self._solve()
        drive = (self._driven_high, self._driven_low)
        solution = self._solutions.get(drive)
        if solution is None:
            solution = self._solutions[drive] = self._solve()
        return solution

    def _reads_now(self) -> dict[int, int]:
        """The levels the column pins set up as inputs read under this drive: empty (all
        worked out on each read) without the cache, the numbering mode or with slow
        columns, whose levels follow the clock. A short leaves it empty too: each read
        then finds it again, or not (an output pin reads its own level all the same)."""
        if not self._cache or self._mode is None or self.discharge_s:
            return {}
        drive = (self._driven_high, self._driven_low)
        reads = self._column_reads.get(drive)
        if reads is None:
            try:
                reads = {
                    pin: self._read(pin)
                    for pin in self._column_of_pin
                    if self._direction.get(pin) == self.IN
                }
            except HardwareError:
                return {}
            self._column_reads[drive] = reads
        return reads

    # -- the electrics -----------------------------------------------------------------

    def _conducting(self, row: int) -> int:
        return (self._closed[row] | self._stuck_closed[row]) & ~self._stuck_open[row] & ALL_LINES

    def _solve(self) -> tuple[int, int]:
        """Which column lines and row lines a HIGH output reaches, as two 8-bit masks."""
        sources = 0
        sinks = 0
        for pin, row in self._row_of_pin.items():
            if self._direction.get(pin) != self.OUT or self._broken_rows >> row & 1:
                continue
            if self._level[pin]:
                sources |= 1 << row
            else:
                sinks |= 1 << row
        conducting = [self._conducting(row) for row in range(8)]
        missing = [ALL_LINES] * 8 if not self.diodes else self._no_diode
        forward, backward = directions(conducting, missing, self._reversed_diode)
        columns_high, rows_high = lines_reached(sources, forward, backward)
        if rows_high & sinks:
            # A HIGH row and a LOW row joined through switches fight; the scanner must never
            # drive rows LOW for that reason, so treat it as a wiring fault of the caller.
            raise HardwareError(
                "two row outputs at different levels are shorted through the matrix"
            )
        return columns_high, rows_high
