"""Clock buttons on GPIO: a press counts once it has held, at the time it first read."""

from __future__ import annotations

import pytest
from reedboard.config import MatrixConfig
from reedboard.hal.clock_buttons import ButtonEdges, ClockButtons
from reedboard.hal.fake_gpio import FakeGPIO


@pytest.mark.parametrize(
    ("readings", "presses"),
    [
        ([(False, 0), (True, 100), (True, 110)], [100]),
        ([(True, 100), (True, 105)], []),  # not held long enough yet
        ([(True, 100), (False, 103), (True, 106), (True, 116)], [106]),  # bounce
        (
            [(True, 100), (True, 110), (False, 200), (False, 210), (True, 300), (True, 310)],
            [100, 300],
        ),
        ([(True, 100), (True, 110), (True, 500)], [100]),  # held down: one press
    ],
)
def test_a_press_counts_once_held(readings: list[tuple[bool, int]], presses: list[int]) -> None:
    edges = ButtonEdges(hold_ms=10)
    found = [edges.read(pressed, t) for pressed, t in readings]
    assert [t for t in found if t is not None] == presses


def test_buttons_read_on_the_pins_pulled_up() -> None:
    matrix = MatrixConfig()
    gpio = FakeGPIO(matrix.rows, matrix.columns)
    buttons = ClockButtons(gpio, 2, 3)
    assert buttons.presses(0) == []
    gpio.ground(3)
    assert buttons.presses(50) == []
    assert buttons.presses(65) == [(False, 50)]
    gpio.ground(3, False)
    gpio.ground(2)
    buttons.presses(70)
    buttons.presses(75)
    assert buttons.presses(80) == [(True, 70)]
    buttons.close()
    assert not gpio.is_setup(2) and not gpio.is_setup(3)
