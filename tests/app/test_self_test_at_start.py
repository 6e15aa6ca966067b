"""The running board tests its switches at start and names what is wrong."""

from __future__ import annotations

import pytest
from reedboard.app import App
from reedboard.app_ports import Sensing
from reedboard.config import MatrixConfig
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square, squares_of


def board(stuck_empty: str | None = None) -> MatrixScanner:
    config = MatrixConfig()
    layout = MatrixLayout(config.a1, config.rows_are)
    gpio = FakeGPIO(config.rows, config.columns)
    cells = [layout.cell_of(sq) for sq in squares_of(Position.standard().occupied)]
    gpio.set_closed(cells)
    if stuck_empty is not None:
        gpio.stick_switch(*layout.cell_of(parse_square(stuck_empty)), closed=False)
    return MatrixScanner(gpio, config.rows, config.columns, layout, sleep=lambda _s: None)


def started(scanner: MatrixScanner, caplog: pytest.LogCaptureFixture) -> list[str]:
    app = App(Sensing(scanner, matrix=MatrixConfig()), VirtualClock())
    app.start()
    return caplog.messages


def test_a_sound_board_in_the_start_position_says_nothing(caplog: pytest.LogCaptureFixture) -> None:
    assert started(board(), caplog) == []


def test_a_stuck_switch_is_named_with_its_square_and_pins(caplog: pytest.LogCaptureFixture) -> None:
    lines = started(board(stuck_empty="e2"), caplog)
    text = "\n".join(lines)
    assert lines and all(line.startswith("self-test:") for line in lines)
    assert "e2" in text and "GPIO" in text
