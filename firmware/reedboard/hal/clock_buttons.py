"""Two momentary clock buttons on GPIO, each between a pin and ground: the pin's pull-up
holds it HIGH, a press pulls it LOW. Read once a turn of the board's loop, a button's
new level counts once it has held for `hold_ms` (a switch bounces for a few ms), and the
press is reported at the time it first read LOW, as the sensors' changes are."""

from __future__ import annotations

from reedboard.hal.gpio import GpioModule
from reedboard.hal.rpi import import_rpi_gpio, set_up_pins

BUTTON_HOLD_MS = 10


class ButtonEdges:
    """One button's debounced presses from its readings. Pure: `read(pressed, t_ms)`
    returns the time of a press that has just held long enough, or None."""

    def __init__(self, hold_ms: int = BUTTON_HOLD_MS) -> None:
        self.hold_ms = hold_ms
        self.pressed = False  # the settled level
        self._since: int | None = None  # when the level first read otherwise than settled

    def read(self, pressed: bool, t_ms: int) -> int | None:
        if pressed == self.pressed:
            self._since = None
            return None
        if self._since is None:
            self._since = t_ms
        if t_ms - self._since < self.hold_ms:
            return None
        self.pressed = pressed
        since, self._since = self._since, None
        return since if pressed else None


class ClockButtons:
    """White's and Black's buttons: `presses(t_ms)` reads both and returns the presses
    that settled, as (White's?, when)."""

    def __init__(self, gpio: GpioModule, white_pin: int, black_pin: int) -> None:
        self._gpio = gpio
        self._pins = {True: white_pin, False: black_pin}
        self._edges = {True: ButtonEdges(), False: ButtonEdges()}
        gpio.setmode(gpio.BCM)
        for pin in self._pins.values():
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)

    def presses(self, t_ms: int) -> list[tuple[bool, int]]:
        found = []
        for white, pin in self._pins.items():
            when = self._edges[white].read(self._gpio.input(pin) == self._gpio.LOW, t_ms)
            if when is not None:
                found.append((white, when))
        return sorted(found, key=lambda press: press[1])

    def close(self) -> None:
        self._gpio.cleanup(list(self._pins.values()))


def open_clock_buttons(
    white_pin: int, black_pin: int, *, gpio: GpioModule | None = None
) -> ClockButtons:
    """The buttons on `RPi.GPIO` unless another module is given."""
    module = gpio if gpio is not None else import_rpi_gpio()
    return set_up_pins(
        f"the clock buttons (GPIO{white_pin}, GPIO{black_pin})",
        lambda: ClockButtons(module, white_pin, black_pin),
    )
