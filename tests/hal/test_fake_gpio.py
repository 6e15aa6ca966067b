"""The fake GPIO on its own: the RPi.GPIO API contract and the electrical model."""

from __future__ import annotations

import pytest
from reedboard.errors import HardwareError
from reedboard.hal.fake_gpio import FakeGPIO

ROWS = (4, 17, 27, 22, 5, 6, 13, 19)
COLUMNS = (26, 23, 24, 25, 12, 16, 20, 21)


def ready(diodes: bool = True) -> FakeGPIO:
    gpio = FakeGPIO(ROWS, COLUMNS, diodes=diodes)
    gpio.setmode(gpio.BCM)
    for pin in ROWS:
        gpio.setup(pin, gpio.IN)
    for pin in COLUMNS:
        gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_DOWN)
    return gpio


def columns_read(gpio: FakeGPIO, row: int) -> set[int]:
    gpio.setup(ROWS[row], gpio.OUT, initial=gpio.HIGH)
    high = {j for j, pin in enumerate(COLUMNS) if gpio.input(pin)}
    gpio.setup(ROWS[row], gpio.IN)
    return high


def test_constants_match_rpi_gpio() -> None:
    assert (FakeGPIO.BCM, FakeGPIO.BOARD) == (11, 10)
    assert (FakeGPIO.OUT, FakeGPIO.IN, FakeGPIO.LOW, FakeGPIO.HIGH) == (0, 1, 0, 1)
    assert (FakeGPIO.PUD_OFF, FakeGPIO.PUD_DOWN, FakeGPIO.PUD_UP) == (20, 21, 22)


def test_misuse_is_refused_like_the_real_module() -> None:
    gpio = FakeGPIO(ROWS, COLUMNS)
    with pytest.raises(RuntimeError, match="setmode"):
        gpio.setup(4, gpio.OUT)
    gpio.setmode(gpio.BCM)
    with pytest.raises(RuntimeError, match="setup"):
        gpio.input(4)
    gpio.setup(4, gpio.IN)
    with pytest.raises(RuntimeError, match="OUTPUT"):
        gpio.output(4, gpio.HIGH)
    with pytest.raises(ValueError):
        gpio.setup(40, gpio.IN)
    with pytest.raises(ValueError):
        gpio.setmode(gpio.BOARD)


def test_output_pin_reads_back_its_level_and_calls_are_counted() -> None:
    gpio = ready()
    before = gpio.calls
    gpio.setup(ROWS[0], gpio.OUT)
    gpio.output(ROWS[0], gpio.HIGH)
    assert gpio.input(ROWS[0]) == gpio.HIGH
    assert gpio.calls == before + 3


def test_open_matrix_reads_low_everywhere() -> None:
    gpio = ready()
    assert all(columns_read(gpio, row) == set() for row in range(8))


def test_closed_switch_lights_only_its_column_on_its_row() -> None:
    gpio = ready()
    gpio.set_switch(2, 5, True)
    assert columns_read(gpio, 2) == {5}
    assert columns_read(gpio, 1) == set()
    gpio.set_switch(2, 5, False)
    assert columns_read(gpio, 2) == set()


def test_undriven_matrix_reads_low_even_with_switches_closed() -> None:
    gpio = ready()
    gpio.set_closed([(0, 0), (3, 3)])
    assert not any(gpio.input(pin) for pin in COLUMNS)


def test_diodes_block_the_sneak_path() -> None:
    gpio = ready(diodes=True)
    gpio.set_closed([(0, 0), (0, 1), (1, 0)])
    assert columns_read(gpio, 1) == {0}


def test_without_diodes_three_corners_make_a_ghost() -> None:
    gpio = ready(diodes=False)
    gpio.set_closed([(0, 0), (0, 1), (1, 0)])
    # Row 1 -> (1,0) -> column 0 -> (0,0) back up to row 0 -> (0,1) -> column 1.
    assert columns_read(gpio, 1) == {0, 1}
    assert columns_read(gpio, 0) == {0, 1}


def test_without_diodes_current_follows_long_chains() -> None:
    gpio = ready(diodes=False)
    # A staircase: row0-col0, col0-row1, row1-col1, col1-row2, row2-col2.
    gpio.set_closed([(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)])
    assert columns_read(gpio, 0) == {0, 1, 2}


def test_stuck_switches_override_the_magnet() -> None:
    gpio = ready()
    gpio.stick_switch(4, 4, closed=True)
    assert columns_read(gpio, 4) == {4}
    gpio.set_switch(5, 5, True)
    gpio.stick_switch(5, 5, closed=False)
    assert columns_read(gpio, 5) == set()
    assert gpio.is_closed(4, 4) and not gpio.is_closed(5, 5)


def test_broken_row_wire_reads_nothing_on_that_row() -> None:
    gpio = ready()
    gpio.set_closed([(3, c) for c in range(8)])
    gpio.break_row(3)
    assert columns_read(gpio, 3) == set()


def test_broken_row_still_carries_sneak_currents_without_diodes() -> None:
    # The cut is between the pin and the line: the line itself still joins its switches.
    gpio = ready(diodes=False)
    gpio.set_closed([(0, 0), (1, 0), (1, 1)])
    gpio.break_row(1)
    assert columns_read(gpio, 0) == {0, 1}


def test_broken_column_wire_reads_low() -> None:
    gpio = ready()
    gpio.set_closed([(r, 6) for r in range(8)])
    gpio.break_column(6)
    assert all(columns_read(gpio, row) == set() for row in range(8))


def test_rows_driven_at_different_levels_short_without_diodes() -> None:
    gpio = ready(diodes=False)
    gpio.set_closed([(0, 0), (1, 0)])
    gpio.setup(ROWS[0], gpio.OUT, initial=gpio.HIGH)
    gpio.setup(ROWS[1], gpio.OUT, initial=gpio.LOW)
    with pytest.raises(HardwareError, match="shorted"):
        gpio.input(COLUMNS[0])


def test_cleanup_releases_only_the_pins_named() -> None:
    gpio = ready()
    gpio.cleanup(ROWS)
    assert not any(gpio.is_setup(pin) for pin in ROWS)
    assert all(gpio.is_setup(pin) for pin in COLUMNS)
    gpio.cleanup()
    assert not any(gpio.is_setup(pin) for pin in COLUMNS)


def test_wiring_must_be_sixteen_distinct_pins() -> None:
    with pytest.raises(HardwareError):
        FakeGPIO(ROWS, ROWS)
    with pytest.raises(HardwareError):
        FakeGPIO(ROWS[:7], COLUMNS)
