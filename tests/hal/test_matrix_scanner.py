"""The real MatrixScanner on the fake electrical matrix."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reedboard.config import MatrixConfig
from reedboard.errors import ConfigError, HardwareError
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout, all_layouts
from reedboard.hal.ports import SwitchMatrix
from reedboard.hal.rpi import import_rpi_gpio
from reedboard.rules.squares import bitboard_of, parse_square, squares_of
from reedboard.wiring import open_scanner

ROWS = MatrixConfig().rows
COLUMNS = MatrixConfig().columns


def no_sleep(_seconds: float) -> None:
    pass


def board(
    occupied: str = "", layout: MatrixLayout | None = None, diodes: bool = True
) -> tuple[FakeGPIO, MatrixScanner]:
    layout = layout or MatrixLayout()
    gpio = FakeGPIO(ROWS, COLUMNS, diodes=diodes)
    gpio.set_closed(layout.cell_of(parse_square(name)) for name in occupied.split() if name)
    return gpio, MatrixScanner(gpio, ROWS, COLUMNS, layout, sleep=no_sleep)


def bb(names: str) -> int:
    return bitboard_of([parse_square(n) for n in names.split()])


def test_scanner_is_a_switch_matrix() -> None:
    _, scanner = board()
    assert isinstance(scanner, SwitchMatrix)


def test_empty_board_scans_empty() -> None:
    _, scanner = board()
    assert scanner.scan() == 0


def test_scan_reads_the_closed_switches() -> None:
    _, scanner = board("a1 e4 h8 c6")
    assert scanner.scan() == bb("a1 e4 h8 c6")


def test_start_position_scans_exactly() -> None:
    start = " ".join(f"{f}{r}" for f in "abcdefgh" for r in "1278")
    _, scanner = board(start)
    assert scanner.scan() == bb(start)


@given(st.integers(min_value=0, max_value=(1 << 64) - 1), st.sampled_from(all_layouts()))
def test_with_diodes_any_occupancy_reads_back_exactly(occupancy: int, layout: MatrixLayout) -> None:
    gpio = FakeGPIO(ROWS, COLUMNS)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(occupancy))
    scanner = MatrixScanner(gpio, ROWS, COLUMNS, layout, sleep=no_sleep)
    assert scanner.scan() == occupancy


def test_without_diodes_three_corners_show_a_ghost_on_the_fourth() -> None:
    _, scanner = board("a1 a2 b1", diodes=False)
    assert scanner.scan() == bb("a1 a2 b1 b2")


def test_with_diodes_the_same_three_corners_show_no_ghost() -> None:
    _, scanner = board("a1 a2 b1", diodes=True)
    assert scanner.scan() == bb("a1 a2 b1")


def test_without_diodes_a_single_switch_per_line_reads_true() -> None:
    _, scanner = board("a1 b2 c3 h8", diodes=False)
    assert scanner.scan() == bb("a1 b2 c3 h8")


@pytest.mark.parametrize("layout", all_layouts(), ids=repr)
def test_ghost_appears_in_every_orientation(layout: MatrixLayout) -> None:
    _, scanner = board("c3 c6 f3", layout=layout, diodes=False)
    assert scanner.scan() == bb("c3 c6 f3 f6")


@pytest.mark.parametrize("layout", all_layouts(), ids=repr)
def test_every_orientation_maps_each_square_to_its_own_switch(layout: MatrixLayout) -> None:
    gpio, scanner = board(layout=layout)
    for sq in range(64):
        gpio.set_closed([layout.cell_of(sq)])
        assert scanner.scan() == 1 << sq


@pytest.mark.parametrize("layout", all_layouts(), ids=repr)
def test_orientation_decides_which_pins_a1_uses(layout: MatrixLayout) -> None:
    gpio = FakeGPIO(ROWS, COLUMNS)
    row, column = layout.cell_of(parse_square("a1"))
    gpio.set_switch(row, column, True)  # the crossing of ROW(row+1) and COL(column+1)
    scanner = MatrixScanner(gpio, ROWS, COLUMNS, layout, sleep=no_sleep)
    assert scanner.scan() == bb("a1")


def test_stuck_closed_switch_reads_occupied() -> None:
    gpio, scanner = board("a1")
    gpio.stick_switch(*MatrixLayout().cell_of(parse_square("e4")), closed=True)
    assert scanner.scan() == bb("a1 e4")


def test_stuck_open_switch_reads_empty() -> None:
    gpio, scanner = board("a1 e4")
    gpio.stick_switch(*MatrixLayout().cell_of(parse_square("e4")), closed=False)
    assert scanner.scan() == bb("a1")


def test_broken_row_wire_loses_that_rank() -> None:
    gpio, scanner = board("a1 b1 a2 b2")
    gpio.break_row(1)  # ROW2 = rank 2 in the default orientation
    assert scanner.scan() == bb("a1 b1")


def test_broken_column_wire_loses_that_file() -> None:
    gpio, scanner = board("a1 b1 a2 b2")
    gpio.break_column(0)  # COL1 = file a
    assert scanner.scan() == bb("b1 b2")


def test_settling_wait_is_the_injected_sleep_once_per_row() -> None:
    gpio = FakeGPIO(ROWS, COLUMNS)
    waits: list[float] = []
    scanner = MatrixScanner(gpio, ROWS, COLUMNS, settle_s=50e-6, sleep=waits.append)
    scanner.scan()
    assert waits == [50e-6] * 8


def test_scan_leaves_every_row_floating() -> None:
    # Rows float between scans so no two outputs can ever fight through the switches.
    gpio, scanner = board("a1 a2 b1", diodes=False)
    scanner.scan()
    for pin in ROWS:
        gpio.setup(pin, gpio.IN)  # no complaint: it was an input already
    assert scanner.scan() == bb("a1 a2 b1 b2")


def test_gpio_calls_per_scan() -> None:
    gpio, scanner = board()
    before = gpio.calls
    scanner.scan()
    assert gpio.calls - before == 8 * (2 + 8)


def test_context_manager_cleans_up_its_pins_only() -> None:
    gpio = FakeGPIO(ROWS, COLUMNS)
    gpio.setmode(gpio.BCM)
    gpio.setup(10, gpio.OUT)  # the LED data pin, owned by someone else
    with MatrixScanner(gpio, ROWS, COLUMNS, sleep=no_sleep) as scanner:
        assert all(gpio.is_setup(pin) for pin in ROWS + COLUMNS)
        scanner.scan()
    assert not any(gpio.is_setup(pin) for pin in ROWS + COLUMNS)
    assert gpio.is_setup(10)
    with pytest.raises(ValueError, match="closed"):
        scanner.scan()
    scanner.close()  # twice is harmless


def test_bad_pin_lists_are_config_errors() -> None:
    gpio = FakeGPIO(ROWS, COLUMNS)
    with pytest.raises(ConfigError):
        MatrixScanner(gpio, ROWS[:7], COLUMNS)
    with pytest.raises(ConfigError):
        MatrixScanner(gpio, ROWS, ROWS)


def test_factory_builds_from_config_with_orientation() -> None:
    config = MatrixConfig(a1="R8C8", rows_are="files", settle_us=30)
    gpio = FakeGPIO(config.rows, config.columns)
    waits: list[float] = []
    with open_scanner(config, gpio=gpio, sleep=waits.append) as scanner:
        gpio.set_switch(7, 7, True)
        gpio.set_switch(7, 6, True)  # R8C8 holds a1; along files, C7 is rank 2
        assert scanner.scan() == bb("a1 a2")
    assert waits[0] == pytest.approx(30e-6)


def test_factory_without_rpi_gpio_is_a_hardware_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(HardwareError, match=r"RPi\.GPIO is not installed"):
        open_scanner(MatrixConfig())


def test_factory_imports_rpi_gpio_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever provides the module named RPi.GPIO (RPi.GPIO itself, or rpi-lgpio on a Pi 5)
    # is what the scanner drives.
    config = MatrixConfig()
    fake = FakeGPIO(config.rows, config.columns)
    package = types.ModuleType("RPi")
    package.__dict__.update(GPIO=fake)
    monkeypatch.setitem(sys.modules, "RPi", package)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", fake)
    assert import_rpi_gpio() is fake
    fake.set_switch(3, 4, True)
    with open_scanner(config, sleep=no_sleep) as scanner:
        assert scanner.scan() == bb("e4")


def test_importing_the_firmware_never_imports_rpi_gpio() -> None:
    code = (
        "import sys, reedboard.hal.rpi, reedboard.hal.matrix, reedboard.commands.scan_matrix, "
        "reedboard.cli; sys.exit('RPi' in sys.modules or 'RPi.GPIO' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
